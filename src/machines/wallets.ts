import {
  type ActorRefFrom,
  and,
  assign,
  enqueueActions,
  fromPromise,
  not,
  type SnapshotFrom,
  setup,
  stateIn,
} from 'xstate'
import type { FetchWalletsParameters, FetchWalletsReturnType, WalletListing } from '../api/walletsApi'
import {
  WALLETS_LIST_MAX,
  WALLETS_PAGE_SIZE,
  WALLETS_RECOMMENDED_COUNT,
  WALLETS_SEARCH_SIZE,
} from '../constants'
import { WALLETS_API_ERROR_MESSAGE } from '../errors/api'
import { BaseError } from '../errors/base'
import { safeDeepLink, safeHttpUrl } from '../utils/links'
import type { ChosenWallet, ConnectorInfo } from './connection'
import { matchConnector } from './kit/matchConnector'

/**
 * The All Wallets list (SPEC §9 wallet pages) as a statechart.
 *
 * - `idle` until a view asks (`wallets.load`), then `loadingFirst`: the host's featured wallets (when it
 *   configured some) and the first page of 40, side by side. The featured wallets are left out of the pages
 *   so no wallet shows twice; the first four of the first page are the recommended wallets.
 * - `ready.browse`: more pages on `wallets.loadMore` (infinite scroll) until `count` is reached, a page adds
 *   no wallet not already listed (`pageAddsNothing`: a listing that repeats a page, or whose count lies, ends
 *   there), or the list holds `WALLETS_LIST_MAX` wallets.
 * - `ready.search`: `wallets.search {query}` waits `searchDebounce` for the typing to stop, then asks once for
 *   up to 100 matches. Leaving a state stops its request, so an answer to an older query never lands. An
 *   empty query goes back to the browse list, which is still loaded: no request.
 * - Failures are states (`failed`, `loadMoreFailed`, `searchFailed`) left with `wallets.retry`.
 * - `wallets.filter {certified}` (All Wallets' "Certified only"): every request asks `badge_type=certified`
 *   while it is on. A change loads the list again from its first page (a search typed is kept and asked
 *   again); before the first load it is only kept.
 *
 * All I/O is the `fetchWallets` actor slot, filled by the kit's composition root (`src/actors/wallets.ts`);
 * tests give their own with `.provide({ actors: { fetchWallets } })`.
 */

/** How long typing must pause before a search is sent. Ours: the SPEC names none; 300 ms feels immediate. */
export const WALLETS_SEARCH_DEBOUNCE_MS = 300

export interface WalletsInput {
  /** `endpoints.walletsApi` of the kit config. */
  walletsApi: string
  projectId: string
  /** Shown first, in this order. */
  featuredWalletIds: readonly string[]
  /** When not empty, only these wallets are listed. */
  includeWalletIds: readonly string[]
  excludeWalletIds: readonly string[]
  /** CAIP-2 ids of the kit's networks: only wallets supporting one of them are listed. */
  chains: readonly string[]
}

export interface WalletsContext {
  source: WalletsInput
  /** The featured wallets the listing knows, in the host's order. */
  featured: WalletListing[]
  /** The browse list loaded so far (pages in order), featured wallets left out. */
  wallets: WalletListing[]
  /** How many wallets the browse list has in all. */
  count: number
  /** Pages of the browse list loaded. */
  page: number
  /** The search asked for, trimmed; `''` while browsing. */
  query: string
  /** Matches of the last completed search; `undefined` before the first one of a search session. */
  results: WalletListing[] | undefined
  /** The short message of the last failure, shown with "Try again". */
  error: string | undefined
  /** Only certified wallets are asked for (`badge_type=certified`, SPEC §7). */
  certified: boolean
}

export type WalletsEvent =
  | { type: 'wallets.load' }
  | { type: 'wallets.loadMore' }
  | { type: 'wallets.search'; query: string }
  | { type: 'wallets.retry' }
  | { type: 'wallets.filter'; certified: boolean }

export type WalletsTag = 'loading' | 'loadingMore' | 'error'

/** The input of the `fetchWallets` slot: one listing request (the slot adds the abort signal). */
export type FetchWalletsInput = Omit<FetchWalletsParameters, 'signal' | 'timeoutMs' | 'maxBytes' | 'fetch'>

/** Longest search sent; the listing refuses more than 100 characters. */
const MAX_QUERY_LENGTH = 100

const normaliseQuery = (query: string): string => query.replace(/\s+/g, ' ').trim().slice(0, MAX_QUERY_LENGTH)

