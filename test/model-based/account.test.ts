import { QueryClient } from '@tanstack/react-query'
import { describe, expect, it, vi } from 'vitest'
import { createActor, type EventFromLogic, fromPromise, SimulatedClock, type SnapshotFrom } from 'xstate'
import { createAccountActors } from '../../src/actors/account'
import type {
  BalancesResult,
  DataApiClient,
  GetBalancesParameters,
  TokenBalance,
} from '../../src/api/dataApi'
import { balancesQuery } from '../../src/api/queries'
import { BALANCE_CACHE_MS, PENDING_TRANSACTIONS_MAX, TOKEN_BALANCE_RETRY_BLOCK_MS } from '../../src/constants'
import { DataApiError } from '../../src/errors/api'
import {
  type AccountNotice,
  accountMachine,
  type BalancesOwner,
  selectBalancesStatus,
  selectCurrentTab,
  selectPendingTransactions,
  selectPortfolioValue,
  TOKEN_BALANCE_UNAVAILABLE,
} from '../../src/machines/account'
import {
  assertCoverage,
  createModel,
  describeEvent,
  type ModelPath,
  type ReplayResult,
  replayPath,
} from '../../src/testing'

/**
 * The account machine's model: the tabs, and the balances' fetch lifecycle with its SPEC §4 rule (a failed
 * fetch blocks new attempts for 30 s). The fetch slot never settles on its own: its answers are events of the
 * path, and the block timer is explored as a delayed event, so every order of answers, timers and
 * requests is a path.
 */
const never = <T>() => new Promise<T>(() => {})
/** The SPEC's 99 pending transactions, as 2 for the graph's sake (the unit test below fills the real 99). */
const MODEL_PENDING_MAX = 2
const modelMachine = accountMachine.provide({
  actors: { fetchBalances: fromPromise(never<BalancesResult>) },
  guards: { pendingListFull: ({ context }) => context.pending.length >= MODEL_PENDING_MAX },
})

type Machine = typeof modelMachine
type Snapshot = SnapshotFrom<Machine>
type Event = EventFromLogic<Machine>

const CHAIN = 'eip155:31337'
const OTHER_CHAIN = 'eip155:1'
const ALICE = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const BOB = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

const ETH: TokenBalance = {
  name: 'Ether',
  symbol: 'ETH',
  chainId: CHAIN,
  value: 6000,
  price: 3000,
  quantity: { decimals: '18', numeric: '2' },
  iconUrl: '',
}

const answers = [
  { type: 'xstate.done.actor.fetchBalances', output: { balances: [ETH], supported: true } },
  { type: 'xstate.done.actor.fetchBalances', output: { balances: [], supported: false } },
  {
    type: 'xstate.error.actor.fetchBalances',
    error: new DataApiError('balance', { kind: 'http', status: 500, details: 'HTTP 500' }),
  },
] as unknown as Event[]

const events: Event[] = [
  { type: 'account.selectTab', tab: 'tokens' },
  { type: 'account.selectTab', tab: 'nfts' },
  { type: 'account.selectTab', tab: 'activity' },
  { type: 'account.fetchBalances', address: ALICE, chainId: CHAIN },
  { type: 'account.fetchBalances', address: BOB, chainId: CHAIN },
  // The same account on another network (the wallet switched chains): another owner of balances.
  { type: 'account.fetchBalances', address: ALICE, chainId: OTHER_CHAIN },
  { type: 'account.fetchBalances', address: ALICE, chainId: 'not a chain' },
  { type: 'account.refreshBalances' },
  { type: 'account.clear' },
  ...answers,
]

const NAMES: Record<string, string> = { [ALICE]: 'alice', [BOB]: 'bob' }

function serialize(snapshot: Snapshot): string {
  const c = snapshot.context
  return JSON.stringify({
    value: snapshot.value,
    owner: c.owner ? `${NAMES[c.owner.address]}@${c.owner.chainId}` : null,
    balances: c.balances.length,
    force: c.forceUpdate,
    error: c.error?.message ?? null,
  })
}

const model = createModel(modelMachine, { events, serializeState: serialize })
/**
 * Covering paths of the model (a change to the machine shows here). SPEC §9 pending transactions: +2 (the list's
 * two events, which this model sends bare and does not follow).
 */
const PATHS = 22

/**
 * SPEC §9 pending transactions, a model of its own (the list is independent of the balances and tabs): sent,
 * sent again, a full list dropping the oldest, settled.
 */
