import type { ActorRefFrom, PromiseActorLogic } from 'xstate'
import type { KitLocale, KitThemeVariables, ResolvedKitConfig, ThemeEvent, ThemeMode } from '../../config'
import type { EmbeddedWallet } from '../../embedded/load'
import type { ErrorReport, KitAlert } from '../../errors/base'
import type { ViewName } from '../../views'
import type { AccountEvent, AccountMachine, AccountNotice } from '../account'
import type {
  CapabilityHostNotice,
  CapabilityHostRef,
  CapabilityKitEvent,
  RegisteredCapability,
} from '../capability'
import type {
  ChainNamespace,
  ChosenWallet,
  ConnectionAccount,
  ConnectionEvent,
  ConnectionNotice,
  ConnectorInfo,
} from '../connection'
import type { FrameEmitted, FrameMachine, FrameMachineEvent } from '../frame'
import type { ModalEvent, ModalNotice } from '../modal'
import type { SessionClientInput, SessionClientMachine } from '../session'
import type { ToastEvent } from '../toast'
import type { WalletsEvent, WalletsMachine } from '../wallets'

/** What `createKit` hands the kit machine: the resolved config and what it read of the page and storage. */
export interface KitInput {
  config: ResolvedKitConfig
  /** The EVM chains the kit supports (the connection flags any other as unsupported). */
  supportedChainIds: number[]
  /** A stored e-mail or social login is restored at start: its frame loads at once. */
  storedLogin: boolean
  /**
   * The login frame loads when the modal opens (a device without hover, where no pointer shows intent before a
   * tap); otherwise it loads when the visitor turns to the e-mail or social logins.
   */
  frameOnOpen: boolean
  /** SPEC §4: a WalletConnect pairing is reused on this page (mobile browsers). */
  reusePairing: boolean
  /** A mobile browser (src/utils/mobile.ts): a wallet with a mobile link is opened by it. False when absent. */
  mobile?: boolean
  /** The visitor's time zone (IANA), read once at the edge: Buy is hidden in the SPEC's restricted ones. */
  timeZone?: string
  /**
   * The connectors the kit's rules tell apart (their ids live with the chains): `embedded` is the embedded
   * wallet on eip155, `solanaEmbedded` the same login on Solana (issue 17).
   */
  connectorIds: { walletConnect: string; embedded: string }
  /** The session client's input once it runs. */
  remoteSessionsInput: SessionClientInput
  /**
   * The capabilities beside the root (the capability contract, src/machines/capability/contract.ts): the kit's
   * own and the host's, their loaders bound to the kit's services.
   */
  capabilities: readonly RegisteredCapability[]
  /** The SDK version the login frame is told about. */
  sdkVersion: string
  /**
   * The namespace shown at start: the one the visitor used last (stored), else the default network's. Only a
   * configured namespace.
   */
  activeNamespace: ChainNamespace
}

/** The machines loaded on demand, as their loaders return them (types only: their code loads later). */
export type FrameLogic = FrameMachine
export type SessionClientLogic = SessionClientMachine
export type AccountLogic = AccountMachine
/** The wallet listing's machine, provided with its request slot (`createWalletsActors`). */
export type WalletsLogic = WalletsMachine
/** The login frame's loader returns the machine with its real slots and what the kit reads of it. */
export type EmbeddedLoad = Pick<EmbeddedWallet, 'logic'> & {
  restored: ReturnType<EmbeddedWallet['restoredLogin']>
}

export type FrameRef = ActorRefFrom<FrameLogic>
export type SessionClientRef = ActorRefFrom<SessionClientLogic>
export type AccountRef = ActorRefFrom<AccountLogic>
export type WalletsRef = ActorRefFrom<WalletsLogic>

export type Loader<Output> = PromiseActorLogic<Output>

/**
 * The kit's context. The machines loaded on demand are spawned with typed refs; the modal's view and the
 * connection's account are mirrored from their notices (never read from their snapshots).
 */
