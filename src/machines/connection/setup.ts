import {
  assertEvent,
  assign,
  emit,
  enqueueActions,
  fromCallback,
  fromPromise,
  sendParent,
  sendTo,
  setup,
} from 'xstate'
import type { DomainVerification } from '../../api/verify'
import {
  CONNECT_TIMEOUT_MS,
  DISCONNECT_TIMEOUT_MS,
  RECENT_WALLETS_MAX,
  RECONNECT_TIMEOUT_MS,
  RESUME_LINKING_TIMEOUT_MS,
  SELECT_ACCOUNT_TIMEOUT_MS,
  SWITCH_CHAIN_TIMEOUT_MS,
} from '../../constants'
import { errorReportOf } from '../../errors/base'
import {
  ConnectTimeoutError,
  chainsDisconnectError,
  DisconnectError,
  errorInfo,
  SelectAccountError,
  SwitchChainError,
  toConnectionError,
} from '../../errors/connection'
import type {
  ChainId,
  ChosenWallet,
  ConnectInput,
  ConnectionAccount,
  ConnectionContext,
  ConnectionEmitted,
  ConnectionEvent,
  ConnectionInput,
  ConnectionNotice,
  ConnectionTag,
  ConnectOutput,
  ConnectorInfo,
  ConnectTarget,
  PersistRequest,
  RecentWallet,
  ReconnectOutput,
  SharedAccount,
  WalletLinking,
} from './types'

/**
 * The connection machine's setup: its types, its actor slots (every effect), the SPEC §4 time limits as named
 * delays, its guards and its actions. The chart that uses them is `../connection.ts`.
 */

/** What a disconnected connection holds; the start and every reset (SPEC §4) come back to it. */
export const DISCONNECTED = {
  account: undefined,
  allAccounts: [],
  addressLabels: {},
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

export const connectionSetup = setup({
  types: {
    context: {} as ConnectionContext,
    events: {} as ConnectionEvent,
    input: {} as ConnectionInput,
    tags: {} as ConnectionTag,
    emitted: {} as ConnectionEmitted,
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
    /**
     * Makes another of the wallet's shared accounts the connector's active one, so what the kit sends through it
     * (transactions, signatures) comes from that account; answers the address. A namespace whose requests name
     * their account themselves needs nothing more than the kit's own state: this default.
     */
    selectAccount: fromPromise<string, { connectorId: string; address: string }>(
      async ({ input }) => input.address,
    ),
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
    /** Ours (src/constants.ts): making another shared account the one shown. */
    selectAccountTimeout: SELECT_ACCOUNT_TIMEOUT_MS,
  },
  guards: {
    hasAccount: (_, output: ReconnectOutput) => output.account !== undefined,
    hasLinking: (_, output: ReconnectOutput) => output.linking !== undefined,
    /** SPEC §3 Verify context: wallets will warn of this domain (not one of the project's, or a known scam). */
    domainUnverified: (_, verification: DomainVerification) =>
      verification.validation === 'INVALID' || verification.isScam,
    hasTarget: ({ context }) => context.target !== undefined,
    /** The connect under way is this namespace's side of another namespace's pairing (SPEC §1 `multichain`). */
    connectingAlong: ({ context }) => context.target?.along === true,
    /** SPEC §3 allAccounts: the address asked for is one the wallet shares here, and not the one shown already. */
    accountShared: ({ context, event }) => {
      assertEvent(event, 'connection.selectAccount')
      const shown = context.account?.address
      return (
        shown !== undefined &&
        !sameAccount(event.address, shown) &&
        context.allAccounts.some((shared) => sameAccount(shared.address, event.address))
      )
    },
    /**
     * The account chosen is not the one shown yet: the connector answered without its own change (which, when it
     * comes first, already showed it and told the kit).
     */
    notShownYet: ({ context }, address: string) =>
      context.account !== undefined && !sameAccount(context.account.address, address),
    /** The wallet's change shows another address than the one shown (it switched, or the visitor chose one). */
    addressChanged: ({ context, event }) => {
      assertEvent(event, 'connection.changed')
      return context.account !== undefined && !sameAccount(event.account.address, context.account.address)
    },
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
        ...sharedAccounts(output.account, []),
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
        ...sharedAccounts(event.account, []),
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
          ...(event.alsoPropose?.length ? { alsoPropose: event.alsoPropose } : {}),
          ...(event.along ? { along: true as const } : {}),
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
        ...sharedAccounts(output.account, []),
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
        ...sharedAccounts(event.account, context.allAccounts),
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
    /** The chosen account is the one shown (its connector made it active). */
    showSelectedAccount: assign(({ context }, address: string) =>
      context.account
        ? { account: { ...context.account, address } as ConnectionAccount, error: undefined }
        : {},
    ),
    clearError: assign({ error: undefined }),
    setSelectAccountError: assign((_, error: unknown) => ({
      error: errorInfo(new SelectAccountError({ cause: error })),
    })),
    setSelectAccountTimedOut: assign({
      error: errorInfo(new SelectAccountError({ details: 'The connector did not answer in time' })),
    }),
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
    notifyAccount: sendParent(
      ({ context }): ConnectionNotice => ({ type: 'account.changed', account: context.account! }),
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
    /** SPEC §7: a connect that failed (declined, refused, timed out), for the kit's error telemetry. */
    reportConnectFailure: emit(
      (_, error: unknown): ConnectionEmitted => ({
        type: 'connection.failed',
        event: 'CONNECT_ERROR',
        report: errorReportOf(toConnectionError(error)),
      }),
    ),
    /** SPEC §7, §8: a disconnect that failed on this namespace, reported as 'Failed to disconnect chains'. */
    reportDisconnectFailure: emit(
      ({ context }, error: unknown): ConnectionEmitted => ({
        type: 'connection.failed',
        event: 'DISCONNECT_ERROR',
        report: errorReportOf(chainsDisconnectError([context.namespace], error)),
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

/** Addresses compared as a wallet means them (eip155 hex in any case; others as written). */
const sameAccount = (a: string, b: string) =>
  a === b || (a.startsWith('0x') && a.toLowerCase() === b.toLowerCase())

/**
 * SPEC §3 `allAccounts` and `addressLabels` of an account: every address its wallet shares, in the order they
 * were first shared (a connector that puts the chosen one first does not reorder the list the visitor picks
 * from), and the wallet's names of them.
 */
export function sharedAccounts(
  account: ConnectionAccount | undefined,
  before: readonly SharedAccount[],
): { allAccounts: SharedAccount[]; addressLabels: Record<string, string> } {
  if (!account) return { allAccounts: [], addressLabels: {} }
  const namespace = account.namespace ?? 'eip155'
  const addresses = account.addresses.length > 0 ? account.addresses : [account.address]
  const sameSet =
    before.length === addresses.length &&
    before.every(
      (shared) => shared.namespace === namespace && addresses.some((a) => sameAccount(a, shared.address)),
    )
  const allAccounts = sameSet
    ? [...before]
    : addresses.map((address): SharedAccount => ({ namespace, address, type: 'eoa' }))
  return { allAccounts, addressLabels: { ...(account.labels ?? {}) } }
}

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
