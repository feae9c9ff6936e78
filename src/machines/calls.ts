import {
  type ActorRefFrom,
  assertEvent,
  assign,
  emit,
  fromPromise,
  not,
  type SnapshotFrom,
  setup,
} from 'xstate'
import {
  CALLS_CAPABILITIES_TIMEOUT_MS,
  CALLS_CONFIRM_TIMEOUT_MS,
  CALLS_REQUEST_TIMEOUT_PER_PROMPT_MS,
  CALLS_STATUS_POLL_MS,
  CALLS_STATUS_READ_TIMEOUT_MS,
} from '../constants'
import type { ErrorInfo } from '../errors/base'
import {
  CallsBusyError,
  CallsFailedError,
  CallsNotConnectedError,
  CallsTimeoutError,
  callsErrorInfo,
  InvalidBatchedCallError,
} from '../errors/calls'
import { atomicBatching, batchedCallsRuleBroken } from './calls/rules'
import type {
  AtomicStatus,
  CallsAccount,
  CallsEvent,
  CallsNotice,
  CallsRecord,
  CallsStatus,
  KitBatchCall,
} from './calls/types'

/**
 * Batched calls (EIP-5792), the host's `useKitSendCalls().sendCalls(calls)`: `calls.send` is refused at once
 * without a connected eip155 account (`notConnected`), when a call breaks SPEC §5 (the guard
 * `batchedCallsNeedToAndDataStarting0x`: no wallet is asked), or while another batch is on its way (`busy`).
 * Else the wallet is asked for its capabilities on the chain (`checking`): with atomic batching the batch goes to
 * it as one (`asking`, `wallet_sendCalls`); without, the visitor is told the wallet will ask for each call
 * separately (`calls.sequential`) and the calls go as separate transactions. The batch is then followed
 * (`pending`, `wallet_getCallsStatus` every `callsStatusPoll`) until it is final: `confirmed` or `failed`.
 *
 * The host reads its batch (`calls`) and a busy refusal (`refused`) by the id it gave (src/react/calls.ts).
 * Pure: the wallet is reached through the slots `capabilities`, `sendCalls` and `callsStatus` (src/actors/calls.ts).
 */
export interface CallsContext {
  /** The eip155 account shown (the batch's sender). */
  account: CallsAccount | undefined
  /** The host's last batch. */
  calls: CallsRecord | undefined
  /** The last batch refused because another was on its way. */
  refused: { id: number; error: ErrorInfo } | undefined
}

