import { UserRejectedRequestError } from 'viem'
import { describe, expect, it } from 'vitest'
import {
  type ActorRefFrom,
  createActor,
  fromCallback,
  fromPromise,
  SimulatedClock,
  type SnapshotFrom,
  setup,
} from 'xstate'
import {
  CONNECT_TIMEOUT_MS,
  DISCONNECT_TIMEOUT_MS,
  RECONNECT_TIMEOUT_MS,
  RESUME_LINKING_TIMEOUT_MS,
  SWITCH_CHAIN_TIMEOUT_MS,
} from '../constants'
import { DisconnectError, SwitchChainError } from '../errors/connection'
import {
  type ChainId,
  type ChosenWallet,
  type ConnectionAccount,
  type ConnectionEvent,
  type ConnectionInput,
  type ConnectionNotice,
  type ConnectOutput,
  type ConnectorInfo,
  connectionMachine,
  type Eip155Account,
  type PersistRequest,
  type RecentWallet,
  type ReconnectOutput,
  selectStatus,
} from './connection'

/** One call of a promise slot: what it was given, and the hands to settle it with. */
interface Call<TInput, TOutput> {
  input: TInput
  signal: AbortSignal
  resolve: (output: TOutput) => void
  reject: (error: unknown) => void
}

/** A callback slot's live instance: its input, the way to talk back to the machine, and whether it stopped. */
interface Watcher<TInput> {
  input: TInput
  sendBack: (event: ConnectionEvent) => void
  stopped: boolean
}

const ALICE = '0x00000000000000000000000000000000000a11ce'
const BOB = '0x0000000000000000000000000000000000000b0b'

const account = (overrides: Partial<Eip155Account> = {}): Eip155Account => ({
  address: ALICE,
  addresses: [ALICE, BOB],
  chainId: 1,
  connectorId: 'io.metamask',
  ...overrides,
})
const connectionsOf = (a: ConnectionAccount) => ({
  [a.connectorId]: { accounts: a.addresses, chainId: a.chainId },
})
const recent = (id: string): RecentWallet => ({ id, name: `Wallet ${id}`, connectorId: id })

const CONNECTORS: ConnectorInfo[] = [
  { id: 'io.metamask', name: 'MetaMask', type: 'announced', chain: 'eip155', rdns: 'io.metamask' },
  { id: 'walletConnect', name: 'WalletConnect', type: 'walletconnect', chain: 'eip155' },
]

const WC_URI = 'wc:7f6e@2?relay-protocol=irn&symKey=587d&expiryTimestamp=4102444800'

/**
 * The real machine with every actor slot replaced by a fake the test drives, run as the child of a tiny
 * parent so its `sendParent` notices can be read, as the kit would receive them.
 */
function harness(input: ConnectionInput = { supportedChainIds: [1, 10] }, clock?: SimulatedClock) {
  const calls = {
    reconnect: [] as Call<unknown, ReconnectOutput>[],
    connect: [] as Call<{ connectorId: string }, ConnectOutput>[],
    disconnect: [] as Call<{ connectorId: string | undefined }, void>[],
    switchChain: [] as Call<{ chainId: ChainId }, ChainId>[],
    resumePairing: [] as Call<{ connectorId: string }, ConnectOutput>[],
  }
  const watchers = {
    connection: [] as Watcher<{ connectorId: string }>[],
    pairing: [] as Watcher<{ connectorId: string }>[],
    connectors: [] as Watcher<unknown>[],
    openWallet: [] as Watcher<{ connectorId: string; wallet: ChosenWallet; uri: string }>[],
    lateReconnect: [] as Watcher<unknown>[],
  }
  const persisted: PersistRequest[] = []
  const notices: ConnectionNotice[] = []

  const promiseSlot = <TInput, TOutput>(list: Call<TInput, TOutput>[]) =>
    fromPromise<TOutput, TInput>(
      ({ input, signal }) =>
        new Promise<TOutput>((resolve, reject) => {
          list.push({ input, signal, resolve, reject })
        }),
    )
  const callbackSlot = <TInput>(list: Watcher<TInput>[]) =>
    fromCallback<ConnectionEvent, TInput>(({ input, sendBack }) => {
      const watcher: Watcher<TInput> = { input, sendBack, stopped: false }
      list.push(watcher)
      return () => {
        watcher.stopped = true
      }
    })

  const machine = connectionMachine.provide({
    actors: {
      reconnect: promiseSlot(calls.reconnect),
      connect: promiseSlot(calls.connect),
      disconnect: promiseSlot(calls.disconnect),
      switchChain: promiseSlot(calls.switchChain),
      watchConnection: callbackSlot(watchers.connection),
      watchPairing: callbackSlot(watchers.pairing),
      watchConnectors: callbackSlot(watchers.connectors),
      openWallet: callbackSlot(watchers.openWallet),
      watchLateReconnect: callbackSlot(watchers.lateReconnect),
      resumePairing: promiseSlot(calls.resumePairing),
      persistence: fromCallback<PersistRequest>(({ receive }) => {
        receive((request) => persisted.push(request))
      }),
    },
  })
  const parent = setup({
    types: { events: {} as ConnectionNotice },
    actors: { connection: machine },
  }).createMachine({
    invoke: { id: 'connection', src: 'connection', input },
    on: {
      'account.*': { actions: ({ event }) => notices.push(event) },
      'toast.*': { actions: ({ event }) => notices.push(event) },
      'request.*': { actions: ({ event }) => notices.push(event) },
    },
  })
  const root = createActor(parent, clock ? { clock } : {}).start()
  const connection = root.getSnapshot().children.connection as ActorRefFrom<typeof machine>
  const snapshot = () => connection.getSnapshot()
  const last = <T>(list: T[]): T => {
    const item = list.at(-1)
    if (item === undefined) throw new Error('nothing was called')
    return item
  }
  return {
    connection,
    calls,
    watchers,
    persisted,
    notices,
    snapshot,
    context: () => snapshot().context,
    status: () => selectStatus(snapshot()),
    send: (event: ConnectionEvent) => connection.send(event),
    last,
    /** The wallet side: an event from the live `watchConnection` instance. */
    fromWallet: (event: ConnectionEvent) => last(watchers.connection).sendBack(event),
    stop: () => root.stop(),
  }
}

