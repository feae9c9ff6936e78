import type { Hex } from 'viem'
import { TX_RECEIPT_TIMEOUT_MS } from '../../constants'
import { chainReference, nonceCheckOf, sendRequestOf, solanaRequestOf } from './rules'
import { errorOf, outputOf, sendSetup } from './setup'
import type { NonceReading, NonceStatus } from './types'

/**
 * The send's transaction (src/machines/send.ts): the wallet asked (Solana's slot, or eip155's with the payment's
 * nonce), the receipt awaited (SPEC §9: `waiting`, then `polling`), and, past the wallet's time limit, the chain
 * asked whether a transaction took the nonce (`overdue`).
 */

/** Where the chain's word on a held nonce leads (after the time limit, or a request sent again that failed). */
const NONCE_LOOKED_UP = [
  {
    guard: { type: 'paymentMined', params: outputOf<NonceStatus> },
    target: '#send.confirming',
    actions: [{ type: 'setMinedHash', params: outputOf<NonceStatus> }, 'releaseNonce', 'emitSubmitted'],
  },
  {
    guard: { type: 'nonceTaken', params: outputOf<NonceStatus> },
    target: '#send.overdue.taken',
    actions: ['releaseNonce', 'showNonceTaken'],
  },
] as const

/** Where a wallet's answer to an eip155 request leads: the receipt awaited, or why not. */
const WALLET_ANSWERED = {
  onDone: {
    target: '#send.confirming',
    actions: [{ type: 'setHash', params: outputOf<string> }, 'releaseNonce', 'emitSubmitted'],
  },
  onError: [
    // The request sent again failed: the one left earlier may have gone through. The chain tells.
    {
      guard: 'earlierRequestOpen',
      target: '#send.overdue',
      actions: {
        type: 'setError',
        params: (args: { event: { error: unknown } }) => ({ error: errorOf(args), stage: 'send' as const }),
      },
    },
    {
      target: '#send.failed.retryable',
      actions: [
        {
          type: 'setError',
          params: (args: { event: { error: unknown } }) => ({ error: errorOf(args), stage: 'send' as const }),
        },
        // Answered (declined, failed) with no earlier request left open: nothing holds the nonce any more.
        'releaseNonce',
      ],
    },
  ],
} as const

export const sendSending = sendSetup.createStateConfig({
  tags: ['loading', 'busy'],
  entry: ['loadingOn', 'clearError', 'clearHash'],
  exit: 'loadingOff',
  // A wallet that never answers: its request is left (its actor stopped, so a hash it sends later is ignored).
  // On eip155 the request holds the payment's nonce: `overdue` watches the chain for it before offering to
  // send again (with the same nonce). Solana's send has no such slot: the form is kept for a deliberate retry.
  after: {
    sendRequestTimeout: [
      {
        guard: 'walletMayHoldRequest',
        target: '#send.overdue',
        actions: ['setTimedOut', 'markNonceAbandoned', 'emitTimedOut'],
      },
      { target: '#send.failed.retryable', actions: ['setTimedOut', 'emitTimedOut'] },
    ],
  },
  // SPEC §4 reset (the kit sends it on disconnect): the wallet is gone, so is its request.
  on: { 'send.reset': { target: 'editing', actions: 'resetForm' } },
  initial: 'choosing',
  states: {
    choosing: {
      always: [
        { guard: 'isSolana', target: 'solana' },
        { guard: 'needsNonce', target: 'nonce' },
        { guard: 'isNative', target: 'native' },
        { target: 'erc20' },
      ],
    },
    asking: {
      always: [{ guard: 'isNative', target: 'native' }, { target: 'erc20' }],
    },
    // The payment's nonce, read once: every wallet request of this payment asks for it.
    nonce: {
      invoke: {
        id: 'readNonce',
        src: 'readNonce',
        input: ({ context }) => ({ chainId: chainReference(context.token!)! }),
        // Straight to the request: the nonce just read is the one to use, whatever the kit's sender says.
        onDone: { target: 'asking', actions: { type: 'setNonce', params: outputOf<NonceReading> } },
        onError: {
          target: '#send.failed.retryable',
          actions: { type: 'setError', params: (args) => ({ error: errorOf(args), stage: 'send' }) },
        },
      },
    },
    // One slot signs, sends and confirms ('confirmed', SPEC §5): no receipt to wait for afterwards.
    solana: {
      invoke: {
        id: 'sendSolana',
        src: 'sendSolana',
        input: ({ context }) => ({ ...solanaRequestOf(context), fee: context.fee }),
        onDone: {
          target: '#send.done',
          actions: { type: 'setHash', params: ({ event }) => event.output },
        },
        onError: {
          target: '#send.failed.retryable',
          actions: { type: 'setError', params: (args) => ({ error: errorOf(args), stage: 'send' }) },
        },
      },
    },
    native: {
      invoke: {
        id: 'sendNative',
        src: 'sendNative',
        input: ({ context }) => ({
          ...sendRequestOf(context),
          fee: context.fee,
          nonce: context.nonce?.nonce,
        }),
        ...WALLET_ANSWERED,
      },
    },
    erc20: {
      invoke: {
        id: 'sendErc20',
        src: 'sendErc20',
        input: ({ context }) => {
          const request = sendRequestOf(context)
          return { ...request, token: request.token!, fee: context.fee, nonce: context.nonce?.nonce }
        },
        ...WALLET_ANSWERED,
      },
    },
  },
})

