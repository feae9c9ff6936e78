import { useCallback } from 'react'
import type { ActorRefFrom, AnyActorRef } from 'xstate'
import {
  type KitLocale,
  type KitThemeVariables,
  type ResolvedKitConfig,
  setThemeMode,
  setThemeVariables,
  type ThemeMode,
} from '../config'
import type { KitAlert } from '../errors/base'
import type { AccountActorRef } from '../machines/account'
import { type CapabilityStatus, capabilityStatus } from '../machines/capability'
import {
  type ChainId,
  type ChainNamespace,
  type ConnectionStatus,
  type SharedAccount,
  selectStatus,
} from '../machines/connection'
import type { FrameActorRef } from '../machines/frame'
import {
  type ConnectionActorRef,
  type ModalActorRef,
  selectCapabilityHost,
  type ToastActorRef,
} from '../machines/kit'
import { selectIsOpen, selectView } from '../machines/modal'
import type { NamesActorRef } from '../machines/names'
import type { OnrampActorRef } from '../machines/onramp'
import type { SendActorRef } from '../machines/send'
import type { SignInMachine, SignInStatus } from '../machines/signIn'
import type { SwapActorRef } from '../machines/swap'
import type { Toast } from '../machines/toast'
import type { WalletsActorRef } from '../machines/wallets'
import type { ViewName } from '../views'
import { useSelector } from './actor'
import { useKitActor } from './context'

type SignInActorRef = ActorRefFrom<SignInMachine>

/** The modal child actor of the kit. */
export function useModalActor(): ModalActorRef {
  const kit = useKitActor()
  return useSelector(kit, (s) => s.children.modal) as ModalActorRef
}

/**
 * The wallet listing's actor (`src/machines/wallets.ts`, systemId `wallets`: Connect's featured and recommended
 * wallets, All Wallets), once the kit has loaded its code (the modal opened); `undefined` before. Send its
 * events through the kit (`kit.send({ type: 'wallets.search', query })`): the kit forwards them, or keeps them
 * until it runs.
 */
export function useWalletsActor(): WalletsActorRef | undefined {
  return useSelector(useKitActor(), (s) => s.context.wallets) as WalletsActorRef | undefined
}

/**
 * The login frame's actor (`src/machines/frame.ts`, systemId `frame`), once the kit has loaded it (the visitor
 * turned to the e-mail or social logins, the modal opened on a device without hover, or a stored login is being
 * restored); `undefined` before.
 * Send its events through the kit (`kit.send({ type: 'frame.connectEmail', email })`): the kit forwards them.
 */
export function useFrameActor(): FrameActorRef | undefined {
  const kit = useKitActor()
  return useSelector(kit, (s) => s.context.frame) as FrameActorRef | undefined
}

export function useToastActor(): ToastActorRef {
  const kit = useKitActor()
  return useSelector(kit, (s) => s.children.toast) as ToastActorRef
}

export interface UseKitReturnType {
  /** Opens the modal, on `view` or on the home view (Connect, or Account once connected). */
  open: (view?: ViewName) => void
  close: () => void
  isOpen: boolean
  /** The view shown, or the one an open would show. */
  view: ViewName
}

/**
 * Opens and closes the modal.
 *
 * @example
 * ```tsx
 * import { useKit } from 'walletstate/react'
 *
 * export function OpenNetworks() {
 *   const { open, isOpen } = useKit()
 *   return (
 *     <button type="button" onClick={() => open('Networks')} disabled={isOpen}>
 *       Networks
 *     </button>
 *   )
 * }
 * ```
 */
export function useKit(): UseKitReturnType {
  const kit = useKitActor()
  const modal = useModalActor()
  const isOpen = useSelector(modal, selectIsOpen)
  const view = useSelector(modal, selectView)
  const open = useCallback(
    (target?: ViewName) => kit.send(target ? { type: 'modal.open', view: target } : { type: 'modal.open' }),
    [kit],
  )
  const close = useCallback(() => kit.send({ type: 'modal.close' }), [kit])
  return { open, close, isOpen, view }
}

/** The kit's validated config. */
export function useKitConfig(): ResolvedKitConfig {
  return useSelector(useKitActor(), (s) => s.context.config)
}

export interface UseKitThemeReturnType {
  themeMode: ThemeMode
  themeVariables: KitThemeVariables
  /** Throws `ConfigError` for anything but `'dark'` or `'light'`. */
  setThemeMode: (themeMode: ThemeMode) => void
  /** Merged into the current variables (`undefined` removes one); throws `ConfigError` for what the config refuses. */
  setThemeVariables: (themeVariables: KitThemeVariables) => void
}

