import { type ActorRefFrom, assign, enqueueActions, fromPromise, setup } from 'xstate'
import {
  CALLS_CONFIRM_TIMEOUT_MS,
  CALLS_REQUEST_TIMEOUT_PER_PROMPT_MS,
  CALLS_STATUS_POLL_MS,
  CALLS_STATUS_READ_TIMEOUT_MS,
} from '../../constants'
import type { ErrorInfo } from '../../errors/base'
import {
  CallsFailedError,
  CallsOutcomeUnknownError,
  CallsTimeoutError,
  callsErrorInfo,
} from '../../errors/calls'
import type { CallsStatus, KitBatchCall } from './types'

/**
 * A batch's life (EIP-5792), one child machine for every flow that sends one (the host's batches,
 * src/machines/calls.ts; the swap's approval and swap, src/machines/swap/batch.ts). Its parent has checked the
 * SPEC §5 rule before (its guard `batchedCallsNeedToAndDataStarting0x`, ./rules.ts): the wallet is asked once
 * (`asking`, `sendCalls`: `wallet_sendCalls`, `atomicRequired` as its parent says), then the batch is followed
 * (`following`: `callsStatus`, `wallet_getCallsStatus`, every `callsStatusPoll`, each read at most
 * `callsStatusRead`) until it is final, for at most `callsConfirm` (or the batch's deadline). Its parent is told
 * the batch's id once the wallet took it (`batch.sent`). Given a batch's id (`id`: one sent before, its status
 * looked for again), it only follows it (`starting`, the guard `batchSent`): the wallet is never asked twice.
 *
 * Only the wallet's final word or the deadline ends a batch the wallet took: a status read that fails (a network
 * error, a time-out, an answer that is not EIP-5792's) is made again after `callsStatusPoll` (the rule
 * `statusReadFailureIsNotFinal`), and so is a "confirmed" without a receipt (the guard `callsConfirmed` wants
 * one: a batch is never done without its transaction). At the deadline without a final status the batch's
 * outcome is unknown (`CallsOutcomeUnknownError`): it may still land, so its parent must not offer to send it again
 * as if it had failed.
 *
 * It ends with a {@link BatchOutput}: confirmed (the wallet's status and receipts), failed (the calls error:
 * refused, declined, reverted, the wallet not answering in time), or unknown (sent, no final status by the
 * deadline). Its slots are its parent's (`linkChild`, src/machines/link.ts).
 */

export interface BatchInput {
  calls: readonly KitBatchCall[]
  chainId: number
  /** The wallet must execute the calls atomically (EIP-5792 `atomicRequired`): never split into transactions. */
  atomicRequired?: boolean | undefined
  /** The wallet's prompts for it (its time limit): 1 for an atomic batch, one per call otherwise. */
  prompts: number
  /**
   * What the batch pays can no longer be paid after this long (a swap's deadline): the wallet's answer and the
   * batch's end are awaited until then, never given up on while the wallet may still send it.
   */
  deadlineMs?: number | undefined
  /** A batch the wallet took before: only its status is looked for (the wallet is not asked again). */
  id?: string | undefined
}

export type BatchOutput =
  | { status: 'confirmed'; id: string; result: CallsStatus }
  | { status: 'failed'; error: ErrorInfo; id?: string | undefined; result?: CallsStatus | undefined }
  | { status: 'unknown'; error: ErrorInfo; id: string }

/** What the batch tells its parent: the wallet took it (its id, for `wallet_getCallsStatus`). */
export type BatchNotice = { type: 'batch.sent'; id: string }

/** What `sendCalls` takes. */
export interface SendCallsRequest {
  calls: readonly KitBatchCall[]
  chainId: number
  atomicRequired?: boolean | undefined
}

export interface BatchContext extends BatchInput {
  id: string | undefined
  /** Why the last status read gave no final status (a failed read, a confirmation without receipts). */
  readProblem: string | undefined
  output: BatchOutput | undefined
}

