import { formatUnits } from 'viem'
import type { ActorRefFrom, SnapshotFrom } from 'xstate'
import { DEFAULT_SLIPPAGE } from '../constants'
import type { BaseError } from '../errors/base'
import { batchMachine } from './calls/batch'
import { linkChild } from './link'
import { swapConfirmingBatch, swapReadingCapabilities } from './swap/batch'
import { swapPreview } from './swap/preview'
import { needsApproval, quoteRequestOf, validateSwap } from './swap/rules'
import { errorOf, swapSetup } from './swap/setup'
import { swapApproving, swapNextStep, swapSwapping } from './swap/transactions'
import { linkTransaction } from './transaction'

/**
 * The swap flow (SPEC §7 convert endpoints, §8, §9; issue 16).
 *
 * loadingTokens (`fetchTokens`) → form: the pair and the amount; every change waits `quoteDebounce` (typing
 * coalesces), then `quoting` (`fetchQuote`) → `quoted`, or `quoteFailed` (`swap.retry`). `swap.review` checks
 * the balances (the token paid; the native currency for the quote's gas) → preview: `checkingAllowance`
 * (`fetchAllowance`; skipped for the native currency) → `preparing`: every transaction the swap needs is built
 * (`buildApprove` for each approval, `buildSwap`) → `checking` (`checkBuild`): each is decoded and compared with
 * what the preview shows; a mismatch ends in `failed.refused` and no wallet is asked → `simulating`
 * (`simulate`: the checked transactions run on the chain, the account's balance changes shown; `disagrees` when
 * they are not what the preview shows) → `ready`, the quote asked for again every `quoteRefresh` while it is
 * open (a fresh quote is built, checked and simulated again). `swap.confirm` → approving when the allowance is
 * short (the checked approvals: `sendTransaction`, receipt), else swapping (the checked swap: `sendTransaction`,
 * receipt) → done (`swap.succeeded`: the kit refreshes balances and history and shows a success toast). Only
 * the checked transactions (`prepared`) are ever sent.
 *
 * Approvals, USDT-style: a non-zero allowance smaller than the amount is first set to zero, then to the amount
 * (some tokens refuse to change one non-zero allowance into another). Each approval is its own transaction; the
 * context's `allowance` follows what was mined, so the next step follows from it.
 *
 * Each approval and the swap is a transaction machine invoked as a child (src/machines/transaction.ts, its slots
 * this machine's `sendTransaction`, `waitForReceipt`, `pollReceipt`): receipts as SPEC §9, a wallet that never
 * answers an approval fails at its time limit (SEND_REQUEST_TIMEOUT_MS). One payment, one transaction: a wallet
 * that does not answer the swap in time is `overdue`, its request still awaited (it is live in the wallet), and a
 * new swap is offered only once the one asked for is past its deadline (the rules' `deadlineMs`) and can no
 * longer pay. `approving` and `swapping` keep only where the views read it, from the child's notices.
 *
 * `swap.cancel` stops any step before the wallet holds the swap and returns to the preview (approval steps) or
 * the form, the pair and amount kept (a cancelled approval may still be mined: the preview checks the allowance
 * afresh). Once the wallet holds the swap (`swapping`) there is no cancel. A refreshed quote the balances cannot
 * pay returns to the form with the problem shown. failed keeps the form: `retryable` (declined, reverted, timed
 * out: `swap.retry` asks a fresh quote), `refused` (a build that does not match) or `unconfirmed` (a swap sent,
 * no receipt in time: `swap.retry` looks for its receipt again, never sends twice).
 *
 * One confirmation where the wallet batches atomically (EIP-5792; swap/batch.ts): with approvals due, the
 * preview's confirm reads the wallet's capabilities on the chain (`readingCapabilities`); the guard
 * `walletBatchesAtomically` and the SPEC §5 rule lead to `confirmingBatch`, the checked approvals and swap (as
 * simulated) sent as one atomic batch through the batch child (src/machines/calls/batch.ts, the host's batches'
 * own) and followed to its final status. Without atomic batching, or no answer, the two steps above. A batch
 * the wallet took whose final status could not be read by its deadline (the swap's, and a margin) is as a swap
 * sent and not seen mined: `failed.unconfirmed` (its outcome unknown, never "failed, try again"), where
 * `swap.retry` only looks for that batch's status again (the guard `batchUnconfirmed`).
 *
 * Every effect is a named actor slot: `fetchTokens`, `fetchQuote`, `fetchAllowance`, `buildApprove`,
 * `buildSwap`, `checkBuild`, `simulate`, `sendTransaction`, `waitForReceipt`, `pollReceipt`, `capabilities`,
 * `sendCalls`, `callsStatus`. Tests fill them with fakes.

 *
 * This file is the chart; beside it in swap/: `setup.ts` (types, slots, delays, guards, actions), `rules.ts`
 * (the rules as pure functions), `preview.ts` (the preview's states), `transactions.ts` (approving, swapping).
 */