/** Featured ids that the include/exclude lists still allow. */
function featuredIds({ featuredWalletIds, includeWalletIds, excludeWalletIds }: WalletsInput): string[] {
  const excluded = new Set(excludeWalletIds)
  const included = includeWalletIds.length > 0 ? new Set(includeWalletIds) : undefined
  return [...new Set(featuredWalletIds)]
    .filter((id) => !excluded.has(id) && (included === undefined || included.has(id)))
    .slice(0, WALLETS_SEARCH_SIZE)
}

function common({
  source,
  certified,
}: Pick<WalletsContext, 'source' | 'certified'>): Pick<
  FetchWalletsInput,
  'walletsApi' | 'projectId' | 'chains' | 'badge_type'
> {
  return {
    walletsApi: source.walletsApi,
    projectId: source.projectId,
    chains: source.chains,
    ...(certified ? { badge_type: 'certified' as const } : {}),
  }
}

/** Featured wallets first (in the host's order), then the rest in the listing's order. */
function featuredFirst(wallets: readonly WalletListing[], featured: readonly string[]): WalletListing[] {
  const rank = new Map(featured.map((id, index) => [id, index]))
  return wallets
    .map((wallet, index) => ({ wallet, key: rank.get(wallet.id) ?? featured.length + index }))
    .sort((a, b) => a.key - b.key)
    .map(({ wallet }) => wallet)
}

/** What the wallets machine tells its parent (the kit follows it). */
export type WalletsEmitted = { type: 'wallets.projectRefused'; status: number }

/**
 * The listing refused the project id (HTTP 401 or 403: SPEC §8 "invalid project id"): the status, else
 * `undefined`.
 */
function refusedProjectStatus(error: unknown): number | undefined {
  const status = error instanceof BaseError ? (error as BaseError & { status?: unknown }).status : undefined
  return status === 401 || status === 403 ? status : undefined
}

function errorText(error: unknown): string {
  return error instanceof BaseError ? error.shortMessage : WALLETS_API_ERROR_MESSAGE
}

/**
 * Enters the first load with the featured request running beside the first page. The choice is made on the
 * way in, not by an eventless state inside, so every state of the machine is one a snapshot can show.
 */
const LOAD_WITH_FEATURED = ['#wallets.loadingFirst.featured.loading', '#wallets.loadingFirst.page']

