import { describe, expect, it } from 'vitest'
import { createActor, fromPromise, SimulatedClock } from 'xstate'
import { type FetchWalletsReturnType, type WalletListing, WalletsApiError } from '../api/walletsApi'
import { WALLETS_LIST_MAX, WALLETS_PAGE_SIZE, WALLETS_SEARCH_SIZE } from '../constants'
import {
  type FetchWalletsInput,
  selectHasMoreWallets,
  selectRecommendedWallets,
  selectWalletList,
  selectWalletsMode,
  WALLETS_SEARCH_DEBOUNCE_MS,
  type WalletsInput,
  walletsMachine,
} from './wallets'

/** 95 wallets; every fifth supports only Solana, so the chains filter removes 19 of them. */
const CATALOGUE: WalletListing[] = Array.from({ length: 95 }, (_, i) => {
  const n = String(i + 1).padStart(2, '0')
  return {
    id: `w${n}`,
    name: `${i % 2 === 0 ? 'Alpha' : 'Beta'} Wallet ${n}`,
    chains: i % 5 === 4 ? ['solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp'] : ['eip155:1'],
    badge_type: i % 3 === 0 ? 'certified' : 'none',
  }
})
const EVM_COUNT = CATALOGUE.filter((w) => w.chains.includes('eip155:1')).length

interface Request {
  input: FetchWalletsInput
  signal: AbortSignal
  resolve: () => void
  reject: (error: unknown) => void
}

/**
 * A listing that follows the API's contract (include, exclude, chains, search, pages) over an in-memory
 * catalogue. `auto` answers at once; otherwise requests wait until the test settles them, in any order.
 */
function fakeListing(options: { auto?: boolean; fail?: (input: FetchWalletsInput) => boolean } = {}) {
  const requests: Request[] = []
  const answer = (input: FetchWalletsInput): FetchWalletsReturnType => {
    const include = input.include && input.include.length > 0 ? new Set(input.include) : undefined
    const exclude = new Set(input.exclude ?? [])
    const search = input.search?.toLowerCase()
    const matches = CATALOGUE.filter(
      (w) =>
        (!include || include.has(w.id)) &&
        !exclude.has(w.id) &&
        (!search || w.name.toLowerCase().includes(search)) &&
        (!input.badge_type || w.badge_type === input.badge_type) &&
        (!input.chains?.length || input.chains.some((c) => w.chains.includes(c))),
    )
    const start = (input.page - 1) * input.entries
    return { data: matches.slice(start, start + input.entries), count: matches.length }
  }
  const logic = fromPromise<FetchWalletsReturnType, FetchWalletsInput>(
    ({ input, signal }) =>
      new Promise((resolve, reject) => {
        const request: Request = {
          input,
          signal,
          resolve: () => resolve(answer(input)),
          reject,
        }
        requests.push(request)
        if (options.fail?.(input)) reject(new WalletsApiError('Could not load wallets', { status: 500 }))
        else if (options.auto !== false) request.resolve()
      }),
  )
  return { logic, requests, inputs: () => requests.map((r) => r.input) }
}

const INPUT: WalletsInput = {
  walletsApi: 'https://wallets.example',
  projectId: 'p1',
  featuredWalletIds: [],
  includeWalletIds: [],
  excludeWalletIds: [],
  chains: ['eip155:1'],
}

/** Lets settled promises deliver their events. */
const flush = () => new Promise((resolve) => setImmediate(resolve))

function start(input: Partial<WalletsInput> = {}, listing = fakeListing()) {
  const clock = new SimulatedClock()
  const actor = createActor(walletsMachine.provide({ actors: { fetchWallets: listing.logic } }), {
    clock,
    input: { ...INPUT, ...input },
  }).start()
  const ids = () => selectWalletList(actor.getSnapshot()).map((w) => w.id)
  return { actor, clock, listing, ids, snapshot: () => actor.getSnapshot() }
}

