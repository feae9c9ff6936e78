/** `walletstate/react`: the React surface of the kit. */

export {
  CallsBusyError,
  CallsError,
  CallsFailedError,
  CallsNotConnectedError,
  InvalidBatchedCallError,
  InvalidCallsStatusError,
  InvalidCapabilitiesError,
} from '../errors/calls'
export {
  PayBusyError,
  PayCancelledError,
  PayDisabledError,
  PayError,
  PayFailedError,
  PayNotConnectedError,
  PayRequestInvalidError,
} from '../errors/pay'
export {
  InvalidPermissionRequestError,
  NotSmartAccountError,
  PermissionsError,
  PermissionsFailedError,
  PermissionsUnsupportedError,
  SmartSessionsDisabledError,
} from '../errors/permissions'
export type { GrantedPermission, GrantRequest } from '../machines/smartSessions/types'
export { type KitAsset, type UseKitAssetsReturnType, useKitAssets } from './assets'
export { type CallsResult, type UseKitSendCallsReturnType, useKitSendCalls } from './calls'
export { ConnectButton, type ConnectButtonProps } from './components/ConnectButton'
export { useKitActor } from './context'
export {
  type UseKitAccountReturnType,
  type UseKitBitcoinReturnType,
  type UseKitLocaleReturnType,
  type UseKitReturnType,
  type UseKitSessionReturnType,
  type UseKitSolanaReturnType,
  type UseKitThemeReturnType,
  useCapability,
  useConnectionActor,
  useKit,
  useKitAccount,
  useKitAlerts,
  useKitBitcoin,
  useKitConfig,
  useKitLocale,
  useKitSession,
  useKitSolana,
  useKitTheme,
  useModalActor,
  useSignInActor,
  useToast,
  useToastActor,
} from './hooks'
export { KitRoot, type KitRootProps } from './KitRoot'
export { type PayResult, type UseKitPayReturnType, useKitPay } from './pay'
export { type UseKitSmartSessionsReturnType, useKitSmartSessions } from './smartSessions'
export { isSafeCssValue, themeStyle } from './theme'