/**
 * The theme at run time: the modal and the login frame follow each change.
 *
 * @example
 * ```tsx
 * import { useKitTheme } from 'walletstate/react'
 *
 * export function ThemeSwitch() {
 *   const { themeMode, setThemeMode } = useKitTheme()
 *   return (
 *     <button type="button" onClick={() => setThemeMode(themeMode === 'dark' ? 'light' : 'dark')}>
 *       Theme
 *     </button>
 *   )
 * }
 * ```
 */
export function useKitTheme(): UseKitThemeReturnType {
  const kit = useKitActor()
  const { themeMode, themeVariables } = useSelector(kit, (s) => s.context.theme)
  const setMode = useCallback((mode: ThemeMode) => setThemeMode(kit, mode), [kit])
  const setVariables = useCallback((variables: KitThemeVariables) => setThemeVariables(kit, variables), [kit])
  return { themeMode, themeVariables, setThemeMode: setMode, setThemeVariables: setVariables }
}

/** Alerts to show (SPEC §8). */
export function useKitAlerts(): readonly KitAlert[] {
  return useSelector(useKitActor(), (s) => s.context.alerts)
}

/** Shows a toast (success, loading or error). */
export function useToast(): { show: (toast: Toast) => void; hide: () => void; current: Toast | undefined } {
  const kit = useKitActor()
  const current = useSelector(useToastActor(), (s) => s.context.current)
  const show = useCallback((toast: Toast) => kit.send({ type: 'toast.show', ...toast }), [kit])
  const hide = useCallback(() => kit.send({ type: 'toast.hide' }), [kit])
  return { show, hide, current }
}

/**
 * The connection actor of the active namespace (the network the visitor chose last): eip155's, or another
 * namespace's (Solana's: its connection capability's statechart) once its code runs. Views show and act on this one.
 */
export function useConnectionActor(): ConnectionActorRef {
  const kit = useKitActor()
  const host = useSelector(kit, (s) => {
    const capability = s.context.input.capabilities.find(
      (c) => c.connection?.chain === s.context.activeNamespace,
    )
    return capability ? s.context.capabilities[capability.id] : undefined
  })
  const own = useSelector(host, (s) => s?.context.actor) as ConnectionActorRef | undefined
  const fallback = useSelector(kit, (s) => s.children.connection) as ConnectionActorRef
  return own ?? fallback
}

export interface UseKitAccountReturnType {
  status: ConnectionStatus
  isConnected: boolean
  /** `0x` + 40 hex on eip155; the base58 public key on Solana. */
  address: string | undefined
  /** A number on eip155; the CAIP-2 id (`solana:` + genesis hash) on Solana. */
  chainId: ChainId | undefined
  /** The namespace of the account (the active one). */
  namespace: ChainNamespace
  connectorId: string | undefined
  /** SPEC §3: every account the wallet shares here (`address` is the one shown); empty when not connected. */
  allAccounts: readonly SharedAccount[]
  /** SPEC §3: the wallet's own names of its addresses (address → label), when it gives them. */
  addressLabels: Readonly<Record<string, string>>
}

/**
 * The connected account and the connection status (SPEC §4).
 *
 * @example
 * ```tsx
 * import { useKitAccount } from 'walletstate/react'
 *
 * export function Account() {
 *   const { status, address } = useKitAccount()
 *   return <p>{status === 'connected' ? address : status}</p>
 * }
 * ```
 */
export function useKitAccount(): UseKitAccountReturnType {
  const connection = useConnectionActor()
  const status = useSelector(connection, selectStatus)
  const account = useSelector(connection, (s) => s.context.account)
  const namespace = useSelector(connection, (s) => s.context.namespace)
  const allAccounts = useSelector(connection, (s) => s.context.allAccounts)
  const addressLabels = useSelector(connection, (s) => s.context.addressLabels)
  return {
    status,
    isConnected: status === 'connected',
    address: account?.address,
    chainId: account?.chainId,
    namespace,
    connectorId: account?.connectorId,
    allAccounts,
    addressLabels,
  }
}

/**
 * The account machine (`src/machines/account.ts`, systemId `account`: tabs and token balances), once the kit has
 * loaded it (`kit.send({ type: 'account.load' })`, which the Account view's details do); `undefined` before.
 * Send its events through the kit (`kit.send({ type: 'account.selectTab', tab: 'nfts' })`).
 */
export function useAccountActor(): AccountActorRef | undefined {
  return useSelector(useKitActor(), (s) => s.context.account) as AccountActorRef | undefined
}

/**
 * The send flow's machine (`src/machines/send.ts`, systemId `send`), once its capability has loaded it (a send
 * view shown, or a payment); `undefined` before. Send its events through the
 * kit (`kit.send({ type: 'send.setAmount', amount: '1.5' })`).
 */
