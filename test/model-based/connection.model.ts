import { type EventFromLogic, fromPromise, type SnapshotFrom } from 'xstate'
import type { DomainVerification } from '../../src/api/verify'
import { DisconnectError, SwitchChainError, UserRejectedError } from '../../src/errors/connection'
import {
  type ChainId,
  type ConnectionAccount,
  type ConnectOutput,
  type ConnectorInfo,
  connectionMachine,
  type RecentWallet,
  type ReconnectOutput,
  selectConnectFailed,
  selectDomainWarning,
  selectIsBusy,
  selectIsConnected,
  selectIsConnecting,
  selectIsDisconnecting,
  selectIsSwitching,
  selectStatus,
} from '../../src/machines/connection'
import { createModel } from '../../src/testing'

/**
 * The connection machine's model. Wallet calls never settle on their own: each answer is an event of the path
 * (`xstate.done.actor.<invoke id>` with an output, `xstate.error.actor.<invoke id>` with an error), so every
 * order of answers, wallet-side events and visitor actions is a path. The invoke ids are the ones XState
 * derives from the state (`<index>.<state id>`), since the machine names none.
 *
 * The notices to the kit (`sendParent`) need a parent, which a model's root actor has not; here they only
 * check that they are sent with what they announce (the unit tests check what the kit receives).
 */
export const connectionModelMachine = connectionMachine.provide({
  actors: {
    reconnect: fromPromise<ReconnectOutput>(() => new Promise(() => {})),
    connect: fromPromise<ConnectOutput, { connectorId: string }>(() => new Promise(() => {})),
    disconnect: fromPromise<void, { connectorId: string | undefined }>(() => new Promise(() => {})),
    switchChain: fromPromise<ChainId, { chainId: ChainId }>(() => new Promise(() => {})),
    verifyDomain: fromPromise<DomainVerification, { uri: string }>(() => new Promise(() => {})),
    resumePairing: fromPromise<ConnectOutput, { connectorId: string }>(() => new Promise(() => {})),
    selectAccount: fromPromise<string, { connectorId: string; address: string }>(() => new Promise(() => {})),
  },
  actions: {
    notifyConnected: ({ context }) => {
      if (!context.account) throw new Error('account.connected without an account')
    },
    notifyReconnected: ({ context }) => {
      if (!context.account) throw new Error('account.connected (reconnected) without an account')
    },
    notifyChain: ({ context }) => {
      if (!context.account) throw new Error('account.chainChanged without an account')
    },
    notifyAccount: ({ context }) => {
      if (!context.account) throw new Error('account.changed without an account')
    },
    notifyDisconnected: ({ context }) => {
      if (context.account) throw new Error('account.disconnected with an account')
    },
    notifyTimedOut: ({ context }) => {
      if (context.error?.name !== 'ConnectTimeoutError') throw new Error('request.timedOut without its error')
    },
    notifyDomainUnverified: (_, verification: DomainVerification) => {
      if (verification.validation !== 'INVALID' && !verification.isScam)
        throw new Error('connection.domainUnverified for a domain wallets will not flag')
    },
    notifyFailure: ({ context }) => {
      if (context.error?.message !== 'Failed to disconnect')
        throw new Error('a failure toast without its error')
    },
  },
})

type Machine = typeof connectionModelMachine
export type ConnectionModelSnapshot = SnapshotFrom<Machine>
type Event = EventFromLogic<Machine>

/** The invoke ids of the machine's wallet calls (see the file comment). */
export const INVOKE = {
  reconnect: '0.connection.reconnecting',
  connect: '0.connection.connecting',
  switchChain: '0.connection.connected.switching',
  disconnect: '0.connection.disconnecting',
  verifyDomain: '0.connection.connecting.pairing',
  resumePairing: '0.connection.resuming',
  selectAccount: '0.connection.connected.selectingAccount',
} as const

