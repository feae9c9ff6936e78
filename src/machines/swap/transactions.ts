import { approvalRequestOf, receiptRequestOf } from './rules'
import { errorOf, swapSetup } from './setup'
import type { SwapReceipt } from './types'

/**
 * The swap's transactions (src/machines/swap.ts): the checked approvals, one at a time, then the checked swap,
 * each sent to the wallet and its receipt awaited (SPEC §9: `waiting`, then `polling`).
 */

/** The receipt's answer: reverted (the step's own error, retryable) or mined (on to the next step). */
const minedOr = (reverted: 'setApproveReverted' | 'setSwapReverted', mined: string) => [
  {
    guard: {
      type: 'reverted' as const,
      params: ({ event }: { event: { output: SwapReceipt } }) => event.output,
    },
    target: '#swap.failed.retryable',
    actions: reverted,
  },
  { target: mined },
]

/**
 * A sent transaction's receipt, approval or swap alike (SPEC §9): `waiting` up to `receiptTimeout`, then
 * `polling` up to `pendingPolling`; mined leads to `mined`, reverted fails retryable, none seen in time to `unseen`.
 */
function receiptOf(step: {
  transaction: 'Approval' | 'Swap'
  reverted: 'setApproveReverted' | 'setSwapReverted'
  mined: '#swap.approving.approved' | '#swap.done'
  unseen: '#swap.failed.retryable' | '#swap.failed.unconfirmed'
}) {
  return swapSetup.createStateConfig({
    tags: 'loading',
    initial: 'waiting',
    states: {
      waiting: {
        invoke: {
          id: `waitFor${step.transaction}`,
          src: 'waitForReceipt',
          input: ({ context }) => receiptRequestOf(context),
          onDone: minedOr(step.reverted, step.mined),
          onError: 'polling',
        },
        after: { receiptTimeout: 'polling' },
      },
      polling: {
        invoke: {
          id: `poll${step.transaction}`,
          src: 'pollReceipt',
          input: ({ context }) => ({ hash: context.hash!, chainId: context.chainId }),
          onDone: minedOr(step.reverted, step.mined),
        },
        after: { pendingPolling: { target: step.unseen, actions: 'setPending' } },
      },
    },
  })
}

/** The checked approvals the allowance needs, each sent and mined before the next (zero first, USDT-style). */
export const swapApproving = swapSetup.createStateConfig({
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
    confirming: receiptOf({
      transaction: 'Approval',
      reverted: 'setApproveReverted',
      mined: '#swap.approving.approved',
      // An approval is harmless to look for again from the preview: the allowance is checked afresh.
      unseen: '#swap.failed.retryable',
    }),
    /** Mined: a zero approval is followed by the amount's; the amount's by the swap. */
    approved: {
      entry: 'applyApproval',
      always: [{ guard: 'needsApproval', target: 'next' }, { target: '#swap.swapping' }],
    },
  },
})

/** The checked swap: the wallet asked (never twice), then its receipt. */
export const swapSwapping = swapSetup.createStateConfig({
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
    confirming: receiptOf({
      transaction: 'Swap',
      reverted: 'setSwapReverted',
      mined: '#swap.done',
      unseen: '#swap.failed.unconfirmed',
    }),
  },
})
