import type { Hex } from 'viem'
import { type AnyActorLogic, type AnyStateMachine, and, not } from 'xstate'
import { TX_RECEIPT_TIMEOUT_MS } from '../constants'
import { linkChild } from './link'
import {
  askOf,
  chainOf,
  errorOf,
  malformedHashError,
  nonceCheckOf,
  outputOf,
  transactionSetup,
} from './transaction/setup'
import type { NonceReading, NonceStatus, TransactionOutput, TransactionReceipt } from './transaction/types'

/**
 * A transaction's life (SPEC §4, §8, §9), one child machine for every flow that sends one (send, the swap's
 * approvals and swap): the wallet asked for the checked request, then its receipt awaited; its parent invokes
 * it (`invoke: { src: 'transaction', input }`) with what differs as data (`TransactionRules`) and shows where
 * it stands from its notices (`TransactionNotice`, sent to the parent).
 *
 * sending (the time limit `timeLimit` counts from here): `nonce` (`readNonce`, when the rules hold one) →
 * `asking` (`ask`: the wallet; the held nonce in the request) → confirming: `waiting` for the receipt up to
 * `receiptTimeout`, then `polling` for it up to `pendingPolling` → mined (the output: hash, receipt).
 *
 * Past the time limit, by the rules:
 * - a held nonce: `overdue` — nothing is offered until the chain says whether a transaction took the nonce
 *   (`checkNonce`, then `watchNonce`). Mined as this request → its receipt; taken by another transaction → a
 *   new nonce next time (`taken`); still open (`open`) → `transaction.retry` asks again with the same nonce (at
 *   most one of the two requests can be mined; asked by another account, that account's nonce is read). A request sent again that fails while the earlier one is open
 *   comes back here too.
 * - a deadline: the request stays open in the wallet, awaited (`asking.late`), never asked twice; past the
 *   deadline what it holds can no longer pay (`expired`).
 * - neither: the transaction fails (`timedOut`).
 *
 * It ends in `ended` with a {@link TransactionOutput}: mined, or failed (`declined` with the wallet's error,
 * `timedOut`, `expired`, `reverted`, `unseen`), which the parent turns into its own error family.
 *
 * Every effect is a named actor slot: `ask`, `readNonce`, `checkNonce`, `watchNonce`, `waitForReceipt`,
 * `pollReceipt`. A parent fills them from its own slots with {@link linkTransaction}.
 */

export type * from './transaction/types'

/** Where a receipt leads: reverted, or mined. */
const RECEIPT = [
  {
    guard: { type: 'reverted', params: outputOf<TransactionReceipt> },
    target: '#transaction.ended',
    actions: { type: 'failSent', params: 'reverted' as const },
  },
  { target: '#transaction.ended', actions: { type: 'mined', params: outputOf<TransactionReceipt> } },
] as const

/** Where the chain's word on a held nonce leads (past the time limit, or a request sent again that failed). */
const NONCE_LOOKED_UP = [
  {
    guard: { type: 'paymentMined', params: outputOf<NonceStatus> },
    target: '#transaction.confirming',
    actions: [
      { type: 'setMinedHash', params: outputOf<NonceStatus> },
      'releaseNonce',
      {
        type: 'notify',
        params: ({ event }: { event: { output: NonceStatus } }) => ({
          type: 'transaction.submitted' as const,
          hash: event.output.status === 'mined' ? event.output.hash : '',
        }),
      },
    ],
  },
  {
    guard: { type: 'nonceTaken', params: outputOf<NonceStatus> },
    target: '#transaction.overdue.taken',
    actions: 'releaseNonce',
  },
] as const

/**
 * Asking again with the held nonce (at most one of the two requests can be mined); asked by another account than
 * the nonce's, that account's own nonce is read instead.
 */
const RETRY = [
  { guard: 'heldForAnotherAccount', target: '#transaction.sending', actions: 'releaseNonce' },
  { target: '#transaction.sending' },
] as const

