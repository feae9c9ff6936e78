import { formatUnits, type Hex, parseUnits } from 'viem'
import { type ActorRefFrom, assertEvent, assign, emit, fromPromise, type SnapshotFrom, setup } from 'xstate'
import {
  DEFAULT_SLIPPAGE,
  NATIVE_TOKEN_ADDRESS,
  PENDING_TX_POLLING_MS,
  SEND_REQUEST_TIMEOUT_MS,
  SIMULATION_TIMEOUT_MS,
  SWAP_EXPIRY_MARGIN_MS,
  SWAP_QUOTE_DEBOUNCE_MS,
  SWAP_QUOTE_REFRESH_MS,
  SWAP_SLIPPAGE_MAX,
  TX_RECEIPT_TIMEOUT_MS,
} from '../constants'
import type { BaseError, ErrorInfo } from '../errors/base'
import { SimulationDisagreementError } from '../errors/simulation'
import {
  ApproveRevertedError,
  InvalidSwapAmountError,
  SwapBuildMismatchError,
  SwapInsufficientBalanceError,
  SwapInsufficientGasError,
  SwapPairRequiredError,
  SwapPendingError,
  SwapQuoteRequiredError,
  SwapRequestExpiredError,
  SwapRevertedError,
  type SwapStage,
  SwapTimeoutError,
  swapErrorInfo,
} from '../errors/swap'
import { formatQuantity } from '../utils/format'
import { expectedOfSwap, simulationTokensOf, swapSimulationDisagreement } from './swap/simulation'
import type {
  SwapAllowanceRequest,
  SwapApproval,
  SwapApproveRequest,
  SwapBuildRequest,
  SwapCheckRequest,
  SwapContext,
  SwapEvent,
  SwapInput,
  SwapNotice,
  SwapPrepared,
  SwapQuote,
  SwapQuoteRequest,
  SwapReceipt,
  SwapReceiptRequest,
  SwapSendRequest,
  SwapSimulation,
  SwapSimulationRequest,
  SwapToken,
  SwapTokensRequest,
  SwapTransaction,
  TokenBalance,
} from './swap/types'

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
 * Receipts as send's (SPEC §9): `waiting` up to TX_RECEIPT_TIMEOUT_MS, then `polling` PENDING_TX_POLLING_MS. A
 * wallet that never answers an approval fails after `sendRequestTimeout` (SEND_REQUEST_TIMEOUT_MS). One payment,
 * one transaction: a wallet that does not answer the swap in time is `overdue`, its request still awaited (it is
 * live in the wallet), and a new swap is offered only once the one asked for is past its deadline (`swapExpiry`)
 * and can no longer pay.
 *
 * `swap.cancel` stops any step before the wallet holds the swap and returns to the preview (approval steps) or
 * the form, the pair and amount kept (a cancelled approval may still be mined: the preview checks the allowance
 * afresh). Once the wallet holds the swap (`swapping`) there is no cancel. A refreshed quote the balances cannot
 * pay returns to the form with the problem shown. failed keeps the form: `retryable` (declined, reverted, timed
 * out: `swap.retry` asks a fresh quote), `refused` (a build that does not match) or `unconfirmed` (a swap sent,
 * no receipt in time: `swap.retry` looks for its receipt again, never sends twice).
 *
 * Every effect is a named actor slot: `fetchTokens`, `fetchQuote`, `fetchAllowance`, `buildApprove`,
 * `buildSwap`, `checkBuild`, `simulate`, `sendTransaction`, `waitForReceipt`, `pollReceipt`. Tests fill them
 * with fakes.
 */

export { swapSimulatedChanges } from './swap/simulation'
export type * from './swap/types'

/** The address the convert API uses for the native currency (src/constants.ts). */
export const SWAP_NATIVE_ADDRESS = NATIVE_TOKEN_ADDRESS

const notProvided = (slot: string) => () => {
  throw new Error(`swapMachine: the "${slot}" actor slot was not provided`)
}

/** An error event's payload, for `params`. */
const errorOf = ({ event }: { event: { error: unknown } }) => event.error