describe('walletsMachine', () => {
  it('default: waits for wallets.load, then loads the first page of 40 for the kit’s chains', async () => {
    const { actor, listing, snapshot, ids } = start()
    expect(snapshot().value).toBe('idle')
    expect(listing.requests).toHaveLength(0)

    actor.send({ type: 'wallets.load' })
    expect(snapshot().hasTag('loading')).toBe(true)
    await flush()
    expect(listing.inputs()).toEqual([
      {
        walletsApi: 'https://wallets.example',
        projectId: 'p1',
        chains: ['eip155:1'],
        page: 1,
        entries: WALLETS_PAGE_SIZE,
        include: [],
        exclude: [],
      },
    ])
    expect(snapshot().matches({ ready: { browse: 'browsing' } })).toBe(true)
    expect(snapshot().hasTag('loading')).toBe(false)
    expect(ids()).toHaveLength(40)
    expect(snapshot().context.count).toBe(EVM_COUNT)
    expect(selectRecommendedWallets(snapshot()).map((w) => w.id)).toEqual(['w01', 'w02', 'w03', 'w04'])
    expect(selectWalletsMode(snapshot())).toBe('browse')
    expect(selectHasMoreWallets(snapshot())).toBe(true)

    // Loaded once: asking again later is free.
    actor.send({ type: 'wallets.load' })
    await flush()
    expect(listing.requests).toHaveLength(1)
  })

  it('behavior: loads page after page until count, then stops asking', async () => {
    const { actor, listing, snapshot, ids } = start()
    actor.send({ type: 'wallets.load' })
    await flush()
    actor.send({ type: 'wallets.loadMore' })
    expect(snapshot().hasTag('loadingMore')).toBe(true)
    // A second loadMore while one is in flight does not ask twice.
    actor.send({ type: 'wallets.loadMore' })
    await flush()
    expect(ids()).toHaveLength(76)
    expect(selectHasMoreWallets(snapshot())).toBe(false)
    actor.send({ type: 'wallets.loadMore' })
    await flush()
    expect(listing.inputs().map((i) => i.page)).toEqual([1, 2])
    expect(ids()).toEqual(CATALOGUE.filter((w) => w.chains.includes('eip155:1')).map((w) => w.id))
    expect(new Set(ids()).size).toBe(ids().length)
  })

  it('behavior: an empty page ends the list even when the count says otherwise', async () => {
    const listing = fakeListing()
    const lying = fromPromise<FetchWalletsReturnType, FetchWalletsInput>(async ({ input }) =>
      input.page === 1 ? { data: CATALOGUE.slice(0, 40), count: 1000 } : { data: [], count: 1000 },
    )
    const actor = createActor(walletsMachine.provide({ actors: { fetchWallets: lying } }), {
      input: INPUT,
    }).start()
    actor.send({ type: 'wallets.load' })
    await flush()
    actor.send({ type: 'wallets.loadMore' })
    await flush()
    expect(selectHasMoreWallets(actor.getSnapshot())).toBe(false)
    expect(listing.requests).toHaveLength(0)
  })

  it('behavior: a listing that serves the same page forever is asked twice, not forever', async () => {
    const pages: number[] = []
    const repeating = fromPromise<FetchWalletsReturnType, FetchWalletsInput>(async ({ input }) => {
      pages.push(input.page)
      // Whatever page is asked, the first one again, with a count that promises a million wallets.
      return { data: CATALOGUE.slice(0, WALLETS_PAGE_SIZE), count: 1_000_000 }
    })
    const actor = createActor(walletsMachine.provide({ actors: { fetchWallets: repeating } }), {
      input: INPUT,
    }).start()
    actor.send({ type: 'wallets.load' })
    await flush()
    for (let scroll = 0; scroll < 60; scroll++) {
      actor.send({ type: 'wallets.loadMore' })
      await flush()
    }
    expect(pages).toEqual([1, 2])
    expect(selectHasMoreWallets(actor.getSnapshot())).toBe(false)
    expect(actor.getSnapshot().context.count).toBe(WALLETS_PAGE_SIZE)
    expect(selectWalletList(actor.getSnapshot())).toHaveLength(WALLETS_PAGE_SIZE)
  })

  it('behavior: a page that repeats some wallets adds the new ones and paging goes on', async () => {
    const overlapping = fromPromise<FetchWalletsReturnType, FetchWalletsInput>(async ({ input }) => {
      const start = (input.page - 1) * 20
      return { data: CATALOGUE.slice(start, start + WALLETS_PAGE_SIZE), count: CATALOGUE.length }
    })
    const actor = createActor(walletsMachine.provide({ actors: { fetchWallets: overlapping } }), {
      input: INPUT,
    }).start()
    actor.send({ type: 'wallets.load' })
    await flush()
    actor.send({ type: 'wallets.loadMore' })
    await flush()
    expect(selectWalletList(actor.getSnapshot()).map((w) => w.id)).toEqual(
      CATALOGUE.slice(0, 60).map((w) => w.id),
    )
    expect(selectHasMoreWallets(actor.getSnapshot())).toBe(true)
  })

  it(`behavior: a listing that never ends stops at ${WALLETS_LIST_MAX} wallets`, async () => {
    let calls = 0
    const endless = fromPromise<FetchWalletsReturnType, FetchWalletsInput>(async ({ input }) => {
      calls++
      const data = Array.from({ length: input.entries }, (_, i) => ({
        id: `e${(input.page - 1) * input.entries + i}`,
        name: 'Endless',
        chains: [],
      }))
      return { data, count: Number.MAX_SAFE_INTEGER }
    })
    const actor = createActor(walletsMachine.provide({ actors: { fetchWallets: endless } }), {
      input: INPUT,
    }).start()
    actor.send({ type: 'wallets.load' })
    await flush()
    for (let scroll = 0; scroll < WALLETS_LIST_MAX / WALLETS_PAGE_SIZE + 20; scroll++) {
      actor.send({ type: 'wallets.loadMore' })
      await flush()
    }
    expect(actor.getSnapshot().context.wallets).toHaveLength(WALLETS_LIST_MAX)
    expect(calls).toBe(Math.ceil(WALLETS_LIST_MAX / WALLETS_PAGE_SIZE))
    expect(selectHasMoreWallets(actor.getSnapshot())).toBe(false)
  })

  it('parameters: featured wallets come first, are fetched by id and left out of the pages', async () => {
    const { actor, listing, ids } = start({ featuredWalletIds: ['w52', 'w03', 'w99-unknown'] })
    actor.send({ type: 'wallets.load' })
    await flush()
    // The two regions of loadingFirst ask side by side; the featured request is the one that is not a page.
    const featured = listing.inputs().find((i) => i.entries !== WALLETS_PAGE_SIZE)
    const page = listing.inputs().find((i) => i.entries === WALLETS_PAGE_SIZE)
    expect(listing.requests).toHaveLength(2)
    expect(featured).toMatchObject({
      page: 1,
      entries: 3,
      include: ['w52', 'w03', 'w99-unknown'],
      exclude: [],
    })
    expect(page).toMatchObject({ page: 1, entries: 40, exclude: ['w52', 'w03', 'w99-unknown'] })
    expect(ids().slice(0, 4)).toEqual(['w52', 'w03', 'w01', 'w02'])
    expect(ids().filter((id) => id === 'w03')).toHaveLength(1)
  })

  it('parameters: include and exclude lists are honoured, also for featured ids', async () => {
    const { actor, listing, ids } = start({
      featuredWalletIds: ['w12', 'w13', 'w14'],
      includeWalletIds: ['w12', 'w13', 'w22', 'w23'],
      excludeWalletIds: ['w13', 'w23'],
    })
    actor.send({ type: 'wallets.load' })
    await flush()
    expect(listing.inputs().find((i) => i.entries === 1)).toMatchObject({
      include: ['w12'],
      exclude: ['w13', 'w23'],
    })
    expect(listing.inputs().find((i) => i.entries === WALLETS_PAGE_SIZE)).toMatchObject({
      include: ['w12', 'w13', 'w22', 'w23'],
      exclude: ['w13', 'w23', 'w12'],
    })
    expect(ids()).toEqual(['w12', 'w22'])
  })

  it('behavior: search waits for typing to pause, asks once for 100, and shows the matches', async () => {
    const { actor, clock, listing, snapshot, ids } = start({ featuredWalletIds: ['w58'] })
    actor.send({ type: 'wallets.load' })
    await flush()
    const browse = ids()
    const before = listing.requests.length

    actor.send({ type: 'wallets.search', query: 'b' })
    clock.increment(200)
    actor.send({ type: 'wallets.search', query: 'be' })
    clock.increment(200)
    actor.send({ type: 'wallets.search', query: '  beta   wallet 5 ' })
    clock.increment(WALLETS_SEARCH_DEBOUNCE_MS - 1)
    await flush()
    expect(listing.requests.length).toBe(before)
    // Until the matches arrive the browse list stays.
    expect(ids()).toEqual(browse)
    expect(selectWalletsMode(snapshot())).toBe('search')

    clock.increment(1)
    expect(snapshot().hasTag('loading')).toBe(true)
    await flush()
    expect(listing.requests.length).toBe(before + 1)
    expect(listing.inputs().at(-1)).toMatchObject({
      page: 1,
      entries: WALLETS_SEARCH_SIZE,
      search: 'beta wallet 5',
      chains: ['eip155:1'],
      exclude: [],
    })
    expect(snapshot().matches({ ready: { search: 'results' } })).toBe(true)
    // Featured first, then the listing's order.
    expect(ids()).toEqual(['w58', 'w52', 'w54', 'w56'])
    expect(selectHasMoreWallets(snapshot())).toBe(false)
  })

  it('behavior: an empty query returns to the browse list without a request', async () => {
    const { actor, clock, listing, snapshot, ids } = start()
    actor.send({ type: 'wallets.load' })
    await flush()
    actor.send({ type: 'wallets.loadMore' })
    await flush()
    const browse = ids()
    actor.send({ type: 'wallets.search', query: 'alpha' })
    clock.increment(WALLETS_SEARCH_DEBOUNCE_MS)
    await flush()
    expect(ids().every((id) => Number(id.slice(1)) % 2 === 1)).toBe(true)
    const requests = listing.requests.length

    actor.send({ type: 'wallets.search', query: '   ' })
    expect(snapshot().matches({ ready: { browse: 'browsing' } })).toBe(true)
    expect(snapshot().context.query).toBe('')
    expect(ids()).toEqual(browse)
    clock.increment(WALLETS_SEARCH_DEBOUNCE_MS * 2)
    await flush()
    expect(listing.requests.length).toBe(requests)

    // The same query again (after trimming) is not a new search.
    actor.send({ type: 'wallets.search', query: 'alpha' })
    clock.increment(WALLETS_SEARCH_DEBOUNCE_MS)
    await flush()
    actor.send({ type: 'wallets.search', query: 'alpha ' })
    expect(snapshot().matches({ ready: { search: 'results' } })).toBe(true)
    clock.increment(WALLETS_SEARCH_DEBOUNCE_MS)
    await flush()
    expect(listing.requests.length).toBe(requests + 1)
  })

  it('behavior: an answer to an older search is never shown, and its request is aborted', async () => {
    const listing = fakeListing({ auto: false })
    const { actor, clock, snapshot, ids } = start({}, listing)
    actor.send({ type: 'wallets.load' })
    listing.requests[0]!.resolve()
    await flush()

    actor.send({ type: 'wallets.search', query: 'alpha' })
    clock.increment(WALLETS_SEARCH_DEBOUNCE_MS)
    const alpha = listing.requests[1]!
    expect(alpha.input.search).toBe('alpha')
    actor.send({ type: 'wallets.search', query: 'beta' })
    expect(alpha.signal.aborted).toBe(true)
    clock.increment(WALLETS_SEARCH_DEBOUNCE_MS)
    const beta = listing.requests[2]!
    expect(beta.input.search).toBe('beta')

    // The old answer arrives late: ignored.
    alpha.resolve()
    await flush()
    expect(snapshot().matches({ ready: { search: 'searching' } })).toBe(true)
    expect(snapshot().context.results).toBeUndefined()

    beta.resolve()
    await flush()
    expect(snapshot().context.query).toBe('beta')
    expect(ids().length).toBeGreaterThan(0)
    expect(selectWalletList(snapshot()).every((w) => w.name.startsWith('Beta'))).toBe(true)

    // Clearing the search while a search is in flight: the late answer does not bring it back.
    actor.send({ type: 'wallets.search', query: 'alpha' })
    clock.increment(WALLETS_SEARCH_DEBOUNCE_MS)
    const late = listing.requests.at(-1)!
    actor.send({ type: 'wallets.search', query: '' })
    late.resolve()
    await flush()
    expect(selectWalletsMode(snapshot())).toBe('browse')
    expect(snapshot().context.results).toBeUndefined()
  })

  it('behavior: a failed first load is a state with the message; retry recovers', async () => {
    let failures = 1
    const listing = fakeListing({ fail: () => failures-- > 0 })
    const { actor, snapshot, ids } = start({}, listing)
    actor.send({ type: 'wallets.load' })
    await flush()
    expect(snapshot().value).toBe('failed')
    expect(snapshot().hasTag('error')).toBe(true)
    expect(snapshot().context.error).toBe('Could not load wallets')
    actor.send({ type: 'wallets.retry' })
    expect(snapshot().context.error).toBeUndefined()
    await flush()
    expect(snapshot().matches('ready')).toBe(true)
    expect(ids()).toHaveLength(40)
  })

  it('behavior: a failed featured request fails the load; a non-kit error gets the default message', async () => {
    const failing = fromPromise<FetchWalletsReturnType, FetchWalletsInput>(async ({ input }) => {
      if (input.include?.includes('w05')) throw new TypeError('boom')
      return { data: [], count: 0 }
    })
    const actor = createActor(walletsMachine.provide({ actors: { fetchWallets: failing } }), {
      input: { ...INPUT, featuredWalletIds: ['w05'] },
    }).start()
    actor.send({ type: 'wallets.load' })
    await flush()
    expect(actor.getSnapshot().value).toBe('failed')
    expect(actor.getSnapshot().context.error).toBe('Could not load wallets')
  })

  it('behavior: a failed next page keeps the loaded list; retry loads it', async () => {
    let failPage2 = true
    const listing = fakeListing({ fail: (input) => input.page === 2 && failPage2 })
    const { actor, snapshot, ids } = start({}, listing)
    actor.send({ type: 'wallets.load' })
    await flush()
    actor.send({ type: 'wallets.loadMore' })
    await flush()
    expect(snapshot().matches({ ready: { browse: 'loadMoreFailed' } })).toBe(true)
    expect(snapshot().hasTag('error')).toBe(true)
    expect(ids()).toHaveLength(40)
    failPage2 = false
    actor.send({ type: 'wallets.retry' })
    await flush()
    expect(ids()).toHaveLength(EVM_COUNT)
  })

  it('behavior: a failed search is a state; retry asks again; typing leaves it', async () => {
    let failSearch = true
    const listing = fakeListing({ fail: (input) => input.search !== undefined && failSearch })
    const { actor, clock, snapshot, ids } = start({}, listing)
    actor.send({ type: 'wallets.load' })
    await flush()
    actor.send({ type: 'wallets.search', query: 'alpha wallet 0' })
    clock.increment(WALLETS_SEARCH_DEBOUNCE_MS)
    await flush()
    expect(snapshot().matches({ ready: { search: 'failed' } })).toBe(true)
    expect(snapshot().context.error).toBe('Could not load wallets')
    failSearch = false
    actor.send({ type: 'wallets.retry' })
    await flush()
    expect(snapshot().matches({ ready: { search: 'results' } })).toBe(true)
    expect(ids()).toEqual(['w01', 'w03', 'w07', 'w09'])
    expect(snapshot().context.error).toBeUndefined()
  })

  it('behavior: typing during the first load is searched for once the list has loaded', async () => {
    const listing = fakeListing({ auto: false })
    const { actor, clock, snapshot } = start({}, listing)
    actor.send({ type: 'wallets.load' })
    actor.send({ type: 'wallets.search', query: 'beta' })
    listing.requests[0]!.resolve()
    await flush()
    expect(snapshot().matches({ ready: { search: 'debouncing' } })).toBe(true)
    clock.increment(WALLETS_SEARCH_DEBOUNCE_MS)
    expect(listing.requests.at(-1)?.input.search).toBe('beta')
  })

  it('behavior: "Certified only" asks every request with badge_type=certified and loads the list again', async () => {
    const { actor, clock, listing, snapshot, ids } = start({ featuredWalletIds: ['w04', 'w03'] })
    const certified = CATALOGUE.filter((w) => w.badge_type === 'certified' && w.chains.includes('eip155:1'))
    actor.send({ type: 'wallets.load' })
    await flush()
    expect(listing.inputs().every((input) => input.badge_type === undefined)).toBe(true)
    expect(ids().slice(0, 2)).toEqual(['w04', 'w03'])

    actor.send({ type: 'wallets.filter', certified: true })
    expect(snapshot().hasTag('loading')).toBe(true)
    await flush()
    const asked = listing.inputs().slice(2)
    // The featured request and the first page, both for certified wallets only.
    expect(asked.map((input) => [input.include?.length ? 'featured' : 'page', input.badge_type])).toEqual([
      ['featured', 'certified'],
      ['page', 'certified'],
    ])
    // w04 is certified, w03 is not: only w04 stays featured; the pages hold certified wallets only.
    expect(ids()[0]).toBe('w04')
    expect(ids()).not.toContain('w03')
    expect(ids().every((id) => certified.some((w) => w.id === id))).toBe(true)
    expect(snapshot().context.count).toBe(certified.length - 1)

    // A search under the filter asks with it too; the same filter again asks nothing.
    actor.send({ type: 'wallets.search', query: 'beta' })
    clock.increment(WALLETS_SEARCH_DEBOUNCE_MS)
    await flush()
    const search = listing.inputs().at(-1)!
    expect(search).toMatchObject({ search: 'beta', badge_type: 'certified' })
    const count = listing.requests.length
    actor.send({ type: 'wallets.filter', certified: true })
    await flush()
    expect(listing.requests).toHaveLength(count)

    // Off again: the list (and the search kept) are asked without the filter.
    actor.send({ type: 'wallets.filter', certified: false })
    await flush()
    expect(snapshot().context.query).toBe('beta')
    expect(
      listing
        .inputs()
        .slice(count)
        .every((input) => input.badge_type === undefined),
    ).toBe(true)
  })

  it('behavior: a filter chosen before the first load is kept for it', async () => {
    const { actor, listing, snapshot } = start()
    actor.send({ type: 'wallets.filter', certified: true })
    expect(snapshot().value).toBe('idle')
    expect(listing.requests).toHaveLength(0)
    actor.send({ type: 'wallets.load' })
    await flush()
    expect(listing.inputs().map((input) => input.badge_type)).toEqual(['certified'])
  })
})
