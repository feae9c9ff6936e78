import type { DomainVerification } from '../../api/verify'
import type { ErrorReport } from '../../errors/base'
import type { ErrorInfo } from '../../errors/connection'

/** The connection machine's types: what it holds, takes, tells its parent and asks its slots for. */

/** SPEC §4 status of a connection (`selectStatus`). */
export type ConnectionStatus = 'disconnected' | 'connecting' | 'reconnecting' | 'connected'

/** SPEC §1 connector types. */
export type ConnectorType = 'injected' | 'announced' | 'walletconnect' | 'auth' | 'external' | 'multichain'

/** SPEC §3 Connector (what the views need of one). */
export interface ConnectorInfo {
  id: string
  name: string
  type: ConnectorType
  chain: ChainNamespace
  imageUrl?: string
  /** A `multichain` connector's namespaces: one pairing gives an account on each the wallet approves. */
  chains?: readonly ChainNamespace[]
  /**
   * The provider's image id (a listing entry's `image_id`, or the kit's own connectors' `CONNECTOR_IMAGE_IDS`):
   * the image is fetched from `GET /public/getAssetImage/{imageId}` when the connector brings no `imageUrl`.
   */
  imageId?: string
  rdns?: string
  explorerId?: string
}

/** A wallet from the listing the visitor picked (only what the connection needs of it). */
export interface ChosenWallet {
  id: string
  name: string
  rdns?: string
  imageUrl?: string
  /** SPEC §3 Connector `imageId`: its image from the provider's host when there is no `imageUrl`. */
  imageId?: string
  mobileLink?: string
  desktopLink?: string
  webappLink?: string
  /**
   * The chain namespaces the listing says the wallet supports (from its CAIP-2 `chains`): one with several of
   * the kit's namespaces pairs once for all of them (SPEC §1 `multichain`).
   */
  chainNamespaces?: readonly string[]
}

export interface RecentWallet {
  id: string
  name: string
  connectorId: string
  imageUrl?: string
  rdns?: string
}

/** The chain namespaces the kit connects (SPEC §1); each has its own connection machine. */
export type ChainNamespace = 'eip155' | 'solana' | 'bip122'

/** A chain id: a number on eip155, the CAIP-2 id (`solana:` + genesis hash) on Solana. */
export type ChainId = number | `solana:${string}` | `bip122:${string}`

/** An account connected on eip155 (`namespace` is absent or 'eip155'). */
export interface Eip155Account {
  namespace?: 'eip155'
  address: `0x${string}`
  addresses: readonly `0x${string}`[]
  chainId: number
  connectorId: string
  /** The wallet's own names of its addresses, when it gives them (SPEC §3 `addressLabels`). */
  labels?: Readonly<Record<string, string>>
}

/** An account connected on Solana: a base58 public key on a CAIP-2 chain. */
export interface SolanaConnectionAccount {
  namespace: 'solana'
  address: string
  addresses: readonly string[]
  chainId: `solana:${string}`
  connectorId: string
  /** The wallet's own names of its addresses, when it gives them (SPEC §3 `addressLabels`). */
  labels?: Readonly<Record<string, string>>
}

/**
 * An account connected on Bitcoin (bip122): an address on a CAIP-2 chain (`bip122:` + the genesis hash's first
 * 32 hex characters), as a multichain WalletConnect session gives it. The kit signs messages with it; no balance
 * is read (there is no Bitcoin service).
 */
export interface Bip122ConnectionAccount {
  namespace: 'bip122'
  address: string
  addresses: readonly string[]
  chainId: `bip122:${string}`
  connectorId: string
  labels?: Readonly<Record<string, string>>
}

/** SPEC §3 account state of one namespace. */
export type ConnectionAccount = Eip155Account | SolanaConnectionAccount | Bip122ConnectionAccount