type Harness = ReturnType<typeof harness>

/** Lets settled promises reach the machine. */
const flush = () => new Promise((resolve) => setTimeout(resolve, 0))

async function startDisconnected(h: Harness, recentWallets: RecentWallet[] = []) {
  h.last(h.calls.reconnect).resolve({ account: undefined, connections: {}, recentWallets })
  await flush()
  expect(h.snapshot().value).toEqual({ disconnected: 'idle' })
}

async function connectWith(h: Harness, connected: ConnectionAccount, event?: Partial<ConnectionEvent>) {
  h.send({ type: 'connection.connect', connectorId: connected.connectorId, ...event } as ConnectionEvent)
  h.last(h.calls.connect).resolve({ account: connected, connections: connectionsOf(connected) })
  await flush()
  expect(h.snapshot().value).toEqual({ connected: 'idle' })
}

const rejected4001 = () => new UserRejectedRequestError(new Error('MetaMask Tx Signature: User denied.'))

describe('connectionMachine: reconnect at start (SPEC §4)', () => {
  it('reconnects an authorised connector: connected, and the kit hears of the account and its chain', async () => {
    const h = harness()
    expect(h.status()).toBe('reconnecting')
    expect(h.snapshot().hasTag('busy')).toBe(true)
    const a = account({ chainId: 10 })
    h.last(h.calls.reconnect).resolve({
      account: a,
      connections: connectionsOf(a),
      recentWallets: [recent('io.metamask'), recent('b'), recent('c')],
    })
    await flush()
    expect(h.snapshot().value).toEqual({ connected: 'idle' })
    expect(h.status()).toBe('connected')
    expect(h.context().account).toEqual(a)
    expect(h.context().connections).toEqual(connectionsOf(a))
    expect(h.context().recentWallets.map((w) => w.id)).toEqual(['io.metamask', 'b'])
    expect(h.context().recentWallet?.id).toBe('io.metamask')
    expect(h.notices).toEqual([
      { type: 'account.connected', account: a, method: 'browser', reconnected: true },
      { type: 'account.chainChanged', chainId: 10, supported: true, namespace: 'eip155' },
    ])
    // The wallet is followed from now on, for the connector that reconnected.
    expect(h.last(h.watchers.connection)).toMatchObject({
      input: { connectorId: 'io.metamask' },
      stopped: false,
    })
    h.stop()
  })

  it('tells the kit when the reconnected chain is not one the app asked for', async () => {
    const h = harness({ supportedChainIds: [1] })
    const a = account({ chainId: 56 })
    h.last(h.calls.reconnect).resolve({ account: a, connections: connectionsOf(a), recentWallets: [] })
    await flush()
    expect(h.notices.at(-1)).toEqual({
      type: 'account.chainChanged',
      chainId: 56,
      supported: false,
      namespace: 'eip155',
    })
    h.stop()
  })

  it('without an authorised connector: disconnected with empty connections, recent wallets kept', async () => {
    const h = harness()
    h.last(h.calls.reconnect).resolve({
      account: undefined,
      connections: {},
      recentWallets: [recent('a'), recent('b'), recent('c')],
    })
    await flush()
    expect(h.snapshot().value).toEqual({ disconnected: 'idle' })
    expect(h.status()).toBe('disconnected')
    expect(h.context()).toMatchObject({ account: undefined, connections: {}, recentWallet: undefined })
    expect(h.context().recentWallets.map((w) => w.id)).toEqual(['a', 'b'])
    expect(h.notices).toEqual([])
    h.stop()
  })

  it('a failed reconnect is disconnected with empty connections, no error shown', async () => {
    const h = harness()
    h.last(h.calls.reconnect).reject(new Error('storage unreadable'))
    await flush()
    expect(h.snapshot().value).toEqual({ disconnected: 'idle' })
    expect(h.snapshot().status).toBe('active')
    expect(h.context()).toMatchObject({ account: undefined, connections: {}, error: undefined })
    expect(h.notices).toEqual([])
    h.stop()
  })
})

