import {
  type ActorRefFrom,
  assertEvent,
  assign,
  enqueueActions,
  fromCallback,
  fromPromise,
  sendParent,
  sendTo,
  setup,
} from 'xstate'
import type { DomainVerification } from '../api/verify'
import {
  CONNECT_TIMEOUT_MS,
  DISCONNECT_TIMEOUT_MS,
  RECENT_WALLETS_MAX,
  RECONNECT_TIMEOUT_MS,
  RESUME_LINKING_TIMEOUT_MS,
  SWITCH_CHAIN_TIMEOUT_MS,
} from '../constants'
import {
  ConnectTimeoutError,
  DisconnectError,
  type ErrorInfo,
  errorInfo,
  SwitchChainError,
} from '../errors/connection'

/**
 * The connection lifecycle of one chain namespace (SPEC §4), over wagmi for eip155.
 *
 * reconnecting → connected | disconnected at start (existing connections are synced; a failure is
 * disconnected with empty connections). disconnected → connecting → connected, or back to disconnected with
 * the error kept (the `failed` substate, which offers retry). connected follows the wallet: account and chain
 * changes, a disconnect from the wallet's side, network switching. disconnecting → disconnected, always: a
 * connector whose disconnect throws or never settles is reported ('Failed to disconnect', SPEC §8, as a toast)
 * and the kit is disconnected anyway.
 *
 * No state waits on a wallet forever (issue 13 item 2): each has a named delay (src/constants.ts) or a way out.
 * `reconnecting` ends after `reconnectTimeout` (disconnected, silently: nobody asked) and gives way to a
 * `connection.connect` or `connection.reset`; `connecting.requesting` fails after `connectTimeout` with
 * ConnectTimeoutError (the kit raises SPEC §8's REQUEST_TIMED_OUT on `request.timedOut`), while a shown pairing
 * URI waits for the visitor to scan, ended by its expiry or `connection.cancel`; `connected.switching` ends
 * after `switchChainTimeout`; `disconnecting` after `disconnectTimeout`. A wallet answering after its time
 * limit is ignored: the invoked actor was stopped (its signal aborted) when the state was left.
 *
 * Every effect is a named actor slot (`reconnect`, `connect`, `disconnect`, `switchChain`, `watchConnection`,
 * `watchConnectors`, `watchPairing`, `persistence`); the kit fills them for wagmi, tests with fakes.
 */
export type ConnectionStatus = 'disconnected' | 'connecting' | 'reconnecting' | 'connected'

/** SPEC §1 connector types. */
export type ConnectorType = 'injected' | 'announced' | 'walletconnect' | 'auth' | 'external' | 'multichain'

/** SPEC §3 Connector (what the views need of one). */
export interface ConnectorInfo {
  id: string
  name: string
  type: ConnectorType
  chain: 'eip155' | 'solana'
  imageUrl?: string
  rdns?: string
  explorerId?: string
}

/** A wallet from the listing the visitor picked (only what the connection needs of it). */
export interface ChosenWallet {
  id: string
  name: string
  rdns?: string
  imageUrl?: string
  mobileLink?: string
  desktopLink?: string
  webappLink?: string
}

export interface RecentWallet {
  id: string
  name: string
  connectorId: string
  imageUrl?: string
  rdns?: string
}

/** The chain namespaces the kit connects (SPEC §1); each has its own connection machine. */
export type ChainNamespace = 'eip155' | 'solana'

/** A chain id: a number on eip155, the CAIP-2 id (`solana:` + genesis hash) on Solana. */
export type ChainId = number | `solana:${string}`

/** An account connected on eip155 (`namespace` is absent or 'eip155'). */
export interface Eip155Account {
  namespace?: 'eip155'
  address: `0x${string}`
  addresses: readonly `0x${string}`[]
  chainId: number
  connectorId: string
}

/** An account connected on Solana: a base58 public key on a CAIP-2 chain. */
export interface SolanaConnectionAccount {
  namespace: 'solana'
  address: string
  addresses: readonly string[]
  chainId: `solana:${string}`
  connectorId: string
}

/** SPEC §3 account state of one namespace. */
export type ConnectionAccount = Eip155Account | SolanaConnectionAccount