export function useSendActor(): SendActorRef | undefined {
  return useCapability<SendActorRef>('send').actor
}

/**
 * A capability's running statechart (the capability contract; its systemId is its id) and where its code is:
 * `idle` (not asked for), `loading`, `running`, `failed` (did not load: `retry` asks again). A view of the
 * capability asks for it by showing; `actor` is `undefined` until it runs.
 */
export function useCapability<TActor extends AnyActorRef = AnyActorRef>(
  id: string,
): { actor: TActor | undefined; status: CapabilityStatus; retry: () => void } {
  const kit = useKitActor()
  const host = useSelector(kit, (s) => selectCapabilityHost(s, id))
  const actor = useSelector(host, (s) => s?.context.actor) as TActor | undefined
  const status = useSelector(host, (s) => (s ? capabilityStatus(s) : 'idle'))
  return { actor, status, retry: () => kit.send({ type: 'capabilities.load', id }) }
}

/** The swap flow's actor (`src/machines/swap.ts`, systemId `swap`), once a swap view opened it. */
export function useSwapActor(): SwapActorRef | undefined {
  return useCapability<SwapActorRef>('swap').actor
}

/** The Buy flow's actor (`src/machines/onramp.ts`, systemId `onramp`), once a Buy view loaded it. */
export function useOnrampActor(): OnrampActorRef | undefined {
  return useCapability<OnrampActorRef>('onramp').actor
}

/** The names flow's actor (`src/machines/names.ts`, systemId `names`), once Account's "Choose a name" loaded it. */
export function useNamesActor(): NamesActorRef | undefined {
  return useCapability<NamesActorRef>('names').actor
}

/** Sign-in's actor (`src/machines/signIn.ts`, systemId `signIn`), once loaded (the host configured `siwx`). */
export function useSignInActor(): SignInActorRef | undefined {
  return useCapability<SignInActorRef>('signIn').actor
}

export interface UseKitSessionReturnType {
  /** `disabled`: no `siwx`; `signing`: the message is being made, signed or checked. */
  status: 'disabled' | SignInStatus
  /** The signed-in account, its CAIP-2 chain and when the session ends (ISO 8601), while signed in. */
  address: `0x${string}` | undefined
  chainId: string | undefined
  expiresAt: string | undefined
  /** Ends the session (revoked where the host keeps it); with sign-in required the visitor is disconnected. */
  signOut: () => void
}

const SIGN_IN_STATUS: Record<string, SignInStatus> = {
  checking: 'checking',
  revoking: 'checking',
  dropping: 'checking',
  asking: 'asking',
  creating: 'signing',
  signing: 'signing',
  verifying: 'signing',
  signedIn: 'signedIn',
  failed: 'failed',
  skipped: 'skipped',
  declined: 'skipped',
  afterSignOut: 'skipped',
}

/**
 * The visitor's sign-in session (SIWX, issue 15).
 *
 * @example
 * ```tsx
 * import { useKitSession } from 'walletstate/react'
 *
 * export function SignedIn() {
 *   const { status, address, signOut } = useKitSession()
 *   if (status !== 'signedIn') return null
 *   return (
 *     <button type="button" onClick={() => signOut()}>
 *       Sign out {address}
 *     </button>
 *   )
 * }
 * ```
 */
export function useKitSession(): UseKitSessionReturnType {
  const kit = useKitActor()
  const configured = useSelector(kit, (s) => !!(s.context.config.siwx ?? s.context.config.siweConfig))
  const signIn = useSignInActor()
  const status = useSelector(signIn, (s) =>
    s ? (SIGN_IN_STATUS[String(s.value)] ?? 'signedOut') : 'signedOut',
  )
  const data = useSelector(signIn, (s) => s?.context.session?.data)
  const signOut = useCallback(() => kit.send({ type: 'signIn.signOut' }), [kit])
  const signedIn = status === 'signedIn' && !!data
  return {
    status: configured ? status : 'disabled',
    address: signedIn ? data.accountAddress : undefined,
    chainId: signedIn ? data.chainId : undefined,
    expiresAt: signedIn ? data.expirationTime : undefined,
    signOut,
  }
}

export interface UseKitSolanaReturnType {
  /** The Solana account (base58), whether or not Solana is the namespace shown; `undefined` when none. */
  address: string | undefined
  /** Signs `message` (UTF-8) with the connected Solana wallet; the ed25519 signature, base58. */
  signMessage: (message: string) => Promise<string>
  /**
   * Sends `lamports` (1 SOL = 10^9) to `to` (base58) from the connected Solana account, on its network, and waits
   * for `confirmed`; the transaction signature, base58.
   */
  sendSol: (to: string, lamports: bigint | number) => Promise<string>
}