/**
 * The slot that sends a batch: its id (`wallet_sendCalls`). A parent declares it too, to fill the child's.
 * @internal
 */
export const sendCallsSlot = fromPromise<string, SendCallsRequest>(async () => {
  throw new Error('sendCalls: not provided')
})
/**
 * The slot that reads a batch's status now (`wallet_getCallsStatus`).
 * @internal
 */
export const callsStatusSlot = fromPromise<CallsStatus, { id: string; chainId: number }>(async () => {
  throw new Error('callsStatus: not provided')
})

type Answer<T> = { event: { output: T } }
const statusOf = ({ event }: Answer<CallsStatus>) => event.output
const errorOf = ({ event }: { event: { error: unknown } }) => event.error
const problemOf = (error: unknown): string => {
  const info = callsErrorInfo(error)
  return info.details ? `${info.message} (${info.details})` : info.message
}

const batchSetup = setup({
  types: {
    context: {} as BatchContext,
    input: {} as BatchInput,
    output: {} as BatchOutput,
  },
  actors: { sendCalls: sendCallsSlot, callsStatus: callsStatusSlot },
  guards: {
    /** Given an id: a batch the wallet took before, only followed. */
    batchSent: ({ context }) => context.id !== undefined,
    /** Confirmed, with the receipts that show it (EIP-5792's 2xx without one is not taken as done). */
    callsConfirmed: (_, status: CallsStatus) => status.status === 'success' && status.receipts.length > 0,
    callsConfirmedWithoutReceipts: (_, status: CallsStatus) =>
      status.status === 'success' && status.receipts.length === 0,
    callsFailed: (_, status: CallsStatus) => status.status === 'failure',
  },
  delays: {
    callsStatusPoll: CALLS_STATUS_POLL_MS,
    /** One wallet prompt's time for an atomic batch; one per call for a batch asked for call by call. */
    callsRequest: ({ context }) =>
      context.deadlineMs ?? CALLS_REQUEST_TIMEOUT_PER_PROMPT_MS * Math.max(1, context.prompts),
    callsStatusRead: CALLS_STATUS_READ_TIMEOUT_MS,
    callsConfirm: ({ context }) => context.deadlineMs ?? CALLS_CONFIRM_TIMEOUT_MS,
  },
  actions: {
    /** The wallet took the batch: its id kept, and the parent told (when there is one). */
    keepId: enqueueActions(({ enqueue, self }, id: string) => {
      enqueue.assign({ id })
      if (self._parent) enqueue.sendParent({ type: 'batch.sent', id } satisfies BatchNotice)
    }),
    confirm: assign(({ context }, result: CallsStatus) => ({
      output: { status: 'confirmed' as const, id: context.id!, result },
    })),
    failReverted: assign(({ context }, result: CallsStatus) => {
      const reverted = result.receipts.filter((receipt) => receipt.status === 'reverted').length
      const details = `${reverted} of ${context.calls.length} calls reverted or were not sent`
      return {
        output: {
          status: 'failed' as const,
          id: context.id,
          result,
          error: callsErrorInfo(new CallsFailedError({ details })),
        },
      }
    }),
    fail: assign(({ context }, error: unknown) => ({
      output: { status: 'failed' as const, id: context.id, error: callsErrorInfo(error) },
    })),
    /**
     * A status read that failed is not the batch's end (`statusReadFailureIsNotFinal`): the batch may still land.
     * Its problem is kept for the deadline's error; the read is made again after `callsStatusPoll`.
     */
    statusReadFailureIsNotFinal: assign((_, problem: string) => ({ readProblem: problem })),
    /** The wallet said pending: the read worked. */
    stillPending: assign({ readProblem: undefined }),
    /** The deadline passed with the batch sent and no final status: its outcome is unknown (it may still land). */
    outcomeUnknown: assign(({ context }) => ({
      output: {
        status: 'unknown' as const,
        id: context.id!,
        error: callsErrorInfo(
          new CallsOutcomeUnknownError({
            details: `Batch ${context.id}${context.readProblem ? `: ${context.readProblem}` : ': still pending'}`,
          }),
        ),
      },
    })),
    timedOut: assign(({ context }, step: string) => ({
      output: {
        status: 'failed' as const,
        id: context.id,
        error: callsErrorInfo(new CallsTimeoutError({ details: step })),
      },
    })),
  },
})