/** The namespace an account is on. */
export const namespaceOf = (account: Pick<ConnectionAccount, 'namespace'>): ChainNamespace =>
  account.namespace ?? 'eip155'

/** How a connection was made, for the success event (SPEC §4: method mobile or qrcode). */
export type ConnectMethod = 'browser' | 'qrcode' | 'mobile' | 'email' | 'social'

export interface ConnectTarget {
  connectorId: string
  wallet?: ChosenWallet
  method: ConnectMethod
}

export interface ConnectionContext {
  namespace: ChainNamespace
  connectors: ConnectorInfo[]
  /** SPEC §3 connections map: connector id → accounts and chain. */
  connections: Record<string, { accounts: readonly string[]; chainId: ChainId }>
  account: ConnectionAccount | undefined
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
  /** The network the visitor chose, if any (the wallet's own otherwise). */
  chainId?: ChainId
}

export interface ConnectOutput {
  account: ConnectionAccount
  connections: ConnectionContext['connections']
}

export type ConnectionEvent =
  | { type: 'connection.connect'; connectorId: string; wallet?: ChosenWallet; method?: ConnectMethod }
  | { type: 'connection.cancel' }
  | { type: 'connection.retry' }
  | { type: 'connection.disconnect' }
  | { type: 'connection.switchChain'; chainId: ChainId }
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
  /** The wallet did not answer a connect request in time: SPEC §8 alert REQUEST_TIMED_OUT. */
  | { type: 'request.timedOut'; request: 'connect' }
  /** A failure the visitor is told of though the flow went on ('Failed to disconnect', SPEC §8). */
  | { type: 'toast.show'; variant: 'error'; message: string }
  /** Wallets will not see this page's domain as verified (INVALID) or see it as a scam: SPEC §8 alert
   * UNVERIFIED_DOMAIN. */
  | { type: 'connection.domainUnverified'; verification: DomainVerification }

/** What the persistence slot is asked to store. */
export type PersistRequest =
  | { type: 'persist.connected'; recentWallets: RecentWallet[]; wallet: RecentWallet; chainId: ChainId }
  | { type: 'persist.chain'; chainId: ChainId }
  | { type: 'persist.disconnected' }
  /** SPEC §3's stored deep link: written when a wallet is opened by its mobile link, forgotten on reset. */
  | { type: 'persist.linking'; linking: WalletLinking }
  | { type: 'persist.linkingForgotten' }

/** What a disconnected connection holds; the start and every reset (SPEC §4) come back to it. */
const DISCONNECTED = {
  account: undefined,
  connections: {},
  target: undefined,
  wcUri: undefined,
  wcPairingExpiry: undefined,
  wcLinking: undefined,
  wcError: false,
  buffering: false,
  recentWallet: undefined,
  error: undefined,
  domainVerification: undefined,
} satisfies Partial<ConnectionContext>

const notProvided = (slot: string) => () => {
  throw new Error(`connectionMachine: the "${slot}" actor slot was not provided`)
}

/**
 * `busy`: an operation is under way; `failed`: the last connection attempt failed; `connecting`: a connection
 * is being made (not a reconnect); `connected`: an account is connected (not while disconnecting);
 * `switching`: a network switch is under way; `disconnecting`: the disconnect is under way.
 */
export type ConnectionTag = 'busy' | 'failed' | 'connecting' | 'connected' | 'switching' | 'disconnecting'