const callsMachineSetup = setup({
  types: {
    context: {} as CallsContext,
    events: {} as CallsEvent,
    input: {} as { account: CallsAccount | undefined },
    emitted: {} as CallsNotice,
  },
  actors: {
    /** The wallet's atomic batching on the chain (`wallet_getCapabilities`). */
    capabilities: fromPromise<AtomicStatus, { address: `0x${string}`; chainId: number }>(async () => {
      throw new Error('capabilities: not provided')
    }),
    /** The batch, sent; its id (`wallet_sendCalls`, or one transaction per call). */
    sendCalls: fromPromise<string, { calls: readonly KitBatchCall[]; chainId: number }>(async () => {
      throw new Error('sendCalls: not provided')
    }),
    /** The batch's status now (`wallet_getCallsStatus`). */
    callsStatus: fromPromise<CallsStatus, { id: string; chainId: number }>(async () => {
      throw new Error('callsStatus: not provided')
    }),
  },
  guards: {
    notConnected: ({ context }) => context.account === undefined,
    /** SPEC §5: "Batched calls need a 'to' starting 0x; data, if present, starts 0x." */
    batchedCallsNeedToAndDataStarting0x: ({ event }) => {
      assertEvent(event, 'calls.send')
      return batchedCallsRuleBroken(event.request) === undefined
    },
    /** The wallet executes a batch atomically on the chain: one confirmation for all its calls. */
    atomicBatching: ({ event }) => atomicBatching((event as unknown as { output: AtomicStatus }).output),
    callsConfirmed: ({ event }) => (event as unknown as { output: CallsStatus }).output.status === 'success',
    callsFailed: ({ event }) => (event as unknown as { output: CallsStatus }).output.status === 'failure',
  },
  delays: {
    callsStatusPoll: CALLS_STATUS_POLL_MS,
    callsCapabilities: CALLS_CAPABILITIES_TIMEOUT_MS,
    /** One wallet prompt's time for an atomic batch; one per call for a batch asked for call by call. */
    callsRequest: ({ context }) =>
      CALLS_REQUEST_TIMEOUT_PER_PROMPT_MS *
      (context.calls?.sequential ? context.calls.request.calls.length : 1),
    callsStatusRead: CALLS_STATUS_READ_TIMEOUT_MS,
    callsConfirm: CALLS_CONFIRM_TIMEOUT_MS,
  },
  actions: {
    keepAccount: assign(({ event }) => {
      assertEvent(event, 'calls.account')
      return { account: event.account }
    }),
    /** A batch refused before any wallet is asked: not connected, or it breaks SPEC §5. */
    refuse: assign(({ event }, reason: 'notConnected' | 'invalid') => {
      assertEvent(event, 'calls.send')
      const error =
        reason === 'notConnected'
          ? new CallsNotConnectedError()
          : new InvalidBatchedCallError({ details: batchedCallsRuleBroken(event.request) })
      return {
        calls: {
          id: event.id,
          request: event.request,
          phase: 'failed' as const,
          error: callsErrorInfo(error),
        },
      }
    }),
    refuseBusy: assign(({ event }) => {
      assertEvent(event, 'calls.send')
      return { refused: { id: event.id, error: callsErrorInfo(new CallsBusyError()) } }
    }),
    start: assign(({ context, event }) => {
      assertEvent(event, 'calls.send')
      return {
        calls: {
          id: event.id,
          request: event.request,
          phase: 'sending' as const,
          chainId: event.request.chainId ?? context.account!.chainId,
        },
      }
    }),
    keepAtomic: assign(({ context, event }) => ({
      calls: {
        ...context.calls!,
        atomic: (event as unknown as { output: AtomicStatus }).output,
        sequential: !atomicBatching((event as unknown as { output: AtomicStatus }).output),
      },
    })),
    tellSequential: emit(({ context }) => ({
      type: 'calls.sequential' as const,
      count: context.calls!.request.calls.length,
    })),
    keepBatchId: assign(({ context, event }) => ({
      calls: { ...context.calls!, batchId: (event as unknown as { output: string }).output },
    })),
    confirm: assign(({ context, event }) => ({
      calls: {
        ...context.calls!,
        phase: 'succeeded' as const,
        result: (event as unknown as { output: CallsStatus }).output,
      },
    })),
    failReverted: assign(({ context, event }) => {
      const result = (event as unknown as { output: CallsStatus }).output
      const reverted = result.receipts.filter((receipt) => receipt.status === 'reverted').length
      const details = `${reverted} of ${context.calls!.request.calls.length} calls reverted or were not sent`
      return {
        calls: {
          ...context.calls!,
          phase: 'failed' as const,
          result,
          error: callsErrorInfo(new CallsFailedError({ details })),
        },
      }
    }),
    fail: assign(({ context, event }) => ({
      calls: {
        ...context.calls!,
        phase: 'failed' as const,
        error: callsErrorInfo((event as unknown as { error: unknown }).error),
      },
    })),
    timedOut: assign(({ context }, step: string) => ({
      calls: {
        ...context.calls!,
        phase: 'failed' as const,
        error: callsErrorInfo(new CallsTimeoutError({ details: step })),
      },
    })),
    tellSucceeded: emit(({ context }) => ({
      type: 'calls.succeeded' as const,
      count: context.calls!.request.calls.length,
    })),
    tellFailed: emit(({ context }) => ({ type: 'calls.failed' as const, error: context.calls!.error! })),
  },
})