export interface KitContext {
  config: ResolvedKitConfig
  input: Omit<KitInput, 'config'>
  /** Alerts shown at the top of the modal (SPEC §8); the visitor may dismiss them. */
  alerts: readonly KitAlert[]
  /** The language the views are asked to show (the config's `locale`, then `kit.setLocale`). */
  locale: KitLocale
  /** The modal's view stack, from its `modal.shown` notices (empty while closed). */
  modal: { open: boolean; history: readonly ViewName[] }
  /**
   * The account the views and the host act on: the active namespace's, from the connections' `account.*`
   * notices (SPEC §3 account state per chain).
   */
  connected: ConnectionAccount | undefined
  /** The account connected on each namespace; one namespace's disconnect leaves the other's. */
  accounts: Partial<Record<ChainNamespace, ConnectionAccount>>
  /** The namespace of the network the visitor chose last (Networks, or the wallet they connected). */
  activeNamespace: ChainNamespace
  /** The connector the kit last asked the connection to connect (cleared once connected or disconnected). */
  connecting: string | undefined
  /**
   * SPEC §1 `multichain`: the other namespaces the pairing under way proposed too; once it connects, each gets
   * the account the wallet approved there (kept beside the one shown), and leaves this list.
   */
  pairedAlong: readonly ChainNamespace[]
  /** The connection's connectors, as the connection lists them (`kit.connectors`). */
  connectors: readonly ConnectorInfo[]
  /** The account's latest balances (the send flow's token picker starts from them). */
  balances: Extract<AccountNotice, { type: 'account.balancesUpdated' }>['balances']
  /** The session client (systemId `remoteSessions`), once WalletConnect's provider loaded. */
  remoteSessions: SessionClientRef | undefined
  /** The login frame (systemId `frame`), once the modal opened with e-mail or socials on. */
  frame: FrameRef | undefined
  /** The Account view's machine (systemId `account`), once its details showed. */
  account: AccountRef | undefined
  /** The wallet listing's machine (systemId `wallets`), once the modal opened (or a view asked the listing). */
  wallets: WalletsRef | undefined
  /**
   * What was asked of the listing before its machine ran (`wallets.load`, a search typed meanwhile): sent to it,
   * in order, once it runs. One of each kind, the latest.
   */
  walletsPending: readonly WalletsEvent[]
  /** The capabilities' hosts, by capability id (each runs its capability's statechart, systemId its id). */
  capabilities: Readonly<Record<string, CapabilityHostRef>>
  /** The capabilities whose statechart runs now (a namespace's connection among them), by id. */
  capabilitiesRunning: readonly string[]
  /**
   * The visitor ticked Connect's legal checkbox (`features.legalCheckbox`): kept for the page's life, not
   * stored (consent is the visitor's act on this visit, to the terms the host links now).
   */
  legalAccepted: boolean
  /**
   * The Connecting view the chosen wallet is shown in, held while its image preloads (SPEC §9 image preload
   * race), with the wallet whose image it shows.
   */
  connectingView: { view: ViewName; wallet: ChosenWallet } | undefined
  /** The theme shown, from the config's; `kit.setThemeMode` and `kit.setThemeVariables` change it at run time. */
  theme: KitTheme
}

/** The kit's theme: its mode and the host's variables (validated: `themeVariablesProblems`). */
export interface KitTheme {
  themeMode: ThemeMode
  themeVariables: KitThemeVariables
}

/** What the views send the login frame, through the kit (which forwards them once the frame runs). */
export type FrameViewEvent = Extract<
  FrameMachineEvent,
  {
    type:
      | 'frame.retry'
      | 'frame.connectEmail'
      | 'frame.submitOtp'
      | 'frame.resendCode'
      | 'frame.cancel'
      | 'frame.connectSocial'
      | 'frame.connectFarcaster'
      | 'frame.signOut'
      | 'frame.setAccountType'
      | 'frame.updateEmail'
      | 'frame.rejectRpcRequests'
      | 'frame.showIn'
      | 'frame.syncTheme'
  }
>