const connectionSetup = setup({
  types: {
    context: {} as ConnectionContext,
    events: {} as ConnectionEvent,
    input: {} as ConnectionInput,
    tags: {} as ConnectionTag,
  },
  actors: {
    reconnect: fromPromise<ReconnectOutput>(notProvided('reconnect')),
    connect: fromPromise<ConnectOutput, ConnectInput>(notProvided('connect')),
    disconnect: fromPromise<void, { connectorId: string | undefined }>(notProvided('disconnect')),
    switchChain: fromPromise<ChainId, { chainId: ChainId }>(notProvided('switchChain')),
    watchConnection: fromCallback<ConnectionEvent, { connectorId: string }>(() => () => {}),
    watchConnectors: fromCallback<ConnectionEvent>(() => () => {}),
    watchPairing: fromCallback<ConnectionEvent, { connectorId: string }>(() => () => {}),
    /**
     * After the reconnect at start ran past its time limit: wagmi's reconnect may still finish. Answers
     * `connection.reconnectedLate` when wagmi is (or becomes) connected, `connection.lost` once it settles
     * disconnected. A namespace without a late reconnect (Solana) leaves it as this no-op.
     */
    watchLateReconnect: fromCallback<ConnectionEvent>(() => () => {}),
    /** Registers the page's attestation for the pairing URI shown and answers how wallets will see the domain. */
    verifyDomain: fromPromise<DomainVerification, { uri: string }>(notProvided('verifyDomain')),
    persistence: fromCallback<PersistRequest>(() => () => {}),
    /**
     * Opens the chosen wallet by its mobile link with the pairing URI (a mobile browser): answers
     * `connection.wcLinking` with the link, then navigates to it. A link that fails the safety check is never
     * opened (nothing is answered).
     */
    openWallet: fromCallback<ConnectionEvent, { connectorId: string; wallet: ChosenWallet; uri: string }>(
      () => () => {},
    ),
    /** Back on the page after opening a wallet by its mobile link: the pending pairing's session, once settled. */
    resumePairing: fromPromise<ConnectOutput, { connectorId: string }>(notProvided('resumePairing')),
  },
  delays: {
    /** Ours (src/constants.ts): the reconnect at start. */
    reconnectTimeout: RECONNECT_TIMEOUT_MS,
    /** Ours (src/constants.ts): a wallet's answer to a connect request. */
    connectTimeout: CONNECT_TIMEOUT_MS,
    /** Ours (src/constants.ts): a wallet's answer to a network switch. */
    switchChainTimeout: SWITCH_CHAIN_TIMEOUT_MS,
    /** Ours (src/constants.ts): a connector's disconnect. */
    disconnectTimeout: DISCONNECT_TIMEOUT_MS,
    /** Ours (src/constants.ts): a pairing resumed after the wallet was opened by its mobile link. */
    resumeLinkingTimeout: RESUME_LINKING_TIMEOUT_MS,
  },
  guards: {
    hasAccount: (_, output: ReconnectOutput) => output.account !== undefined,
    hasLinking: (_, output: ReconnectOutput) => output.linking !== undefined,
    /** SPEC §3 Verify context: wallets will warn of this domain (not one of the project's, or a known scam). */
    domainUnverified: (_, verification: DomainVerification) =>
      verification.validation === 'INVALID' || verification.isScam,
    hasTarget: ({ context }) => context.target !== undefined,
    /** A late connection the kit can adopt: an account that is one of the connections wagmi reports. */
    lateConnectionAdoptable: ({ event }) => {
      assertEvent(event, 'connection.reconnectedLate')
      return event.connections[event.account.connectorId] !== undefined
    },
    /** The pairing URI may be shown again only while valid and only where SPEC §4 says so. */
    canReusePairing: ({ context, event }) => {
      assertEvent(event, 'connection.connect')
      return (
        context.reusePairing &&
        event.connectorId === context.target?.connectorId &&
        context.wcUri !== undefined &&
        (context.wcPairingExpiry ?? 0) > Date.now()
      )
    },
  },
  actions: {
    applyReconnect: assign((_, output: ReconnectOutput) => {
      return {
        account: output.account,
        connections: output.connections,
        recentWallets: output.recentWallets.slice(0, RECENT_WALLETS_MAX),
        recentWallet: output.recentWallets[0],
      }
    }),
    /** wagmi's reconnect finished after the kit's limit: its connection is the kit's (SPEC §4 reconnect). */
    adoptLateReconnect: assign(({ context, event }) => {
      assertEvent(event, 'connection.reconnectedLate')
      const { connectorId } = event.account
      return {
        account: event.account,
        connections: event.connections,
        recentWallet:
          context.recentWallets.find((w) => w.connectorId === connectorId) ??
          recentFrom(undefined, context.connectors, connectorId),
      }
    }),
    keepRecentWallets: assign((_, output: ReconnectOutput) => ({
      recentWallets: output.recentWallets.slice(0, RECENT_WALLETS_MAX),
    })),
    setTarget: assign(({ context, event }) => {
      assertEvent(event, 'connection.connect')
      const method = event.method ?? (event.connectorId === 'walletConnect' ? 'qrcode' : 'browser')
      return {
        target: {
          connectorId: event.connectorId,
          ...(event.wallet ? { wallet: event.wallet } : {}),
          // On a mobile browser a wallet with a mobile link is opened by it, not scanned (issue 18 item 5).
          method: method === 'qrcode' && context.mobile && event.wallet?.mobileLink ? 'mobile' : method,
        },
        error: undefined,
        wcError: false,
        // A new attempt opens the wallet again with its own pairing URI.
        wcLinking: undefined,
      }
    }),
    /** The pairing left pending when the page went away (reloaded, or come back to): resumed as this attempt. */
    setResumeTarget: assign((_, linking: WalletLinking) => ({
      target: {
        connectorId: linking.connectorId,
        wallet: { id: linking.id, name: linking.name },
        method: 'mobile' as const,
      },
      wcLinking: { name: linking.name, href: linking.href },
    })),
    /** A fresh attempt: waiting for a pairing URI, and no error of an earlier attempt (retry) left. */
    startBuffering: assign({
      buffering: true,
      wcUri: undefined,
      wcPairingExpiry: undefined,
      wcError: false,
      error: undefined,
      domainVerification: undefined,
    }),
    setDomainVerification: assign((_, verification: DomainVerification) => ({
      domainVerification: verification,
    })),
    setDomainUnknown: assign({
      domainVerification: { origin: '', validation: 'UNKNOWN', isScam: false } satisfies DomainVerification,
    }),
    setWcUri: assign(({ event }) => {
      assertEvent(event, 'connection.wcUri')
      return { wcUri: event.uri, wcPairingExpiry: event.expiry, buffering: false }
    }),
    setWcLinking: assign(({ event }) => {
      assertEvent(event, 'connection.wcLinking')
      return { wcLinking: { name: event.name, href: event.href } }
    }),
    /**
     * On a mobile browser, the chosen wallet is opened by its mobile link as soon as the attempt has a pairing URI
     * (a fresh one, or one reused): once per attempt, never behind the visitor's back for a later URI.
     */
    openWallet: enqueueActions(({ context, enqueue }) => {
      const wallet = context.target?.wallet
      if (context.target?.method !== 'mobile' || !wallet?.mobileLink) return
      if (context.wcLinking || !context.wcUri) return
      enqueue.spawnChild('openWallet', {
        input: { connectorId: context.target.connectorId, wallet, uri: context.wcUri },
      })
    }),
    persistLinking: sendTo('persistence', ({ context, event }): PersistRequest => {
      assertEvent(event, 'connection.wcLinking')
      const wallet = context.target?.wallet
      return {
        type: 'persist.linking',
        linking: {
          id: wallet?.id ?? context.target?.connectorId ?? '',
          name: event.name,
          connectorId: context.target?.connectorId ?? '',
          href: event.href,
        },
      }
    }),
    /** SPEC §3: the stored deep link goes with the pairing it was for (cancelled, failed, reset). */
    forgetLinking: enqueueActions(({ context, enqueue }) => {
      if (!context.wcLinking) return
      enqueue.assign({ wcLinking: undefined })
      enqueue.sendTo('persistence', { type: 'persist.linkingForgotten' } satisfies PersistRequest)
    }),
    applyConnect: assign(({ context }, output: ConnectOutput) => {
      const wallet = recentFrom(context.target, context.connectors, output.account.connectorId)
      // The embedded wallet (e-mail and social login) is not a wallet to pick again from a list.
      const embedded = context.connectors.some((c) => c.id === wallet.connectorId && c.type === 'auth')
      return {
        account: output.account,
        connections: output.connections,
        recentWallet: wallet,
        recentWallets: embedded
          ? context.recentWallets
          : [wallet, ...context.recentWallets.filter((w) => w.id !== wallet.id)].slice(0, RECENT_WALLETS_MAX),
        buffering: false,
        error: undefined,
      }
    }),
    setError: assign(({ context }, error: unknown) => ({
      error: errorInfo(error),
      buffering: false,
      wcError: context.target?.connectorId === 'walletConnect',
    })),
    applyChange: assign(({ context, event }) => {
      assertEvent(event, 'connection.changed')
      return {
        account: event.account,
        connections: {
          ...context.connections,
          [event.account.connectorId]: { accounts: event.account.addresses, chainId: event.account.chainId },
        },
      }
    }),
    setConnectors: assign(({ event }) => {
      assertEvent(event, 'connection.connectors')
      return { connectors: event.connectors }
    }),
    /** SPEC §4 reset: pairing URI, expiry, linking, recent wallet and deep link cleared; disconnected. */
    reset: assign(() => ({ ...DISCONNECTED })),
    setDisconnectError: assign((_, error: unknown) => ({ error: errorInfo(error) })),
    setDisconnectTimedOut: assign({
      error: errorInfo(new DisconnectError({ details: 'The connector did not answer in time' })),
    }),
    setSwitchError: assign((_, error: unknown) => ({ error: errorInfo(error) })),
    setSwitchTimedOut: assign({
      error: errorInfo(new SwitchChainError({ details: 'The wallet did not answer in time' })),
    }),
    setConnectTimedOut: assign(({ context }) => ({
      error: errorInfo(new ConnectTimeoutError({ timeoutMs: CONNECT_TIMEOUT_MS })),
      buffering: false,
      wcError: context.target?.connectorId === 'walletConnect',
    })),
    applySwitch: assign(({ context }, chainId: ChainId) => {
      return context.account
        ? { account: { ...context.account, chainId } as ConnectionAccount, error: undefined }
        : {}
    }),
    notifyConnected: sendParent(({ context }): ConnectionNotice => {
      const account = context.account!
      return {
        type: 'account.connected',
        account,
        method: context.target?.method ?? 'browser',
        reconnected: false,
      }
    }),
    notifyReconnected: sendParent(
      ({ context }): ConnectionNotice => ({
        type: 'account.connected',
        account: context.account!,
        method: 'browser',
        reconnected: true,
      }),
    ),
    notifyDisconnected: sendParent(
      ({ context }): ConnectionNotice => ({ type: 'account.disconnected', namespace: context.namespace }),
    ),
    notifyTimedOut: sendParent({ type: 'request.timedOut', request: 'connect' } satisfies ConnectionNotice),
    notifyDomainUnverified: sendParent(
      (_, verification: DomainVerification): ConnectionNotice => ({
        type: 'connection.domainUnverified',
        verification,
      }),
    ),
    /** The error kept in context, as a toast: the flow went on, the visitor should still know. */
    notifyFailure: sendParent(
      ({ context }): ConnectionNotice => ({
        type: 'toast.show',
        variant: 'error',
        message: context.error?.message ?? 'Failed to disconnect',
      }),
    ),
    notifyChain: sendParent(({ context }): ConnectionNotice => {
      const chainId = context.account?.chainId ?? 0
      return {
        type: 'account.chainChanged',
        chainId,
        supported: context.supportedChainIds.includes(chainId),
        namespace: context.namespace,
      }
    }),
    persistConnected: sendTo(
      'persistence',
      ({ context }): PersistRequest => ({
        type: 'persist.connected',
        recentWallets: context.recentWallets,
        wallet: context.recentWallet!,
        chainId: context.account?.chainId ?? 0,
      }),
    ),
    persistChain: sendTo(
      'persistence',
      ({ context }): PersistRequest => ({
        type: 'persist.chain',
        chainId: context.account?.chainId ?? 0,
      }),
    ),
    persistDisconnected: sendTo('persistence', { type: 'persist.disconnected' } satisfies PersistRequest),
  },
})

