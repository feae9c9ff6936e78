import {
  type ActorRefFrom,
  and,
  assertEvent,
  assign,
  emit,
  fromPromise,
  not,
  type SnapshotFrom,
  setup,
} from 'xstate'
import type { BalancesResult, TokenBalance } from '../api/dataApi'
import { PENDING_TRANSACTIONS_MAX, TOKEN_BALANCE_RETRY_BLOCK_MS } from '../constants'
import { DATA_API_ERROR_MESSAGES } from '../errors/api'
import type { ErrorInfo } from '../errors/connection'
import { isCaip2 } from '../utils/caip'

/**
 * The Account view's state (SPEC §3 account state: currentTab, tokenBalance): which tab is shown, and the token
 * balances' fetch lifecycle (SPEC §4 "A failed balance fetch blocks new attempts for 30 s").
 *
 * Two regions:
 * - `tab`: tokens | nfts | activity (SPEC §2 Account tabs), switched by `account.selectTab`.
 * - `balances`: idle → fetching → ready | unsupported (the Data API does not serve the network, SPEC §8) |
 *   blocked (the fetch failed: for 30 s no new attempt is made, whoever asks; then idle). Views ask with
 *   `account.fetchBalances` whenever they need balances. Whether that becomes a request is the kit's QueryClient's
 *   call (SPEC §9: balances are fresh for 30 s; the `fetchBalances` slot goes through it, see
 *   src/actors/account.ts), so the machine keeps no clock of its own for it; the block is a rule, not a cache,
 *   and stays here. `account.refreshBalances` (after a transaction) asks the API for fresh balances, bypassing
 *   the cache, but never through the block.
 *
 * Failures and unsupported networks are announced once, as `account.balancesUnavailable` with the SPEC §8 text
 * ('Token Balance Unavailable'), for the kit's toast. Fresh balances are announced as `account.balancesUpdated`
 * (the send flow's token picker follows them).
 *
 * The only effect is the `fetchBalances` slot (`GET /v1/account/{address}/balance` through the Data API client
 * and the QueryClient); the kit fills it with `createAccountActors` (src/actors/account.ts) when it loads this
 * machine.
 *
 * Views read the tags (`loading`, `ready`, `unsupported`, `blocked`) through {@link selectBalancesStatus}.
 * Beside them, the kit's pending transactions (SPEC §9).
 */

/**
 * `loading`: a fetch is under way; `ready`: balances shown; `unsupported`: the Data API does not serve the
 * network; `blocked`: the 30 s after a failed fetch.
 */
export type AccountTag = 'loading' | 'ready' | 'unsupported' | 'blocked'

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
  /** SPEC §9: sent by the kit, not confirmed yet; oldest first, at most 99. */
  pending: PendingTransaction[]
}

/** SPEC §9 pending transaction: `chainId` CAIP-2, `address` the account shown when it was sent. */
export interface PendingTransaction {
  hash: string
  chainId: string
  address: string | undefined
}