const pendingModel = createModel(modelMachine, {
  events: [
    // The balances' events the graph must be able to send (a bare one is no event of theirs), kept to one each.
    { type: 'account.fetchBalances', address: ALICE, chainId: CHAIN },
    answers[0]!,
    { type: 'account.transactionSent', hash: '0xa', chainId: CHAIN },
    { type: 'account.transactionSent', hash: '0xb', chainId: CHAIN },
    { type: 'account.transactionSent', hash: '0xc', chainId: CHAIN },
    { type: 'account.transactionSettled', hash: '0xa' },
  ],
  serializeState: (snapshot) =>
    JSON.stringify({ value: snapshot.value, pending: snapshot.context.pending.map((p) => p.hash) }),
})
const PENDING_PATHS = 14

const canFetch = (snapshot: Snapshot, owner: BalancesOwner) =>
  snapshot.can({ type: 'account.fetchBalances', ...owner })

function invariant(snapshot: Snapshot): void {
  const c = snapshot.context
  const fail = (message: string) => {
    throw new Error(`${message} in ${JSON.stringify(snapshot.value)}`)
  }
  if (snapshot.status !== 'active') fail(`actor ${snapshot.status}`)
  const tabs = (['tokens', 'nfts', 'activity'] as const).filter((tab) => snapshot.matches({ tab }))
  if (tabs.length !== 1 || tabs[0] !== selectCurrentTab(snapshot)) fail('not exactly one tab')
  const fetching = snapshot.matches({ balances: 'fetching' })
  if (snapshot.hasTag('loading') !== fetching) fail('loading tag out of step with fetching')
  if (fetching && !c.owner) fail('fetching for nobody')
  if (snapshot.matches({ balances: 'ready' }) && (!c.owner || c.error))
    fail('ready without an owner, or with an error')
  if (snapshot.matches({ balances: 'unsupported' }) && c.balances.length > 0)
    fail('balances of an unsupported network')
  if (snapshot.matches({ balances: 'blocked' })) {
    if (c.error?.message !== TOKEN_BALANCE_UNAVAILABLE) fail('blocked without the SPEC text')
    // SPEC §4: no new attempt while blocked, whoever asks and for whichever account.
    if (
      canFetch(snapshot, { address: ALICE, chainId: CHAIN }) ||
      canFetch(snapshot, { address: BOB, chainId: CHAIN })
    )
      fail('a fetch accepted during the block')
    if (snapshot.can({ type: 'account.refreshBalances' })) fail('a refresh accepted during the block')
  }
  // The tags the views read (selectBalancesStatus) follow the states.
  const status = selectBalancesStatus(snapshot)
  for (const state of ['ready', 'unsupported', 'blocked'] as const) {
    if (snapshot.matches({ balances: state }) !== (status === state)) fail(`status out of step with ${state}`)
  }
  if (snapshot.matches({ balances: 'idle' }) !== (status === 'idle')) fail('status out of step with idle')
  if (
    selectPortfolioValue(snapshot) !==
    (snapshot.matches({ balances: 'unsupported' }) ? 0 : c.balances.length * ETH.value)
  )
    fail('portfolio value out of step with the balances')
  // In ready the machine asks again whenever asked: whether that is a request is the QueryClient's call.
  if (snapshot.matches({ balances: 'ready' }) && c.owner && !canFetch(snapshot, c.owner))
    fail('ready refused to ask again for the same owner')
  if (c.balances.length > 0 && !c.owner) fail('balances without an owner')
  // An invalid request is never one.
  if (canFetch(snapshot, { address: ALICE, chainId: 'not a chain' })) fail('an invalid request accepted')
}

function short(path: ModelPath): string {
  if (path.steps.length === 0) return '(initial state)'
  return path.steps
    .map(({ event }) => {
      const e = event as Event
      if (e.type === 'account.fetchBalances') return `fetch(${NAMES[e.address] ?? e.address}, ${e.chainId})`
      const answer = /^xstate\.(done|error)\.actor\.(.+)$/.exec(event.type)
      if (!answer) return describeEvent(event).replace(/^account\./, '')
      if (answer[1] === 'error') return 'failure(fetchBalances)'
      const output = (event as { output?: BalancesResult }).output
      return `answer(${output?.supported ? `${output.balances.length} balances` : 'unsupported'})`
    })
    .join(' → ')
}

