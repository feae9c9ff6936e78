import type { TransactionOutput } from '../transaction'
import { transactionOf } from './rules'
import { sendSetup } from './setup'

/**
 * The send's transaction (src/machines/send.ts): a transaction machine (src/machines/transaction.ts) invoked as a
 * child, its slots and time limits the send's own (`linkTransaction`). On eip155 the payment holds the account's
 * nonce (read before the wallet is asked, every request of it asks for it) and its receipt is awaited (SPEC §9);
 * past the wallet's time limit the chain is asked whether a transaction took the nonce (`overdue`) before "Send
 * again" asks the wallet again, with the same nonce. Solana's slot signs, sends and confirms: its answer is the
 * end. The states here are where the views read it, from the child's notices: the wallet asked (`sending`), the
 * receipt awaited (`confirming`), past the time limit (`overdue`: the chain `checking`, the nonce still `open` or
 * `taken`); how the child ends leads on (done, failed).
 */

type Ended = { event: { output: TransactionOutput } }
const outputOf = ({ event }: Ended) => event.output
/** The transaction sent (mined, reverted or unseen): its hash, or Solana's signature, from the child's output. */
const sentHash = ({ event }: Ended) => ('hash' in event.output ? event.output.hash : undefined)
/** A hash the child announces (`transaction.submitted`). */
const announcedHash = ({ event }: { event: { hash: string } }) => event.hash

/** A transaction is known (the wallet's answer, or the chain's for the held nonce): its receipt is awaited. */
const SUBMITTED = {
  target: '#send.transaction.confirming',
  actions: [{ type: 'setHash', params: announcedHash }, 'emitSubmitted'],
} as const

/** "Send again" past the time limit: the transaction asks the wallet again (with the nonce it holds). */
const SEND_AGAIN = { target: '#send.transaction.sending', actions: 'retryTransaction' } as const

/** SPEC §4 reset (the kit sends it on disconnect): the wallet is gone, so is its request. */
const RESET = { target: '#send.editing', actions: 'resetForm' } as const

export const sendTransaction = sendSetup.createStateConfig({
  invoke: {
    id: 'transaction',
    src: 'transaction',
    // A send not seen mined, checked again (`failed.unconfirmed`): its hash is kept, only its receipt looked for.
    input: ({ context }) => transactionOf(context),
    onDone: [
      {
        guard: { type: 'transactionMined', params: outputOf },
        target: '#send.done',
        actions: { type: 'setHash', params: sentHash },
      },
      {
        guard: { type: 'transactionDeclined', params: outputOf },
        target: '#send.failed.retryable',
        actions: {
          type: 'setError',
          params: ({ event }: Ended) => ({
            error: 'error' in event.output ? event.output.error : event.output,
            stage: 'send' as const,
          }),
        },
      },
      // The wallet did not answer in time and holds no request of the payment (Solana; or the nonce not read yet).
      {
        guard: { type: 'transactionTimedOut', params: outputOf },
        target: '#send.failed.retryable',
        actions: ['setTimedOut', 'emitTimedOut'],
      },
      {
        guard: { type: 'transactionReverted', params: outputOf },
        target: '#send.failed.retryable',
        actions: [{ type: 'setHash', params: sentHash }, 'setReverted'],
      },
      // Sent, but no receipt within the polling window (SPEC §9).
      { target: '#send.failed.unconfirmed', actions: [{ type: 'setHash', params: sentHash }, 'setPending'] },
    ],
  },
  initial: 'sending',
  states: {
    /** The wallet asked (the payment's nonce read first on eip155). */
    sending: {
      tags: ['loading', 'busy'],
      entry: ['loadingOn', 'clearError', 'clearHash'],
      exit: 'loadingOff',
      on: {
        'transaction.submitted': SUBMITTED,
        // The request sent again failed while the one left earlier may have gone through: the chain tells.
        'transaction.failedAgain': {
          target: 'overdue',
          actions: {
            type: 'setError',
            params: ({ event }: { event: { error: unknown } }) => ({
              error: event.error,
              stage: 'send' as const,
            }),
          },
        },
        // The time limit left the request (with the payment's nonce) to the wallet: its late hash is never taken,
        // the chain is asked about the nonce first. The kit raises SPEC §8's REQUEST_TIMED_OUT alert.
        'transaction.overdue': {
          guard: { type: 'overdueAt', params: 'checking' },
          target: 'overdue',
          actions: ['setTimedOut', 'emitTimedOut'],
        },
        'send.reset': RESET,
      },
    },
    /** The receipt awaited (SPEC §9: waited for, then polled): never cancelled, the transaction is out there. */
    confirming: {
      tags: ['loading', 'busy'],
      entry: ['loadingOn', 'clearError'],
      exit: 'loadingOff',
    },
    // Past the wallet's time limit (or a request sent again that failed while an earlier one was left open):
    // nothing is offered until the chain says whether a transaction took the payment's nonce. Mined as this
    // payment → its receipt; taken by another transaction → a new nonce next time; still open → "Send again",
    // which asks for the same nonce (so at most one request can be mined), while the chain is watched on.
    overdue: {
      on: {
        'transaction.overdue': [
          { guard: { type: 'overdueAt', params: 'open' }, target: '.open', actions: 'showStillOpen' },
          { guard: { type: 'overdueAt', params: 'taken' }, target: '.taken', actions: 'showNonceTaken' },
          { guard: { type: 'overdueAt', params: 'checking' }, target: '.checking' },
        ],
        'transaction.submitted': SUBMITTED,
        'send.reset': RESET,
      },
      initial: 'checking',
      states: {
        checking: { tags: 'busy' },
        open: { on: { 'send.retry': SEND_AGAIN } },
        // Another transaction took the nonce: the left request cannot be mined any more. A new send reads a new one.
        taken: { on: { 'send.retry': SEND_AGAIN } },
      },
    },
  },
})