describe('connectionMachine: connecting', () => {
  it('connects: stores the wallet first in recent wallets (max 2, no duplicates) and notifies the kit', async () => {
    const h = harness()
    await startDisconnected(h, [recent('a'), recent('io.metamask')])
    h.last(h.watchers.connectors).sendBack({ type: 'connection.connectors', connectors: CONNECTORS })

    h.send({ type: 'connection.connect', connectorId: 'io.metamask' })
    expect(h.snapshot().value).toEqual({ connecting: 'requesting' })
    expect(h.status()).toBe('connecting')
    expect(h.snapshot().hasTag('busy')).toBe(true)
    expect(h.last(h.calls.connect).input).toEqual({ connectorId: 'io.metamask' })
    const a = account()
    h.last(h.calls.connect).resolve({ account: a, connections: connectionsOf(a) })
    await flush()

    expect(h.snapshot().value).toEqual({ connected: 'idle' })
    // Named after the connector, since no listing wallet was picked.
    const metamask = { id: 'io.metamask', name: 'MetaMask', connectorId: 'io.metamask', rdns: 'io.metamask' }
    expect(h.context().recentWallet).toEqual(metamask)
    expect(h.context().recentWallets.map((w) => w.id)).toEqual(['io.metamask', 'a'])
    expect(h.persisted).toEqual([
      { type: 'persist.connected', recentWallets: [metamask, recent('a')], wallet: metamask, chainId: 1 },
    ])
    expect(h.notices).toEqual([
      { type: 'account.connected', account: a, method: 'browser', reconnected: false },
      { type: 'account.chainChanged', chainId: 1, supported: true, namespace: 'eip155' },
    ])
    h.stop()
  })

  it('a wallet picked from the listing is remembered as that wallet, most recent first, at most two', async () => {
    const h = harness()
    await startDisconnected(h, [recent('a'), recent('b')])
    const zerion = { id: 'zerion', name: 'Zerion', imageUrl: 'https://img.example/zerion.png' }
    await connectWith(h, account({ connectorId: 'walletConnect' }), {
      connectorId: 'walletConnect',
      wallet: zerion,
    })
    const stored = { ...zerion, connectorId: 'walletConnect' }
    expect(h.context().recentWallets).toEqual([stored, recent('a')])
    expect(h.notices[0]).toMatchObject({ type: 'account.connected', method: 'qrcode' })
    expect(h.persisted.at(-1)).toMatchObject({ type: 'persist.connected', wallet: stored })
    h.stop()
  })

  it('a declined connection (4001) fails with the SPEC text; retry tries the same target again', async () => {
    const h = harness()
    await startDisconnected(h)
    const wallet = { id: 'rainbow', name: 'Rainbow' }
    h.send({ type: 'connection.connect', connectorId: 'me.rainbow', wallet, method: 'mobile' })
    h.last(h.calls.connect).reject(rejected4001())
    await flush()
    expect(h.snapshot().value).toEqual({ disconnected: 'failed' })
    expect(h.snapshot().hasTag('failed')).toBe(true)
    expect(h.status()).toBe('disconnected')
    expect(h.context().error).toEqual({
      name: 'UserRejectedError',
      message: 'Connection declined in the wallet.',
      code: 4001,
    })
    expect(h.context().wcError).toBe(false)
    expect(h.notices).toEqual([])

    h.send({ type: 'connection.retry' })
    expect(h.snapshot().value).toEqual({ connecting: 'requesting' })
    // A fresh attempt carries no error of the last one.
    expect(h.context().error).toBeUndefined()
    expect(h.calls.connect).toHaveLength(2)
    expect(h.last(h.calls.connect).input).toEqual({ connectorId: 'me.rainbow' })
    expect(h.context().target).toEqual({ connectorId: 'me.rainbow', wallet, method: 'mobile' })
    const a = account({ connectorId: 'me.rainbow' })
    h.last(h.calls.connect).resolve({ account: a, connections: connectionsOf(a) })
    await flush()
    expect(h.context().error).toBeUndefined()
    expect(h.notices[0]).toMatchObject({ type: 'account.connected', method: 'mobile', reconnected: false })
    h.stop()
  })

  it('a failed WalletConnect attempt flags wcError; a new attempt clears the error', async () => {
    const h = harness()
    await startDisconnected(h)
    h.send({ type: 'connection.connect', connectorId: 'walletConnect' })
    h.last(h.calls.connect).reject(new Error('Proposal expired'))
    await flush()
    expect(h.context()).toMatchObject({
      wcError: true,
      error: { name: 'BaseError', message: 'Connection failed.' },
    })
    h.send({ type: 'connection.connect', connectorId: 'walletConnect' })
    expect(h.context()).toMatchObject({ wcError: false, error: undefined })
    h.stop()
  })

  it('retry is only offered after a failure; reset leaves the failure', async () => {
    const h = harness()
    await startDisconnected(h)
    expect(h.snapshot().can({ type: 'connection.retry' })).toBe(false)
    h.send({ type: 'connection.connect', connectorId: 'io.metamask' })
    h.last(h.calls.connect).reject(rejected4001())
    await flush()
    expect(h.snapshot().can({ type: 'connection.retry' })).toBe(true)
    h.send({ type: 'connection.reset' })
    expect(h.snapshot().value).toEqual({ disconnected: 'idle' })
    expect(h.context()).toMatchObject({ error: undefined, target: undefined })
    expect(h.snapshot().can({ type: 'connection.retry' })).toBe(false)
    h.stop()
  })

  it('cancel while connecting: disconnected, the attempt is aborted, and its late answer is ignored', async () => {
    const h = harness()
    await startDisconnected(h)
    h.send({ type: 'connection.connect', connectorId: 'io.metamask' })
    const attempt = h.last(h.calls.connect)
    const pairing = h.last(h.watchers.pairing)
    expect(attempt.signal.aborted).toBe(false)
    h.send({ type: 'connection.cancel' })
    expect(h.snapshot().value).toEqual({ disconnected: 'idle' })
    expect(attempt.signal.aborted).toBe(true)
    expect(pairing.stopped).toBe(true)
    expect(h.context()).toMatchObject({ target: undefined, buffering: false, wcUri: undefined })

    const a = account()
    attempt.resolve({ account: a, connections: connectionsOf(a) })
    await flush()
    expect(h.snapshot().value).toEqual({ disconnected: 'idle' })
    expect(h.context().account).toBeUndefined()
    expect(h.notices).toEqual([])
    expect(h.persisted).toEqual([])
    h.stop()
  })
})