describe('account machine, model-based', () => {
  it('has the expected number of covering paths (a change to the machine shows here)', () => {
    expect(model.paths.length).toBe(PATHS)
  })

  for (const path of model.paths) {
    it(`replays ${short(path)}`, () => {
      replayPath(model, path, { invariant })
    })
  }

  it('pending transactions (SPEC §9): the model of the list has the expected number of covering paths', () => {
    expect(pendingModel.paths.length).toBe(PENDING_PATHS)
  })

  for (const path of pendingModel.paths) {
    it(`pending transactions: replays ${short(path)}`, () => {
      replayPath(pendingModel, path, {
        invariant: (snapshot) => {
          invariant(snapshot)
          const hashes = snapshot.context.pending.map((p) => p.hash)
          if (hashes.length > MODEL_PENDING_MAX) throw new Error('more pending transactions than the limit')
          if (new Set(hashes).size !== hashes.length) throw new Error('a pending transaction listed twice')
        },
      })
    })
  }

  it('reaches every state and takes every transition of the machine (replaying every path itself)', () => {
    const results: ReplayResult[] = model.paths.map((path) => replayPath(model, path, { invariant }))
    expect(results).toHaveLength(PATHS)
    const pending = pendingModel.paths.map((path) => replayPath(pendingModel, path, { invariant }))
    assertCoverage(model, [...results, ...pending])
  })
})

/** The machine with a fetch slot that records each request and answers by a script (a stand-in Data API). */
function run(script: Array<'ok' | 'fail' | 'unsupported'>) {
  const requests: Array<BalancesOwner & { forceUpdate: boolean }> = []
  const clock = new SimulatedClock()
  const actor = createActor(
    accountMachine.provide({
      actors: {
        fetchBalances: fromPromise(async ({ input }) => {
          requests.push(input)
          const next = script.shift() ?? 'ok'
          if (next === 'fail')
            throw new DataApiError('balance', { kind: 'http', status: 500, details: 'HTTP 500' })
          return next === 'ok' ? { balances: [ETH], supported: true } : { balances: [], supported: false }
        }),
      },
    }),
    { clock },
  )
  const notices: AccountNotice[] = []
  actor.on('*', (notice) => notices.push(notice))
  actor.start()
  return { actor, clock, requests, notices }
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0))
const alice = { type: 'account.fetchBalances', address: ALICE, chainId: CHAIN } as const

describe('account machine, behaviour', () => {
  it('a failed fetch announces the SPEC text once and makes no new request for 30 s, then allows one', async () => {
    const { actor, clock, requests, notices } = run(['fail', 'ok'])
    actor.send(alice)
    await settle()
    expect(actor.getSnapshot().matches({ balances: 'blocked' })).toBe(true)
    expect(notices).toEqual([
      { type: 'account.balancesUnavailable', message: 'Token Balance Unavailable', reason: 'failed' },
    ])
    // Asked again and again during the block, also for another account and as a refresh: no request.
    for (let i = 0; i < 5; i++) {
      clock.increment(TOKEN_BALANCE_RETRY_BLOCK_MS / 6)
      actor.send(alice)
      actor.send({ type: 'account.fetchBalances', address: BOB, chainId: CHAIN })
      actor.send({ type: 'account.refreshBalances' })
      await settle()
    }
    expect(requests).toHaveLength(1)
    expect(notices).toHaveLength(1)
    clock.increment(TOKEN_BALANCE_RETRY_BLOCK_MS / 6)
    expect(actor.getSnapshot().matches({ balances: 'idle' })).toBe(true)
    actor.send(alice)
    await settle()
    expect(requests).toHaveLength(2)
    expect(actor.getSnapshot().matches({ balances: 'ready' })).toBe(true)
    expect(actor.getSnapshot().context.balances).toEqual([ETH])
    actor.stop()
  })

  it('through the QueryClient: serves the 30 s cache, refreshes with forceUpdate, and follows another owner', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    try {
      const requests: Array<{ address: string; chainId: string; forceUpdate?: boolean }> = []
      const api = {
        api: 'http://data.invalid',
        projectId: 'account-test',
        getBalances: async ({ address, chainId, forceUpdate }: GetBalancesParameters) => {
          requests.push({ address, chainId, ...(forceUpdate ? { forceUpdate } : {}) })
          return { balances: [ETH], supported: true }
        },
      } as unknown as DataApiClient
      const queryClient = new QueryClient()
      const actor = createActor(accountMachine.provide({ actors: createAccountActors({ api, queryClient }) }))
      const notices: AccountNotice[] = []
      actor.on('*', (notice) => notices.push(notice))
      actor.start()
      actor.send(alice)
      await settle()
      expect(actor.getSnapshot().hasTag('ready')).toBe(true)
      // Asked again within 30 s: the machine asks, the QueryClient answers from its cache.
      actor.send(alice)
      expect(selectBalancesStatus(actor.getSnapshot())).toBe('loading')
      await settle()
      expect(selectBalancesStatus(actor.getSnapshot())).toBe('ready')
      expect(requests).toHaveLength(1)
      vi.setSystemTime(Date.now() + BALANCE_CACHE_MS - 1)
      actor.send(alice)
      await settle()
      expect(requests).toHaveLength(1)
      vi.setSystemTime(Date.now() + 1)
      actor.send(alice)
      await settle()
      expect(requests).toHaveLength(2)
      actor.send({ type: 'account.refreshBalances' })
      await settle()
      expect(requests.at(-1)).toEqual({ address: ALICE, chainId: CHAIN, forceUpdate: true })
      expect(requests).toHaveLength(3)
      actor.send({ type: 'account.fetchBalances', address: BOB, chainId: CHAIN })
      await settle()
      expect(requests.at(-1)).toEqual({ address: BOB, chainId: CHAIN })
      expect(notices.filter((n) => n.type === 'account.balancesUpdated')).toHaveLength(6)
      expect(notices.at(-1)).toMatchObject({ type: 'account.balancesUpdated', owner: { address: BOB } })
      // The view and the token picker asking at once: one request.
      actor.send({ type: 'account.fetchBalances', address: ALICE, chainId: 'eip155:1' })
      await Promise.all([
        queryClient.fetchQuery(balancesQuery(api, { address: ALICE, chainId: 'eip155:1' })),
        settle(),
      ])
      expect(requests.filter((r) => r.chainId === 'eip155:1')).toHaveLength(1)
      actor.stop()
    } finally {
      vi.useRealTimers()
    }
  })

  it('an unsupported network is announced once, with the SPEC text, and not asked again', async () => {
    const { actor, requests, notices } = run(['unsupported'])
    actor.send(alice)
    await settle()
    actor.send(alice)
    actor.send({ type: 'account.refreshBalances' })
    await settle()
    expect(requests).toHaveLength(1)
    expect(notices).toEqual([
      { type: 'account.balancesUnavailable', message: 'Token Balance Unavailable', reason: 'unsupported' },
    ])
    actor.stop()
  })

  it('switches tabs', () => {
    const actor = createActor(accountMachine).start()
    expect(selectCurrentTab(actor.getSnapshot())).toBe('tokens')
    actor.send({ type: 'account.selectTab', tab: 'activity' })
    expect(selectCurrentTab(actor.getSnapshot())).toBe('activity')
    actor.send({ type: 'account.selectTab', tab: 'nfts' })
    expect(selectCurrentTab(actor.getSnapshot())).toBe('nfts')
    actor.stop()
  })
})