/**
 * The connection's statechart (SPEC §3). `createKit` builds the one a page runs from `defineConnectionMachine`,
 * with its slots filled; a host that never imports `connectionMachine` itself then holds one tree of it, not
 * two (issue 14), since the bundler drops the unused `connectionMachine`.
 */
export const connectionMachine = /* @__PURE__ */ defineConnectionMachine()

export function defineConnectionMachine() {
  return connectionSetup.createMachine({
    id: 'connection',
    context: ({ input }) => ({
      namespace: input.namespace ?? 'eip155',
      connectors: [],
      ...DISCONNECTED,
      recentWallets: [],
      supportedChainIds: input.supportedChainIds,
      preferredChainId: input.preferredChainId,
      reusePairing: input.reusePairing ?? false,
      mobile: input.mobile ?? false,
    }),
    invoke: [
      { id: 'persistence', src: 'persistence' },
      { id: 'watchConnectors', src: 'watchConnectors' },
    ],
    on: {
      'connection.connectors': { actions: 'setConnectors' },
      'connection.preferChain': {
        actions: assign(({ event }) => ({ preferredChainId: event.chainId })),
      },
    },
    initial: 'reconnecting',
    states: {
      reconnecting: {
        tags: 'busy',
        invoke: {
          src: 'reconnect',
          onDone: [
            {
              guard: { type: 'hasAccount', params: ({ event }) => event.output },
              target: 'connected',
              actions: [
                { type: 'applyReconnect', params: ({ event }) => event.output },
                'notifyReconnected',
                'notifyChain',
              ],
            },
            {
              guard: { type: 'hasLinking', params: ({ event }) => event.output },
              target: 'resuming',
              actions: [
                'reset',
                { type: 'keepRecentWallets', params: ({ event }) => event.output },
                { type: 'setResumeTarget', params: ({ event }) => event.output.linking! },
              ],
            },
            {
              target: 'disconnected',
              actions: ['reset', { type: 'keepRecentWallets', params: ({ event }) => event.output }],
            },
          ],
          onError: { target: 'disconnected', actions: 'reset' },
        },
        // SPEC §4: a failed reconnect is disconnected; one that never settles is too, but wagmi's reconnect goes
        // on: `disconnected.lateReconnect` watches it and adopts a connection it makes after all. The visitor may
        // pick a wallet meanwhile (their choice wins). `connection.cancel` is not taken here: the kit sends it
        // whenever the modal closes, which must not drop a reconnect; after a connect, cancel works as anywhere.
        after: { reconnectTimeout: { target: 'disconnected.lateReconnect', actions: 'reset' } },
        on: {
          'connection.connect': { target: 'connecting', actions: 'setTarget' },
          'connection.reset': { target: 'disconnected', actions: 'reset' },
        },
      },
      // Back on the page after the wallet was opened by its mobile link (issue 18 item 5): the pairing left pending
      // completes once the wallet's approval is read from the relay. It ends after `resumeLinkingTimeout`, and
      // gives way to a wallet the visitor picks; like `reconnecting`, it ignores the modal's `connection.cancel`.
      resuming: {
        tags: ['busy', 'connecting'],
        invoke: {
          src: 'resumePairing',
          input: ({ context }) => ({ connectorId: context.target!.connectorId }),
          onDone: {
            target: 'connected',
            actions: [
              { type: 'applyConnect', params: ({ event }) => event.output },
              'notifyConnected',
              'persistConnected',
              'notifyChain',
            ],
          },
          onError: { target: 'disconnected', actions: ['forgetLinking', 'reset'] },
        },
        after: { resumeLinkingTimeout: { target: 'disconnected', actions: ['forgetLinking', 'reset'] } },
        on: {
          'connection.connect': { target: 'connecting', actions: ['forgetLinking', 'setTarget'] },
          'connection.reset': { target: 'disconnected', actions: ['forgetLinking', 'reset'] },
        },
      },
      disconnected: {
        initial: 'idle',
        on: {
          'connection.connect': [
            // The pairing is reused, but the wallet picked may be another one (it is the one remembered).
            {
              guard: 'canReusePairing',
              target: 'connecting.pairing',
              actions: ['setTarget', 'openWallet'],
            },
            { target: 'connecting', actions: 'setTarget' },
          ],
          'connection.reset': { target: '.idle', actions: ['forgetLinking', 'reset'] },
        },
        states: {
          idle: {},
          /**
           * The reconnect at start ran past its limit and the kit shows disconnected, but wagmi's own reconnect
           * has not given up. Kit and wagmi must not disagree: a connection wagmi makes now is adopted (connected,
           * as a reconnect); wagmi settling disconnected ends the watch. A connect or reset leaves it as `idle`.
           */
          lateReconnect: {
            invoke: { src: 'watchLateReconnect' },
            on: {
              'connection.reconnectedLate': {
                guard: 'lateConnectionAdoptable',
                target: '#connection.connected',
                actions: ['adoptLateReconnect', 'notifyReconnected', 'notifyChain'],
              },
              'connection.lost': { target: 'idle' },
            },
          },
          failed: {
            tags: 'failed',
            on: { 'connection.retry': { guard: 'hasTarget', target: '#connection.connecting' } },
          },
        },
      },
      connecting: {
        tags: ['busy', 'connecting'],
        invoke: [
          {
            src: 'connect',
            input: ({ context }): ConnectInput => ({
              connectorId: context.target!.connectorId,
              ...(context.preferredChainId !== undefined ? { chainId: context.preferredChainId } : {}),
            }),
            onDone: {
              target: 'connected',
              actions: [
                { type: 'applyConnect', params: ({ event }) => event.output },
                'notifyConnected',
                'persistConnected',
                'notifyChain',
              ],
            },
            onError: {
              target: 'disconnected.failed',
              actions: [
                'forgetLinking',
                {
                  type: 'setError',
                  params: ({ event }: { event: { error: unknown } }) => event.error,
                },
              ],
            },
          },
          {
            src: 'watchPairing',
            input: ({ context }) => ({ connectorId: context.target!.connectorId }),
          },
        ],
        on: {
          // A mobile browser opens the wallet by its mobile link as soon as the pairing URI exists.
          'connection.wcUri': { target: '.pairing', actions: ['setWcUri', 'openWallet'] },
          'connection.wcLinking': { actions: ['setWcLinking', 'persistLinking'] },
          'connection.cancel': { target: 'disconnected.idle', actions: ['forgetLinking', 'reset'] },
          // An expired pairing URI is replaced by a fresh attempt (the QR view shows the new one).
          'connection.pairingExpired': { target: 'connecting', reenter: true },
        },
        initial: 'requesting',
        states: {
          // Buffering starts here, not on entering `connecting`: a reused pairing (SPEC §4) enters `pairing`
          // directly and must keep the URI it shows.
          requesting: {
            entry: 'startBuffering',
            // The wallet asked (or the pairing URI fetched) and nothing came back: the attempt is abandoned.
            after: {
              connectTimeout: {
                target: '#connection.disconnected.failed',
                actions: ['forgetLinking', 'setConnectTimedOut', 'notifyTimedOut'],
              },
            },
          },
          // Waits for the visitor to scan: ended by the pairing's expiry (a fresh attempt) or cancel. Meanwhile the
          // page's domain is attested for this pairing; a domain wallets will flag raises SPEC §8's alert.
          pairing: {
            // The warning speaks of the pairing shown; once it is gone (connected, failed, replaced) so is it.
            exit: assign({ domainVerification: undefined }),
            invoke: {
              src: 'verifyDomain',
              input: ({ context }) => ({ uri: context.wcUri ?? '' }),
              onDone: [
                {
                  guard: { type: 'domainUnverified', params: ({ event }) => event.output },
                  actions: [
                    { type: 'setDomainVerification', params: ({ event }) => event.output },
                    { type: 'notifyDomainUnverified', params: ({ event }) => event.output },
                  ],
                },
                { actions: { type: 'setDomainVerification', params: ({ event }) => event.output } },
              ],
              // No answer from the Verify service: the domain is UNKNOWN, as wallets will see it; no alert.
              onError: { actions: 'setDomainUnknown' },
            },
          },
        },
      },
      connected: {
        tags: 'connected',
        invoke: {
          src: 'watchConnection',
          input: ({ context }) => ({ connectorId: context.account?.connectorId ?? '' }),
        },
        on: {
          'connection.changed': { actions: ['applyChange', 'persistChain', 'notifyChain'] },
          'connection.lost': {
            target: 'disconnected',
            actions: ['reset', 'persistDisconnected', 'notifyDisconnected'],
          },
          'connection.disconnect': 'disconnecting',
        },
        initial: 'idle',
        states: {
          idle: {
            on: { 'connection.switchChain': 'switching' },
          },
          switching: {
            tags: ['busy', 'switching'],
            invoke: {
              src: 'switchChain',
              input: ({ event }) => {
                assertEvent(event, 'connection.switchChain')
                return { chainId: event.chainId }
              },
              onDone: {
                target: 'idle',
                actions: [
                  {
                    type: 'applySwitch',
                    params: ({ event }: { event: { output: ChainId } }) => event.output,
                  },
                  'persistChain',
                  'notifyChain',
                ],
              },
              onError: {
                target: 'idle',
                actions: {
                  type: 'setSwitchError',
                  params: ({ event }: { event: { error: unknown } }) => event.error,
                },
              },
            },
            after: { switchChainTimeout: { target: 'idle', actions: 'setSwitchTimedOut' } },
          },
        },
      },
      disconnecting: {
        tags: ['busy', 'disconnecting'],
        invoke: {
          src: 'disconnect',
          input: ({ context }) => ({ connectorId: context.account?.connectorId }),
          onDone: {
            target: 'disconnected',
            actions: ['reset', 'persistDisconnected', 'notifyDisconnected'],
          },
          // A disconnect always ends disconnected (issue 13): the failure is reported, the kit is not left
          // half-connected to a wallet it can no longer reach.
          onError: {
            target: 'disconnected',
            actions: [
              'reset',
              {
                type: 'setDisconnectError',
                params: ({ event }: { event: { error: unknown } }) => event.error,
              },
              'persistDisconnected',
              'notifyDisconnected',
              'notifyFailure',
            ],
          },
        },
        after: {
          disconnectTimeout: {
            target: 'disconnected',
            actions: [
              'reset',
              'setDisconnectTimedOut',
              'persistDisconnected',
              'notifyDisconnected',
              'notifyFailure',
            ],
          },
        },
      },
    },
  })
}

