import { type ActorRefFrom, assign, enqueueActions, fromPromise, setup } from 'xstate'
import {
  CALLS_CONFIRM_TIMEOUT_MS,
  CALLS_REQUEST_TIMEOUT_PER_PROMPT_MS,
  CALLS_STATUS_POLL_MS,
  CALLS_STATUS_READ_TIMEOUT_MS,
} from '../../constants'
import type { ErrorInfo } from '../../errors/base'
import { CallsFailedError, CallsTimeoutError, callsErrorInfo } from '../../errors/calls'
import type { CallsStatus, KitBatchCall } from './types'

/**
 * A batch's life (EIP-5792), one child machine for every flow that sends one (the host's batches,
 * src/machines/calls.ts; the swap's approval and swap, src/machines/swap/batch.ts). Its parent has checked the
 * SPEC §5 rule before (its guard `batchedCallsNeedToAndDataStarting0x`, ./rules.ts): the wallet is asked once
 * (`asking`, `sendCalls`: `wallet_sendCalls`, `atomicRequired` as its parent says), then the batch is followed
 * (`following`: `callsStatus`, `wallet_getCallsStatus`, every `callsStatusPoll`, each read at most
 * `callsStatusRead`) until it is final, for at most `callsConfirm` (or the batch's deadline). Its parent is told
 * the batch's id once the wallet took it (`batch.sent`).
 *
 * It ends with a {@link BatchOutput}: confirmed (the wallet's status and receipts), or failed (the calls error:
 * refused, declined, reverted, timed out). Its slots are its parent's (`linkChild`, src/machines/link.ts).
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
}

export type BatchOutput =
  | { status: 'confirmed'; id: string; result: CallsStatus }
  | { status: 'failed'; error: ErrorInfo; id?: string | undefined; result?: CallsStatus | undefined }

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

const batchSetup = setup({
  types: {
    context: {} as BatchContext,
    input: {} as BatchInput,
    output: {} as BatchOutput,
  },
  actors: { sendCalls: sendCallsSlot, callsStatus: callsStatusSlot },
  guards: {
    callsConfirmed: (_, status: CallsStatus) => status.status === 'success',
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
  context: ({ input }) => ({ ...input, id: undefined, output: undefined }),
  initial: 'asking',
  output: ({ context }) => context.output!,
  states: {
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
        callsConfirm: { target: 'ended', actions: { type: 'timedOut', params: 'not mined' } },
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
              { target: 'waiting' },
            ],
            onError: { target: '#batch.ended', actions: { type: 'fail', params: errorOf } },
          },
          after: { callsStatusRead: 'waiting' },
        },
        /** Not final yet: read again after a while. */
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
}