export type KitEvent =
  | ModalEvent
  | ModalNotice
  | ToastEvent
  | ConnectionEvent
  | ConnectionNotice
  | WalletsEvent
  | FrameViewEvent
  | { type: 'kit.dismissAlert'; code: KitAlert['code'] }
  /**
   * The theme at run time (`setThemeMode`, `setThemeVariables`, `useKitTheme`): shown at once, and synced to the
   * login frame when it runs. Variables merge into the current ones (`undefined` removes one). An invalid value
   * is ignored here; the setters throw `ConfigError` for it before sending.
   */
  | ThemeEvent
  /** The host (`useKitLocale().setLocale`) changes the views' language; the views load its catalog. */
  | { type: 'kit.setLocale'; locale: KitLocale }
  /** Connect's legal checkbox ticked (or unticked): with `features.legalCheckbox`, no connect starts before. */
  | { type: 'legal.accept'; accepted: boolean }
  /** A wallet picked in Connect or All Wallets: a local connector if one matches, WalletConnect otherwise. */
  | { type: 'wallet.select'; wallet: ChosenWallet }
  /** Raised by the kit: the chosen wallet's Connecting view is due (once its image preloaded, or 2 s passed). */
  | { type: 'kit.showConnecting'; view: ViewName; wallet: ChosenWallet }
  | { type: 'remoteSessions.load' }
  /** The wallet listing's code is needed (the modal opened; a view asked the listing): loads it, or retries. */
  | { type: 'listing.load' }
  /** The login frame is needed (the modal opened with e-mail or socials on; the wallet connector asks). */
  | { type: 'embedded.load' }
  /** From the login frame, through `followFrame`. */
  | Extract<
      FrameEmitted,
      {
        type:
          | 'embedded.connected'
          | 'embedded.disconnected'
          | 'embedded.failed'
          | 'embedded.rpcNotAllowed'
          | 'embedded.refused'
      }
    >
  /**
   * A failure to report to telemetry (SPEC §7 error props), with the event it is reported as: a connection's
   * (`connection.failed`, through `followConnectors`), or the login frame's.
   */
  | { type: 'kit.reportError'; event: string; report: ErrorReport }
  /** The analytics config refused this page's origin (403, from the `telemetry` slot). */
  | { type: 'telemetry.configRefused'; status: number }
  /** The wallet listing refused the project id (through `followWallets`). */
  | { type: 'wallets.projectRefused'; status: number }
  /** The RPC-method-not-allowed alert is due (raised by the kit itself, after its delay). */
  | { type: 'kit.rpcNotAllowedAlert' }
  /** The view the frame's flow calls for changed (`selectFrameView`); `failed`: the frame holds an error. */
  | {
      type: 'embedded.view'
      view: ViewName | undefined
      previous: ViewName | undefined
      connected: boolean
      failed?: boolean
    }
  | { type: 'remoteSessions.proposalExpired' }
  | {
      type: 'remoteSessions.sessionEnded'
      topic: string
      /** How it ended (the session client's notice); `expired` raises the SESSION_EXPIRED alert. */
      outcome?: 'deleted' | 'expired' | 'peerDisconnected' | 'settlementFailed'
    }
  /** The Account view's details need their machine (`account`). */
  | { type: 'account.load' }
  | AccountEvent
  /** From the account machine, through its follower. */
  | AccountNotice
  /** A capability's own event (its id is the prefix, to its statechart once it runs), or its glue's. */
  | CapabilityKitEvent
  /** A capability's glue tells the kit something (through its host). */
  | CapabilityHostNotice
  /** A capability is asked for again (its view's "Try again" after its code did not load). */
  | { type: 'capabilities.load'; id: string }
  /** The account, its chain or the namespace shown changed: capabilities for one account end (raised). */
  | { type: 'capabilities.accountChanged' }
  /** Solana's code is needed (at start, when a Solana network is configured). */
  /**
   * The visitor chose a network (Networks): on the active namespace the wallet is asked to switch; on the other
   * one, that namespace becomes the active one (its account, or Connect when none).
   */
  | { type: 'network.select'; caipNetworkId: string }

/** What the kit's rules enqueue, structurally (xstate's enqueuer is generic over the whole setup). */
export interface KitEnqueue {
  assign: (values: Partial<KitContext>) => void
  // biome-ignore lint/suspicious/noExplicitAny: any child or the modal by its id; the events are checked where built
  sendTo: (to: any, event: any) => void
  raise: (event: KitEvent) => void
}