describe('connectionMachine: WalletConnect pairing', () => {
  it('shows the pairing URI and its expiry from watchPairing; the deep link is kept', async () => {
    const h = harness()
    await startDisconnected(h)
    h.send({ type: 'connection.connect', connectorId: 'walletConnect' })
    expect(h.context().buffering).toBe(true)
    expect(h.context().target?.method).toBe('qrcode')
    const watcher = h.last(h.watchers.pairing)
    expect(watcher.input).toEqual({ connectorId: 'walletConnect' })
    watcher.sendBack({ type: 'connection.wcUri', uri: WC_URI, expiry: 4_102_444_800_000 })
    expect(h.snapshot().value).toEqual({ connecting: 'pairing' })
    expect(h.status()).toBe('connecting')
    expect(h.context()).toMatchObject({ wcUri: WC_URI, wcPairingExpiry: 4_102_444_800_000, buffering: false })
    watcher.sendBack({ type: 'connection.wcLinking', name: 'Rainbow', href: 'rainbow://' })
    expect(h.context().wcLinking).toEqual({ name: 'Rainbow', href: 'rainbow://' })
    // Still the one attempt: a URI is shown, not a new request made.
    expect(h.calls.connect).toHaveLength(1)
    h.stop()
  })

  it('an expired pairing starts a fresh attempt (a new connect call), the old one aborted', async () => {
    const h = harness()
    await startDisconnected(h)
    h.send({ type: 'connection.connect', connectorId: 'walletConnect' })
    const first = h.last(h.calls.connect)
    h.last(h.watchers.pairing).sendBack({ type: 'connection.wcUri', uri: WC_URI, expiry: Date.now() + 1 })
    h.last(h.watchers.pairing).sendBack({ type: 'connection.pairingExpired' })
    expect(h.snapshot().value).toEqual({ connecting: 'requesting' })
    expect(h.calls.connect).toHaveLength(2)
    expect(first.signal.aborted).toBe(true)
    expect(h.last(h.calls.connect).input).toEqual({ connectorId: 'walletConnect' })
    expect(h.context()).toMatchObject({ wcUri: undefined, wcPairingExpiry: undefined, buffering: true })
    expect(h.watchers.pairing).toHaveLength(2)
    expect(h.watchers.pairing[0]?.stopped).toBe(true)
    // The new attempt has the same invoke id as the old one: the old one's late answer must not count.
    first.resolve({ account: account(), connections: connectionsOf(account()) })
    await flush()
    expect(h.snapshot().value).toEqual({ connecting: 'requesting' })
    expect(h.notices).toEqual([])
    h.stop()
  })

  /** Connect over WalletConnect, get a URI valid until `expiry`, then have the wallet decline. */
  async function failAfterUri(h: Harness, expiry: number) {
    await startDisconnected(h)
    h.send({ type: 'connection.connect', connectorId: 'walletConnect' })
    h.last(h.watchers.pairing).sendBack({ type: 'connection.wcUri', uri: WC_URI, expiry })
    h.last(h.calls.connect).reject(rejected4001())
    await flush()
    expect(h.snapshot().value).toEqual({ disconnected: 'failed' })
    expect(h.context().wcUri).toBe(WC_URI)
  }

  it('on Telegram or iOS Safari an unexpired pairing is shown again at once (SPEC §4)', async () => {
    const h = harness({ supportedChainIds: [1], reusePairing: true })
    const expiry = Date.now() + 60_000
    await failAfterUri(h, expiry)
    h.send({ type: 'connection.connect', connectorId: 'walletConnect' })
    expect(h.snapshot().value).toEqual({ connecting: 'pairing' })
    expect(h.context()).toMatchObject({
      wcUri: WC_URI,
      wcPairingExpiry: expiry,
      buffering: false,
      error: undefined,
      wcError: false,
    })
    h.stop()
  })

  it('elsewhere, or once the pairing expired, connecting again is a fresh attempt', async () => {
    const elsewhere = harness({ supportedChainIds: [1], reusePairing: false })
    await failAfterUri(elsewhere, Date.now() + 60_000)
    const expired = harness({ supportedChainIds: [1], reusePairing: true })
    await failAfterUri(expired, Date.now() - 1)
    for (const h of [elsewhere, expired]) {
      h.send({ type: 'connection.connect', connectorId: 'walletConnect' })
      expect(h.snapshot().value).toEqual({ connecting: 'requesting' })
      expect(h.calls.connect).toHaveLength(2)
      expect(h.context()).toMatchObject({ wcUri: undefined, wcPairingExpiry: undefined, buffering: true })
      h.stop()
    }
  })

  it('a reused pairing remembers the wallet picked this time, not the one picked before', async () => {
    const h = harness({ supportedChainIds: [1], reusePairing: true })
    await startDisconnected(h)
    const zerion = { id: 'zerion', name: 'Zerion' }
    const rainbow = { id: 'rainbow', name: 'Rainbow' }
    h.send({ type: 'connection.connect', connectorId: 'walletConnect', wallet: zerion })
    h.last(h.watchers.pairing).sendBack({
      type: 'connection.wcUri',
      uri: WC_URI,
      expiry: Date.now() + 60_000,
    })
    h.last(h.calls.connect).reject(rejected4001())
    await flush()
    h.send({ type: 'connection.connect', connectorId: 'walletConnect', wallet: rainbow, method: 'mobile' })
    expect(h.snapshot().value).toEqual({ connecting: 'pairing' })
    const a = account({ connectorId: 'walletConnect' })
    h.last(h.calls.connect).resolve({ account: a, connections: connectionsOf(a) })
    await flush()
    expect(h.context().recentWallet).toEqual({ ...rainbow, connectorId: 'walletConnect' })
    expect(h.notices[0]).toMatchObject({ type: 'account.connected', method: 'mobile' })
    h.stop()
  })

  it('a pairing is not reused for another connector', async () => {
    const h = harness({ supportedChainIds: [1], reusePairing: true })
    await failAfterUri(h, Date.now() + 60_000)
    h.send({ type: 'connection.connect', connectorId: 'io.metamask' })
    expect(h.snapshot().value).toEqual({ connecting: 'requesting' })
    expect(h.context().target?.connectorId).toBe('io.metamask')
    h.stop()
  })
})