export const swapMachine = setup({
  types: {
    context: {} as SwapContext,
    events: {} as SwapEvent,
    input: {} as SwapInput,
    emitted: {} as SwapNotice,
    tags: {} as 'loading' | 'busy' | 'failed',
  },
  actors: {
    fetchTokens: fromPromise<SwapToken[], SwapTokensRequest>(notProvided('fetchTokens')),
    fetchQuote: fromPromise<SwapQuote, SwapQuoteRequest>(notProvided('fetchQuote')),
    fetchAllowance: fromPromise<string, SwapAllowanceRequest>(notProvided('fetchAllowance')),
    buildApprove: fromPromise<SwapTransaction, SwapApproveRequest>(notProvided('buildApprove')),
    buildSwap: fromPromise<SwapTransaction, SwapBuildRequest>(notProvided('buildSwap')),
    checkBuild: fromPromise<SwapPrepared, SwapCheckRequest>(notProvided('checkBuild')),
    simulate: fromPromise<SwapSimulation, SwapSimulationRequest>(notProvided('simulate')),
    sendTransaction: fromPromise<Hex, SwapSendRequest>(notProvided('sendTransaction')),
    waitForReceipt: fromPromise<SwapReceipt, SwapReceiptRequest>(notProvided('waitForReceipt')),
    pollReceipt: fromPromise<SwapReceipt, { hash: Hex; chainId: number }>(notProvided('pollReceipt')),
  },
  delays: {
    /** Ours (src/constants.ts): typing coalesces into one quote. */
    quoteDebounce: SWAP_QUOTE_DEBOUNCE_MS,
    /** Ours (src/constants.ts): the preview's quote is asked for again this often. */
    quoteRefresh: SWAP_QUOTE_REFRESH_MS,
    /** SPEC §9. */
    receiptTimeout: TX_RECEIPT_TIMEOUT_MS,
    /** SPEC §9. */
    pendingPolling: PENDING_TX_POLLING_MS,
    /** Ours (src/constants.ts): a wallet that never answers the transaction request. */
    sendRequestTimeout: SEND_REQUEST_TIMEOUT_MS,
    /** Ours (src/constants.ts): a simulation not answered by then is left out, never guessed. */
    simulationTimeout: SIMULATION_TIMEOUT_MS,
    /** Until the swap the wallet holds is past its deadline (as checked), and a margin for block times. */
    swapExpiry: ({ context }) => (context.prepared?.validForMs ?? 0) + SWAP_EXPIRY_MARGIN_MS,
  },
  guards: {
    quotable: ({ context }) => amountOf(context) !== undefined && pairOf(context) !== undefined,
    reviewBlocked: ({ context }) => validateSwap(context) !== undefined,
    quoteBlocked: ({ context }, quote: SwapQuote) => validateSwap({ ...context, quote }) !== undefined,
    fromIsNative: ({ context }) => context.from !== undefined && isNative(context.from),
    needsApproval: ({ context }) => needsApproval(context),
    approvalChecked: ({ context }) => checkedApproval(context) !== undefined,
    /** A smaller non-zero allowance is in the way: it is set to zero first (USDT-style). */
    needsReset: ({ context }) => needsApproval(context) && BigInt(context.allowance ?? '0') > 0n,
    validSlippage: ({ event }) => {
      assertEvent(event, 'swap.setSlippage')
      return Number.isFinite(event.slippage) && event.slippage > 0 && event.slippage <= SWAP_SLIPPAGE_MAX
    },
    reverted: (_, receipt: SwapReceipt) => receipt.status === 'reverted',
    /** See before you sign: the simulation moves something other than what the preview shows. */
    simulationDisagrees: ({ context }, simulation: SwapSimulation) =>
      swapSimulationDisagreement(expectedOf(context), simulation) !== undefined,
  },
  actions: {
    setTokens: assign((_, tokens: SwapToken[]) => ({ tokens, error: undefined })),
    setAmount: assign(({ event }) => {
      assertEvent(event, 'swap.setAmount')
      return { amount: event.amount, quote: undefined, error: undefined }
    }),
    selectFrom: assign(({ context, event }) => {
      assertEvent(event, 'swap.selectFrom')
      const swapped = context.to !== undefined && sameToken(context.to, event.token)
      return {
        from: event.token,
        to: swapped ? context.from : context.to,
        quote: undefined,
        error: undefined,
      }
    }),
    selectTo: assign(({ context, event }) => {
      assertEvent(event, 'swap.selectTo')
      const swapped = context.from !== undefined && sameToken(context.from, event.token)
      return {
        to: event.token,
        from: swapped ? context.to : context.from,
        quote: undefined,
        error: undefined,
      }
    }),
    flip: assign(({ context }) => ({
      from: context.to,
      to: context.from,
      quote: undefined,
      error: undefined,
    })),
    setMax: assign(({ context }) => {
      const max = maxAmount(context)
      return max === undefined || max === context.amount
        ? {}
        : { amount: max, quote: undefined, error: undefined }
    }),
    setSlippage: assign(({ event }) => {
      assertEvent(event, 'swap.setSlippage')
      return { slippage: event.slippage }
    }),
    setBalances: assign(({ event }) => {
      assertEvent(event, 'swap.setBalances')
      return { balances: event.balances.filter((t) => t.quantity.decimals !== '0') }
    }),
    setQuote: assign((_, quote: SwapQuote) => ({ quote, error: undefined })),
    clearQuote: assign({ quote: undefined }),
    /** Nothing built or checked is kept once the swap it was for may have changed. */
    clearBuild: assign({ built: undefined, prepared: undefined, simulation: undefined }),
    setSimulation: assign((_, simulation: SwapSimulation) => ({ simulation })),
    clearSimulation: assign({ simulation: undefined }),
    /** The simulation disagrees with the preview: said, the checked build dropped, confirm not offered. */
    showDisagreement: assign(({ context }, simulation: SwapSimulation) => ({
      simulation,
      prepared: undefined,
      error: infoOf(
        new SimulationDisagreementError(swapSimulationDisagreement(expectedOf(context), simulation)!),
      ),
    })),
    addApproval: assign(({ context }, approval: SwapApproval) => ({
      built: { approvals: [...(context.built?.approvals ?? []), approval] },
    })),
    setBuiltSwap: assign(({ context }, swap: SwapTransaction) => ({
      built: { approvals: context.built?.approvals ?? [], swap },
    })),
    setPrepared: assign((_, prepared: SwapPrepared) => ({ prepared })),
    setAllowance: assign((_, allowance: string) => ({ allowance })),
    clearAllowance: assign({ allowance: undefined }),
    /** An approval was mined: the allowance is what it set (zero first, USDT-style, then the amount). */
    applyApproval: assign(({ context }) => ({ allowance: approveAmountOf(context) })),
    showReviewError: assign(({ context }) => ({ error: infoOf(validateSwap(context)!) })),
    setError: assign((_, params: { error: unknown; stage: SwapStage }) => ({
      error: swapErrorInfo(params.error, params.stage),
    })),
    setApproveReverted: assign(({ context }) => ({
      error: infoOf(new ApproveRevertedError({ details: `Transaction ${context.hash}` })),
    })),
    setSwapReverted: assign(({ context }) => ({
      error: infoOf(new SwapRevertedError({ details: `Transaction ${context.hash}` })),
    })),
    setTimedOut: assign({ error: infoOf(new SwapTimeoutError({ timeoutMs: SEND_REQUEST_TIMEOUT_MS })) }),
    setPending: assign(({ context }) => ({ error: infoOf(new SwapPendingError({ hash: context.hash })) })),
    setExpired: assign({ error: infoOf(new SwapRequestExpiredError()) }),
    setApprovalNotChecked: assign(({ context }) => ({
      prepared: undefined,
      error: infoOf(
        new SwapBuildMismatchError({
          mismatch: 'approval.amount',
          details: `No checked approval of ${approveAmountOf(context)}`,
        }),
      ),
    })),
    clearError: assign({ error: undefined }),
    clearHash: assign({ hash: undefined, hashKind: undefined }),
    setHash: assign((_, params: { hash: Hex; kind: 'approve' | 'swap' }) => ({
      hash: params.hash,
      hashKind: params.kind,
    })),
    /** After a swap: the pair and slippage stay, the amount and quote go. */
    resetAmount: assign({
      amount: '',
      quote: undefined,
      allowance: undefined,
      built: undefined,
      prepared: undefined,
    }),
    emitSubmitted: emit(({ context }) => ({
      type: 'swap.submitted' as const,
      hash: context.hash!,
      chainId: context.chainId,
      kind: context.hashKind!,
    })),
    emitSucceeded: emit(({ context }) => {
      const [from, to] = [context.from!.symbol, context.to!.symbol]
      const fromAmount = context.amount.trim()
      const toAmount = formatUnits(BigInt(context.quote!.toAmount), context.to!.decimals)
      const message = `Swapped ${fromAmount} ${from} for ${formatQuantity(toAmount, 6)} ${to}`
      return {
        type: 'swap.succeeded' as const,
        hash: context.hash!,
        chainId: context.chainId,
        from,
        to,
        fromAmount,
        toAmount,
        message,
      }
    }),
    emitPreviewing: emit({ type: 'swap.previewing' as const }),
    emitTimedOut: emit({ type: 'request.timedOut' as const, request: 'swap' as const }),
    emitFailed: emit(({ context }) => ({
      type: 'swap.failed' as const,
      error: context.error!,
      hash: context.hash,
    })),
  },
}).createMachine({
  id: 'swap',
  context: ({ input }) => ({
    chainId: input.chainId,
    userAddress: input.userAddress,
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
            onDone: { target: 'quoted', actions: { type: 'setQuote', params: ({ event }) => event.output } },
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
    preview: {
      on: {
        'swap.back': { target: '#swap.form.quoted', actions: 'clearError' },
        'swap.cancel': { target: '#swap.form.quoted', actions: 'clearError' },
        // Another slippage is another least amount out: the swap is built and checked again.
        'swap.setSlippage': { guard: 'validSlippage', actions: 'setSlippage', target: '.choosing' },
      },
      initial: 'choosing',
      states: {
        choosing: {
          entry: 'clearBuild',
          always: [{ guard: 'fromIsNative', target: 'preparing' }, { target: 'checkingAllowance' }],
        },
        checkingAllowance: {
          tags: 'busy',
          invoke: {
            id: 'fetchAllowance',
            src: 'fetchAllowance',
            input: ({ context }) => ({
              chainId: context.chainId,
              userAddress: context.userAddress,
              tokenAddress: context.from!.address,
            }),
            onDone: {
              target: 'preparing',
              actions: { type: 'setAllowance', params: ({ event }) => event.output },
            },
            onError: {
              target: 'unavailable',
              actions: { type: 'setError', params: (args) => ({ error: errorOf(args), stage: 'allowance' }) },
            },
          },
        },
        /**
         * Every transaction the swap needs is built before the preview offers it, so what is confirmed is what
         * was checked: the reset to zero (USDT-style), the approval of the amount, then the swap.
         */
        preparing: {
          tags: 'busy',
          entry: 'clearBuild',
          initial: 'next',
          states: {
            next: {
              always: [
                { guard: 'needsReset', target: 'resetApproval' },
                { guard: 'needsApproval', target: 'approval' },
                { target: 'swap' },
              ],
            },
            resetApproval: {
              invoke: {
                id: 'buildResetApproval',
                src: 'buildApprove',
                input: ({ context }) => ({ ...quoteRequestOf(context), amount: '0' }),
                onDone: {
                  target: 'approval',
                  actions: {
                    type: 'addApproval',
                    params: ({ event }) => ({ amount: '0', transaction: event.output }),
                  },
                },
                onError: {
                  target: '#swap.preview.unavailable',
                  actions: { type: 'setError', params: (args) => ({ error: errorOf(args), stage: 'build' }) },
                },
              },
            },
            approval: {
              invoke: {
                id: 'buildApprove',
                src: 'buildApprove',
                input: ({ context }) => quoteRequestOf(context),
                onDone: {
                  target: 'swap',
                  actions: {
                    type: 'addApproval',
                    params: ({ context, event }) => ({
                      amount: quoteRequestOf(context).amount,
                      // After a reset to zero the API's gas figure (estimated over the old allowance) is too
                      // low: the wallet estimates it when it sends.
                      transaction: context.built?.approvals.length ? withoutGas(event.output) : event.output,
                    }),
                  },
                },
                onError: {
                  target: '#swap.preview.unavailable',
                  actions: { type: 'setError', params: (args) => ({ error: errorOf(args), stage: 'build' }) },
                },
              },
            },
            swap: {
              invoke: {
                id: 'buildSwap',
                src: 'buildSwap',
                input: ({ context }) => ({
                  ...quoteRequestOf(context),
                  slippage: context.slippage,
                  // Before the approval is mined the API cannot estimate the swap's gas; the wallet does.
                  ...(needsApproval(context) ? { disableEstimate: true } : {}),
                }),
                onDone: {
                  target: '#swap.preview.checking',
                  actions: { type: 'setBuiltSwap', params: ({ event }) => event.output },
                },
                onError: {
                  target: '#swap.preview.unavailable',
                  actions: { type: 'setError', params: (args) => ({ error: errorOf(args), stage: 'build' }) },
                },
              },
            },
          },
        },
        /**
         * Each built transaction decoded and compared with what the preview shows (token, spender, router,
         * amounts, recipient, least amount out, deadline, value). A mismatch: refused, nothing sent.
         */
        checking: {
          tags: 'busy',
          invoke: {
            id: 'checkBuild',
            src: 'checkBuild',
            input: ({ context }) => checkRequestOf(context),
            onDone: {
              target: 'simulating',
              actions: { type: 'setPrepared', params: ({ event }) => event.output },
            },
            onError: {
              target: '#swap.failed.refused',
              actions: [
                'clearBuild',
                { type: 'setError', params: (args) => ({ error: errorOf(args), stage: 'check' }) },
              ],
            },
          },
        },
        /**
         * See before you sign: the checked approvals and swap simulated in order on the chain. A node that cannot
         * simulate (unavailable, an error, no answer in time) leads to the preview without the line.
         */
        simulating: {
          tags: 'busy',
          after: { simulationTimeout: { target: 'ready', actions: 'clearSimulation' } },
          invoke: {
            id: 'simulate',
            src: 'simulate',
            input: ({ context }) => simulationRequestOf(context),
            onDone: [
              {
                guard: { type: 'simulationDisagrees', params: ({ event }) => event.output },
                target: 'disagrees',
                actions: { type: 'showDisagreement', params: ({ event }) => event.output },
              },
              { target: 'ready', actions: { type: 'setSimulation', params: ({ event }) => event.output } },
            ],
            onError: { target: 'ready', actions: 'clearSimulation' },
          },
        },
        /** The simulation disagrees with the preview: no confirm; back to the form, or build and check again. */
        disagrees: {
          tags: 'failed',
          on: { 'swap.retry': { target: 'choosing', actions: 'clearError' } },
        },
        ready: {
          after: { quoteRefresh: 'refreshing' },
          on: {
            'swap.confirm': [
              { guard: 'needsApproval', target: '#swap.approving' },
              { target: '#swap.swapping' },
            ],
          },
        },
        /** The quote asked for again; the old one stays shown meanwhile. A fresh quote is built and checked. */
        refreshing: {
          tags: 'busy',
          invoke: {
            id: 'refreshQuote',
            src: 'fetchQuote',
            input: ({ context }) => quoteRequestOf(context),
            onDone: [
              {
                // The new quote's gas may be more than the native balance pays: back to the form, which says so.
                guard: { type: 'quoteBlocked', params: ({ event }) => event.output },
                target: '#swap.form.quoted',
                actions: [{ type: 'setQuote', params: ({ event }) => event.output }, 'showReviewError'],
              },
              { target: 'preparing', actions: { type: 'setQuote', params: ({ event }) => event.output } },
            ],
            onError: {
              target: '#swap.form.quoteFailed',
              actions: { type: 'setError', params: (args) => ({ error: errorOf(args), stage: 'quote' }) },
            },
          },
        },
        unavailable: {
          tags: 'failed',
          on: { 'swap.retry': { target: 'choosing', actions: 'clearError' } },
        },
      },
    },
    approving: {
      tags: 'busy',
      entry: 'clearError',
      on: { 'swap.cancel': '#swap.preview' },
      initial: 'next',
      states: {
        /** The approval due is sent only as it was checked; one that was not is refused, never built anew. */
        next: {
          always: [
            { guard: 'approvalChecked', target: 'sending' },
            { target: '#swap.failed.refused', actions: 'setApprovalNotChecked' },
          ],
        },
        sending: {
          tags: 'loading',
          entry: 'clearHash',
          after: {
            sendRequestTimeout: {
              target: '#swap.failed.retryable',
              actions: ['setTimedOut', 'emitTimedOut'],
            },
          },
          invoke: {
            id: 'sendApprove',
            src: 'sendTransaction',
            input: ({ context }) => approvalRequestOf(context),
            onDone: {
              target: 'confirming',
              actions: [
                {
                  type: 'setHash',
                  params: ({ event }) => ({ hash: event.output, kind: 'approve' as const }),
                },
                'emitSubmitted',
              ],
            },
            onError: {
              target: '#swap.failed.retryable',
              actions: { type: 'setError', params: (args) => ({ error: errorOf(args), stage: 'send' }) },
            },
          },
        },
        confirming: {
          tags: 'loading',
          initial: 'waiting',
          states: {
            waiting: {
              invoke: {
                id: 'waitForApproval',
                src: 'waitForReceipt',
                input: ({ context }) => receiptRequestOf(context),
                onDone: [
                  {
                    guard: { type: 'reverted', params: ({ event }) => event.output },
                    target: '#swap.failed.retryable',
                    actions: 'setApproveReverted',
                  },
                  { target: '#swap.approving.approved' },
                ],
                onError: 'polling',
              },
              after: { receiptTimeout: 'polling' },
            },
            polling: {
              invoke: {
                id: 'pollApproval',
                src: 'pollReceipt',
                input: ({ context }) => ({ hash: context.hash!, chainId: context.chainId }),
                onDone: [
                  {
                    guard: { type: 'reverted', params: ({ event }) => event.output },
                    target: '#swap.failed.retryable',
                    actions: 'setApproveReverted',
                  },
                  { target: '#swap.approving.approved' },
                ],
              },
              // An approval is harmless to look for again from the preview: the allowance is checked afresh.
              after: { pendingPolling: { target: '#swap.failed.retryable', actions: 'setPending' } },
            },
          },
        },
        /** Mined: a zero approval is followed by the amount's; the amount's by the swap. */
        approved: {
          entry: 'applyApproval',
          always: [{ guard: 'needsApproval', target: 'next' }, { target: '#swap.swapping' }],
        },
      },
    },
    swapping: {
      tags: 'busy',
      entry: 'clearError',
      initial: 'sending',
      states: {
        /**
         * The wallet holds the swap: no cancel (a second swap could then be asked for while this one is live).
         * Its answer is awaited however long it takes; past the time limit the flow says so (`overdue`).
         */
        sending: {
          tags: 'loading',
          entry: 'clearHash',
          invoke: {
            id: 'sendSwap',
            src: 'sendTransaction',
            input: ({ context }) => ({
              ...context.prepared!.swap,
              chainId: context.chainId,
              kind: 'swap' as const,
            }),
            onDone: {
              target: 'confirming',
              actions: [
                { type: 'setHash', params: ({ event }) => ({ hash: event.output, kind: 'swap' as const }) },
                'emitSubmitted',
              ],
            },
            onError: {
              target: '#swap.failed.retryable',
              actions: { type: 'setError', params: (args) => ({ error: errorOf(args), stage: 'send' }) },
            },
          },
          initial: 'asking',
          states: {
            asking: {
              after: { sendRequestTimeout: { target: 'overdue', actions: ['setTimedOut', 'emitTimedOut'] } },
            },
            /**
             * No answer in time, the request still live in the wallet: still awaited, never asked twice. Once the
             * swap it holds is past its deadline it can no longer pay, and a new swap may be asked for.
             */
            overdue: {
              after: { swapExpiry: { target: '#swap.failed.retryable', actions: 'setExpired' } },
            },
          },
        },
        /** The swap is out there: not cancellable (the receipt is what the visitor waits for). */
        confirming: {
          tags: 'loading',
          initial: 'waiting',
          states: {
            waiting: {
              invoke: {
                id: 'waitForSwap',
                src: 'waitForReceipt',
                input: ({ context }) => receiptRequestOf(context),
                onDone: [
                  {
                    guard: { type: 'reverted', params: ({ event }) => event.output },
                    target: '#swap.failed.retryable',
                    actions: 'setSwapReverted',
                  },
                  { target: '#swap.done' },
                ],
                onError: 'polling',
              },
              after: { receiptTimeout: 'polling' },
            },
            polling: {
              invoke: {
                id: 'pollSwap',
                src: 'pollReceipt',
                input: ({ context }) => ({ hash: context.hash!, chainId: context.chainId }),
                onDone: [
                  {
                    guard: { type: 'reverted', params: ({ event }) => event.output },
                    target: '#swap.failed.retryable',
                    actions: 'setSwapReverted',
                  },
                  { target: '#swap.done' },
                ],
              },
              after: { pendingPolling: { target: '#swap.failed.unconfirmed', actions: 'setPending' } },
            },
          },
        },
      },
    },
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
            // Never a second swap: only the receipt of the one sent is looked for again.
            'swap.retry': '#swap.swapping.confirming.polling',
            // The form, with the error kept until the next change (the activity list shows the swap).
            'swap.back': '#swap.form.quoted',
            'swap.cancel': '#swap.form.quoted',
          },
        },
      },
    },
  },
})