const ALICE = '0x00000000000000000000000000000000000a11ce'
/** The second account the wallet shares (SPEC §3 allAccounts). */
const BOB = '0x0000000000000000000000000000000000000b0b'
const injected: ConnectionAccount = {
  address: ALICE,
  addresses: [ALICE, BOB],
  chainId: 1,
  connectorId: 'io.metamask',
}
const recent = (id: string): RecentWallet => ({ id, name: id, connectorId: id })
const connectors: ConnectorInfo[] = [
  { id: 'io.metamask', name: 'MetaMask', type: 'announced', chain: 'eip155', rdns: 'io.metamask' },
  { id: 'walletConnect', name: 'WalletConnect', type: 'walletconnect', chain: 'eip155' },
]
/** Far in the future, so a pairing the model reuses is valid whenever the model runs. */
const EXPIRY = 4_102_444_800_000

// The done and error events of invoked actors are machine-internal types, so they are cast as events.
export const answers = [
  {
    type: `xstate.done.actor.${INVOKE.reconnect}`,
    output: {
      account: injected,
      connections: { 'io.metamask': { accounts: [ALICE], chainId: 1 } },
      recentWallets: [recent('io.metamask')],
    },
  },
  {
    type: `xstate.done.actor.${INVOKE.reconnect}`,
    output: { account: undefined, connections: {}, recentWallets: [recent('a'), recent('b'), recent('c')] },
  },
  { type: `xstate.error.actor.${INVOKE.reconnect}`, error: new Error('storage unreadable') },
  // A wallet opened by its mobile link before the page went away: its pairing is resumed (issue 18 item 5).
  {
    type: `xstate.done.actor.${INVOKE.reconnect}`,
    output: {
      account: undefined,
      connections: {},
      recentWallets: [],
      linking: { id: 'rainbow', name: 'Rainbow', connectorId: 'walletConnect', href: 'rainbow://wc?uri=x' },
    },
  },
  {
    type: `xstate.done.actor.${INVOKE.resumePairing}`,
    output: {
      account: { ...injected, connectorId: 'walletConnect' },
      connections: { walletConnect: { accounts: [ALICE], chainId: 1 } },
    },
  },
  { type: `xstate.error.actor.${INVOKE.resumePairing}`, error: new Error('no session') },
  {
    type: `xstate.done.actor.${INVOKE.connect}`,
    output: {
      account: { ...injected, connectorId: 'walletConnect' },
      connections: { walletConnect: { accounts: [ALICE], chainId: 1 } },
    },
  },
  { type: `xstate.error.actor.${INVOKE.connect}`, error: new UserRejectedError() },
  { type: `xstate.done.actor.${INVOKE.switchChain}`, output: 10 },
  { type: `xstate.error.actor.${INVOKE.switchChain}`, error: new SwitchChainError() },
  { type: `xstate.done.actor.${INVOKE.disconnect}`, output: undefined },
  { type: `xstate.error.actor.${INVOKE.disconnect}`, error: new DisconnectError() },
  {
    type: `xstate.done.actor.${INVOKE.verifyDomain}`,
    output: { origin: 'https://app.example', validation: 'INVALID', isScam: false },
  },
  {
    type: `xstate.done.actor.${INVOKE.verifyDomain}`,
    output: { origin: 'https://app.example', validation: 'VALID', isScam: false },
  },
  { type: `xstate.error.actor.${INVOKE.verifyDomain}`, error: new Error('Verify unreachable') },
  { type: `xstate.done.actor.${INVOKE.selectAccount}`, output: BOB },
  // The connector's own change came first and already showed the chosen account (the address shown answered).
  { type: `xstate.done.actor.${INVOKE.selectAccount}`, output: ALICE },
  { type: `xstate.error.actor.${INVOKE.selectAccount}`, error: new Error('connector gone') },
] as unknown as Event[]

