/**
 * `walletstate/machines`: every statechart of the kit and its selectors, each importable on its own (replace
 * its I/O with `.provide()`, replay its paths with `walletstate/testing`). Kept apart from `walletstate` so a
 * host's first-click bundle never carries the machines that load on demand.
 */
export {
  type AccountActorRef,
  accountMachine,
  selectBalances,
  selectBalancesStatus,
  selectCanFetchBalances,
  selectCurrentTab,
  selectPortfolioValue,
} from './account'
export {
  connectionMachine,
  selectConnectFailed,
  selectIsBusy,
  selectIsConnected,
  selectIsConnecting,
  selectIsDisconnecting,
  selectIsSwitching,
  selectStatus,
} from './connection'
export {
  frameMachine,
  frameRequestMachine,
  selectCooldownSeconds,
  selectFrameBusy,
  selectFrameConnected,
  selectFrameStatus,
  selectFrameView,
  selectUpdateEmailPhase,
} from './frame'
export {
  type CapabilityStatus,
  type KitCapability,
  kitMachine,
  selectAlerts,
  selectCapability,
  selectLegalAccepted,
} from './kit'
export { modalMachine, selectIsOpen, selectView } from './modal'
export { namesMachine, selectFullName, selectNameRule, selectNameStatus } from './names'
export {
  onrampMachine,
  selectOnrampAsset,
  selectOnrampLimits,
  selectOnrampProviders,
  selectOnrampStatus,
} from './onramp'
export { selectFormError, selectInFlight, selectIsPreviewing, selectSendStatus, sendMachine } from './send'
export {
  authMachine,
  incomingRequestMachine,
  outgoingRequestMachine,
  proposalMachine,
  selectActiveRequest,
  selectLastError,
  selectPairingUri,
  selectSessions,
  sessionClientMachine,
  sessionMachine,
} from './session'
export { selectSignInStatus, signInMachine } from './signIn'
export {
  selectIsPreviewing as selectIsSwapPreviewing,
  selectSwapAction,
  selectSwapInFlight,
  selectSwapProblem,
  selectSwapStatus,
  selectToAmount,
  swapMachine,
  validateSwap,
} from './swap'
export { toastMachine } from './toast'
export {
  selectHasMoreWallets,
  selectRecommendedWallets,
  selectWalletList,
  selectWalletsMode,
  selectWalletsStatus,
  toChosenWallet,
  walletsMachine,
} from './wallets'