describe('account machine: SPEC §9 pending transactions limit 99', () => {
  const hash = (n: number) => `0x${n.toString(16).padStart(64, '0')}`

  it('the kit lists what it sent until settled; a 100th drops the oldest, never refused', () => {
    expect(PENDING_TRANSACTIONS_MAX).toBe(99)
    const actor = createActor(accountMachine).start()
    actor.send({ type: 'account.fetchBalances', address: ALICE, chainId: CHAIN })
    for (let n = 1; n <= 100; n++)
      actor.send({ type: 'account.transactionSent', hash: hash(n), chainId: CHAIN })
    const pending = actor.getSnapshot().context.pending
    expect(pending).toHaveLength(99)
    expect(pending[0]).toEqual({ hash: hash(2), chainId: CHAIN, address: ALICE })
    expect(pending.at(-1)?.hash).toBe(hash(100))
    // The same transaction announced again is listed once, as the newest.
    actor.send({ type: 'account.transactionSent', hash: hash(50), chainId: CHAIN })
    expect(actor.getSnapshot().context.pending).toHaveLength(99)
    expect(actor.getSnapshot().context.pending.at(-1)?.hash).toBe(hash(50))
    actor.send({ type: 'account.transactionSettled', hash: hash(100) })
    expect(actor.getSnapshot().context.pending.map((p) => p.hash)).not.toContain(hash(100))
    expect(actor.getSnapshot().context.pending).toHaveLength(98)
  })

  it("Activity's pending ones: the account's on the network shown, newest first", () => {
    const actor = createActor(accountMachine).start()
    actor.send({ type: 'account.fetchBalances', address: ALICE, chainId: CHAIN })
    actor.send({ type: 'account.transactionSent', hash: hash(1), chainId: CHAIN })
    actor.send({ type: 'account.transactionSent', hash: hash(2), chainId: OTHER_CHAIN })
    actor.send({ type: 'account.transactionSent', hash: hash(3), chainId: CHAIN })
    const shown = (address: string, chainId: string) =>
      selectPendingTransactions(actor.getSnapshot(), address, chainId).map((p) => p.hash)
    expect(shown(ALICE.toLowerCase(), CHAIN)).toEqual([hash(3), hash(1)])
    expect(shown(ALICE, OTHER_CHAIN)).toEqual([hash(2)])
    expect(shown(BOB, CHAIN)).toEqual([])
    expect(selectPendingTransactions(undefined, ALICE, CHAIN)).toEqual([])
  })
})