/** A new batch, from a state where none is on its way. */
const onSend = [
  { guard: 'notConnected', target: 'failed', actions: { type: 'refuse', params: 'notConnected' } },
  {
    guard: not('batchedCallsNeedToAndDataStarting0x'),
    target: 'failed',
    actions: { type: 'refuse', params: 'invalid' },
  },
  { target: 'checking', actions: 'start' },
] as const
const busy = { 'calls.send': { actions: 'refuseBusy' } } as const

export const callsMachine = callsMachineSetup.createMachine({
  id: 'calls',
  context: ({ input }) => ({ account: input.account, calls: undefined, refused: undefined }),
  initial: 'idle',
  on: { 'calls.account': { actions: 'keepAccount' } },
  states: {
    idle: { on: { 'calls.send': [...onSend] } },
    /** The wallet's capabilities on the batch's chain. */
    checking: {
      on: busy,
      invoke: {
        id: 'capabilities',
        src: 'capabilities',
        input: ({ context }) => ({ address: context.account!.address, chainId: context.calls!.chainId! }),
        onDone: [
          { guard: 'atomicBatching', target: 'asking', actions: 'keepAtomic' },
          { target: 'asking', actions: ['keepAtomic', 'tellSequential'] },
        ],
        onError: { target: 'failed', actions: ['fail', 'tellFailed'] },
      },
      after: {
        callsCapabilities: {
          target: 'failed',
          actions: [{ type: 'timedOut', params: 'wallet_getCapabilities' }, 'tellFailed'],
        },
      },
    },
    /** The wallet asks the visitor: once for an atomic batch, once per call otherwise. */
    asking: {
      on: busy,
      invoke: {
        id: 'sendCalls',
        src: 'sendCalls',
        input: ({ context }) => ({
          calls: context.calls!.request.calls,
          chainId: context.calls!.chainId!,
        }),
        onDone: { target: 'following', actions: 'keepBatchId' },
        onError: { target: 'failed', actions: ['fail', 'tellFailed'] },
      },
      after: {
        callsRequest: {
          target: 'failed',
          actions: [{ type: 'timedOut', params: 'wallet_sendCalls' }, 'tellFailed'],
        },
      },
    },
    /** The batch is followed until it is final, for at most `callsConfirm`. */
    following: {
      initial: 'pending',
      on: busy,
      after: {
        callsConfirm: {
          target: 'failed',
          actions: [{ type: 'timedOut', params: 'not mined' }, 'tellFailed'],
        },
      },
      states: {
        /** The batch's status, read (`wallet_getCallsStatus`); a read that takes too long is made again. */
        pending: {
          invoke: {
            id: 'callsStatus',
            src: 'callsStatus',
            input: ({ context }) => ({ id: context.calls!.batchId!, chainId: context.calls!.chainId! }),
            onDone: [
              { guard: 'callsConfirmed', target: '#calls.confirmed', actions: ['confirm', 'tellSucceeded'] },
              { guard: 'callsFailed', target: '#calls.failed', actions: ['failReverted', 'tellFailed'] },
              { target: 'waiting' },
            ],
            onError: { target: '#calls.failed', actions: ['fail', 'tellFailed'] },
          },
          after: { callsStatusRead: 'waiting' },
        },
        /** Not final yet: read again after a while. */
        waiting: {
          after: { callsStatusPoll: 'pending' },
        },
      },
    },
    confirmed: { on: { 'calls.send': [...onSend] } },
    failed: { on: { 'calls.send': [...onSend] } },
  },
})

export type CallsMachine = typeof callsMachine
export type CallsActorRef = ActorRefFrom<CallsMachine>
export type CallsSnapshot = SnapshotFrom<CallsMachine>
