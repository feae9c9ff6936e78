/** `walletstate`: the framework-free core — config, machines, errors, constants. */
export {
  type ConnectMethod,
  type ConnectorOrderItem,
  DEFAULT_ENDPOINTS,
  DEFAULT_FEATURES,
  defineEvmNetwork,
  defineSolanaNetwork,
  type EvmChain,
  KIT_LOCALES,
  type KitConfig,
  type KitCustomWallet,
  type KitEndpoints,
  type KitFeatures,
  type KitLocale,
  type KitMetadata,
  type KitNetwork,
  type KitNetworkInput,
  type KitStorage,
  type KitThemeVariables,
  type ResolvedKitConfig,
  resolveConfig,
  type SocialProvider,
  setThemeMode,
  setThemeVariables,
  type ThemeEvent,
  type ThemeMode,
  type WalletFeature,
} from './config'
export * as constants from './constants'
export {
  ALERTS,
  type AlertCode,
  BaseError,
  type BaseErrorParameters,
  ConfigError,
  type KitAlert,
} from './errors/base'
export { createKitMachine, type KitOptions } from './kit/createKit'
export type {
  AccountActorRef,
  AccountContext,
  AccountEvent,
  AccountNotice,
  AccountTab,
  BalancesOwner,
} from './machines/account'
export type { AtomicStatus, BatchCall, CallsReceipt, CallsRequest } from './machines/calls/types'
export {
  type Capability,
  type CapabilityEvents,
  type CapabilityKit,
  type CapabilityKitEvent,
  type CapabilityScope,
  type CapabilityServices,
  type CapabilityStatus,
  capabilityHostMachine,
  type LoadedCapability,
} from './machines/capability'
export {
  type KitActorRef,
  type KitContext,
  type KitEvent,
  type KitInput,
  type KitMachine,
  type KitSnapshot,
  type KitTheme,
  kitMachine,
  type ModalActorRef,
  selectCapabilityOffered,
  type ToastActorRef,
} from './machines/kit'
export {
  type ModalContext,
  type ModalDirection,
  type ModalEvent,
  type ModalInput,
  modalMachine,
  selectView,
} from './machines/modal'
export type { PayAsset, PayRequest, PayState, PayStatus } from './machines/pay'
export {
  type Toast,
  type ToastContext,
  type ToastEvent,
  type ToastVariant,
  toastMachine,
} from './machines/toast'
export type {
  SiweConfig,
  SiweCreateMessageArgs,
  SiweMessageParams,
  SiweSession,
  SiwxConfig,
  SiwxMessage,
  SiwxMessageData,
  SiwxMessageInput,
  SiwxSession,
} from './siwx/types'
export { homeView, isViewName, VIEW_NAMES, type ViewName } from './views'
