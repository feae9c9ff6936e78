import { describe, expect, it } from 'vitest'
import { createActor, type EventFromLogic, fromPromise, SimulatedClock, type SnapshotFrom } from 'xstate'
import { type FetchWalletsReturnType, type WalletListing, WalletsApiError } from '../../src/api/walletsApi'
import { WALLETS_PAGE_SIZE } from '../../src/constants'
import {
  type FetchWalletsInput,
  selectHasMoreWallets,
  selectWalletList,
  selectWalletsMode,
  selectWalletsStatus,
  type WalletsInput,
  walletsMachine,
} from '../../src/machines/wallets'
import { assertCoverage, createModel, describeEvent, type ModelPath, replayPath } from '../../src/testing'
import { replayAll } from './paths'

/**
 * The wallets machine's paths. Requests never settle on their own here: each answer is an event of the
 * path (`xstate.done.actor.<id>` with a page, `xstate.error.actor.<id>` with an error), so every order of
 * answers, typing and scrolling is a path. Two models: with and without featured wallets, since the host's
 * config decides whether the featured request is made at all.
 */
const machine = walletsMachine.provide({
  actors: {
    fetchWallets: fromPromise<FetchWalletsReturnType, FetchWalletsInput>(() => new Promise(() => {})),
  },
})

type Snapshot = SnapshotFrom<typeof machine>
type Event = EventFromLogic<typeof machine>

const wallet = (id: string, name = `Wallet ${id}`): WalletListing => ({ id, name, chains: ['eip155:1'] })
const range = (from: number, to: number) =>
  Array.from({ length: to - from }, (_, i) => wallet(`w${from + i}`))
/** 60 wallets in all: a full first page and a second of 20. */
const COUNT = 60
const page = (data: WalletListing[]) => ({ output: { data, count: COUNT } })
const failure = { error: new WalletsApiError('Could not load wallets', { status: 500 }) }

// The done and error events of invoked actors are machine-internal types, so they are cast as events.
const answers = [
  { type: 'xstate.done.actor.featured', output: { data: [wallet('f1', 'Featured')], count: 1 } },
  { type: 'xstate.done.actor.firstPage', ...page(range(0, WALLETS_PAGE_SIZE)) },
  { type: 'xstate.done.actor.nextPage', ...page(range(WALLETS_PAGE_SIZE, COUNT)) },
  // A listing that serves the first page again: nothing new, so paging ends (`pageAddsNothing`).
  { type: 'xstate.done.actor.nextPage', ...page(range(0, WALLETS_PAGE_SIZE)) },
  { type: 'xstate.done.actor.search', output: { data: [wallet('w7', 'Beta 7')], count: 1 } },
  { type: 'xstate.error.actor.featured', ...failure },
  { type: 'xstate.error.actor.firstPage', ...failure },
  { type: 'xstate.error.actor.nextPage', ...failure },
  { type: 'xstate.error.actor.search', ...failure },
] as unknown as Event[]

const events: Event[] = [
  { type: 'wallets.load' },
  { type: 'wallets.loadMore' },
  { type: 'wallets.retry' },
  { type: 'wallets.search', query: 'beta' },
  { type: 'wallets.search', query: 'alpha ' },
  { type: 'wallets.search', query: '  ' },
  // All Wallets' "Certified only" (badge_type): on, and off again.
  { type: 'wallets.filter', certified: true },
  { type: 'wallets.filter', certified: false },
  ...answers,
]

const BASE_INPUT: WalletsInput = {
  walletsApi: 'https://wallets.example',
  projectId: 'model',
  featuredWalletIds: [],
  includeWalletIds: [],
  excludeWalletIds: [],
  chains: ['eip155:1'],
}

/** Lists are abstracted to their lengths: which wallets a page holds is the unit tests' business. */
const serializeState = (snapshot: Snapshot) => {
  const { featured, wallets, count, page, query, results, error, certified } = snapshot.context
  return JSON.stringify({
    certified,
    value: snapshot.value,
    featured: featured.length,
    wallets: wallets.length,
    count,
    page,
    query,
    results: results?.length ?? null,
    error: error ?? null,
  })
}

const modelFor = (featuredWalletIds: string[]) =>
  createModel(machine, { events, input: { ...BASE_INPUT, featuredWalletIds }, serializeState })

/** A readable path name: answers are named by their request, not spelled out with 40 wallets. */
function short(path: ModelPath): string {
  if (path.steps.length === 0) return '(initial state)'
  return path.steps
    .map(({ event }) => {
      const answer = /^xstate\.(done|error)\.actor\.(.+)$/.exec(event.type)
      if (answer) return `${answer[1] === 'done' ? 'answer' : 'failure'}(${answer[2]})`
      return describeEvent(event)
    })
    .join(' → ')
}