export const transactionMachine = transactionSetup.createMachine({
  id: 'transaction',
  context: ({ input }) => ({ ...input, nonce: undefined, result: undefined }),
  initial: 'sending',
  output: ({ context }) => context.result!,
  states: {
    sending: {
      tags: ['loading', 'busy'],
      // A wallet that never answers. With a held nonce its request is left (its actor stopped, so a hash it
      // sends later is ignored) and the chain watched for the nonce; with a deadline it is still awaited.
      after: {
        timeLimit: [
          {
            guard: 'walletMayHoldRequest',
            target: 'overdue',
            actions: ['markNonceAbandoned', { type: 'notify', params: { type: 'transaction.timedOut' } }],
          },
          {
            guard: not('awaitsDeadline'),
            target: 'ended',
            actions: [
              { type: 'notify', params: { type: 'transaction.timedOut' } },
              { type: 'fail', params: { status: 'failed', reason: 'timedOut' } },
            ],
          },
        ],
      },
      initial: 'choosing',
      states: {
        choosing: {
          always: [
            { guard: 'sent', target: '#transaction.confirming.polling' },
            { guard: 'needsNonce', target: 'nonce' },
            { target: 'asking' },
          ],
        },
        // The request's nonce, read once: every wallet request of it asks for it.
        nonce: {
          invoke: {
            id: 'readNonce',
            src: 'readNonce',
            input: ({ context }) => ({ chainId: chainOf(context) }),
            onDone: { target: 'asking', actions: { type: 'setNonce', params: outputOf<NonceReading> } },
            onError: {
              target: '#transaction.ended',
              actions: {
                type: 'fail',
                params: (args) => ({ status: 'failed', reason: 'declined', error: errorOf(args) }),
              },
            },
          },
        },
        asking: {
          invoke: {
            id: 'ask',
            src: 'ask',
            input: ({ context }) => askOf(context),
            onDone: [
              {
                guard: 'confirmedByWallet',
                target: '#transaction.ended',
                actions: [
                  { type: 'setHash', params: outputOf<string> },
                  { type: 'mined', params: undefined },
                ],
              },
              // SPEC §5: an answer that is no transaction hash is never shown, kept or awaited as one. With the
              // nonce held the wallet may still have sent a transaction with it: the chain tells (`overdue`), never
              // a failure that offers to pay again.
              {
                guard: and([{ type: 'malformedHash', params: outputOf<unknown> }, 'walletMayHoldRequest']),
                target: '#transaction.overdue',
                actions: [
                  'markNonceAbandoned',
                  {
                    type: 'notify',
                    params: (args) => ({
                      type: 'transaction.failedAgain' as const,
                      error: malformedHashError(args),
                    }),
                  },
                ],
              },
              // No nonce held: nothing on the chain can say what the wallet did; the request failed.
              {
                guard: { type: 'malformedHash', params: outputOf<unknown> },
                target: '#transaction.ended',
                actions: {
                  type: 'fail',
                  params: (args) => ({
                    status: 'failed',
                    reason: 'declined',
                    error: malformedHashError(args),
                  }),
                },
              },
              {
                target: '#transaction.confirming',
                actions: [
                  { type: 'setHash', params: outputOf<string> },
                  'releaseNonce',
                  {
                    type: 'notify',
                    params: ({ event }) => ({ type: 'transaction.submitted' as const, hash: event.output }),
                  },
                ],
              },
            ],
            onError: [
              // Sent again, and failed: the request left earlier may have gone through. The chain tells.
              {
                guard: 'earlierRequestOpen',
                target: '#transaction.overdue',
                actions: {
                  type: 'notify',
                  params: (args) => ({ type: 'transaction.failedAgain' as const, error: errorOf(args) }),
                },
              },
              {
                target: '#transaction.ended',
                // Answered (declined, failed) with no earlier request left open: nothing holds the nonce.
                actions: [
                  'releaseNonce',
                  {
                    type: 'fail',
                    params: (args) => ({ status: 'failed', reason: 'declined', error: errorOf(args) }),
                  },
                ],
              },
            ],
          },
          initial: 'open',
          states: {
            // With a deadline, the time limit leaves the request open in the wallet (the invoke runs on).
            open: {
              after: {
                timeLimit: {
                  guard: 'awaitsDeadline',
                  target: 'late',
                  actions: { type: 'notify', params: { type: 'transaction.timedOut' } },
                },
              },
            },
            /** Past the time limit, the request still live in the wallet: awaited, never asked twice. */
            late: {
              entry: { type: 'notify', params: { type: 'transaction.overdue', stage: 'late' } },
              after: {
                deadline: {
                  target: '#transaction.ended',
                  actions: { type: 'fail', params: { status: 'failed', reason: 'expired' } },
                },
              },
            },
          },
        },
      },
    },
    confirming: {
      tags: ['loading', 'busy'],
      initial: 'waiting',
      states: {
        waiting: {
          invoke: {
            id: 'waitForReceipt',
            src: 'waitForReceipt',
            input: ({ context }) => ({
              hash: context.hash! as Hex,
              chainId: chainOf(context),
              timeoutMs: TX_RECEIPT_TIMEOUT_MS,
            }),
            onDone: RECEIPT,
            // A timed-out (or interrupted) wait is not a failed transaction: it is out there. Look again.
            onError: 'polling',
          },
          after: { receiptTimeout: 'polling' },
        },
        polling: {
          invoke: {
            id: 'pollReceipt',
            src: 'pollReceipt',
            input: ({ context }) => ({ hash: context.hash! as Hex, chainId: chainOf(context) }),
            onDone: RECEIPT,
          },
          after: {
            pendingPolling: { target: '#transaction.ended', actions: { type: 'failSent', params: 'unseen' } },
          },
        },
      },
    },
    // Past the time limit with the nonce held (or a request sent again that failed while an earlier one was
    // open): nothing is offered until the chain says whether a transaction took the nonce.
    overdue: {
      initial: 'checking',
      states: {
        checking: {
          tags: 'busy',
          entry: { type: 'notify', params: { type: 'transaction.overdue', stage: 'checking' } },
          invoke: {
            id: 'checkNonce',
            src: 'checkNonce',
            input: ({ context }) => nonceCheckOf(context),
            onDone: [...NONCE_LOOKED_UP, { target: 'open' }],
            // The chain cannot tell now: asking again is still safe (same nonce); the watch goes on.
            onError: { target: 'open' },
          },
        },
        open: {
          entry: { type: 'notify', params: { type: 'transaction.overdue', stage: 'open' } },
          invoke: {
            id: 'watchNonce',
            src: 'watchNonce',
            input: ({ context }) => nonceCheckOf(context),
            onDone: [...NONCE_LOOKED_UP, { target: 'checking' }],
            onError: { target: 'checking' },
          },
          on: { 'transaction.retry': RETRY },
        },
        // Another transaction took the nonce: the left request cannot be mined any more. Asking again reads a new one.
        taken: {
          entry: { type: 'notify', params: { type: 'transaction.overdue', stage: 'taken' } },
          on: { 'transaction.retry': '#transaction.sending' },
        },
      },
    },
    ended: { type: 'final' },
  },
})