export type SwapMachine = typeof swapMachine
export type SwapActorRef = ActorRefFrom<typeof swapMachine>
export type SwapSnapshot = SnapshotFrom<typeof swapMachine>

/** True for the native currency (the 0xeee… marker, or no address). */
export function isNative(token: Pick<SwapToken, 'address'>): boolean {
  const address = token.address.trim().toLowerCase()
  return address === '' || address === SWAP_NATIVE_ADDRESS
}

const DECIMAL = /^(\d+\.?\d*|\.\d+)$/

/** The amount in base units, or undefined if it is not a decimal the token can hold. */
export function parseSwapAmount(amount: string, decimals: number): bigint | undefined {
  const text = amount.trim()
  if (!DECIMAL.test(text)) return undefined
  const fraction = text.split('.')[1] ?? ''
  if (fraction.length > decimals) return undefined
  return parseUnits(text, decimals)
}

/** The amount paid in base units, when positive and valid for the `from` token. */
function amountOf(context: Pick<SwapContext, 'from' | 'amount'>): bigint | undefined {
  if (!context.from) return undefined
  const value = parseSwapAmount(context.amount, context.from.decimals)
  return value === undefined || value === 0n ? undefined : value
}

function pairOf(context: Pick<SwapContext, 'from' | 'to'>): [SwapToken, SwapToken] | undefined {
  const { from, to } = context
  return from && to && !sameToken(from, to) ? [from, to] : undefined
}