export {
  isNative,
  minimumOut,
  needsApproval,
  parseSwapAmount,
  quoteRequestOf,
  SWAP_NATIVE_ADDRESS,
  validateSwap,
} from './swap/rules'
export { swapSimulatedChanges } from './swap/simulation'
export type * from './swap/types'

const swapTransactions = linkTransaction(
  swapSetup.createMachine({
    id: 'swap',
    context: ({ input }) => ({
      chainId: input.chainId,
      userAddress: input.userAddress,
      connectorId: input.connectorId,
      tokens: [],
      from: input.from,
      to: input.to,
      amount: '',
      slippage: input.slippage ?? DEFAULT_SLIPPAGE,
      balances: (input.balances ?? []).filter((t) => t.quantity.decimals !== '0'),
      quote: undefined,
      allowance: undefined,
      built: undefined,
      prepared: undefined,
      simulation: undefined,
      hash: undefined,
      hashKind: undefined,
      batchId: undefined,
      error: undefined,
    }),
    on: {
      'swap.setBalances': { actions: 'setBalances' },
    },
    initial: 'loadingTokens',
    states: {
      loadingTokens: {
        tags: 'busy',
        invoke: {
          id: 'fetchTokens',
          src: 'fetchTokens',
          input: ({ context }) => ({ chainId: context.chainId }),
          onDone: { target: 'form', actions: { type: 'setTokens', params: ({ event }) => event.output } },
          onError: {
            target: 'tokensFailed',
            actions: { type: 'setError', params: (args) => ({ error: errorOf(args), stage: 'tokens' }) },
          },
        },
      },
      tokensFailed: {
        tags: 'failed',
        on: { 'swap.retry': { target: 'loadingTokens', actions: 'clearError' } },
      },
      form: {
        // The allowance is checked afresh by each preview (an approval may have been mined meanwhile), and every
        // transaction built and checked again: the form keeps none.
        entry: ['clearAllowance', 'clearBuild'],
        initial: 'choosing',
        on: {
          'swap.setAmount': { actions: 'setAmount', target: '.choosing' },
          'swap.selectFrom': { actions: 'selectFrom', target: '.choosing' },
          'swap.selectTo': { actions: 'selectTo', target: '.choosing' },
          'swap.flip': { actions: 'flip', target: '.choosing' },
          'swap.max': { actions: 'setMax', target: '.choosing' },
          'swap.setSlippage': { guard: 'validSlippage', actions: 'setSlippage' },
        },
        states: {
          /** Where the form stands after a change: a quote is due (after the debounce), or the form is incomplete. */
          choosing: {
            always: [{ guard: 'quotable', target: 'debouncing' }, { target: 'idle' }],
          },
          idle: {
            entry: 'clearQuote',
          },
          debouncing: {
            entry: 'clearQuote',
            after: { quoteDebounce: 'quoting' },
          },
          quoting: {
            tags: 'busy',
            invoke: {
              id: 'fetchQuote',
              src: 'fetchQuote',
              input: ({ context }) => quoteRequestOf(context),
              onDone: {
                target: 'quoted',
                actions: { type: 'setQuote', params: ({ event }) => event.output },
              },
              onError: {
                target: 'quoteFailed',
                actions: { type: 'setError', params: (args) => ({ error: errorOf(args), stage: 'quote' }) },
              },
            },
          },
          quoted: {
            on: {
              'swap.review': [
                { guard: 'reviewBlocked', actions: 'showReviewError' },
                { target: '#swap.preview', actions: ['clearError', 'emitPreviewing'] },
              ],
            },
          },
          quoteFailed: {
            tags: 'failed',
            on: { 'swap.retry': { target: 'quoting', actions: 'clearError' } },
          },
        },
      },
      preview: swapPreview,
      readingCapabilities: swapReadingCapabilities,
      confirmingBatch: swapConfirmingBatch,
      nextStep: swapNextStep,
      approving: swapApproving,
      swapping: swapSwapping,
      done: {
        // The notice first: it reads the amount the reset clears.
        entry: ['emitSucceeded', 'resetAmount'],
        on: { 'swap.back': '#swap.form' },
      },
      failed: {
        tags: 'failed',
        entry: 'emitFailed',
        initial: 'retryable',
        states: {
          retryable: {
            on: {
              // Prices moved (or the wallet said no): a fresh quote, then the visitor reviews again.
              'swap.retry': { target: '#swap.form.quoting', actions: 'clearError' },
              'swap.back': { target: '#swap.form.quoted', actions: 'clearError' },
              'swap.cancel': { target: '#swap.form.quoted', actions: 'clearError' },
            },
          },
          /** A build that does not match the swap reviewed: nothing was sent. A retry quotes and builds afresh. */
          refused: {
            on: {
              'swap.retry': { target: '#swap.form.quoting', actions: 'clearError' },
              'swap.back': { target: '#swap.form.quoted', actions: 'clearError' },
              'swap.cancel': { target: '#swap.form.quoted', actions: 'clearError' },
            },
          },
          unconfirmed: {
            on: {
              // Never a second swap: only the receipt of the one sent (or the status of the batch sent) is looked
              // for again.
              'swap.retry': [
                { guard: 'batchUnconfirmed', target: '#swap.confirmingBatch.confirming' },
                { target: '#swap.swapping.confirming' },
              ],
              // The form, with the error kept until the next change (the activity list shows the swap).
              'swap.back': '#swap.form.quoted',
              'swap.cancel': '#swap.form.quoted',
            },
          },
        },
      },
    },
  }),
  {
    // Approvals and the swap alike: the wallet asked through `sendTransaction`, the receipts as SPEC §9.
    transaction: (actors) => ({
      ask: actors.sendTransaction!,
      waitForReceipt: actors.waitForReceipt!,
      pollReceipt: actors.pollReceipt!,
    }),
  },
)