/** What must hold in every state. */
function invariant(snapshot: Snapshot): void {
  const { featured, wallets, page, count, query, results, error } = snapshot.context
  const fail = (message: string) => {
    throw new Error(`${message} in ${JSON.stringify(snapshot.value)}`)
  }
  const loading = snapshot.matches('loadingFirst') || snapshot.matches({ ready: { search: 'searching' } })
  if (snapshot.hasTag('loading') !== loading) fail('loading tag out of step')
  if (snapshot.hasTag('loadingMore') !== snapshot.matches({ ready: { browse: 'loadingMore' } }))
    fail('loadingMore tag out of step')
  if (snapshot.hasTag('error') !== (error !== undefined)) fail('error tag and error message out of step')
  if (snapshot.matches('idle') && (wallets.length > 0 || page > 0)) fail('idle with wallets')
  if (snapshot.matches('ready')) {
    if (page < 1) fail('ready without a first page')
    if (wallets.length > page * WALLETS_PAGE_SIZE) fail('more wallets than pages')
    if (wallets.length > count) fail('more wallets than the count')
  }
  if (snapshot.matches({ ready: 'browse' })) {
    if (query !== '' || results !== undefined) fail('browsing with a search')
    if (selectWalletsMode(snapshot) !== 'browse') fail('browse mode expected')
  }
  if (snapshot.matches({ ready: 'search' })) {
    if (query === '' || query !== query.trim()) fail(`search state with query ${JSON.stringify(query)}`)
    if (selectHasMoreWallets(snapshot)) fail('infinite scroll while searching')
  }
  const ids = selectWalletList(snapshot).map((w) => w.id)
  if (new Set(ids).size !== ids.length) fail('a wallet listed twice')
  if (featured.some((f) => wallets.some((w) => w.id === f.id))) fail('a featured wallet in the pages')
  if (selectWalletsMode(snapshot) === 'browse' && featured.length > 0 && ids[0] !== featured[0]?.id)
    fail('featured wallets are not first')
  // The status the All Wallets view reads follows the states.
  const status = selectWalletsStatus(snapshot)
  const expected = snapshot.matches('failed')
    ? 'failed'
    : snapshot.matches('idle') || snapshot.matches('loadingFirst')
      ? 'loading'
      : snapshot.matches({ ready: { search: 'searching' } })
        ? 'searching'
        : snapshot.matches({ ready: { browse: 'loadingMore' } })
          ? 'loadingMore'
          : error !== undefined
            ? 'partError'
            : 'ready'
  if (status !== expected) fail(`status ${status}, expected ${expected}`)
}

describe('wallets machine, model-based', () => {
  const withFeatured = modelFor(['f1'])
  const plain = modelFor([])

  it('has the expected number of covering paths (a change to the machine shows here)', () => {
    expect(withFeatured.paths.length).toBe(28)
    expect(plain.paths.length).toBe(25)
  })

  for (const [name, model] of [
    ['featured', withFeatured],
    ['no featured', plain],
  ] as const) {
    describe(name, () => {
      for (const path of model.paths) {
        it(`replays ${short(path)}`, () => {
          replayPath(model, path, { invariant })
        })
      }
    })
  }

  it('never shows an answer to a request that is no longer running, at the end of any path', () => {
    const running: Record<string, (snapshot: Snapshot) => boolean> = {
      featured: (s) => s.matches({ loadingFirst: { featured: 'loading' } }),
      firstPage: (s) => s.matches({ loadingFirst: { page: 'loading' } }),
      nextPage: (s) => s.matches({ ready: { browse: 'loadingMore' } }),
      search: (s) => s.matches({ ready: { search: 'searching' } }),
    }
    let checked = 0
    for (const model of [withFeatured, plain]) {
      for (const path of model.paths) {
        const actor = createActor(machine, { input: model.input!, clock: new SimulatedClock() }).start()
        for (const step of path.steps) actor.send(step.event as Event)
        // Answers only: XState reports an unhandled error event as an error of the actor, and a stopped
        // request's failure is never delivered anyway (fromPromise drops it), which the unit tests show.
        for (const answer of answers.filter((a) => a.type.startsWith('xstate.done.'))) {
          const id = answer.type.replace(/^xstate\.done\.actor\./, '')
          if (running[id]!(actor.getSnapshot())) continue
          const before = serializeState(actor.getSnapshot())
          actor.send(answer)
          expect(serializeState(actor.getSnapshot()), `${short(path)} → late ${answer.type}`).toBe(before)
          checked++
        }
        actor.stop()
      }
    }
    expect(checked).toBeGreaterThan(100)
  })

  it('reaches every state and takes every transition of the machine, over both models (replayed here)', () => {
    const results = replayAll([withFeatured, plain], { invariant })
    expect(results).toHaveLength(28 + 25)
    assertCoverage(withFeatured, results)
  })
})