function sameToken(a: SwapToken, b: SwapToken): boolean {
  if (a.chainId !== b.chainId) return false
  if (isNative(a) || isNative(b)) return isNative(a) && isNative(b)
  return a.address.toLowerCase() === b.address.toLowerCase()
}

/** The address part of a balance's (CAIP-10 or plain) address, lower case; '' for the native currency. */
function balanceAddress(balance: TokenBalance): string {
  const raw = (balance.address ?? '').trim().toLowerCase()
  const address = raw.split(':').pop() ?? ''
  return address === SWAP_NATIVE_ADDRESS ? '' : address
}

/** The balance of a token in base units, when the balances list it. */
function balanceOf(context: Pick<SwapContext, 'balances'>, token: SwapToken): bigint | undefined {
  const address = isNative(token) ? '' : token.address.trim().toLowerCase()
  const entry = context.balances.find((b) => b.chainId === token.chainId && balanceAddress(b) === address)
  if (!entry) return undefined
  const numeric = entry.quantity.numeric.trim()
  if (!DECIMAL.test(numeric)) return undefined
  const [whole = '', fraction = ''] = numeric.split('.')
  return parseUnits(`${whole || '0'}.${fraction.slice(0, token.decimals) || '0'}`, token.decimals)
}

function nativeOf(token: SwapToken): SwapToken {
  return { address: SWAP_NATIVE_ADDRESS, symbol: '', name: '', decimals: 18, chainId: token.chainId }
}