export const walletsMachine = setup({
  types: {
    context: {} as WalletsContext,
    events: {} as WalletsEvent,
    input: {} as WalletsInput,
    tags: {} as WalletsTag,
    emitted: {} as WalletsEmitted,
  },
  actors: {
    /** One listing request; the signal aborts it when the state that asked is left. Provided by the kit. */
    fetchWallets: fromPromise<FetchWalletsReturnType, FetchWalletsInput>(async () => {
      throw new Error('walletsMachine: the fetchWallets slot is not provided')
    }),
  },
  delays: {
    searchDebounce: WALLETS_SEARCH_DEBOUNCE_MS,
  },
  guards: {
    hasFeatured: ({ context }) => featuredIds(context.source).length > 0,
    hasMore: ({ context }) => hasMorePages(context),
    pageAddsNothing: ({ context }, params: { output: FetchWalletsReturnType }) =>
      freshWallets(context.wallets, params.output.data).length === 0,
    hasQuery: ({ context }) => context.query !== '',
    firstLoadDone: and([
      not(stateIn('#wallets.loadingFirst.featured.loading')),
      stateIn('#wallets.loadingFirst.page.done'),
    ]),
    isBlankQuery: (_, params: { query: string }) => normaliseQuery(params.query) === '',
    isSearchQuery: (_, params: { query: string }) => normaliseQuery(params.query) !== '',
    isSameQuery: ({ context }, params: { query: string }) => normaliseQuery(params.query) === context.query,
    isSameFilter: ({ context }, params: { certified: boolean }) => params.certified === context.certified,
  },
  actions: {
    setQuery: assign((_, params: { query: string }) => ({ query: normaliseQuery(params.query) })),
    clearSearch: assign({ query: '', results: undefined }),
    setFeatured: assign((_, params: { output: FetchWalletsReturnType; ids: readonly string[] }) => {
      const wanted = new Set(params.ids)
      return { featured: featuredFirst(params.output.data, params.ids).filter((w) => wanted.has(w.id)) }
    }),
    setFirstPage: assign((_, params: { output: FetchWalletsReturnType }) => ({
      wallets: params.output.data,
      count: params.output.count,
      page: 1,
      error: undefined,
    })),
    appendPage: assign(({ context }, params: { output: FetchWalletsReturnType }) => ({
      wallets: [...context.wallets, ...freshWallets(context.wallets, params.output.data)].slice(
        0,
        WALLETS_LIST_MAX,
      ),
      count: params.output.count,
      page: context.page + 1,
      error: undefined,
    })),
    /** The listing has nothing more, whatever its count said: the list is complete as it is. */
    endPaging: assign(({ context }) => ({ count: context.wallets.length, error: undefined })),
    setResults: assign(({ context }, params: { output: FetchWalletsReturnType }) => ({
      results: featuredFirst(params.output.data, featuredIds(context.source)),
      error: undefined,
    })),
    /** The listing failed: its text for the view; a refused project id (401/403) is also told to the kit. */
    setError: enqueueActions(({ enqueue }, params: { error: unknown }) => {
      enqueue.assign({ error: errorText(params.error) })
      const status = refusedProjectStatus(params.error)
      if (status !== undefined) enqueue.emit({ type: 'wallets.projectRefused', status })
    }),
    clearError: assign({ error: undefined }),
    setFilter: assign((_, params: { certified: boolean }) => ({ certified: params.certified })),
    /** Another filter: the lists loaded so far are not its answer (the query typed stays). */
    clearLists: assign({
      featured: [],
      wallets: [],
      count: 0,
      page: 0,
      results: undefined,
      error: undefined,
    }),
  },
}).createMachine({
  id: 'wallets',
  context: ({ input }) => ({
    source: input,
    featured: [],
    wallets: [],
    count: 0,
    page: 0,
    query: '',
    results: undefined,
    error: undefined,
    certified: false,
  }),
  initial: 'idle',
  on: {
    'wallets.filter': [
      { guard: { type: 'isSameFilter', params: ({ event }) => event } },
      {
        guard: 'hasFeatured',
        target: LOAD_WITH_FEATURED,
        actions: ['clearLists', { type: 'setFilter', params: ({ event }) => event }],
      },
      {
        target: '.loadingFirst',
        actions: ['clearLists', { type: 'setFilter', params: ({ event }) => event }],
      },
    ],
  },
  states: {
    idle: {
      on: {
        'wallets.load': [{ guard: 'hasFeatured', target: LOAD_WITH_FEATURED }, { target: 'loadingFirst' }],
        // Not asked for yet: the filter is kept for the first load.
        'wallets.filter': { actions: { type: 'setFilter', params: ({ event }) => event } },
      },
    },
    loadingFirst: {
      type: 'parallel',
      tags: 'loading',
      entry: 'clearError',
      // Eventless rather than `onDone`: the same step, and a model explores no internal done event.
      always: [
        { guard: and(['firstLoadDone', 'hasQuery']), target: 'ready.search' },
        { guard: 'firstLoadDone', target: 'ready' },
      ],
      on: {
        // Typing while the list loads is kept and searched for once it has loaded.
        'wallets.search': { actions: { type: 'setQuery', params: ({ event }) => event } },
      },
      states: {
        featured: {
          // Entered at `loading` only when the host features wallets (LOAD_WITH_FEATURED); else nothing to do.
          initial: 'skipped',
          states: {
            skipped: { type: 'final' },
            loading: {
              invoke: {
                id: 'featured',
                src: 'fetchWallets',
                input: ({ context }) => {
                  const ids = featuredIds(context.source)
                  return {
                    ...common(context),
                    page: 1,
                    entries: ids.length,
                    include: ids,
                    exclude: context.source.excludeWalletIds,
                  }
                },
                onDone: {
                  target: 'done',
                  actions: {
                    type: 'setFeatured',
                    params: ({ context, event }) => ({
                      output: event.output,
                      ids: featuredIds(context.source),
                    }),
                  },
                },
                onError: {
                  target: '#wallets.failed',
                  actions: { type: 'setError', params: ({ event }) => ({ error: event.error }) },
                },
              },
            },
            done: { type: 'final' },
          },
        },
        page: {
          initial: 'loading',
          states: {
            loading: {
              invoke: {
                id: 'firstPage',
                src: 'fetchWallets',
                input: ({ context }) => browsePage(context, 1),
                onDone: {
                  target: 'done',
                  actions: { type: 'setFirstPage', params: ({ event }) => ({ output: event.output }) },
                },
                onError: {
                  target: '#wallets.failed',
                  actions: { type: 'setError', params: ({ event }) => ({ error: event.error }) },
                },
              },
            },
            done: { type: 'final' },
          },
        },
      },
    },
    failed: {
      tags: 'error',
      on: {
        'wallets.retry': [{ guard: 'hasFeatured', target: LOAD_WITH_FEATURED }, { target: 'loadingFirst' }],
        'wallets.load': [{ guard: 'hasFeatured', target: LOAD_WITH_FEATURED }, { target: 'loadingFirst' }],
        'wallets.search': { actions: { type: 'setQuery', params: ({ event }) => event } },
      },
    },
    ready: {
      initial: 'browse',
      states: {
        browse: {
          initial: 'browsing',
          on: {
            // A blank query while browsing changes nothing; any other starts a search, also mid-page.
            'wallets.search': {
              guard: { type: 'isSearchQuery', params: ({ event }) => event },
              target: 'search',
              actions: ['clearError', { type: 'setQuery', params: ({ event }) => event }],
            },
          },
          states: {
            browsing: {
              on: {
                'wallets.loadMore': { guard: 'hasMore', target: 'loadingMore' },
              },
            },
            loadingMore: {
              tags: 'loadingMore',
              invoke: {
                id: 'nextPage',
                src: 'fetchWallets',
                input: ({ context }) => browsePage(context, context.page + 1),
                onDone: [
                  {
                    guard: { type: 'pageAddsNothing', params: ({ event }) => ({ output: event.output }) },
                    target: 'browsing',
                    actions: 'endPaging',
                  },
                  {
                    target: 'browsing',
                    actions: { type: 'appendPage', params: ({ event }) => ({ output: event.output }) },
                  },
                ],
                onError: {
                  target: 'loadMoreFailed',
                  actions: { type: 'setError', params: ({ event }) => ({ error: event.error }) },
                },
              },
            },
            loadMoreFailed: {
              tags: 'error',
              on: {
                'wallets.retry': { target: 'loadingMore', actions: 'clearError' },
                'wallets.loadMore': { target: 'loadingMore', actions: 'clearError' },
              },
            },
          },
        },
        search: {
          initial: 'debouncing',
          on: {
            'wallets.search': [
              {
                guard: { type: 'isBlankQuery', params: ({ event }) => event },
                target: 'browse',
                actions: ['clearSearch', 'clearError'],
              },
              { guard: { type: 'isSameQuery', params: ({ event }) => event } },
              {
                target: '.debouncing',
                actions: ['clearError', { type: 'setQuery', params: ({ event }) => event }],
              },
            ],
          },
          states: {
            debouncing: {
              after: { searchDebounce: 'searching' },
            },
            searching: {
              tags: 'loading',
              invoke: {
                id: 'search',
                src: 'fetchWallets',
                input: ({ context }) => ({
                  ...common(context),
                  page: 1,
                  entries: WALLETS_SEARCH_SIZE,
                  search: context.query,
                  include: context.source.includeWalletIds,
                  exclude: context.source.excludeWalletIds,
                }),
                onDone: {
                  target: 'results',
                  actions: { type: 'setResults', params: ({ event }) => ({ output: event.output }) },
                },
                onError: {
                  target: 'failed',
                  actions: { type: 'setError', params: ({ event }) => ({ error: event.error }) },
                },
              },
            },
            results: {},
            failed: {
              tags: 'error',
              on: { 'wallets.retry': { target: 'searching', actions: 'clearError' } },
            },
          },
        },
      },
    },
  },
})