export const connectionEvents: Event[] = [
  // WalletConnect first: paths are picked breadth first in this order, and only WalletConnect has pairings.
  // Rainbow has a mobile link: on a mobile browser it is opened by it (issue 18 item 5).
  {
    type: 'connection.connect',
    connectorId: 'walletConnect',
    wallet: { id: 'rainbow', name: 'Rainbow', mobileLink: 'rainbow://' },
  },
  { type: 'connection.connect', connectorId: 'io.metamask' },
  // This namespace's side of another namespace's pairing (SPEC §1 multichain): a failure there is nothing failed.
  { type: 'connection.connect', connectorId: 'multichain', along: true },
  { type: 'connection.cancel' },
  { type: 'connection.retry' },
  { type: 'connection.reset' },
  { type: 'connection.disconnect' },
  { type: 'connection.switchChain', chainId: 10 },
  { type: 'connection.preferChain', chainId: 10 },
  { type: 'connection.changed', account: { ...injected, chainId: 999 } },
  // The wallet switched to its second account (or made the one the visitor chose its active one).
  { type: 'connection.changed', account: { ...injected, address: BOB, addresses: [BOB, ALICE] } },
  { type: 'connection.selectAccount', address: BOB },
  { type: 'connection.lost' },
  { type: 'connection.connectors', connectors },
  { type: 'connection.wcUri', uri: 'wc:7f6e@2?relay-protocol=irn&symKey=587d', expiry: EXPIRY },
  { type: 'connection.wcLinking', name: 'Rainbow', href: 'rainbow://' },
  { type: 'connection.pairingExpired' },
  // wagmi connected after the reconnect at start ran past its limit: adopted (issue 33 point 8).
  {
    type: 'connection.reconnectedLate',
    account: injected,
    connections: { 'io.metamask': { accounts: [ALICE], chainId: 1 } },
  },
  ...answers,
]

/**
 * State identity: the state, and of the context only what decides where the machine can go (the target's
 * connector, for reusing a pairing) and what the invariants speak of. Addresses, lists and chains are the
 * unit tests' business; without them the graph is finite.
 */
export function serializeConnection(snapshot: ConnectionModelSnapshot): string {
  const { account, error, wcUri, target } = snapshot.context
  return JSON.stringify({
    value: snapshot.value,
    verified: snapshot.context.domainVerification?.validation ?? null,
    warning: selectDomainWarning(snapshot)?.kind ?? null,
    account: account !== undefined,
    error: error !== undefined,
    wcUri: wcUri !== undefined,
    target: target?.connectorId ?? null,
    linking: snapshot.context.wcLinking !== undefined,
  })
}

/**
 * With and without the Telegram / iOS Safari rule (SPEC §4): only the first ever reuses a pairing. The first is
 * a mobile browser too (iOS Safari), where a wallet with a mobile link is opened by it.
 */
export const connectionModel = (reusePairing: boolean) =>
  createModel(connectionModelMachine, {
    events: connectionEvents,
    input: { supportedChainIds: [1, 10], reusePairing, mobile: reusePairing },
    serializeState: serializeConnection,
  })

const STATUSES = ['disconnected', 'connecting', 'reconnecting', 'connected'] as const

