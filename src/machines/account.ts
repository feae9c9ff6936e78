import { type ActorRefFrom, assertEvent, assign, emit, fromPromise, type SnapshotFrom, setup } from 'xstate'
import type { BalancesResult, TokenBalance } from '../api/dataApi'
import { BALANCE_CACHE_MS, TOKEN_BALANCE_RETRY_BLOCK_MS } from '../constants'
import { DATA_API_ERROR_MESSAGES } from '../errors/api'
import type { ErrorInfo } from '../errors/connection'

/**
 * The Account view's state (SPEC §3 account state: currentTab, tokenBalance): which tab is shown, and the token
 * balances' fetch lifecycle (SPEC §4 "A failed balance fetch blocks new attempts for 30 s").
 *
 * Two regions:
 * - `tab`: tokens | nfts | activity (SPEC §2 Account tabs), switched by `account.selectTab`.
 * - `balances`: idle → fetching → ready (fresh for the SPEC §9 30 s cache, then stale) | unsupported (the Data
 *   API does not serve the network, SPEC §8) | blocked (the fetch failed: for 30 s no new attempt is made, whoever
 *   asks; then idle). Views ask with `account.fetchBalances` whenever they need balances; the machine decides
 *   whether that becomes a request. `account.refreshBalances` (after a transaction) asks the API for fresh
 *   balances, bypassing the cache, but never through the block.
 *
 * Failures and unsupported networks are announced once, as `account.balancesUnavailable` with the SPEC §8 text
 * ('Token Balance Unavailable'), for the kit's toast. Fresh balances are announced as `account.balancesUpdated`
 * (the send flow's token picker follows them).
 *
 * The only effect is the `fetchBalances` slot (`GET /v1/account/{address}/balance` through the Data API client);
 * the kit fills it when it loads this machine.
 */

/** SPEC §2 Account tabs. */
export type AccountTab = 'tokens' | 'nfts' | 'activity'

export const ACCOUNT_TABS: readonly AccountTab[] = ['tokens', 'nfts', 'activity']

/** Whose balances: an address on a network (CAIP-2, e.g. `eip155:1`). */
export interface BalancesOwner {
  address: string
  chainId: string
}

export interface AccountContext {
  /** The account and network the balances are (or are being fetched) for. */
  owner: BalancesOwner | undefined
  /** SPEC §3 tokenBalance: the last balances fetched for `owner` (decimals '0' already dropped by the client). */
  balances: TokenBalance[]
  /** Ask the API to read fresh balances on the next request (set by `account.refreshBalances`). */
  forceUpdate: boolean
  /** Why the last fetch failed; cleared by the next answer. */
  error: ErrorInfo | undefined
}

export type AccountEvent =
  | { type: 'account.selectTab'; tab: AccountTab }
  /** A view needs the balances of `address` on `chainId` (CAIP-2). A request only when the rules allow one. */
  | { type: 'account.fetchBalances'; address: string; chainId: string }
  /** After a transaction: fresh balances for the current owner, the cache bypassed (not during the block). */
  | { type: 'account.refreshBalances' }
  /** Disconnected: the balances are dropped (a running block stays: it is about attempts, not accounts). */
  | { type: 'account.clear' }

/** What the machine tells the kit (`actor.on(type, …)`). */
export type AccountNotice =
  | {
      type: 'account.balancesUnavailable'
      /** SPEC §8: 'Token Balance Unavailable'. */
      message: string
      reason: 'failed' | 'unsupported'
    }
  | { type: 'account.balancesUpdated'; owner: BalancesOwner; balances: TokenBalance[] }

/** SPEC §8. */
export const TOKEN_BALANCE_UNAVAILABLE = DATA_API_ERROR_MESSAGES.balance

const CAIP2 = /^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}$/

const notProvided = (slot: string) => () => {
  throw new Error(`accountMachine: the "${slot}" actor slot was not provided`)
}

/** An error event's payload, for `params`. */
const errorOf = ({ event }: { event: { error: unknown } }) => event.error

const sameOwner = (a: BalancesOwner | undefined, b: BalancesOwner) =>
  a !== undefined && a.chainId === b.chainId && a.address.toLowerCase() === b.address.toLowerCase()

const ownerOf = (event: { address: string; chainId: string }): BalancesOwner => ({
  address: event.address,
  chainId: event.chainId,
})