/** Whether the browse list may grow: the count not reached, and room left under `WALLETS_LIST_MAX`. */
function hasMorePages(context: Pick<WalletsContext, 'page' | 'count' | 'wallets'>): boolean {
  return context.page * WALLETS_PAGE_SIZE < context.count && context.wallets.length < WALLETS_LIST_MAX
}

/** The wallets of a page not listed yet. */
function freshWallets(listed: readonly WalletListing[], page: readonly WalletListing[]): WalletListing[] {
  const known = new Set(listed.map((wallet) => wallet.id))
  return page.filter((wallet) => !known.has(wallet.id))
}

/** A page of the browse list: the host's include/exclude lists, featured wallets left out. */
function browsePage(context: Pick<WalletsContext, 'source' | 'certified'>, page: number): FetchWalletsInput {
  const { source } = context
  return {
    ...common(context),
    page,
    entries: WALLETS_PAGE_SIZE,
    include: source.includeWalletIds,
    exclude: [...source.excludeWalletIds, ...featuredIds(source)],
  }
}

/**
 * `walletsMachine`'s type by name: the declarations of what runs it name it instead of repeating its whole type
 * (what keeps the package's .d.ts files small).
 */
export interface WalletsMachine extends WalletsMachineType {}
type WalletsMachineType = typeof walletsMachine
export type WalletsActorRef = ActorRefFrom<typeof walletsMachine>
export type WalletsSnapshot = SnapshotFrom<typeof walletsMachine>