/**
 * The first problem with the form before review (issue 16: the pair, the amount, a quote, the balance of the
 * token paid, the native currency for gas), or undefined. Views label the review button with it; the machine
 * shows it when `swap.review` comes anyway. A balance the list does not hold is not proof of zero.
 *
 * @example
 * const problem = validateSwap(snapshot.context)
 * <button disabled={problem !== undefined}>{problem?.shortMessage ?? 'Review swap'}</button>
 */
export function validateSwap(
  context: Pick<SwapContext, 'from' | 'to' | 'amount' | 'quote' | 'balances'>,
): BaseError | undefined {
  const pair = pairOf(context)
  if (!pair) return new SwapPairRequiredError()
  const [from] = pair
  const amount = amountOf(context)
  if (amount === undefined) return new InvalidSwapAmountError()
  if (!context.quote) return new SwapQuoteRequiredError()
  const balance = balanceOf(context, from)
  if (balance !== undefined && amount > balance) return new SwapInsufficientBalanceError()
  const gas = BigInt(context.quote.gasFee)
  const native = balanceOf(context, nativeOf(from))
  const needed = isNative(from) ? amount + gas : gas
  if (native !== undefined && needed > native) return new SwapInsufficientGasError()
  return undefined
}

/** Whether the `from` token's allowance (when known) is short of the amount. */
export function needsApproval(context: Pick<SwapContext, 'from' | 'amount' | 'allowance'>): boolean {
  if (!context.from || isNative(context.from) || context.allowance === undefined) return false
  const amount = amountOf(context)
  return amount !== undefined && BigInt(context.allowance) < amount
}

