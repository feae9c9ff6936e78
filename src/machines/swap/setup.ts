import { formatUnits, type Hex } from 'viem'
import { assertEvent, assign, emit, fromPromise, setup } from 'xstate'
import {
  CALLS_CAPABILITIES_TIMEOUT_MS,
  SEND_REQUEST_TIMEOUT_MS,
  SIMULATION_TIMEOUT_MS,
  SWAP_QUOTE_DEBOUNCE_MS,
  SWAP_QUOTE_REFRESH_MS,
  SWAP_SLIPPAGE_MAX,
} from '../../constants'
import type { BaseError, ErrorInfo } from '../../errors/base'
import { SimulationDisagreementError } from '../../errors/simulation'
import {
  ApproveRevertedError,
  SwapBuildMismatchError,
  SwapPendingError,
  SwapQuoteExpiredError,
  SwapRequestExpiredError,
  SwapRevertedError,
  type SwapStage,
  SwapTimeoutError,
  swapErrorInfo,
} from '../../errors/swap'
import { formatQuantity } from '../../utils/format'
import {
  type BatchMachine,
  type BatchOutput,
  batchEnds,
  batchMachine,
  callsStatusSlot,
  sendCallsSlot,
} from '../calls/batch'
import { atomicBatching, batchedCallsRuleBroken } from '../calls/rules'
import type { AtomicStatus } from '../calls/types'
import {
  type TransactionMachine,
  type TransactionOutput,
  transactionEnds,
  transactionMachine,
} from '../transaction'
import {
  amountOf,
  approveAmountOf,
  batchCallsOf,
  checkedApproval,
  expectedOf,
  isNative,
  isSolanaSwap,
  maxAmount,
  needsApproval,
  pairOf,
  sameToken,
  validateSwap,
} from './rules'
import { swapSimulationDisagreement } from './simulation'
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
} from './types'

/**
 * The swap machine's `setup`: its types, slots, delays, guards and actions. The chart (`../swap.ts`) builds the
 * machine from it, and the preview and the transactions in this folder their state configs
 * (`swapSetup.createStateConfig`), so every part shares the chart's types.
 */

const notProvided = (slot: string) => () => {
  throw new Error(`swapMachine: the "${slot}" actor slot was not provided`)
}

/** An error event's payload, for `params`. */
export const errorOf = ({ event }: { event: { error: unknown } }) => event.error

function infoOf(error: BaseError): ErrorInfo {
  return swapErrorInfo(error, 'send')
}

export const swapSetup = setup({
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
    /** An approval's or the swap's life: its slots are this machine's (`linkTransaction`, ../swap.ts). */
    transaction: transactionMachine as TransactionMachine,
    /** The wallet's atomic batching on the chain (`wallet_getCapabilities`, read as the calls machine reads it). */
    capabilities: fromPromise<AtomicStatus, { address: Hex; chainId: number }>(notProvided('capabilities')),
    /** The approvals and the swap as one batch (`wallet_sendCalls`, atomic required): the batch child's. */
    sendCalls: sendCallsSlot,
    /** The batch's status (`wallet_getCallsStatus`): the batch child's. */
    callsStatus: callsStatusSlot,
    /** The approvals and the swap batched: its slots are this machine's (`linkChild`, ../swap.ts). */
    batch: batchMachine as BatchMachine,
  },
  delays: {
    /** Ours (src/constants.ts): typing coalesces into one quote. */
    quoteDebounce: SWAP_QUOTE_DEBOUNCE_MS,
    /** Ours (src/constants.ts): the preview's quote is asked for again this often. */
    quoteRefresh: SWAP_QUOTE_REFRESH_MS,
    /** Ours (src/constants.ts): a simulation not answered by then is left out, never guessed. */
    simulationTimeout: SIMULATION_TIMEOUT_MS,
    /** Ours (src/constants.ts), the calls machine's: a wallet that does not say what it supports gets two steps. */
    walletCapabilities: CALLS_CAPABILITIES_TIMEOUT_MS,
  },
  guards: {
    quotable: ({ context }) => amountOf(context) !== undefined && pairOf(context) !== undefined,
    reviewBlocked: ({ context }) => validateSwap(context) !== undefined,
    /** The maker refused to build a quote past its window (Solana): a fresh quote is needed. */
    quoteExpired: (_, error: unknown) => error instanceof SwapQuoteExpiredError,
    quoteBlocked: ({ context }, quote: SwapQuote) => validateSwap({ ...context, quote }) !== undefined,
    fromIsNative: ({ context }) => context.from !== undefined && isNative(context.from),
    /** A Solana swap: the visitor signs the maker's transaction, whose transfers need no allowance. */
    approvesNothing: ({ context }) => isSolanaSwap(context),
    needsApproval: ({ context }) => needsApproval(context),
    /** An approval is due, and it was checked: only then is it sent (one that was not is refused). */
    nextApprovalChecked: ({ context }) => needsApproval(context) && checkedApproval(context) !== undefined,
    /** A smaller non-zero allowance is in the way: it is set to zero first (USDT-style). */
    needsReset: ({ context }) => needsApproval(context) && BigInt(context.allowance ?? '0') > 0n,
    validSlippage: ({ event }) => {
      assertEvent(event, 'swap.setSlippage')
      return Number.isFinite(event.slippage) && event.slippage > 0 && event.slippage <= SWAP_SLIPPAGE_MAX
    },
    /** How its transaction ended (src/machines/transaction.ts). */
    ...transactionEnds,
    /** The wallet executes a batch atomically on the chain: the approvals and the swap in one confirmation. */
    walletBatchesAtomically: ({ event }) =>
      atomicBatching((event as unknown as { output?: AtomicStatus }).output),
    /** SPEC §5, on the batch made of the checked approvals and swap (the calls machine's rule, ../calls/rules.ts). */
    batchedCallsNeedToAndDataStarting0x: ({ context }) =>
      batchedCallsRuleBroken({ calls: batchCallsOf(context) }) === undefined,
    /** How the batch ended (src/machines/calls/batch.ts). */
    ...batchEnds,
    /** The swap ended unconfirmed as a batch the wallet took (its id kept): only its status is looked for. */
    batchUnconfirmed: ({ context }) => context.batchId !== undefined,
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
    clearBuild: assign({ built: undefined, prepared: undefined, simulation: undefined, batchId: undefined }),
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
    /** The wallet's answer (declined, refused), as the swap's error. */
    setTransactionError: assign((_, output: TransactionOutput) => ({
      error: swapErrorInfo(
        output.status === 'failed' && output.reason === 'declined' ? output.error : output,
        'send',
      ),
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
    /** The batch landed: the swap's hash is its last receipt's (one for an atomic batch). */
    setBatchMined: assign((_, output: BatchOutput) => ({
      hash: output.status === 'confirmed' ? output.result.receipts.at(-1)?.transactionHash : undefined,
      hashKind: 'swap' as const,
    })),
    /** The batch did not land (declined, reverted, past its deadline): the calls error, as the calls machine's. */
    setBatchFailed: assign((_, output: BatchOutput) => ({
      error: output.status === 'failed' ? output.error : undefined,
    })),
    /** The wallet took the batch (`batch.sent`): its id kept, so its status can be looked for again. */
    keepBatchId: assign(({ event }) => {
      assertEvent(event, 'batch.sent')
      return { batchId: event.id }
    }),
    /** Sent, no final status by its deadline: the outcome unknown (it may still land), the batch's id kept. */
    setBatchUnknown: assign((_, output: BatchOutput) => ({
      batchId: output.id,
      error: output.status === 'unknown' ? output.error : undefined,
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
})