describe('connectionMachine: connected', () => {
  it('a disconnect from the wallet side resets (SPEC §4), forgets the session and tells the kit', async () => {
    const h = harness()
    await startDisconnected(h, [recent('a')])
    h.send({ type: 'connection.connect', connectorId: 'walletConnect' })
    h.last(h.watchers.pairing).sendBack({ type: 'connection.wcUri', uri: WC_URI, expiry: 4_102_444_800_000 })
    h.last(h.watchers.pairing).sendBack({ type: 'connection.wcLinking', name: 'Rainbow', href: 'rainbow://' })
    const a = account({ connectorId: 'walletConnect' })
    h.last(h.calls.connect).resolve({ account: a, connections: connectionsOf(a) })
    await flush()
    expect(h.context().recentWallet).toBeDefined()
    h.notices.length = 0
    h.persisted.length = 0

    h.fromWallet({ type: 'connection.lost' })
    expect(h.snapshot().value).toEqual({ disconnected: 'idle' })
    expect(h.status()).toBe('disconnected')
    expect(h.context()).toMatchObject({
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
    })
    // Recent wallets outlive a disconnect: they are what the Connect view offers next.
    expect(h.context().recentWallets.map((w) => w.id)).toEqual(['walletConnect', 'a'])
    expect(h.persisted).toEqual([{ type: 'persist.disconnected' }])
    expect(h.notices).toEqual([{ type: 'account.disconnected', namespace: 'eip155' }])
    expect(h.watchers.connection.every((w) => w.stopped)).toBe(true)
    h.stop()
  })

  it('an account or chain change in the wallet updates the account and connections and tells the kit', async () => {
    const h = harness({ supportedChainIds: [1, 10] })
    await startDisconnected(h)
    await connectWith(h, account())
    h.notices.length = 0
    h.persisted.length = 0

    const moved = account({ address: BOB, addresses: [BOB], chainId: 999 })
    h.fromWallet({ type: 'connection.changed', account: moved })
    expect(h.snapshot().value).toEqual({ connected: 'idle' })
    expect(h.context().account).toEqual(moved)
    expect(h.context().connections).toEqual({ 'io.metamask': { accounts: [BOB], chainId: 999 } })
    expect(h.persisted).toEqual([{ type: 'persist.chain', chainId: 999 }])
    expect(h.notices).toEqual([
      { type: 'account.chainChanged', chainId: 999, supported: false, namespace: 'eip155' },
    ])

    h.fromWallet({ type: 'connection.changed', account: account({ chainId: 10 }) })
    expect(h.notices.at(-1)).toEqual({
      type: 'account.chainChanged',
      chainId: 10,
      supported: true,
      namespace: 'eip155',
    })
    h.stop()
  })

  it('switches the chain: busy while the wallet decides, then the account follows', async () => {
    const h = harness()
    await startDisconnected(h)
    await connectWith(h, account())
    h.notices.length = 0
    h.persisted.length = 0
    h.send({ type: 'connection.switchChain', chainId: 10 })
    expect(h.snapshot().value).toEqual({ connected: 'switching' })
    expect(h.snapshot().hasTag('busy')).toBe(true)
    expect(h.status()).toBe('connected')
    expect(h.last(h.calls.switchChain).input).toEqual({ chainId: 10 })
    h.last(h.calls.switchChain).resolve(10)
    await flush()
    expect(h.snapshot().value).toEqual({ connected: 'idle' })
    expect(h.context().account?.chainId).toBe(10)
    expect(h.persisted).toEqual([{ type: 'persist.chain', chainId: 10 }])
    expect(h.notices).toEqual([
      { type: 'account.chainChanged', chainId: 10, supported: true, namespace: 'eip155' },
    ])
    h.stop()
  })

  it('a failed switch keeps the chain and shows "Failed to switch to chain"; a later switch clears it', async () => {
    const h = harness()
    await startDisconnected(h)
    await connectWith(h, account())
    h.notices.length = 0
    h.send({ type: 'connection.switchChain', chainId: 10 })
    // What the eip155 slot throws when the wallet does not know the chain.
    h.last(h.calls.switchChain).reject(
      new SwitchChainError({ cause: Object.assign(new Error('x'), { code: 4902 }) }),
    )
    await flush()
    expect(h.snapshot().value).toEqual({ connected: 'idle' })
    expect(h.context().account?.chainId).toBe(1)
    expect(h.context().error).toEqual({
      name: 'SwitchChainError',
      message: 'Failed to switch to chain',
      code: 4902,
    })
    expect(h.notices).toEqual([])

    h.send({ type: 'connection.switchChain', chainId: 10 })
    h.last(h.calls.switchChain).resolve(10)
    await flush()
    expect(h.context().error).toBeUndefined()
    h.stop()
  })

  it('disconnects: the connector is disconnected, the session forgotten, the kit told', async () => {
    const h = harness()
    await startDisconnected(h)
    await connectWith(h, account())
    h.notices.length = 0
    h.persisted.length = 0
    h.send({ type: 'connection.disconnect' })
    expect(h.snapshot().value).toBe('disconnecting')
    expect(h.status()).toBe('connected')
    expect(h.snapshot().hasTag('busy')).toBe(true)
    expect(h.last(h.calls.disconnect).input).toEqual({ connectorId: 'io.metamask' })
    h.last(h.calls.disconnect).resolve()
    await flush()
    expect(h.snapshot().value).toEqual({ disconnected: 'idle' })
    expect(h.context()).toMatchObject({ account: undefined, connections: {} })
    expect(h.persisted).toEqual([{ type: 'persist.disconnected' }])
    expect(h.notices).toEqual([{ type: 'account.disconnected', namespace: 'eip155' }])
    h.stop()
  })

  it('a failed disconnect still ends disconnected; "Failed to disconnect" is reported (SPEC §8)', async () => {
    const h = harness()
    await startDisconnected(h)
    await connectWith(h, account())
    h.notices.length = 0
    h.persisted.length = 0
    h.send({ type: 'connection.disconnect' })
    h.last(h.calls.disconnect).reject(new DisconnectError({ cause: new Error('provider gone') }))
    await flush()
    expect(h.snapshot().value).toEqual({ disconnected: 'idle' })
    expect(h.context()).toMatchObject({ account: undefined, connections: {} })
    expect(h.context().error).toEqual({ name: 'DisconnectError', message: 'Failed to disconnect' })
    expect(h.persisted).toEqual([{ type: 'persist.disconnected' }])
    expect(h.notices).toEqual([
      { type: 'account.disconnected', namespace: 'eip155' },
      { type: 'toast.show', variant: 'error', message: 'Failed to disconnect' },
    ])
    // The next attempt starts clean.
    h.send({ type: 'connection.connect', connectorId: 'io.metamask' })
    expect(h.context().error).toBeUndefined()
    h.stop()
  })
})