export type AccountEvent =
  | { type: 'account.selectTab'; tab: AccountTab }
  /** A view needs the balances of `address` on `chainId` (CAIP-2). A request only when the rules allow one. */
  | { type: 'account.fetchBalances'; address: string; chainId: string }
  /** After a transaction: fresh balances for the current owner, the cache bypassed (not during the block). */
  | { type: 'account.refreshBalances' }
  /** Disconnected: the balances are dropped (a running block stays: it is about attempts, not accounts). */
  | { type: 'account.clear' }
  /** SPEC §9: pending (`chainId` CAIP-2) until settled (confirmed or failed). */
  | { type: 'account.transactionSent'; hash: string; chainId: string }
  | { type: 'account.transactionSettled'; hash: string }

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
    tags: {} as AccountTag,
  },
  actors: {
    fetchBalances: fromPromise<BalancesResult, BalancesOwner & { forceUpdate: boolean }>(
      notProvided('fetchBalances'),
    ),
  },
  delays: {
    /** SPEC §4, §9: token balance retry blocked after a failure. */
    retryBlock: TOKEN_BALANCE_RETRY_BLOCK_MS,
  },
  guards: {
    isTab: ({ event }, tab: AccountTab) => event.type === 'account.selectTab' && event.tab === tab,
    validOwner: ({ event }) =>
      event.type === 'account.fetchBalances' && event.address.length > 0 && isCaip2(event.chainId),
    otherOwner: ({ context, event }) =>
      event.type === 'account.fetchBalances' &&
      event.address.length > 0 &&
      isCaip2(event.chainId) &&
      !sameOwner(context.owner, ownerOf(event)),
    hasOwner: ({ context }) => context.owner !== undefined,
    unsupported: (_, result: BalancesResult) => !result.supported,
    /** SPEC §9 pending transactions limit: 99 listed, so a new one drops the oldest. */
    pendingListFull: ({ context }) => context.pending.length >= PENDING_TRANSACTIONS_MAX,
    /** Announced again (a flow that saw it twice): listed once, as the newest. */
    alreadyPending: ({ context, event }) =>
      event.type === 'account.transactionSent' && context.pending.some((p) => p.hash === event.hash),
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
    dropOldestPending: assign(({ context }) => ({ pending: context.pending.slice(1) })),
    addPending: assign(({ context, event }) => {
      assertEvent(event, 'account.transactionSent')
      const others = context.pending.filter((p) => p.hash !== event.hash)
      return {
        pending: [...others, { hash: event.hash, chainId: event.chainId, address: context.owner?.address }],
      }
    }),
    settlePending: assign(({ context, event }) => {
      assertEvent(event, 'account.transactionSettled')
      return { pending: context.pending.filter((p) => p.hash !== event.hash) }
    }),
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
  context: { owner: undefined, balances: [], forceUpdate: false, error: undefined, pending: [] },
  type: 'parallel',
  // SPEC §9 pending transactions: one a flow of the kit sent stays listed until confirmed or failed, so Activity
  // shows it before the Data API does. At most 99: a 100th drops the oldest (`pendingListFull`); a flow is never
  // refused for it (what was sent is out there, listed or not).
  on: {
    'account.transactionSent': [
      {
        guard: and(['pendingListFull', not('alreadyPending')]),
        actions: ['dropOldestPending', 'addPending'],
      },
      { actions: 'addPending' },
    ],
    'account.transactionSettled': { actions: 'settlePending' },
  },
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
        /**
         * Balances shown. Asked again, the machine asks: for the same owner the slot answers from the QueryClient
         * while its entry is fresh (SPEC §9 30 s), so only a stale entry becomes a request.
         */
        ready: {
          tags: 'ready',
          on: {
            'account.fetchBalances': [
              { guard: 'otherOwner', target: 'fetching', actions: 'setOwner' },
              { guard: 'validOwner', target: 'fetching' },
            ],
            'account.refreshBalances': { target: 'fetching', actions: 'markForceUpdate' },
            'account.clear': { target: 'idle', actions: 'clear' },
          },
        },
        /** The Data API does not serve the network: nothing to ask until the account or network changes. */
        unsupported: {
          tags: 'unsupported',
          on: {
            'account.fetchBalances': { guard: 'otherOwner', target: 'fetching', actions: 'setOwner' },
            'account.clear': { target: 'idle', actions: 'clear' },
          },
        },
        /** SPEC §4: no new attempt for 30 s after a failure, whatever asks. */
        blocked: {
          tags: 'blocked',
          after: { retryBlock: 'idle' },
          on: {
            'account.clear': { actions: 'dropBalances' },
          },
        },
      },
    },
  },
})

/**
 * `accountMachine`'s type by name: the declarations of what runs it name it instead of repeating its whole type
 * (what keeps the package's .d.ts files small).
 */
export interface AccountMachine extends AccountMachineType {}
type AccountMachineType = typeof accountMachine
export type AccountActorRef = ActorRefFrom<typeof accountMachine>
export type AccountSnapshot = SnapshotFrom<typeof accountMachine>

/** The tab shown (SPEC §3 currentTab). */
export function selectCurrentTab(snapshot: AccountSnapshot): AccountTab {
  return ACCOUNT_TABS.find((tab) => snapshot.matches({ tab })) ?? 'tokens'
}

/** What the balances part of the Account view shows. */
export type BalancesStatus = 'idle' | 'loading' | 'ready' | 'unsupported' | 'blocked'

/** The balances' status, from the tags (an actor not loaded yet counts as loading). */
export function selectBalancesStatus(snapshot: AccountSnapshot | undefined): BalancesStatus {
  if (!snapshot || snapshot.hasTag('loading')) return 'loading'
  if (snapshot.hasTag('ready')) return 'ready'
  if (snapshot.hasTag('unsupported')) return 'unsupported'
  if (snapshot.hasTag('blocked')) return 'blocked'
  return 'idle'
}

const NO_BALANCES: readonly TokenBalance[] = []

/** The balances shown (none off-network, or before the machine runs: always the same empty list). */
export function selectBalances(snapshot: AccountSnapshot | undefined): readonly TokenBalance[] {
  return snapshot?.context.balances ?? NO_BALANCES
}

/** The portfolio's value in USD: the balances' sum; 0 on a network the Data API does not serve. */
export function selectPortfolioValue(snapshot: AccountSnapshot | undefined): number {
  if (!snapshot || snapshot.hasTag('unsupported')) return 0
  return snapshot.context.balances.reduce((sum, balance) => sum + (balance.value ?? 0), 0)
}

/** Whether asking for `owner`'s balances would be taken (false during the block, or while already asked). */
export function selectCanFetchBalances(snapshot: AccountSnapshot | undefined, owner: BalancesOwner): boolean {
  return !!snapshot && snapshot.can({ type: 'account.fetchBalances', ...owner })
}

/** The kit's pending transactions (SPEC §9) of `address` on `chainId` (CAIP-2), newest first. @internal */
export function selectPendingTransactions(
  snapshot: AccountSnapshot | undefined,
  address: string | undefined,
  chainId: string | undefined,
): PendingTransaction[] {
  if (!snapshot) return NO_PENDING
  const mine = snapshot.context.pending.filter(
    (p) =>
      p.chainId === chainId &&
      (p.address === undefined || p.address.toLowerCase() === address?.toLowerCase()),
  )
  return mine.length === 0 ? NO_PENDING : mine.reverse()
}
const NO_PENDING: PendingTransaction[] = []