/**
 * `transactionMachine`'s type by name: the declarations of what runs it (send, swap) name it instead of repeating
 * its whole type (what keeps the package's .d.ts files small).
 */
export interface TransactionMachine extends TransactionMachineType {}
type TransactionMachineType = typeof transactionMachine

/**
 * How a transaction ended, as its parent's guards (for its `onDone`, with the child's output as `params`): mined,
 * or failed as the wallet answered (`declined`), at the time limit (`timedOut`), past its deadline (`expired`),
 * or reverted.
 *
 * @example
 * setup({ guards: { ...transactionEnds, …the parent's own } })
 * @internal
 */
export const transactionEnds = {
  transactionMined: (_: unknown, output: TransactionOutput) => output.status === 'mined',
  transactionDeclined: (_: unknown, output: TransactionOutput) =>
    output.status === 'failed' && output.reason === 'declined',
  transactionTimedOut: (_: unknown, output: TransactionOutput) =>
    output.status === 'failed' && output.reason === 'timedOut',
  transactionExpired: (_: unknown, output: TransactionOutput) =>
    output.status === 'failed' && output.reason === 'expired',
  transactionReverted: (_: unknown, output: TransactionOutput) =>
    output.status === 'failed' && output.reason === 'reverted',
}

/** The transaction's time limits, by name, as a parent may set them from its own delays. */
export type TransactionDelays = Partial<
  Record<'timeLimit' | 'receiptTimeout' | 'pendingPolling', number | undefined>
>

/** The transaction's slots (and, optionally, its time limits), as a parent fills them from its own. */
export interface TransactionSlots {
  ask: AnyActorLogic
  waitForReceipt: AnyActorLogic
  pollReceipt: AnyActorLogic
  readNonce?: AnyActorLogic | undefined
  checkNonce?: AnyActorLogic | undefined
  watchNonce?: AnyActorLogic | undefined
  /** The parent's delays the transaction's follow (a parent's `.provide({ delays })` then reaches it). */
  delays?: TransactionDelays | undefined
}

/**
 * Makes `machine`'s transaction slots follow its own: each `slot` of the parent (`transaction`,
 * `approvalTransaction`…) is the transaction machine with its I/O (and any time limits `link` names) taken from
 * the parent's slots and delays by `link`, and stays so through every `.provide()` (a parent's fakes, real actors
 * or shortened delays reach its transactions), unless the slot itself is provided.
 *
 * @example
 * export const swapMachine = linkTransaction(chart, { transaction: (a) => ({ ask: a.sendTransaction, … }) })
 * @internal
 */
export function linkTransaction<TMachine extends AnyStateMachine>(
  machine: TMachine,
  slots: Record<
    string,
    (actors: Record<string, AnyActorLogic>, delays: Record<string, number | undefined>) => TransactionSlots
  >,
): TMachine {
  return linkChild(machine, transactionMachine, slots as never)
}