/** What must hold in every state of the connection. */
export function connectionInvariant(snapshot: ConnectionModelSnapshot): void {
  const { account, connections, error, wcUri, wcError, buffering, target, recentWallets } = snapshot.context
  const fail = (message: string) => {
    throw new Error(`${message} in ${JSON.stringify(snapshot.value)}`)
  }
  if (snapshot.status !== 'active') fail(`actor ${snapshot.status}`)

  const status = selectStatus(snapshot)
  if (!STATUSES.includes(status)) fail(`status ${status}`)
  const expected = snapshot.matches('reconnecting')
    ? 'reconnecting'
    : snapshot.matches('connecting') || snapshot.matches('resuming')
      ? 'connecting'
      : snapshot.matches('disconnected')
        ? 'disconnected'
        : 'connected'
  if (status !== expected) fail(`status ${status}, expected ${expected}`)

  const busy =
    snapshot.matches('reconnecting') ||
    snapshot.matches('connecting') ||
    snapshot.matches('resuming') ||
    snapshot.matches({ connected: 'switching' }) ||
    snapshot.matches({ connected: 'selectingAccount' }) ||
    snapshot.matches('disconnecting')
  if (snapshot.hasTag('busy') !== busy) fail('busy tag out of step')
  if (snapshot.hasTag('failed') !== snapshot.matches({ disconnected: 'failed' }))
    fail('failed tag out of step')
  // The selectors the views read follow the states.
  if (selectIsBusy(snapshot) !== busy) fail('selectIsBusy out of step')
  if (selectConnectFailed(snapshot) !== snapshot.matches({ disconnected: 'failed' }))
    fail('selectConnectFailed out of step')
  if (selectIsConnecting(snapshot) !== (snapshot.matches('connecting') || snapshot.matches('resuming')))
    fail('selectIsConnecting out of step')
  if (selectIsConnected(snapshot) !== snapshot.matches('connected')) fail('selectIsConnected out of step')
  if (selectIsSwitching(snapshot) !== snapshot.matches({ connected: 'switching' }))
    fail('selectIsSwitching out of step')
  if (selectIsDisconnecting(snapshot) !== snapshot.matches('disconnecting'))
    fail('selectIsDisconnecting out of step')

  // The Verify warning speaks of the pairing on screen only (SPEC §3 Verify context).
  if (selectDomainWarning(snapshot) && !snapshot.matches({ connecting: 'pairing' }))
    fail('a domain warning with no pairing shown')
  if (status === 'connected') {
    if (!account) fail('connected without an account')
    else if (!connections[account.connectorId]) fail('the connected account is not in the connections')
    // SPEC §3 allAccounts: the account shown is one the wallet shares, each listed once.
    else if (!snapshot.context.allAccounts.some((shared) => shared.address === account.address))
      fail('the account shown is not one of allAccounts')
    if (
      new Set(snapshot.context.allAccounts.map((a) => a.address)).size !== snapshot.context.allAccounts.length
    )
      fail('an account listed twice')
  } else if (account || snapshot.context.allAccounts.length > 0) fail('an account while not connected')

  if (snapshot.matches('disconnected')) {
    if (Object.keys(connections).length > 0) fail('connections while disconnected')
    if (buffering) fail('buffering while disconnected')
  }
  if (snapshot.matches({ disconnected: 'idle' })) {
    if (wcUri !== undefined) fail('a pairing URI while disconnected')
    // Only a failed disconnect's error stays, to be reported: the disconnect went on regardless (SPEC §8).
    if ((error && error.name !== 'DisconnectError') || target) fail('an error or target left after a reset')
  }
  if (error?.name === 'DisconnectError' && !snapshot.matches('disconnected'))
    fail('a failed disconnect that did not end disconnected')
  if (error?.name === 'ConnectTimeoutError' && !snapshot.matches({ disconnected: 'failed' }))
    fail('a timed-out connect outside failed')
  if (snapshot.matches({ disconnected: 'failed' })) {
    // The pairing URI may stay: it is what a reused pairing shows again (SPEC §4).
    if (!error) fail('failed without an error')
    if (!target) fail('failed without a target to retry')
  }
  if (wcError && !(snapshot.matches({ disconnected: 'failed' }) && target?.connectorId === 'walletConnect'))
    fail('wcError outside a failed WalletConnect attempt')

  // The link a wallet was opened by goes with its pairing: cancelled, failed or reset (SPEC §3).
  if (snapshot.context.wcLinking && (snapshot.matches('disconnected') || snapshot.matches('reconnecting')))
    fail('a wallet link while disconnected')
  if (snapshot.matches('resuming') && target?.method !== 'mobile') fail('resuming other than a mobile link')
  if (snapshot.matches('connecting') || snapshot.matches('resuming')) {
    if (!target) fail('connecting without a target')
    if (error) fail('connecting with an old error')
  }
  if (snapshot.matches({ connecting: 'requesting' }) && (!buffering || wcUri !== undefined))
    fail('requesting without buffering, or with a URI')
  if (snapshot.matches({ connecting: 'pairing' }) && (buffering || wcUri === undefined))
    fail('pairing without a URI')

  if (recentWallets.length > 2) fail('more than two recent wallets')
  if (new Set(recentWallets.map((w) => w.id)).size !== recentWallets.length) fail('a recent wallet twice')
}