/** The allowance the next approval sets: zero first when a smaller non-zero one is in the way (USDT-style). */
function approveAmountOf(context: SwapContext): string {
  const allowance = BigInt(context.allowance ?? '0')
  return allowance > 0n ? '0' : amountOf(context)!.toString()
}

function maxAmount(context: SwapContext): string | undefined {
  const from = context.from
  if (!from) return undefined
  const balance = balanceOf(context, from)
  if (balance === undefined) return undefined
  const reserve = isNative(from) && context.quote ? BigInt(context.quote.gasFee) : 0n
  return formatUnits(balance > reserve ? balance - reserve : 0n, from.decimals)
}

/** The form as a quote request. Only called where the form is known to be quotable. */
export function quoteRequestOf(context: SwapContext): SwapQuoteRequest {
  return {
    chainId: context.chainId,
    userAddress: context.userAddress,
    from: context.from!.address,
    to: context.to!.address,
    amount: amountOf(context)!.toString(),
  }
}

/** A built transaction without the API's gas limit, for the wallet to estimate when it is sent. */
function withoutGas({ gas: _gas, ...transaction }: SwapTransaction): SwapTransaction {
  return transaction
}

/** The checked approval that sets the allowance due next (zero first, USDT-style, then the amount). */
function checkedApproval(context: SwapContext): SwapApproval | undefined {
  const amount = approveAmountOf(context)
  return context.prepared?.approvals.find((a) => a.amount === amount)
}

