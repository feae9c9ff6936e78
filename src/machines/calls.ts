import {
  type ActorRefFrom,
  and,
  assertEvent,
  assign,
  cancel,
  emit,
  fromPromise,
  not,
  raise,
  type SnapshotFrom,
  setup,
  spawnChild,
  stopChild,
} from 'xstate'
import {
  CALLS_CAPABILITIES_TIMEOUT_MS,
  CALLS_CONFIRM_TIMEOUT_MS,
  CALLS_STATUS_POLL_MS,
  CALLS_STATUS_READ_TIMEOUT_MS,
} from '../constants'
import type { ErrorInfo } from '../errors/base'
import {
  CallsBusyError,
  CallsNotConnectedError,
  CallsTimeoutError,
  callsErrorInfo,
  InvalidBatchedCallError,
} from '../errors/calls'
import {
  type BatchInput,
  type BatchMachine,
  type BatchOutput,
  batchEnds,
  batchMachine,
  callsStatusSlot,
  sendCallsSlot,
} from './calls/batch'
import { atomicBatching, batchedCallsRuleBroken } from './calls/rules'
import type {
  AtomicStatus,
  CallsAccount,
  CallsEvent,
  CallsNotice,
  CallsRecord,
  CallsStatus,
  ShowStatusRecord,
} from './calls/types'
import { linkChild } from './link'

/**
 * Batched calls (EIP-5792), the host's `useKitSendCalls().sendCalls(calls)`: `calls.send` is refused at once
 * without a connected eip155 account (`notConnected`), when a call breaks SPEC §5 (the guard
 * `batchedCallsNeedToAndDataStarting0x`: no wallet is asked), or while another batch is on its way (`busy`).
 * Else the wallet is asked for its capabilities on the chain (`checking`): with atomic batching the batch goes to
 * it as one (`wallet_sendCalls`); without, the visitor is told the wallet will ask for each call
 * separately (`calls.sequential`) and the calls go as separate transactions. The batch is then `sending`: the
 * batch child (src/machines/calls/batch.ts, the same one the swap's batch runs on) asks the wallet and follows
 * the batch (`wallet_getCallsStatus`) until it is final: `confirmed` or `failed`.
 *
 * Beside any batch, `calls.showStatus` (EIP-5792 `wallet_showCallsStatus`) has a batch's status shown, in whatever
 * state: through the slot `showCallsStatus`, which asks the wallet to show it, or, for a wallet that does not show
 * it itself (the embedded wallet), reads it; the kit then shows it (`calls.status`, a toast by its glue).
 *
 * The host reads its batch (`calls`), a busy refusal (`refused`) and its status shown (`shown`) by the id it gave
 * (src/react/calls.ts). Pure: the wallet is reached through the slots `capabilities`, `sendCalls`, `callsStatus`
 * (src/actors/calls.ts; those two are the batch child's, linked with `linkChild`) and `showCallsStatus`.
 */