/** The SPEC §4 status of a snapshot. */
export function selectStatus(snapshot: {
  matches: (value: 'reconnecting' | 'connecting' | 'resuming' | 'connected' | 'disconnecting') => boolean
}): ConnectionStatus {
  if (snapshot.matches('reconnecting')) return 'reconnecting'
  // A pairing resumed on return to the page (issue 18 item 5) is a connection being made.
  if (snapshot.matches('connecting') || snapshot.matches('resuming')) return 'connecting'
  if (snapshot.matches('connected') || snapshot.matches('disconnecting')) return 'connected'
  return 'disconnected'
}

type ConnectionTagged = { hasTag: (tag: ConnectionTag) => boolean }

/** A connection is being made (the wallet asked, or its QR code shown). */
export const selectIsConnecting = (snapshot: ConnectionTagged): boolean => snapshot.hasTag('connecting')
/** An account is connected (and not being disconnected). */
export const selectIsConnected = (snapshot: ConnectionTagged): boolean => snapshot.hasTag('connected')
/** A network switch is under way. */
export const selectIsSwitching = (snapshot: ConnectionTagged): boolean => snapshot.hasTag('switching')
/** The disconnect is under way. */
export const selectIsDisconnecting = (snapshot: ConnectionTagged): boolean => snapshot.hasTag('disconnecting')
/** The last connection attempt failed. */
export const selectConnectFailed = (snapshot: ConnectionTagged): boolean => snapshot.hasTag('failed')
/** An operation is under way (reconnecting, connecting, switching, disconnecting). */
export const selectIsBusy = (snapshot: ConnectionTagged): boolean => snapshot.hasTag('busy')