/**
 * The connected Solana account and its wallet's signing (issue 17). Solana's code loads with the first call,
 * not with the kit.
 *
 * @example
 * ```tsx
 * import { useKitSolana } from 'walletstate/react'
 *
 * export function Tip({ recipient }: { recipient: string }) {
 *   const { address, signMessage, sendSol } = useKitSolana()
 *   const tip = async () => {
 *     await signMessage('Tipping from Acme')
 *     await sendSol(recipient, 10_000_000n) // 0.01 SOL
 *   }
 *   return (
 *     <button type="button" onClick={tip} disabled={!address}>
 *       Tip 0.01 SOL
 *     </button>
 *   )
 * }
 * ```
 */
export function useKitSolana(): UseKitSolanaReturnType {
  const kit = useKitActor()
  const account = useSelector(kit, (s) => s.context.accounts.solana)
  const connectorId = account?.connectorId
  // The host's rpcMap URL for the account's network, else the network's own.
  const rpcUrl = useSelector(kit, ({ context: { config, accounts } }) => {
    const network = config.networks.find((n) => n.caipNetworkId === accounts.solana?.chainId)
    return network && (config.rpcMap[network.caipNetworkId] ?? network.rpcUrls.default.http[0])
  })
  const signMessage = useCallback(
    async (message: string) => {
      if (!connectorId) throw new Error('No Solana account is connected')
      const { solanaWalletClient } = await import('../kit/load/solana')
      return solanaWalletClient(connectorId).signMessage(message)
    },
    [connectorId],
  )
  const sendSol = useCallback(
    async (to: string, lamports: bigint | number) => {
      if (!connectorId || !rpcUrl) throw new Error('No Solana account is connected')
      const { sendSolFrom } = await import('../kit/load/solana')
      return sendSolFrom(connectorId, { to, lamports, rpcUrl })
    },
    [connectorId, rpcUrl],
  )
  return { address: account?.address, signMessage, sendSol }
}

export interface UseKitBitcoinReturnType {
  /** The Bitcoin (bip122) account a multichain WalletConnect wallet shared; `undefined` when none. */
  address: string | undefined
  /** Its CAIP-2 network (`bip122:` + the genesis hash's first 32 hex characters). */
  chainId: `bip122:${string}` | undefined
  /**
   * Signs `message` with the wallet's Bitcoin account (WalletConnect's `signMessage`, ecdsa: Bitcoin's legacy
   * message format); the signing address and the signature (base64). No balance is read on Bitcoin.
   */
  signMessage: (message: string) => Promise<{ address: string; signature: string }>
}

/**
 * The Bitcoin account of a multichain WalletConnect wallet (SPEC §1: bip122), and its message signing. Bitcoin's
 * code loads only when a Bitcoin network is configured.
 *
 * @example
 * ```tsx
 * import { useKitBitcoin } from 'walletstate/react'
 *
 * export function ProveBitcoin() {
 *   const { address, signMessage } = useKitBitcoin()
 *   return (
 *     <button type="button" disabled={!address} onClick={() => void signMessage('I own this address')}>
 *       Sign with Bitcoin
 *     </button>
 *   )
 * }
 * ```
 */
export function useKitBitcoin(): UseKitBitcoinReturnType {
  const kit = useKitActor()
  const held = useSelector(kit, (s) => s.context.accounts.bip122)
  const account = held?.namespace === 'bip122' ? held : undefined
  const connected = account !== undefined
  const signMessage = useCallback(
    async (message: string) => {
      if (!connected) throw new Error('No Bitcoin account is connected')
      const { signBitcoinMessage } = await import('../kit/load/bip122')
      return signBitcoinMessage(message)
    },
    [connected],
  )
  return { address: account?.address, chainId: account?.chainId, signMessage }
}

export interface UseKitLocaleReturnType {
  /** The locale the kit was asked for (its catalog may still be loading: the views keep the last one meanwhile). */
  locale: KitLocale
  /** Changes the kit's language: one of `KIT_LOCALES`. */
  setLocale: (locale: KitLocale) => void
}

/**
 * The kit's language, and a way to change it at run time.
 *
 * @example
 * ```tsx
 * import { useKitLocale } from 'walletstate/react'
 *
 * export function German() {
 *   const { locale, setLocale } = useKitLocale()
 *   return (
 *     <button type="button" onClick={() => setLocale('de')} aria-pressed={locale === 'de'}>
 *       Deutsch
 *     </button>
 *   )
 * }
 * ```
 */
export function useKitLocale(): UseKitLocaleReturnType {
  const kit = useKitActor()
  const locale = useSelector(kit, (s) => s.context.locale)
  const setLocale = useCallback((next: KitLocale) => kit.send({ type: 'kit.setLocale', locale: next }), [kit])
  return { locale, setLocale }
}