export interface CallsContext {
  /** The eip155 account shown (the batch's sender). */
  account: CallsAccount | undefined
  /** The host's last batch. */
  calls: CallsRecord | undefined
  /** The last batch refused because another was on its way. */
  refused: { id: number; error: ErrorInfo } | undefined
  /** The host's last `wallet_showCallsStatus`. */
  shown: ShowStatusRecord | undefined
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
    /** The batch, sent; its id (`wallet_sendCalls`, or one transaction per call): the batch child's. */
    sendCalls: sendCallsSlot,
    /** The batch's status now (`wallet_getCallsStatus`): the batch child's. */
    callsStatus: callsStatusSlot,
    /**
     * `wallet_showCallsStatus`: the wallet asked to show the batch's status (`null`: it did), or, for a wallet that
     * does not show it itself, the status read (`wallet_getCallsStatus`) for the kit to show.
     */
    showCallsStatus: fromPromise<CallsStatus | null, { id: string; chainId: number }>(async () => {
      throw new Error('showCallsStatus: not provided')
    }),
    /** The batch's life: its slots are this machine's (`linkChild`). */
    batch: batchMachine as BatchMachine,
  },
  guards: {
    notConnected: ({ context }) => context.account === undefined,
    /** SPEC §5: "Batched calls need a 'to' starting 0x; data, if present, starts 0x." */
    batchedCallsNeedToAndDataStarting0x: ({ event }) => {
      assertEvent(event, 'calls.send')
      return batchedCallsRuleBroken(event.request) === undefined
    },
    /** A status is being shown: one at a time. */
    showingStatus: ({ context }) => context.shown?.phase === 'showing',
    walletShowedStatus: ({ event }) => (event as unknown as { output: CallsStatus | null }).output === null,
    /** The wallet executes a batch atomically on the chain: one confirmation for all its calls. */
    atomicBatching: ({ event }) => atomicBatching((event as unknown as { output: AtomicStatus }).output),
    /** How the batch ended (src/machines/calls/batch.ts). */
    ...batchEnds,
  },
  delays: {
    callsCapabilities: CALLS_CAPABILITIES_TIMEOUT_MS,
    // The batch child's, as this machine's (a `.provide({ delays })` reaches the child).
    callsStatusPoll: CALLS_STATUS_POLL_MS,
    callsStatusRead: CALLS_STATUS_READ_TIMEOUT_MS,
    callsConfirm: CALLS_CONFIRM_TIMEOUT_MS,
    /** A status shown (or read for the kit to show) within a status read's time, else the host is told. */
    callsShowStatus: CALLS_STATUS_READ_TIMEOUT_MS,
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
    keepBatchId: assign(({ context, event }) => {
      assertEvent(event, 'batch.sent')
      return { calls: { ...context.calls!, batchId: event.id } }
    }),
    /**
     * The batch child's end: confirmed (its status and receipts), or failed (its error); a batch whose outcome is
     * unknown at its deadline ends the host's call with `CallsOutcomeUnknownError` (it may still land: not a
     * failure to send again).
     */
    ended: assign(({ context }, output: BatchOutput) => ({
      calls: {
        ...context.calls!,
        batchId: output.id ?? context.calls!.batchId,
        phase: output.status === 'confirmed' ? ('succeeded' as const) : ('failed' as const),
        ...(output.status !== 'unknown' && output.result ? { result: output.result } : {}),
        ...(output.status !== 'confirmed' ? { error: output.error } : {}),
      },
    })),
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
    /** `calls.showStatus` refused at once: not connected, or another status is being shown. */
    refuseShow: assign(({ event }, reason: 'notConnected' | 'busy') => {
      assertEvent(event, 'calls.showStatus')
      const error = reason === 'notConnected' ? new CallsNotConnectedError() : new CallsBusyError()
      return {
        shown: {
          id: event.id,
          batchId: event.batchId,
          phase: 'failed' as const,
          error: callsErrorInfo(error),
        },
      }
    }),
    startShow: assign(({ event }) => {
      assertEvent(event, 'calls.showStatus')
      return { shown: { id: event.id, batchId: event.batchId, phase: 'showing' as const } }
    }),
    /** The slot `showCallsStatus`, on the batch's chain (the host's batch's, else the account's). */
    askShow: spawnChild('showCallsStatus', {
      id: 'showCallsStatus',
      input: ({ context, event }) => {
        assertEvent(event, 'calls.showStatus')
        const chainId =
          context.calls?.batchId === event.batchId && context.calls.chainId !== undefined
            ? context.calls.chainId
            : context.account!.chainId
        return { id: event.batchId, chainId }
      },
    }),
    /** The status's time limit (a wallet that never answers must not leave the host waiting). */
    limitShow: raise(
      { type: 'calls.showTimedOut' as const },
      { delay: 'callsShowStatus', id: 'showTimeLimit' },
    ),
    unlimitShow: cancel('showTimeLimit'),
    stopShow: stopChild('showCallsStatus'),
    showTimedOut: assign(({ context }) => ({
      shown: {
        ...context.shown!,
        phase: 'failed' as const,
        error: callsErrorInfo(new CallsTimeoutError({ details: 'wallet_showCallsStatus' })),
      },
    })),
    shown: assign(({ context }) => ({ shown: { ...context.shown!, phase: 'shown' as const } })),
    /** The status read for the kit to show (the wallet did not show it): in words. */
    tellStatus: emit(({ event }) => {
      const status = (event as unknown as { output: CallsStatus | null }).output
      return {
        type: 'calls.status' as const,
        status:
          status?.status === 'success'
            ? ('confirmed' as const)
            : status?.status === 'failure'
              ? ('reverted' as const)
              : ('pending' as const),
        receipts: status?.receipts.length ?? 0,
      }
    }),
    showFailed: assign(({ context, event }) => ({
      shown: {
        ...context.shown!,
        phase: 'failed' as const,
        error: callsErrorInfo((event as unknown as { error: unknown }).error),
      },
    })),
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

export const callsMachine = linkChild(
  callsMachineSetup.createMachine({
    id: 'calls',
    context: ({ input }) => ({
      account: input.account,
      calls: undefined,
      refused: undefined,
      shown: undefined,
    }),
    initial: 'idle',
    on: {
      'calls.account': { actions: 'keepAccount' },
      'calls.showStatus': [
        { guard: 'notConnected', actions: { type: 'refuseShow', params: 'notConnected' } },
        { guard: 'showingStatus', actions: { type: 'refuseShow', params: 'busy' } },
        { actions: ['startShow', 'askShow', 'limitShow'] },
      ],
      'calls.showTimedOut': { guard: 'showingStatus', actions: ['stopShow', 'showTimedOut'] },
      // The slot's answer, while a status is being shown: the wallet showed it itself, or the kit shows it.
      'xstate.done.actor.showCallsStatus': [
        { guard: and(['showingStatus', 'walletShowedStatus']), actions: ['unlimitShow', 'shown'] },
        { guard: 'showingStatus', actions: ['unlimitShow', 'shown', 'tellStatus'] },
      ],
      'xstate.error.actor.showCallsStatus': {
        guard: 'showingStatus',
        actions: ['unlimitShow', 'showFailed'],
      },
    },
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
            { guard: 'atomicBatching', target: 'sending', actions: 'keepAtomic' },
            { target: 'sending', actions: ['keepAtomic', 'tellSequential'] },
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
      /** The batch's life (the batch child): the wallet asks the visitor (once for an atomic batch, once per call
       * otherwise), then the batch is followed until it is final. */
      sending: {
        on: { ...busy, 'batch.sent': { actions: 'keepBatchId' } },
        invoke: {
          id: 'batch',
          src: 'batch',
          input: ({ context }): BatchInput => ({
            calls: context.calls!.request.calls,
            chainId: context.calls!.chainId!,
            prompts: context.calls!.sequential ? context.calls!.request.calls.length : 1,
          }),
          onDone: [
            {
              guard: { type: 'batchConfirmed', params: ({ event }) => event.output },
              target: 'confirmed',
              actions: [{ type: 'ended', params: ({ event }) => event.output }, 'tellSucceeded'],
            },
            {
              target: 'failed',
              actions: [{ type: 'ended', params: ({ event }) => event.output }, 'tellFailed'],
            },
          ],
        },
      },
      confirmed: { on: { 'calls.send': [...onSend] } },
      failed: { on: { 'calls.send': [...onSend] } },
    },
  }),
  batchMachine,
  {
    // The host's batch: the wallet asked through `sendCalls`, followed through `callsStatus`.
    batch: (actors, delays) => ({
      sendCalls: actors.sendCalls,
      callsStatus: actors.callsStatus,
      delays: {
        callsStatusPoll: delays.callsStatusPoll,
        callsStatusRead: delays.callsStatusRead,
        callsConfirm: delays.callsConfirm,
      },
    }),
  },
)

export type CallsMachine = typeof callsMachine
export type CallsActorRef = ActorRefFrom<CallsMachine>
export type CallsSnapshot = SnapshotFrom<CallsMachine>