/** SPEC §3 `allAccounts`: one of the accounts a wallet shares on a namespace. */
export interface SharedAccount {
  namespace: ChainNamespace
  address: string
  /** SPEC §4 account type; a wallet's own accounts are EOAs as far as the kit knows. */
  type: 'eoa' | 'smartAccount'
}
/** How a connection was made, for the success event (SPEC §4: method mobile or qrcode). */
export type ConnectMethod = 'browser' | 'qrcode' | 'mobile' | 'email' | 'social'

export interface ConnectTarget {
  connectorId: string
  wallet?: ChosenWallet
  method: ConnectMethod
  /** The other namespaces the pairing proposes beside this connection's own (a `multichain` wallet). */
  alsoPropose?: readonly string[]
  /** A side of another namespace's pairing: no account approved here is no failure. */
  along?: true
}

export interface ConnectionContext {
  namespace: ChainNamespace
  connectors: ConnectorInfo[]
  /** SPEC §3 connections map: connector id → accounts and chain. */
  connections: Record<string, { accounts: readonly string[]; chainId: ChainId }>
  account: ConnectionAccount | undefined
  /** SPEC §3 `allAccounts`: every account the wallet shares here, in the wallet's order; `account` is one of them. */
  allAccounts: SharedAccount[]
  /** SPEC §3 `addressLabels`: the wallet's own names of its addresses (address → label); empty when it gives none. */
  addressLabels: Record<string, string>
  target: ConnectTarget | undefined
  wcUri: string | undefined
  /** Epoch ms after which the pairing URI is no longer valid. */
  wcPairingExpiry: number | undefined
  wcLinking: { name: string; href: string } | undefined
  wcError: boolean
  /** True while a pairing URI is being fetched (the QR view shows a placeholder). */
  buffering: boolean
  recentWallet: RecentWallet | undefined
  recentWallets: RecentWallet[]
  error: ErrorInfo | undefined
  /** Chain ids the app asked for; another one is an unsupported chain. */
  supportedChainIds: ChainId[]
  /** The network the visitor chose while not connected: a connection is made on it where the wallet lets it. */
  preferredChainId: ChainId | undefined
  /** SPEC §4: on Telegram or iOS Safari a pairing URI is reused until it expires. */
  reusePairing: boolean
  /** A mobile browser (issue 18 item 5): a wallet with a mobile link is opened by it with the pairing URI. */
  mobile: boolean
  /** How wallets will see this page's domain for the pairing shown (SPEC §3 Verify context); unknown until the
   * Verify service answers, and left unknown when it does not. */
  domainVerification: DomainVerification | undefined
}

export interface ConnectionInput {
  /** 'eip155' when absent. */
  namespace?: ChainNamespace
  supportedChainIds: ChainId[]
  /** The network to connect on (`connection.preferChain` changes it). */
  preferredChainId?: ChainId
  reusePairing?: boolean
  /** A mobile browser, as the kit's edge detected it (src/utils/mobile.ts); false when absent. */
  mobile?: boolean
}

/**
 * The deep link a wallet was opened with (SPEC §3's stored deep link): kept while its pairing is pending, so
 * that the page, reloaded or come back to, resumes it; a reset forgets it.
 */
export interface WalletLinking {
  /** The wallet's listing id and name, and the connector its pairing is on. */
  id: string
  name: string
  connectorId: string
  /** The link opened: the wallet's mobile link with the pairing URI. */
  href: string
}

export interface ReconnectOutput {
  account: ConnectionAccount | undefined
  connections: ConnectionContext['connections']
  recentWallets: RecentWallet[]
  /** A wallet opened by its mobile link before the page went away, whose pairing may complete now. */
  linking?: WalletLinking
}

export interface ConnectInput {
  connectorId: string
  /** The other namespaces a WalletConnect pairing proposes beside this one's (a `multichain` wallet). */
  alsoPropose?: readonly string[]
  /** The network the visitor chose, if any (the wallet's own otherwise). */
  chainId?: ChainId
}

export interface ConnectOutput {
  account: ConnectionAccount
  connections: ConnectionContext['connections']
}