export const swapMachine = linkChild(swapTransactions, batchMachine, {
  // The approvals and the swap batched: the wallet asked through `sendCalls`, followed through `callsStatus`.
  batch: (actors) => ({ sendCalls: actors.sendCalls, callsStatus: actors.callsStatus }),
})

export type SwapMachine = typeof swapMachine
export type SwapActorRef = ActorRefFrom<typeof swapMachine>
export type SwapSnapshot = SnapshotFrom<typeof swapMachine>

/**
 * Where the swap flow stands, for the views: tokens `loading` (or `tokensFailed`); the form (`editing`, a quote
 * `quoting` after the debounce, `quoted`, `quoteFailed`); the preview (`checking` the allowance, building and
 * checking and simulating the transactions, `ready`, `refreshing` its quote, allowance or build `unavailable`, the
 * simulation `disagrees` with it); `approving` and
 * `swapping` (the wallet asked or the receipt awaited); a failure that may be retried (`retryable`), a build
 * refused by the check (`refused`), a swap sent but not seen mined (`unconfirmed`); `done`.
 */
export type SwapStatus =
  | 'loading'
  | 'tokensFailed'
  | 'editing'
  | 'quoting'
  | 'quoted'
  | 'quoteFailed'
  | 'checking'
  | 'ready'
  | 'refreshing'
  | 'unavailable'
  | 'disagrees'
  | 'approving'
  | 'swapping'
  | 'retryable'
  | 'refused'
  | 'unconfirmed'
  | 'done'