/** Whether the list shows search matches (`search`) or the browse list (`browse`). */
export function selectWalletsMode(snapshot: WalletsSnapshot): 'browse' | 'search' {
  return snapshot.matches({ ready: 'search' }) || snapshot.context.query !== '' ? 'search' : 'browse'
}

/**
 * The wallets to show: the matches of the last search while searching (the browse list until the first
 * matches arrive), else the featured wallets and then the browse list.
 */
export function selectWalletList(snapshot: WalletsSnapshot): WalletListing[] {
  const { featured, wallets, results } = snapshot.context
  if (selectWalletsMode(snapshot) === 'search' && results !== undefined) return results
  return featured.length === 0 ? wallets : [...featured, ...wallets]
}

/** The recommended wallets: the first four of the listing's first page (SPEC §9). */
export function selectRecommendedWallets(snapshot: WalletsSnapshot): WalletListing[] {
  return snapshot.context.wallets.slice(0, WALLETS_RECOMMENDED_COUNT)
}

/** Whether the browse list has pages left to load. */
export function selectHasMoreWallets(snapshot: WalletsSnapshot): boolean {
  return snapshot.matches({ ready: 'browse' }) && hasMorePages(snapshot.context)
}

/**
 * What the All Wallets view shows: the first page `loading` (or not asked for yet), the first load `failed`,
 * a search under way (`searching`), the next page on its way (`loadingMore`), a later page or a search that
 * failed (`partError`, the list so far stays), or `ready`.
 */
export type WalletsStatus = 'loading' | 'failed' | 'searching' | 'loadingMore' | 'partError' | 'ready'

/** The {@link WalletsStatus} of a snapshot. */
export function selectWalletsStatus(snapshot: WalletsSnapshot): WalletsStatus {
  if (snapshot.matches('failed')) return 'failed'
  if (snapshot.matches('idle') || snapshot.matches('loadingFirst')) return 'loading'
  if (snapshot.matches({ ready: { search: 'searching' } })) return 'searching'
  if (snapshot.hasTag('loadingMore')) return 'loadingMore'
  if (snapshot.hasTag('error')) return 'partError'
  return 'ready'
}

/** What the connection machine needs of a listing entry; links checked again, here at the last step. */
export function toChosenWallet(wallet: WalletListing): ChosenWallet {
  return {
    id: wallet.id,
    name: wallet.name,
    ...(wallet.rdns ? { rdns: wallet.rdns } : {}),
    ...optional('imageUrl', wallet.image_url),
    ...optional('mobileLink', safeDeepLink(wallet.mobile_link)),
    ...optional('desktopLink', safeDeepLink(wallet.desktop_link)),
    ...optional('webappLink', safeHttpUrl(wallet.webapp_link)),
    ...namespacesOf(wallet.chains),
  }
}

/** The chain namespaces of a listing entry's CAIP-2 chains (SPEC §1 `multichain`), each once, in order. */
function namespacesOf(chains: readonly string[] | undefined): { chainNamespaces?: string[] } {
  const chainNamespaces = [
    ...new Set(
      (chains ?? []).map((chain) => chain.split(':')[0] ?? '').filter((n) => /^[-a-z0-9]{3,8}$/.test(n)),
    ),
  ]
  return chainNamespaces.length > 0 ? { chainNamespaces } : {}
}

function optional<K extends string>(key: K, value: string | undefined): Partial<Record<K, string>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, string>)
}

// SPEC §3 Connector `imageId`: the image (`getWalletImage/{image_id}`) of the listing entry a local connector
// matches as choosing it would (`matchConnector`); Connect shows it for a connector without an icon of its own.
/** @internal */
export function listingImageOf(
  connector: ConnectorInfo,
  listed: readonly ChosenWallet[],
): string | undefined {
  return listed.find((wallet) => wallet.imageUrl && matchConnector([connector], wallet))?.imageUrl
}