function recentFrom(
  target: ConnectTarget | undefined,
  connectors: ConnectorInfo[],
  connectorId: string,
): RecentWallet {
  const connector = connectors.find((c) => c.id === connectorId)
  const wallet = target?.wallet
  const imageUrl = wallet?.imageUrl ?? connector?.imageUrl
  const rdns = wallet?.rdns ?? connector?.rdns
  return {
    id: wallet?.id ?? connectorId,
    name: wallet?.name ?? connector?.name ?? connectorId,
    connectorId,
    ...(imageUrl ? { imageUrl } : {}),
    ...(rdns ? { rdns } : {}),
  }
}

export type ConnectionActorRef = ActorRefFrom<typeof connectionMachine>

/**
 * What the connecting view warns of for the pairing shown (SPEC §3 Verify context): `scam` when wallets will
 * flag the page's origin as a known scam, `unverified` when it is not one of the project's verified domains,
 * else `undefined` (VALID, UNKNOWN, or no answer yet).
 */
export function selectDomainWarning(snapshot: {
  context: Pick<ConnectionContext, 'domainVerification'>
}): { kind: 'scam' | 'unverified'; origin: string } | undefined {
  const verification = snapshot.context.domainVerification
  if (!verification) return undefined
  if (verification.isScam) return { kind: 'scam', origin: verification.origin }
  if (verification.validation === 'INVALID') return { kind: 'unverified', origin: verification.origin }
  return undefined
}