const SWAP_STATUSES: ReadonlyArray<[Parameters<SwapSnapshot['matches']>[0], SwapStatus]> = [
  ['loadingTokens', 'loading'],
  ['tokensFailed', 'tokensFailed'],
  [{ form: 'debouncing' }, 'quoting'],
  [{ form: 'quoting' }, 'quoting'],
  [{ form: 'quoted' }, 'quoted'],
  [{ form: 'quoteFailed' }, 'quoteFailed'],
  [{ preview: 'choosing' }, 'checking'],
  [{ preview: 'checkingAllowance' }, 'checking'],
  [{ preview: 'preparing' }, 'checking'],
  [{ preview: 'checking' }, 'checking'],
  [{ preview: 'simulating' }, 'checking'],
  [{ preview: 'disagrees' }, 'disagrees'],
  [{ preview: 'ready' }, 'ready'],
  [{ preview: 'refreshing' }, 'refreshing'],
  [{ preview: 'unavailable' }, 'unavailable'],
  ['readingCapabilities', 'approving'],
  ['approving', 'approving'],
  ['confirmingBatch', 'swapping'],
  ['swapping', 'swapping'],
  [{ failed: 'retryable' }, 'retryable'],
  [{ failed: 'refused' }, 'refused'],
  [{ failed: 'unconfirmed' }, 'unconfirmed'],
  ['done', 'done'],
]

/** The swap flow's {@link SwapStatus}. */
export function selectSwapStatus(snapshot: SwapSnapshot): SwapStatus {
  return SWAP_STATUSES.find(([state]) => snapshot.matches(state))?.[1] ?? 'editing'
}

/** The preview's action: 'Approve' while the allowance is short of the amount, else 'Swap'. */
export function selectSwapAction(snapshot: SwapSnapshot): 'Approve' | 'Swap' {
  return snapshot.matches('approving') || needsApproval(snapshot.context) ? 'Approve' : 'Swap'
}

/** The preview is open (its quote shown). */
export function selectIsPreviewing(snapshot: SwapSnapshot): boolean {
  return snapshot.matches('preview')
}

/** A transaction is on its way (the wallet asked or a receipt awaited), or a swap sent but not seen mined. */
export function selectSwapInFlight(snapshot: SwapSnapshot): boolean {
  return snapshot.hasTag('loading') || snapshot.matches({ failed: 'unconfirmed' })
}

/** What is received, as a decimal in the `to` token's units, when there is a quote. */
export function selectToAmount(snapshot: SwapSnapshot): string | undefined {
  const { quote, to } = snapshot.context
  return quote && to ? formatUnits(BigInt(quote.toAmount), to.decimals) : undefined
}

/** The problem the review button shows (none while a quote is on its way). */
export function selectSwapProblem(snapshot: SwapSnapshot): BaseError | undefined {
  return snapshot.matches({ form: 'quoted' }) ? validateSwap(snapshot.context) : undefined
}

/**
 * What is under way, for the preview's `role="status"` line: the allowance check, a fresh quote, each wallet
 * step (the wallet asked: the `loading` tag without a hash yet; the receipt awaited: the hash sent) and the
 * preparing of each transaction between them; undefined when nothing is.
 */
export function selectSwapProgress(snapshot: SwapSnapshot): string | undefined {
  const status = selectSwapStatus(snapshot)
  const { hash, hashKind } = snapshot.context
  switch (status) {
    case 'checking':
      if (snapshot.matches({ preview: 'preparing' })) return 'Preparing the swap…'
      if (snapshot.matches({ preview: 'checking' }) || snapshot.matches({ preview: 'simulating' }))
        return 'Checking the prepared transactions…'
      return 'Checking allowance…'
    case 'quoting':
      return 'Getting a fresh quote…'
    case 'approving':
      if (snapshot.matches('readingCapabilities')) return 'Checking your wallet…'
      return hash && hashKind === 'approve'
        ? 'Waiting for the approval to be confirmed…'
        : 'Approve in your wallet…'
    case 'swapping':
      if (snapshot.matches({ confirmingBatch: 'sending' }))
        return 'Confirm the approval and the swap in your wallet (one confirmation)…'
      if (snapshot.matches({ confirmingBatch: 'confirming' })) return 'Waiting for the swap to be confirmed…'
      if (hash && hashKind === 'swap') return 'Waiting for the swap to be confirmed…'
      return snapshot.matches({ swapping: { sending: 'overdue' } })
        ? 'Your wallet has not answered yet. The swap is still waiting there; it will not be asked for twice.'
        : 'Confirm the swap in your wallet…'
    default:
      return undefined
  }
}