export type ConnectionEvent =
  | {
      type: 'connection.connect'
      connectorId: string
      wallet?: ChosenWallet
      method?: ConnectMethod
      /** The other namespaces a WalletConnect pairing proposes too (a `multichain` wallet's). */
      alsoPropose?: readonly string[]
      /** See `ConnectTarget`. */
      along?: true
    }
  | { type: 'connection.cancel' }
  | { type: 'connection.retry' }
  | { type: 'connection.disconnect' }
  | { type: 'connection.switchChain'; chainId: ChainId }
  /** Show another of the accounts the wallet shares (one of `allAccounts`): address, balances and sends follow. */
  | { type: 'connection.selectAccount'; address: string }
  /** The network to connect on next (the visitor chose it while not connected here). */
  | { type: 'connection.preferChain'; chainId: ChainId }
  | { type: 'connection.reset' }
  /** From the watchers. */
  | { type: 'connection.changed'; account: ConnectionAccount }
  | { type: 'connection.lost' }
  | { type: 'connection.connectors'; connectors: ConnectorInfo[] }
  | { type: 'connection.wcUri'; uri: string; expiry: number }
  /** The wallet was opened by its mobile link with the pairing URI (the `openWallet` slot). */
  | { type: 'connection.wcLinking'; name: string; href: string }
  | { type: 'connection.pairingExpired' }
  /**
   * wagmi connected after the reconnect at start ran past its time limit (the `watchLateReconnect` slot): the
   * kit adopts that connection, so it never says disconnected while wagmi is connected.
   */
  | {
      type: 'connection.reconnectedLate'
      account: ConnectionAccount
      connections: ConnectionContext['connections']
    }

/** What the connection tells its parent (the kit), so other machines can follow. */
export type ConnectionNotice =
  | { type: 'account.connected'; account: ConnectionAccount; method: ConnectMethod; reconnected: boolean }
  | { type: 'account.disconnected'; namespace?: ChainNamespace }
  | { type: 'account.chainChanged'; chainId: ChainId; supported: boolean; namespace?: ChainNamespace }
  /** Another of the wallet's accounts is the one shown (the visitor chose it, or the wallet switched). */
  | { type: 'account.changed'; account: ConnectionAccount }
  /** The wallet did not answer a connect request in time: SPEC §8 alert REQUEST_TIMED_OUT. */
  | { type: 'request.timedOut'; request: 'connect' }
  /** A failure the visitor is told of though the flow went on ('Failed to disconnect', SPEC §8). */
  | { type: 'toast.show'; variant: 'error'; message: string }
  /** Wallets will not see this page's domain as verified (INVALID) or see it as a scam: SPEC §8 alert
   * UNVERIFIED_DOMAIN. */
  | { type: 'connection.domainUnverified'; verification: DomainVerification }

/**
 * What the connection emits (`actor.on(type, …)`): a failure for the kit's error telemetry (SPEC §7), with the
 * event it is reported as. Not a notice to the parent: nothing in the flow waits on it.
 */
export type ConnectionEmitted = {
  type: 'connection.failed'
  event: 'CONNECT_ERROR' | 'DISCONNECT_ERROR'
  report: ErrorReport
}

/** What the persistence slot is asked to store. */
export type PersistRequest =
  | { type: 'persist.connected'; recentWallets: RecentWallet[]; wallet: RecentWallet; chainId: ChainId }
  | { type: 'persist.chain'; chainId: ChainId }
  | { type: 'persist.disconnected' }
  /** SPEC §3's stored deep link: written when a wallet is opened by its mobile link, forgotten on reset. */
  | { type: 'persist.linking'; linking: WalletLinking }
  | { type: 'persist.linkingForgotten' }

/**
 * `busy`: an operation is under way; `failed`: the last connection attempt failed; `connecting`: a connection
 * is being made (not a reconnect); `connected`: an account is connected (not while disconnecting);
 * `switching`: a network switch is under way; `disconnecting`: the disconnect is under way.
 */
export type ConnectionTag = 'busy' | 'failed' | 'connecting' | 'connected' | 'switching' | 'disconnecting'
