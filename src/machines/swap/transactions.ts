import type { Hex } from 'viem'
import { SWAP_EXPIRY_MARGIN_MS } from '../../constants'
import type { TransactionInput, TransactionOutput } from '../transaction'
import { approvalRequestOf, isSolanaSwap } from './rules'
import { swapSetup } from './setup'
import type { SwapContext, SwapSendRequest } from './types'

/**
 * The swap's transactions (src/machines/swap.ts): the checked approvals, one at a time, then the checked swap,
 * each a transaction machine (src/machines/transaction.ts) invoked as a child, its slots the swap's own
 * (`sendTransaction`, `waitForReceipt`, `pollReceipt`). The states here are only where the views read it: the
 * wallet asked (`sending`), the receipt awaited (`confirming`), from the child's notices.
 */

type Ended = { event: { output: TransactionOutput } }
const outputOf = ({ event }: Ended) => event.output

/** Where the child's end leads that is not the step's own: the wallet's answer. */
const FAILED = [
  {
    guard: { type: 'transactionDeclined', params: outputOf },
    target: '#swap.failed.retryable',
    actions: { type: 'setTransactionError', params: outputOf },
  },
] as const

/** While the wallet is asked, the child's notices: its hash known (the receipt awaited), its time limit passed. */
const asked = (kind: 'approve' | 'swap') =>
  ({
    'transaction.submitted': {
      target: 'confirming',
      actions: [
        {
          type: 'setHash',
          params: ({ event }: { event: { hash: string } }) => ({ hash: event.hash as Hex, kind }),
        },
        'emitSubmitted',
      ],
    },
    'transaction.timedOut': { actions: ['setTimedOut', 'emitTimedOut'] },
  }) as const

/** The transaction sent (mined, reverted or unseen): its hash, from the child's output. */
const sentAs = (kind: 'approve' | 'swap') =>
  ({
    type: 'setHash',
    params: ({ event }: Ended) => ({
      hash: ('hash' in event.output ? event.output.hash : undefined) as Hex,
      kind,
    }),
  }) as const

/** The checked swap, as the wallet is asked for it. */
function swapRequestOf(context: SwapContext): SwapSendRequest {
  return {
    ...context.prepared!.swap,
    chainId: context.chainId,
    kind: 'swap',
    // On Solana the wallet that signs, as the account shown.
    ...(isSolanaSwap(context) ? { connectorId: context.connectorId, from: context.userAddress } : {}),
  }
}

/** What the preview's confirm (or a mined approval) leads to: the approval due, sent only as it was checked (one
 * that was not is refused, never built anew), or the swap. */
export const swapNextStep = swapSetup.createStateConfig({
  always: [
    { guard: 'nextApprovalChecked', target: '#swap.approving' },
    { guard: 'needsApproval', target: '#swap.failed.refused', actions: 'setApprovalNotChecked' },
    { target: '#swap.swapping' },
  ],
})

/** The checked approvals the allowance needs, each sent and mined before the next (zero first, USDT-style). */
export const swapApproving = swapSetup.createStateConfig({
  tags: 'busy',
  entry: 'clearError',
  on: { 'swap.cancel': '#swap.preview' },
  invoke: {
    id: 'approveTransaction',
    src: 'transaction',
    // An approval the wallet does not answer in time fails: it is harmless to ask for again from the preview.
    input: ({ context }): TransactionInput => ({
      chainId: context.chainId,
      request: approvalRequestOf(context),
      rules: { holdsNonce: false },
    }),
    onDone: [
      {
        guard: { type: 'transactionMined', params: outputOf },
        target: '.approved',
        actions: sentAs('approve'),
      },
      ...FAILED,
      // The time limit: its notice said so (`request.timedOut`); the error is set here too, so the failure holds its
      // error whatever the order the child's notice and its end arrive in.
      {
        guard: { type: 'transactionTimedOut', params: outputOf },
        target: '#swap.failed.retryable',
        actions: 'setTimedOut',
      },
      {
        guard: { type: 'transactionReverted', params: outputOf },
        target: '#swap.failed.retryable',
        actions: [sentAs('approve'), 'setApproveReverted'],
      },
      // An approval is harmless to look for again from the preview: the allowance is checked afresh.
      { target: '#swap.failed.retryable', actions: [sentAs('approve'), 'setPending'] },
    ],
  },
  initial: 'sending',
  states: {
    sending: { tags: 'loading', entry: 'clearHash', on: asked('approve') },
    confirming: { tags: 'loading' },
    /** Mined: a zero approval is followed by the amount's (sent only as it was checked); the amount's by the swap. */
    approved: {
      entry: 'applyApproval',
      always: '#swap.nextStep',
    },
  },
})

/** The checked swap: the wallet asked (never twice), then its receipt. */
export const swapSwapping = swapSetup.createStateConfig({
  tags: 'busy',
  entry: 'clearError',
  invoke: {
    id: 'swapTransaction',
    src: 'transaction',
    input: ({ context, event }): TransactionInput => ({
      chainId: context.chainId,
      request: swapRequestOf(context),
      // One payment, one transaction: past the time limit the swap the wallet holds is awaited until it is past
      // its deadline (as checked), and a margin for block times, when it can no longer pay.
      // On Solana the wallet signs (after the maker), sends and confirms: its answer is the end (no receipt read),
      // and its time limit fails the swap, as a Solana send's does.
      rules: isSolanaSwap(context)
        ? { holdsNonce: false, confirmedByWallet: true }
        : { holdsNonce: false, deadlineMs: (context.prepared?.validForMs ?? 0) + SWAP_EXPIRY_MARGIN_MS },
      // "Check again" (from `failed.unconfirmed`): only the receipt of the swap sent is looked for.
      ...(event.type === 'swap.retry' ? { hash: context.hash } : {}),
    }),
    onDone: [
      {
        guard: { type: 'transactionMined', params: outputOf },
        target: '#swap.done',
        actions: sentAs('swap'),
      },
      ...FAILED,
      {
        guard: { type: 'transactionExpired', params: outputOf },
        target: '#swap.failed.retryable',
        actions: 'setExpired',
      },
      // Solana's (no deadline held: the wallet's time limit fails the swap, as a Solana send's does).
      {
        guard: { type: 'transactionTimedOut', params: outputOf },
        target: '#swap.failed.retryable',
        actions: 'setTimedOut',
      },
      {
        guard: { type: 'transactionReverted', params: outputOf },
        target: '#swap.failed.retryable',
        actions: [sentAs('swap'), 'setSwapReverted'],
      },
      { target: '#swap.failed.unconfirmed', actions: [sentAs('swap'), 'setPending'] },
    ],
  },
  initial: 'sending',
  states: {
    /**
     * The wallet holds the swap: no cancel (a second swap could then be asked for while this one is live).
     * Past the time limit the flow says so (`overdue`).
     */
    sending: {
      tags: 'loading',
      entry: 'clearHash',
      on: asked('swap'),
      initial: 'asking',
      states: {
        asking: { on: { 'transaction.overdue': 'overdue' } },
        /** No answer in time, the request still live in the wallet: still awaited, never asked twice. */
        overdue: {},
      },
    },
    /** The swap is out there: not cancellable (the receipt is what the visitor waits for). */
    confirming: { tags: 'loading' },
  },
})