export const accountMachine = setup({
  types: {
    context: {} as AccountContext,
    events: {} as AccountEvent,
    emitted: {} as AccountNotice,
    tags: {} as 'loading',
  },
  actors: {
    fetchBalances: fromPromise<BalancesResult, BalancesOwner & { forceUpdate: boolean }>(
      notProvided('fetchBalances'),
    ),
  },
  delays: {
    /** SPEC §9: portfolio cache. */
    balanceCache: BALANCE_CACHE_MS,
    /** SPEC §4, §9: token balance retry blocked after a failure. */
    retryBlock: TOKEN_BALANCE_RETRY_BLOCK_MS,
  },
  guards: {
    isTab: ({ event }, tab: AccountTab) => event.type === 'account.selectTab' && event.tab === tab,
    validOwner: ({ event }) =>
      event.type === 'account.fetchBalances' && event.address.length > 0 && CAIP2.test(event.chainId),
    otherOwner: ({ context, event }) =>
      event.type === 'account.fetchBalances' &&
      event.address.length > 0 &&
      CAIP2.test(event.chainId) &&
      !sameOwner(context.owner, ownerOf(event)),
    hasOwner: ({ context }) => context.owner !== undefined,
    unsupported: (_, result: BalancesResult) => !result.supported,
  },
  actions: {
    /** A new owner's balances replace the old ones only when they arrive; the old ones are not theirs. */
    setOwner: assign(({ context, event }) => {
      assertEvent(event, 'account.fetchBalances')
      const owner = ownerOf(event)
      return sameOwner(context.owner, owner) ? {} : { owner, balances: [], forceUpdate: false }
    }),
    markForceUpdate: assign({ forceUpdate: true }),
    setBalances: assign((_, result: BalancesResult) => ({
      balances: result.balances,
      forceUpdate: false,
      error: undefined,
    })),
    setError: assign((_, error: unknown) => ({
      error: {
        name: error instanceof Error ? error.name : 'Error',
        message: TOKEN_BALANCE_UNAVAILABLE,
      },
    })),
    clear: assign({ owner: undefined, balances: [], forceUpdate: false, error: undefined }),
    /** During the block the failure stays on record: only the data goes. */
    dropBalances: assign({ owner: undefined, balances: [], forceUpdate: false }),
    emitUpdated: emit(({ context }) => ({
      type: 'account.balancesUpdated' as const,
      owner: context.owner!,
      balances: context.balances,
    })),
    emitFailed: emit({
      type: 'account.balancesUnavailable' as const,
      message: TOKEN_BALANCE_UNAVAILABLE,
      reason: 'failed' as const,
    }),
    emitUnsupported: emit({
      type: 'account.balancesUnavailable' as const,
      message: TOKEN_BALANCE_UNAVAILABLE,
      reason: 'unsupported' as const,
    }),
  },
}).createMachine({
  id: 'account',
  context: { owner: undefined, balances: [], forceUpdate: false, error: undefined },
  type: 'parallel',
  states: {
    tab: {
      initial: 'tokens',
      on: {
        'account.selectTab': [
          { guard: { type: 'isTab', params: 'tokens' }, target: '.tokens' },
          { guard: { type: 'isTab', params: 'nfts' }, target: '.nfts' },
          { guard: { type: 'isTab', params: 'activity' }, target: '.activity' },
        ],
      },
      states: {
        tokens: {},
        nfts: {},
        activity: {},
      },
    },
    balances: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'account.fetchBalances': { guard: 'validOwner', target: 'fetching', actions: 'setOwner' },
            'account.refreshBalances': { guard: 'hasOwner', target: 'fetching', actions: 'markForceUpdate' },
            'account.clear': { actions: 'clear' },
          },
        },
        fetching: {
          tags: 'loading',
          invoke: {
            id: 'fetchBalances',
            src: 'fetchBalances',
            input: ({ context }) => ({ ...context.owner!, forceUpdate: context.forceUpdate }),
            onDone: [
              {
                guard: { type: 'unsupported', params: ({ event }) => event.output },
                target: 'unsupported',
                actions: [{ type: 'setBalances', params: ({ event }) => event.output }, 'emitUnsupported'],
              },
              {
                target: 'ready',
                actions: [{ type: 'setBalances', params: ({ event }) => event.output }, 'emitUpdated'],
              },
            ],
            onError: {
              target: 'blocked',
              actions: [{ type: 'setError', params: errorOf }, 'emitFailed'],
            },
          },
          on: {
            // Another account or network: its request replaces the one under way. The same one: already asked.
            'account.fetchBalances': {
              guard: 'otherOwner',
              target: 'fetching',
              reenter: true,
              actions: 'setOwner',
            },
            // A transaction landed while balances were on their way: ask again, for fresh ones.
            'account.refreshBalances': { target: 'fetching', reenter: true, actions: 'markForceUpdate' },
            'account.clear': { target: 'idle', actions: 'clear' },
          },
        },
        ready: {
          initial: 'fresh',
          states: {
            fresh: {
              after: { balanceCache: 'stale' },
            },
            stale: {
              on: {
                'account.fetchBalances': {
                  guard: 'validOwner',
                  target: '#account.balances.fetching',
                  actions: 'setOwner',
                },
              },
            },
          },
          on: {
            'account.fetchBalances': {
              guard: 'otherOwner',
              target: 'fetching',
              actions: 'setOwner',
            },
            'account.refreshBalances': { target: 'fetching', actions: 'markForceUpdate' },
            'account.clear': { target: 'idle', actions: 'clear' },
          },
        },
        /** The Data API does not serve the network: nothing to ask until the account or network changes. */
        unsupported: {
          on: {
            'account.fetchBalances': { guard: 'otherOwner', target: 'fetching', actions: 'setOwner' },
            'account.clear': { target: 'idle', actions: 'clear' },
          },
        },
        /** SPEC §4: no new attempt for 30 s after a failure, whatever asks. */
        blocked: {
          after: { retryBlock: 'idle' },
          on: {
            'account.clear': { actions: 'dropBalances' },
          },
        },
      },
    },
  },
})

export type AccountMachine = typeof accountMachine
export type AccountActorRef = ActorRefFrom<typeof accountMachine>
export type AccountSnapshot = SnapshotFrom<typeof accountMachine>

/** The tab shown (SPEC §3 currentTab). */
export function selectCurrentTab(snapshot: AccountSnapshot): AccountTab {
  return ACCOUNT_TABS.find((tab) => snapshot.matches({ tab })) ?? 'tokens'
}