export const sendConfirming = sendSetup.createStateConfig({
  tags: ['loading', 'busy'],
  entry: ['loadingOn', 'clearError'],
  exit: 'loadingOff',
  initial: 'waiting',
  states: {
    waiting: {
      invoke: {
        id: 'waitForReceipt',
        src: 'waitForReceipt',
        input: ({ context }) => ({
          hash: context.hash! as Hex,
          chainId: chainReference(context.token!)!,
          timeoutMs: TX_RECEIPT_TIMEOUT_MS,
        }),
        onDone: [
          {
            guard: { type: 'reverted', params: ({ event }) => event.output },
            target: '#send.failed.retryable',
            actions: 'setReverted',
          },
          { target: '#send.done' },
        ],
        // A timed-out (or interrupted) wait is not a failed send: the transaction is out there. Look again.
        onError: 'polling',
      },
      after: { receiptTimeout: 'polling' },
    },
    polling: {
      invoke: {
        id: 'pollReceipt',
        src: 'pollReceipt',
        input: ({ context }) => ({
          hash: context.hash! as Hex,
          chainId: chainReference(context.token!)!,
        }),
        onDone: [
          {
            guard: { type: 'reverted', params: ({ event }) => event.output },
            target: '#send.failed.retryable',
            actions: 'setReverted',
          },
          { target: '#send.done' },
        ],
      },
      after: { pendingPolling: { target: '#send.failed.unconfirmed', actions: 'setPending' } },
    },
  },
})

// Past the wallet's time limit (or a request sent again that failed while an earlier one was left open):
// nothing is offered until the chain says whether a transaction took the payment's nonce. Mined as this
// payment → its receipt; taken by another transaction → a new nonce next time; still open → "Send again",
// which asks for the same nonce (so at most one request can be mined), while the chain is watched on.
export const sendOverdue = sendSetup.createStateConfig({
  initial: 'checking',
  on: {
    'send.reset': { target: 'editing', actions: 'resetForm' },
  },
  states: {
    checking: {
      tags: 'busy',
      invoke: {
        id: 'checkNonce',
        src: 'checkNonce',
        input: ({ context }) => nonceCheckOf(context),
        onDone: [...NONCE_LOOKED_UP, { target: 'open', actions: 'showStillOpen' }],
        // The chain cannot tell now: sending again is still safe (same nonce); the watch goes on.
        onError: { target: 'open', actions: 'showStillOpen' },
      },
    },
    open: {
      invoke: {
        id: 'watchNonce',
        src: 'watchNonce',
        input: ({ context }) => nonceCheckOf(context),
        onDone: [...NONCE_LOOKED_UP, { target: 'checking' }],
        onError: { target: 'checking' },
      },
      on: { 'send.retry': '#send.sending' },
    },
    // Another transaction took the nonce: the left request cannot be mined any more. A new send reads a new one.
    taken: {
      on: { 'send.retry': '#send.sending' },
    },
  },
})