/** Only entered when `approvalChecked` holds. */
function approvalRequestOf(context: SwapContext): SwapSendRequest {
  return { ...checkedApproval(context)!.transaction, chainId: context.chainId, kind: 'approve' }
}

/**
 * The least amount out the preview shows: the quote less the slippage, rounded down (slippage to 0.000001 %).
 *
 * @example
 * minimumOut('1000', 1) // 990n
 */
export function minimumOut(toAmount: string, slippage: number): bigint {
  const keep = BigInt(Math.max(0, 100_000_000 - Math.round(slippage * 1_000_000)))
  return (BigInt(toAmount) * keep) / 100_000_000n
}

/** What the preview shows will move: the amount out, at least the least amount out in. */
function expectedOf(context: SwapContext) {
  return expectedOfSwap(
    context.from!,
    context.to!,
    amountOf(context)!,
    minimumOut(context.quote!.toAmount, context.slippage),
  )
}

/** The checked approvals, then the swap, from the account: what the wallet will be asked for, in order. */
function simulationRequestOf(context: SwapContext): SwapSimulationRequest {
  const prepared = context.prepared!
  return {
    chainId: context.chainId,
    account: context.userAddress,
    calls: [...prepared.approvals.map((a) => a.transaction), prepared.swap],
    tokens: simulationTokensOf(context.from!, context.to!),
  }
}

