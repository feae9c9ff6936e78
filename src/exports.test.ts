import { describe, expect, it } from 'vitest'
import * as core from './index'
import * as machines from './machines/index'
import * as react from './react/index'
import * as siwx from './siwx/index'
import * as testing from './testing/index'

// The public surface changes only on purpose: a new or removed export shows up here.
describe('exports', () => {
  it('walletstate', () => {
    expect(Object.keys(core).sort()).toMatchInlineSnapshot(`
      [
        "ALERTS",
        "BaseError",
        "ConfigError",
        "DEFAULT_ENDPOINTS",
        "DEFAULT_FEATURES",
        "VIEW_NAMES",
        "constants",
        "createKitMachine",
        "defineEvmNetwork",
        "defineSolanaNetwork",
        "homeView",
        "isViewName",
        "kitMachine",
        "modalMachine",
        "resolveConfig",
        "selectView",
        "toastMachine",
      ]
    `)
  })
  it('walletstate/machines', () => {
    expect(Object.keys(machines).sort()).toMatchInlineSnapshot(`
      [
        "accountMachine",
        "authMachine",
        "connectionMachine",
        "frameMachine",
        "frameRequestMachine",
        "incomingRequestMachine",
        "kitMachine",
        "modalMachine",
        "outgoingRequestMachine",
        "proposalMachine",
        "selectActiveRequest",
        "selectAlerts",
        "selectBalances",
        "selectBalancesStatus",
        "selectCanFetchBalances",
        "selectCapability",
        "selectConnectFailed",
        "selectCooldownSeconds",
        "selectCurrentTab",
        "selectFormError",
        "selectFrameBusy",
        "selectFrameConnected",
        "selectFrameStatus",
        "selectFrameView",
        "selectHasMoreWallets",
        "selectInFlight",
        "selectIsBusy",
        "selectIsConnected",
        "selectIsConnecting",
        "selectIsDisconnecting",
        "selectIsOpen",
        "selectIsPreviewing",
        "selectIsSwapPreviewing",
        "selectIsSwitching",
        "selectLastError",
        "selectLegalAccepted",
        "selectPairingUri",
        "selectPortfolioValue",
        "selectRecommendedWallets",
        "selectSendStatus",
        "selectSessions",
        "selectSignInStatus",
        "selectStatus",
        "selectSwapAction",
        "selectSwapInFlight",
        "selectSwapProblem",
        "selectSwapStatus",
        "selectToAmount",
        "selectUpdateEmailPhase",
        "selectView",
        "selectWalletList",
        "selectWalletsMode",
        "selectWalletsStatus",
        "sendMachine",
        "sessionClientMachine",
        "sessionMachine",
        "signInMachine",
        "swapMachine",
        "toChosenWallet",
        "toastMachine",
        "validateSwap",
        "walletsMachine",
      ]
    `)
  })
  it('walletstate/react', () => {
    expect(Object.keys(react).sort()).toMatchInlineSnapshot(`
      [
        "ConnectButton",
        "KitRoot",
        "isSafeCssValue",
        "themeStyle",
        "useConnectionActor",
        "useKit",
        "useKitAccount",
        "useKitActor",
        "useKitAlerts",
        "useKitConfig",
        "useKitSession",
        "useKitSolana",
        "useModalActor",
        "useSignInActor",
        "useToast",
        "useToastActor",
      ]
    `)
  })
  it('walletstate/testing', () => {
    expect(Object.keys(testing).sort()).toMatchInlineSnapshot(`
      [
        "assertCoverage",
        "createModel",
        "delayOf",
        "describeEvent",
        "describePath",
        "isDelayEvent",
        "replayPath",
      ]
    `)
  })
  it('walletstate/siwx', () => {
    expect(Object.keys(siwx).sort()).toMatchInlineSnapshot(`
      [
        "createSiwe",
      ]
    `)
  })
})
