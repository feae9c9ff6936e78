import { UserRejectedRequestError } from 'viem'
import { expect } from 'vitest'
import { type ActorRefFrom, createActor, fromCallback, fromPromise, type SimulatedClock, setup } from 'xstate'
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
} from '../connection'

/**
 * Test support for the connection machine's unit tests (`../connection*.test.ts`), not part of the library
 * (nothing in `src` imports it): the real machine with every actor slot a fake the test drives, and the
 * accounts, wallets and steps the tests share.
 */

/** One call of a promise slot: what it was given, and the hands to settle it with. */
export interface Call<TInput, TOutput> {
  input: TInput
  signal: AbortSignal
  resolve: (output: TOutput) => void
  reject: (error: unknown) => void
}

/** A callback slot's live instance: its input, the way to talk back to the machine, and whether it stopped. */
export interface Watcher<TInput> {
  input: TInput
  sendBack: (event: ConnectionEvent) => void
  stopped: boolean
}

export const ALICE = '0x00000000000000000000000000000000000a11ce'
export const BOB = '0x0000000000000000000000000000000000000b0b'

export const account = (overrides: Partial<Eip155Account> = {}): Eip155Account => ({
  address: ALICE,
  addresses: [ALICE, BOB],
  chainId: 1,
  connectorId: 'io.metamask',
  ...overrides,
})
export const connectionsOf = (a: ConnectionAccount) => ({
  [a.connectorId]: { accounts: a.addresses, chainId: a.chainId },
})
export const recent = (id: string): RecentWallet => ({ id, name: `Wallet ${id}`, connectorId: id })

export const CONNECTORS: ConnectorInfo[] = [
  { id: 'io.metamask', name: 'MetaMask', type: 'announced', chain: 'eip155', rdns: 'io.metamask' },
  { id: 'walletConnect', name: 'WalletConnect', type: 'walletconnect', chain: 'eip155' },
]

export const WC_URI = 'wc:7f6e@2?relay-protocol=irn&symKey=587d&expiryTimestamp=4102444800'

/**
 * The real machine with every actor slot replaced by a fake the test drives, run as the child of a tiny
 * parent so its `sendParent` notices can be read, as the kit would receive them.
 */
export function harness(input: ConnectionInput = { supportedChainIds: [1, 10] }, clock?: SimulatedClock) {
  const calls = {
    reconnect: [] as Call<unknown, ReconnectOutput>[],
    connect: [] as Call<{ connectorId: string }, ConnectOutput>[],
    disconnect: [] as Call<{ connectorId: string | undefined }, void>[],
    switchChain: [] as Call<{ chainId: ChainId }, ChainId>[],
    resumePairing: [] as Call<{ connectorId: string }, ConnectOutput>[],
    selectAccount: [] as Call<{ connectorId: string; address: string }, string>[],
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
      selectAccount: promiseSlot(calls.selectAccount),
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

export type Harness = ReturnType<typeof harness>

/** Lets settled promises reach the machine. */
export const flush = () => new Promise((resolve) => setTimeout(resolve, 0))

export async function startDisconnected(h: Harness, recentWallets: RecentWallet[] = []) {
  h.last(h.calls.reconnect).resolve({ account: undefined, connections: {}, recentWallets })
  await flush()
  expect(h.snapshot().value).toEqual({ disconnected: 'idle' })
}

export async function connectWith(
  h: Harness,
  connected: ConnectionAccount,
  event?: Partial<ConnectionEvent>,
) {
  h.send({ type: 'connection.connect', connectorId: connected.connectorId, ...event } as ConnectionEvent)
  h.last(h.calls.connect).resolve({ account: connected, connections: connectionsOf(connected) })
  await flush()
  expect(h.snapshot().value).toEqual({ connected: 'idle' })
}

export const rejected4001 = () =>
  new UserRejectedRequestError(new Error('MetaMask Tx Signature: User denied.'))