export const batchMachine = batchSetup.createMachine({
  id: 'batch',
  context: ({ input }) => ({ ...input, id: input.id, readProblem: undefined, output: undefined }),
  initial: 'starting',
  output: ({ context }) => context.output!,
  states: {
    /** A batch sent before (its id given) is only followed; a new one goes to the wallet. */
    starting: {
      always: [{ guard: 'batchSent', target: 'following' }, { target: 'asking' }],
    },
    /** The wallet asks the visitor: once for an atomic batch, once per call otherwise. */
    asking: {
      invoke: {
        id: 'sendCalls',
        src: 'sendCalls',
        input: ({ context }) => ({
          calls: context.calls,
          chainId: context.chainId,
          ...(context.atomicRequired ? { atomicRequired: true } : {}),
        }),
        onDone: {
          target: 'following',
          actions: { type: 'keepId', params: ({ event }: Answer<string>) => event.output },
        },
        onError: { target: 'ended', actions: { type: 'fail', params: errorOf } },
      },
      after: {
        callsRequest: { target: 'ended', actions: { type: 'timedOut', params: 'wallet_sendCalls' } },
      },
    },
    /** The batch is followed until it is final, for at most `callsConfirm`. */
    following: {
      initial: 'pending',
      after: {
        callsConfirm: { target: 'ended', actions: 'outcomeUnknown' },
      },
      states: {
        /** The batch's status, read (`wallet_getCallsStatus`); a read that takes too long is made again. */
        pending: {
          invoke: {
            id: 'callsStatus',
            src: 'callsStatus',
            input: ({ context }) => ({ id: context.id!, chainId: context.chainId }),
            onDone: [
              {
                guard: { type: 'callsConfirmed', params: statusOf },
                target: '#batch.ended',
                actions: { type: 'confirm', params: statusOf },
              },
              {
                guard: { type: 'callsFailed', params: statusOf },
                target: '#batch.ended',
                actions: { type: 'failReverted', params: statusOf },
              },
              {
                guard: { type: 'callsConfirmedWithoutReceipts', params: statusOf },
                target: 'waiting',
                actions: { type: 'statusReadFailureIsNotFinal', params: 'confirmed without a receipt' },
              },
              { target: 'waiting', actions: 'stillPending' },
            ],
            onError: {
              target: 'waiting',
              actions: { type: 'statusReadFailureIsNotFinal', params: (args) => problemOf(errorOf(args)) },
            },
          },
          after: {
            callsStatusRead: {
              target: 'waiting',
              actions: { type: 'statusReadFailureIsNotFinal', params: 'the status read timed out' },
            },
          },
        },
        /** Not final yet (or not read): read again after a while. */
        waiting: {
          after: { callsStatusPoll: 'pending' },
        },
      },
    },
    ended: { type: 'final' },
  },
})

/**
 * `batchMachine`'s type by name: the declarations of what runs it (the calls machine, swap) name it instead of
 * repeating its whole type (what keeps the package's .d.ts files small).
 */
export interface BatchMachine extends BatchMachineType {}
type BatchMachineType = typeof batchMachine
export type BatchActorRef = ActorRefFrom<BatchMachine>

/**
 * How a batch ended, as its parent's guards (for its `onDone`, with the child's output as `params`).
 * @internal
 */
export const batchEnds = {
  batchConfirmed: (_: unknown, output: BatchOutput) => output.status === 'confirmed',
  /** Sent, no final status by its deadline: it may still land. */
  batchOutcomeUnknown: (_: unknown, output: BatchOutput) => output.status === 'unknown',
}
