/** `walletstate/react`: the React surface of the kit. */
export { ConnectButton, type ConnectButtonProps } from './components/ConnectButton'
export { useKitActor } from './context'
export {
  type UseKitAccountReturnType,
  type UseKitReturnType,
  type UseKitSessionReturnType,
  type UseKitSolanaReturnType,
  useConnectionActor,
  useKit,
  useKitAccount,
  useKitAlerts,
  useKitConfig,
  useKitSession,
  useKitSolana,
  useModalActor,
  useSignInActor,
  useToast,
  useToastActor,
} from './hooks'
export { KitRoot, type KitRootProps } from './KitRoot'
export { type PayResult, type UseKitPayReturnType, useKitPay } from './pay'
export { isSafeCssValue, themeStyle } from './theme'