/** What was built, beside the swap the preview shows, for `checkBuild`. Only called with a swap built. */
function checkRequestOf(context: SwapContext): SwapCheckRequest {
  return {
    chainId: context.chainId,
    account: context.userAddress,
    tokenIn: context.from!.address,
    tokenOut: context.to!.address,
    amountIn: amountOf(context)!.toString(),
    minAmountOut: minimumOut(context.quote!.toAmount, context.slippage).toString(),
    approvals: context.built?.approvals ?? [],
    swap: context.built!.swap!,
  }
}

function receiptRequestOf(context: SwapContext): SwapReceiptRequest {
  return { hash: context.hash!, chainId: context.chainId, timeoutMs: TX_RECEIPT_TIMEOUT_MS }
}

function infoOf(error: BaseError): ErrorInfo {
  return swapErrorInfo(error, 'send')
}

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
  ['approving', 'approving'],
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
      return hash && hashKind === 'approve'
        ? 'Waiting for the approval to be confirmed…'
        : 'Approve in your wallet…'
    case 'swapping':
      if (hash && hashKind === 'swap') return 'Waiting for the swap to be confirmed…'
      return snapshot.matches({ swapping: { sending: 'overdue' } })
        ? 'Your wallet has not answered yet. The swap is still waiting there; it will not be asked for twice.'
        : 'Confirm the swap in your wallet…'
    default:
      return undefined
  }
}