describe('connectionMachine: a wallet that never answers (issue 13 item 2)', () => {
  it('a reconnect that never settles: disconnected after RECONNECT_TIMEOUT_MS, the reconnect abandoned', async () => {
    const clock = new SimulatedClock()
    const h = harness(undefined, clock)
    clock.increment(RECONNECT_TIMEOUT_MS - 1)
    expect(h.snapshot().value).toBe('reconnecting')
    clock.increment(1)
    expect(h.snapshot().value).toEqual({ disconnected: 'lateReconnect' })
    expect(h.status()).toBe('disconnected')
    expect(h.last(h.calls.reconnect).signal.aborted).toBe(true)
    expect(h.context()).toMatchObject({ account: undefined, connections: {}, error: undefined })
    // The abandoned call's late answer changes nothing: what wagmi does next is the watcher's to say.
    const a = account()
    h.last(h.calls.reconnect).resolve({ account: a, connections: connectionsOf(a), recentWallets: [] })
    await flush()
    expect(h.snapshot().value).toEqual({ disconnected: 'lateReconnect' })
    expect(h.notices).toEqual([])
    h.stop()
  })

  // Issue 33 point 8: past the limit the kit said disconnected while wagmi went on to connect, with nothing
  // watching. The rule: a connection wagmi makes after the limit is adopted (`disconnected.lateReconnect`).
  it('wagmi connects after the reconnect limit: the connection is adopted, as a reconnect', async () => {
    const clock = new SimulatedClock()
    const h = harness(undefined, clock)
    clock.increment(RECONNECT_TIMEOUT_MS)
    const watcher = h.last(h.watchers.lateReconnect)
    const a = account()
    watcher.sendBack({ type: 'connection.reconnectedLate', account: a, connections: connectionsOf(a) })
    expect(h.snapshot().value).toEqual({ connected: 'idle' })
    expect(watcher.stopped).toBe(true)
    expect(h.context()).toMatchObject({ account: a, connections: connectionsOf(a) })
    expect(h.notices).toEqual([
      { type: 'account.connected', account: a, method: 'browser', reconnected: true },
      { type: 'account.chainChanged', chainId: a.chainId, supported: true, namespace: 'eip155' },
    ])
    // Followed from now on, as any connection.
    expect(h.last(h.watchers.connection).stopped).toBe(false)
    h.stop()
  })

  it('after the reconnect limit: wagmi giving up ends the watch; a connect or reset leaves it too', async () => {
    const clock = new SimulatedClock()
    const h = harness(undefined, clock)
    clock.increment(RECONNECT_TIMEOUT_MS)
    h.last(h.watchers.lateReconnect).sendBack({ type: 'connection.lost' })
    expect(h.snapshot().value).toEqual({ disconnected: 'idle' })
    expect(h.last(h.watchers.lateReconnect).stopped).toBe(true)
    h.stop()
    const picked = harness(undefined, clock)
    clock.increment(RECONNECT_TIMEOUT_MS)
    picked.send({ type: 'connection.connect', connectorId: 'io.metamask' })
    expect(picked.snapshot().value).toEqual({ connecting: 'requesting' })
    expect(picked.last(picked.watchers.lateReconnect).stopped).toBe(true)
    picked.stop()
    // A connection that is not among the ones reported is not adopted.
    const odd = harness(undefined, clock)
    clock.increment(RECONNECT_TIMEOUT_MS)
    odd.last(odd.watchers.lateReconnect).sendBack({
      type: 'connection.reconnectedLate',
      account: account(),
      connections: {},
    })
    expect(odd.snapshot().value).toEqual({ disconnected: 'lateReconnect' })
    odd.send({ type: 'connection.reset' })
    expect(odd.snapshot().value).toEqual({ disconnected: 'idle' })
    odd.stop()
  })

  it('connect while reconnecting: the visitor’s choice wins, the reconnect is abandoned; reset leaves too', async () => {
    const h = harness()
    h.send({ type: 'connection.connect', connectorId: 'io.metamask' })
    expect(h.snapshot().value).toEqual({ connecting: 'requesting' })
    expect(h.calls.reconnect[0]!.signal.aborted).toBe(true)
    h.send({ type: 'connection.cancel' })
    expect(h.snapshot().value).toEqual({ disconnected: 'idle' })
    h.stop()
    const h2 = harness()
    h2.send({ type: 'connection.reset' })
    expect(h2.snapshot().value).toEqual({ disconnected: 'idle' })
    expect(h2.calls.reconnect[0]!.signal.aborted).toBe(true)
    h2.stop()
  })

  it('a connect request that is never answered fails after CONNECT_TIMEOUT_MS with a clear error', async () => {
    const clock = new SimulatedClock()
    const h = harness(undefined, clock)
    await startDisconnected(h)
    h.send({ type: 'connection.connect', connectorId: 'io.metamask' })
    clock.increment(CONNECT_TIMEOUT_MS - 1)
    expect(h.snapshot().value).toEqual({ connecting: 'requesting' })
    clock.increment(1)
    expect(h.snapshot().value).toEqual({ disconnected: 'failed' })
    expect(h.context().error).toEqual({
      name: 'ConnectTimeoutError',
      message: 'The wallet did not answer in time.',
    })
    // The wallet's prompt is ended (the attempt aborted), and the kit raises SPEC §8's alert.
    expect(h.calls.connect[0]!.signal.aborted).toBe(true)
    expect(h.notices).toEqual([{ type: 'request.timedOut', request: 'connect' }])
    // A late answer does not connect behind the visitor's back.
    h.calls.connect[0]!.resolve({ account: account(), connections: connectionsOf(account()) })
    await flush()
    expect(h.snapshot().value).toEqual({ disconnected: 'failed' })
    // Retry asks again, with the full time.
    h.send({ type: 'connection.retry' })
    clock.increment(CONNECT_TIMEOUT_MS - 1)
    h.last(h.calls.connect).resolve({ account: account(), connections: connectionsOf(account()) })
    await flush()
    expect(h.snapshot().value).toEqual({ connected: 'idle' })
    h.stop()
  })

  it('a shown pairing URI waits for the visitor to scan: its own expiry and cancel end it, not the time limit', async () => {
    const clock = new SimulatedClock()
    const h = harness(undefined, clock)
    await startDisconnected(h)
    h.send({ type: 'connection.connect', connectorId: 'walletConnect' })
    h.last(h.watchers.pairing).sendBack({ type: 'connection.wcUri', uri: WC_URI, expiry: 4_102_444_800_000 })
    clock.increment(CONNECT_TIMEOUT_MS)
    expect(h.snapshot().value).toEqual({ connecting: 'pairing' })
    h.send({ type: 'connection.cancel' })
    expect(h.snapshot().value).toEqual({ disconnected: 'idle' })
    h.stop()
  })

  it('a network switch that is never answered ends after SWITCH_CHAIN_TIMEOUT_MS; the chain is kept', async () => {
    const clock = new SimulatedClock()
    const h = harness(undefined, clock)
    await startDisconnected(h)
    await connectWith(h, account())
    h.send({ type: 'connection.switchChain', chainId: 10 })
    clock.increment(SWITCH_CHAIN_TIMEOUT_MS - 1)
    expect(h.snapshot().value).toEqual({ connected: 'switching' })
    clock.increment(1)
    expect(h.snapshot().value).toEqual({ connected: 'idle' })
    expect(h.last(h.calls.switchChain).signal.aborted).toBe(true)
    expect(h.context().error).toEqual({
      name: 'SwitchChainError',
      message: 'Failed to switch to chain',
      code: 4902,
    })
    expect(h.context().account?.chainId).toBe(1)
    h.stop()
  })

  it('a disconnect that never settles ends disconnected after DISCONNECT_TIMEOUT_MS, "Failed to disconnect" reported', async () => {
    const clock = new SimulatedClock()
    const h = harness(undefined, clock)
    await startDisconnected(h)
    await connectWith(h, account())
    h.notices.length = 0
    h.persisted.length = 0
    h.send({ type: 'connection.disconnect' })
    clock.increment(DISCONNECT_TIMEOUT_MS - 1)
    expect(h.snapshot().value).toBe('disconnecting')
    clock.increment(1)
    expect(h.snapshot().value).toEqual({ disconnected: 'idle' })
    expect(h.context()).toMatchObject({ account: undefined, connections: {} })
    expect(h.context().error).toEqual({ name: 'DisconnectError', message: 'Failed to disconnect' })
    expect(h.persisted).toEqual([{ type: 'persist.disconnected' }])
    expect(h.notices).toEqual([
      { type: 'account.disconnected', namespace: 'eip155' },
      { type: 'toast.show', variant: 'error', message: 'Failed to disconnect' },
    ])
    h.stop()
  })
})

