import { and } from 'xstate'
import { SWAP_EXPIRY_MARGIN_MS } from '../../constants'
import type { BatchInput, BatchOutput } from '../calls/batch'
import { batchCallsOf, eip155Of } from './rules'
import { swapSetup } from './setup'

/**
 * The swap's approval and swap in one confirmation (src/machines/swap.ts), where the wallet batches atomically
 * (EIP-5792). The preview's confirm, with approvals due and checked, first reads the wallet's capabilities on the
 * chain (`readingCapabilities`, the slot `capabilities`, as the calls machine reads them); the guard
 * `walletBatchesAtomically` ('supported' or 'ready') and the SPEC §5 rule on the batch lead to `confirmingBatch`:
 * the checked approvals and swap, exactly as simulated, sent as one atomic batch through the batch child
 * (src/machines/calls/batch.ts: `wallet_sendCalls` with `atomicRequired`, then `wallet_getCallsStatus` until
 * final). A wallet without atomic batching, one that does not answer, or not in time, gets today's two steps
 * (`nextStep`: each approval, then the swap).
 */

type Answer<T> = { event: { output: T } }
const endOf = ({ event }: Answer<BatchOutput>) => event.output

/** The wallet's capabilities on the chain: one confirmation for all, or two steps. */
export const swapReadingCapabilities = swapSetup.createStateConfig({
  tags: 'busy',
  entry: 'clearError',
  // Nothing is in the wallet yet: the preview, as for an approval.
  on: { 'swap.cancel': '#swap.preview' },
  invoke: {
    id: 'walletCapabilities',
    src: 'capabilities',
    input: ({ context }) => eip155Of(context),
    onDone: [
      {
        guard: and(['walletBatchesAtomically', 'batchedCallsNeedToAndDataStarting0x']),
        target: '#swap.confirmingBatch',
      },
      { target: '#swap.nextStep' },
    ],
    // A wallet that cannot say (no `wallet_getCapabilities`, an answer that is not EIP-5792's): two steps.
    onError: '#swap.nextStep',
  },
  after: { walletCapabilities: '#swap.nextStep' },
})

/** The checked approvals and swap as one atomic batch: the wallet asked once (never twice), then followed. */
export const swapConfirmingBatch = swapSetup.createStateConfig({
  tags: 'busy',
  entry: ['clearError', 'clearHash'],
  invoke: {
    id: 'swapBatch',
    src: 'batch',
    input: ({ context, event }): BatchInput => ({
      calls: batchCallsOf(context),
      chainId: eip155Of(context).chainId,
      atomicRequired: true,
      prompts: 1,
      // One payment, one batch: it is awaited until the swap is past its deadline (as checked), and a margin
      // for block times, when it can no longer pay; a failure before then is the wallet's or the chain's word.
      deadlineMs: (context.prepared?.validForMs ?? 0) + SWAP_EXPIRY_MARGIN_MS,
      // "Check again" (from `failed.unconfirmed`): only the status of the batch sent is looked for.
      ...(event.type === 'swap.retry' && context.batchId ? { id: context.batchId } : {}),
    }),
    onDone: [
      {
        guard: { type: 'batchConfirmed', params: endOf },
        target: '#swap.done',
        actions: { type: 'setBatchMined', params: endOf },
      },
      // Sent, and no final status by the deadline: it may still land. Never "failed, try again".
      {
        guard: { type: 'batchOutcomeUnknown', params: endOf },
        target: '#swap.failed.unconfirmed',
        actions: { type: 'setBatchUnknown', params: endOf },
      },
      { target: '#swap.failed.retryable', actions: { type: 'setBatchFailed', params: endOf } },
    ],
  },
  initial: 'sending',
  states: {
    /** The wallet holds the batch: no cancel (a second swap could then be asked for while this one is live). */
    sending: { tags: 'loading', on: { 'batch.sent': { target: 'confirming', actions: 'keepBatchId' } } },
    /** The batch is out there: its final status awaited. */
    confirming: { tags: 'loading' },
  },
})