describe('selectStatus', () => {
  it('gives exactly disconnected | connecting | reconnecting | connected over every state', async () => {
    const h = harness()
    const seen = new Map<string, string>()
    const note = () => {
      const s: SnapshotFrom<typeof connectionMachine> = h.snapshot()
      seen.set(JSON.stringify(s.value), selectStatus(s))
    }
    note()
    await startDisconnected(h)
    note()
    h.send({ type: 'connection.connect', connectorId: 'walletConnect' })
    note()
    h.last(h.watchers.pairing).sendBack({ type: 'connection.wcUri', uri: WC_URI, expiry: 4_102_444_800_000 })
    note()
    h.last(h.calls.connect).reject(rejected4001())
    await flush()
    note()
    h.send({ type: 'connection.retry' })
    h.last(h.calls.connect).resolve({ account: account(), connections: connectionsOf(account()) })
    await flush()
    note()
    h.send({ type: 'connection.switchChain', chainId: 10 })
    note()
    h.send({ type: 'connection.disconnect' })
    note()
    expect(Object.fromEntries(seen)).toEqual({
      '"reconnecting"': 'reconnecting',
      '{"disconnected":"idle"}': 'disconnected',
      '{"connecting":"requesting"}': 'connecting',
      '{"connecting":"pairing"}': 'connecting',
      '{"disconnected":"failed"}': 'disconnected',
      '{"connected":"idle"}': 'connected',
      '{"connected":"switching"}': 'connected',
      '"disconnecting"': 'connected',
    })
    h.stop()
  })
})

describe('connectionMachine: a mobile browser opens the wallet by its mobile link (issue 18 item 5)', () => {
  const rainbow: ChosenWallet = { id: 'rainbow', name: 'Rainbow', mobileLink: 'rainbow://' }
  const HREF = `rainbow://wc?uri=${encodeURIComponent(WC_URI)}`
  const wcAccount = account({ connectorId: 'walletConnect' })

  it('a wallet with a mobile link: method mobile; its link opened with the first pairing URI and stored', async () => {
    const h = harness({ supportedChainIds: [1], mobile: true })
    await startDisconnected(h)
    h.send({ type: 'connection.connect', connectorId: 'walletConnect', wallet: rainbow, method: 'qrcode' })
    expect(h.context().target?.method).toBe('mobile')
    expect(h.watchers.openWallet).toHaveLength(0)
    h.last(h.watchers.pairing).sendBack({ type: 'connection.wcUri', uri: WC_URI, expiry: 4_102_444_800_000 })
    expect(h.last(h.watchers.openWallet).input).toEqual({
      connectorId: 'walletConnect',
      wallet: rainbow,
      uri: WC_URI,
    })
    h.last(h.watchers.openWallet).sendBack({ type: 'connection.wcLinking', name: 'Rainbow', href: HREF })
    expect(h.context().wcLinking).toEqual({ name: 'Rainbow', href: HREF })
    expect(h.persisted).toEqual([
      {
        type: 'persist.linking',
        linking: { id: 'rainbow', name: 'Rainbow', connectorId: 'walletConnect', href: HREF },
      },
    ])
    // A later URI of the same attempt (the first expired) is not opened again behind the visitor's back.
    h.last(h.watchers.pairing).sendBack({
      type: 'connection.wcUri',
      uri: `${WC_URI}1`,
      expiry: 4_102_444_800_000,
    })
    expect(h.watchers.openWallet).toHaveLength(1)
    // The wallet approves while the page is still there: connected, the success event says mobile.
    h.last(h.calls.connect).resolve({ account: wcAccount, connections: connectionsOf(wcAccount) })
    await flush()
    expect(h.notices[0]).toEqual({
      type: 'account.connected',
      account: wcAccount,
      method: 'mobile',
      reconnected: false,
    })
    h.stop()
  })

  it('cancelling forgets the stored deep link (SPEC §3); a new attempt opens the wallet again', async () => {
    const h = harness({ supportedChainIds: [1], mobile: true })
    await startDisconnected(h)
    h.send({ type: 'connection.connect', connectorId: 'walletConnect', wallet: rainbow })
    h.last(h.watchers.pairing).sendBack({ type: 'connection.wcUri', uri: WC_URI, expiry: 4_102_444_800_000 })
    h.last(h.watchers.openWallet).sendBack({ type: 'connection.wcLinking', name: 'Rainbow', href: HREF })
    h.persisted.length = 0
    h.send({ type: 'connection.cancel' })
    expect(h.context().wcLinking).toBeUndefined()
    expect(h.persisted).toEqual([{ type: 'persist.linkingForgotten' }])
    h.send({ type: 'connection.connect', connectorId: 'walletConnect', wallet: rainbow })
    h.last(h.watchers.pairing).sendBack({ type: 'connection.wcUri', uri: WC_URI, expiry: 4_102_444_800_000 })
    expect(h.watchers.openWallet).toHaveLength(2)
    h.stop()
  })

  it('a pairing reused (iOS Safari) opens the wallet again with the URI shown', async () => {
    const h = harness({ supportedChainIds: [1], mobile: true, reusePairing: true })
    await startDisconnected(h)
    h.send({ type: 'connection.connect', connectorId: 'walletConnect', wallet: rainbow })
    h.last(h.watchers.pairing).sendBack({ type: 'connection.wcUri', uri: WC_URI, expiry: 4_102_444_800_000 })
    h.last(h.watchers.openWallet).sendBack({ type: 'connection.wcLinking', name: 'Rainbow', href: HREF })
    // The wallet declined; picked again, the pairing (unexpired) is shown again and the wallet opened with it.
    h.last(h.calls.connect).reject(rejected4001())
    await flush()
    h.send({ type: 'connection.connect', connectorId: 'walletConnect', wallet: rainbow })
    expect(h.snapshot().value).toEqual({ connecting: 'pairing' })
    expect(h.watchers.openWallet.map((w) => w.input.uri)).toEqual([WC_URI, WC_URI])
    h.stop()
  })

  it('a failed attempt forgets the stored deep link too', async () => {
    const h = harness({ supportedChainIds: [1], mobile: true })
    await startDisconnected(h)
    h.send({ type: 'connection.connect', connectorId: 'walletConnect', wallet: rainbow })
    h.last(h.watchers.pairing).sendBack({ type: 'connection.wcUri', uri: WC_URI, expiry: 4_102_444_800_000 })
    h.last(h.watchers.openWallet).sendBack({ type: 'connection.wcLinking', name: 'Rainbow', href: HREF })
    h.last(h.calls.connect).reject(rejected4001())
    await flush()
    expect(h.snapshot().value).toEqual({ disconnected: 'failed' })
    expect(h.persisted.at(-1)).toEqual({ type: 'persist.linkingForgotten' })
    h.stop()
  })

  it('on a desktop browser, or for a wallet without a mobile link, the QR code is shown and nothing opened', async () => {
    for (const [mobile, wallet] of [
      [false, rainbow],
      [true, { id: 'plain', name: 'Plain' }],
    ] as const) {
      const h = harness({ supportedChainIds: [1], mobile })
      await startDisconnected(h)
      h.send({ type: 'connection.connect', connectorId: 'walletConnect', wallet })
      expect(h.context().target?.method).toBe('qrcode')
      h.last(h.watchers.pairing).sendBack({
        type: 'connection.wcUri',
        uri: WC_URI,
        expiry: 4_102_444_800_000,
      })
      expect(h.watchers.openWallet).toHaveLength(0)
      h.stop()
    }
  })

  const linking = { id: 'rainbow', name: 'Rainbow', connectorId: 'walletConnect', href: HREF }

  it('back on the page, a stored deep link resumes its pairing: connected as a fresh mobile connection', async () => {
    const h = harness({ supportedChainIds: [1], mobile: true })
    h.last(h.calls.reconnect).resolve({ account: undefined, connections: {}, recentWallets: [], linking })
    await flush()
    expect(h.snapshot().value).toBe('resuming')
    expect(h.status()).toBe('connecting')
    expect(h.snapshot().hasTag('connecting')).toBe(true)
    expect(h.context().wcLinking).toEqual({ name: 'Rainbow', href: HREF })
    // The modal closing sends cancel; that must not drop the pairing being resumed.
    h.send({ type: 'connection.cancel' })
    expect(h.last(h.calls.resumePairing).input).toEqual({ connectorId: 'walletConnect' })
    h.last(h.calls.resumePairing).resolve({ account: wcAccount, connections: connectionsOf(wcAccount) })
    await flush()
    expect(h.snapshot().value).toEqual({ connected: 'idle' })
    expect(h.notices[0]).toEqual({
      type: 'account.connected',
      account: wcAccount,
      method: 'mobile',
      reconnected: false,
    })
    expect(h.context().recentWallet).toEqual({ id: 'rainbow', name: 'Rainbow', connectorId: 'walletConnect' })
    expect(h.persisted.at(-1)).toMatchObject({ type: 'persist.connected', wallet: { id: 'rainbow' } })
    h.stop()
  })

  it('a pairing that does not complete: disconnected after RESUME_LINKING_TIMEOUT_MS, the link forgotten', async () => {
    const clock = new SimulatedClock()
    const h = harness({ supportedChainIds: [1], mobile: true }, clock)
    h.last(h.calls.reconnect).resolve({ account: undefined, connections: {}, recentWallets: [], linking })
    await flush()
    clock.increment(RESUME_LINKING_TIMEOUT_MS - 1)
    expect(h.snapshot().value).toBe('resuming')
    clock.increment(1)
    expect(h.snapshot().value).toEqual({ disconnected: 'idle' })
    expect(h.last(h.calls.resumePairing).signal.aborted).toBe(true)
    expect(h.context().wcLinking).toBeUndefined()
    expect(h.persisted).toEqual([{ type: 'persist.linkingForgotten' }])
    h.stop()
  })

  it('a resume that fails is disconnected, the link forgotten; a wallet picked meanwhile wins', async () => {
    const failed = harness({ supportedChainIds: [1], mobile: true })
    failed
      .last(failed.calls.reconnect)
      .resolve({ account: undefined, connections: {}, recentWallets: [], linking })
    await flush()
    failed.last(failed.calls.resumePairing).reject(new Error('no session'))
    await flush()
    expect(failed.snapshot().value).toEqual({ disconnected: 'idle' })
    expect(failed.persisted).toEqual([{ type: 'persist.linkingForgotten' }])
    expect(failed.notices).toEqual([])
    failed.stop()

    const picked = harness({ supportedChainIds: [1], mobile: true })
    picked
      .last(picked.calls.reconnect)
      .resolve({ account: undefined, connections: {}, recentWallets: [], linking })
    await flush()
    picked.send({ type: 'connection.connect', connectorId: 'io.metamask' })
    expect(picked.snapshot().value).toEqual({ connecting: 'requesting' })
    expect(picked.last(picked.calls.resumePairing).signal.aborted).toBe(true)
    expect(picked.context().target).toEqual({ connectorId: 'io.metamask', method: 'browser' })
    picked.stop()
  })
})
