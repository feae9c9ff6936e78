import { assertEvent, type EventObject, sendParent, sendTo, setup } from 'xstate'
import { FRAME_REQUEST_TIMEOUT_MS, FRAME_SIGN_OUT_TIMEOUT_MS } from '../../constants'
import { FrameTimeoutError, frameErrorInfo, replyError } from '../../errors/frame'
import type { FrameCommand, FrameReply } from '../../frame/protocol'
import type { FrameTransportCommand } from '../../frame/transport'
import type { FrameContext, FrameMachineEvent, FrameTransportRef, RequestOwner } from './types'

/**
 * Per-command timeouts. SPEC §9 names sign-in, device, OTP, social and redirect-URI (30 s) and sign-out (3 s).
 * Ours: every other command that the frame answers by itself gets the same 30 s, so nothing waits forever;
 * `rpcRequest` and `connectFarcaster` get none, since they wait for the visitor.
 */
export const FRAME_COMMAND_TIMEOUTS: Partial<Record<FrameCommand, number>> = {
  connectEmail: FRAME_REQUEST_TIMEOUT_MS,
  connectDevice: FRAME_REQUEST_TIMEOUT_MS,
  connectOtp: FRAME_REQUEST_TIMEOUT_MS,
  getSocialRedirectUri: FRAME_REQUEST_TIMEOUT_MS,
  connectSocial: FRAME_REQUEST_TIMEOUT_MS,
  signOut: FRAME_SIGN_OUT_TIMEOUT_MS,
  switchNetwork: FRAME_REQUEST_TIMEOUT_MS,
  getFarcasterUri: FRAME_REQUEST_TIMEOUT_MS,
  getUser: FRAME_REQUEST_TIMEOUT_MS,
  isConnected: FRAME_REQUEST_TIMEOUT_MS,
  getChainId: FRAME_REQUEST_TIMEOUT_MS,
  initSmartAccount: FRAME_REQUEST_TIMEOUT_MS,
  setPreferredAccount: FRAME_REQUEST_TIMEOUT_MS,
  updateEmail: FRAME_REQUEST_TIMEOUT_MS,
  updateEmailPrimaryOtp: FRAME_REQUEST_TIMEOUT_MS,
  updateEmailSecondaryOtp: FRAME_REQUEST_TIMEOUT_MS,
  syncTheme: FRAME_REQUEST_TIMEOUT_MS,
  syncDappData: FRAME_REQUEST_TIMEOUT_MS,
  reload: FRAME_REQUEST_TIMEOUT_MS,
  rejectRpcRequests: FRAME_REQUEST_TIMEOUT_MS,
}

export interface FrameRequestInput {
  transport: FrameTransportRef | undefined
  /** `r{n}`: the id the reply carries. */
  id: string
  command: FrameCommand
  /** Sent once and not kept: codes and e-mails never sit in the request actor's snapshot. */
  payload: unknown
  owner: RequestOwner
}

export interface FrameRequestContext {
  id: string
  command: FrameCommand
  owner: RequestOwner
  /** None for RPC requests and `connectFarcaster`: they wait for the visitor. */
  timeoutMs: number | undefined
}

type FrameRequestEvent = FrameReply | { type: 'xstate.init'; input: FrameRequestInput }

/**
 * One request to the frame (SPEC §4, §9): posts the command through the transport, with itself as the one to
 * give the reply to, and waits for that reply or its timeout. The login flow invokes one in each step that
 * waits on the frame, so leaving the step cancels it (a late reply then reaches no one); each RPC call is one
 * spawned next to the others. It tells the frame machine how it ended:
 * `frame.authDone` / `frame.authFailed` for the login flow, `frame.rpcSettled` for an RPC call.
 */
export const frameRequestMachine = setup({
  types: {
    input: {} as FrameRequestInput,
    context: {} as FrameRequestContext,
    events: {} as FrameRequestEvent,
  },
  delays: { timeout: ({ context }) => context.timeoutMs ?? 0 },
  guards: {
    hasTimeout: ({ context }) => context.timeoutMs !== undefined,
    isRpc: ({ context }) => context.owner === 'rpc',
    ok: ({ event }) => event.type === 'frame.reply' && event.payload.ok,
  },
  actions: {
    /** The payload comes with the start event's input only: it is posted and forgotten. */
    post: sendTo(
      ({ event }) => (event as Extract<FrameRequestEvent, { type: 'xstate.init' }>).input.transport!,
      ({ context, event, self }) =>
        ({
          type: 'transport.post',
          request: {
            id: context.id,
            type: context.command,
            payload: (event as Extract<FrameRequestEvent, { type: 'xstate.init' }>).input.payload,
          },
          replyTo: self,
        }) satisfies FrameTransportCommand,
    ),
    settleRpc: sendParent(({ context, event }) => {
      assertEvent(event, 'frame.reply')
      return { type: 'frame.rpcSettled', id: context.id, reply: event.payload } satisfies FrameMachineEvent
    }),
    authDone: sendParent(({ context, event }) => {
      assertEvent(event, 'frame.reply')
      const result = event.payload.ok ? event.payload.result : undefined
      return { type: 'frame.authDone', command: context.command, result } satisfies FrameMachineEvent
    }),
    authFailed: sendParent(({ context, event }) => {
      assertEvent(event, 'frame.reply')
      const error = event.payload.ok ? undefined : event.payload.error
      return {
        type: 'frame.authFailed',
        command: context.command,
        error: frameErrorInfo(replyError(error!)),
      } satisfies FrameMachineEvent
    }),
    timedOut: sendParent(
      ({ context }) =>
        ({
          type: 'frame.authFailed',
          command: context.command,
          error: frameErrorInfo(
            new FrameTimeoutError({ details: `${context.command} got no answer in time.` }),
          ),
        }) satisfies FrameMachineEvent,
    ),
  },
}).createMachine({
  id: 'frameRequest',
  context: ({ input }) => ({
    id: input.id,
    command: input.command,
    owner: input.owner,
    timeoutMs: input.owner === 'rpc' ? undefined : FRAME_COMMAND_TIMEOUTS[input.command],
  }),
  entry: 'post',
  initial: 'waiting',
  states: {
    waiting: {
      on: {
        // The transport gives this actor the replies with its id only.
        'frame.reply': [
          { guard: 'isRpc', target: 'settled', actions: 'settleRpc' },
          { guard: 'ok', target: 'settled', actions: 'authDone' },
          { target: 'settled', actions: 'authFailed' },
        ],
      },
      after: { timeout: { guard: 'hasTimeout', target: 'settled', actions: 'timedOut' } },
    },
    settled: { type: 'final' },
  },
})

/** What a login step that waits on the frame sends: the command and, from the context or the event, its payload. */
type PayloadOf = (args: { context: FrameContext; event: FrameMachineEvent }) => unknown

/**
 * The part of a login step's config that asks the frame: takes the next request id and invokes one request
 * actor for `command` while the step lasts.
 *
 * @example
 * fetchingUser: { tags: 'busy', ...askFrame('getUser', ({ context }) => ({ chainId: context.chainId })), on: {...} }
 * @internal
 */
export function askFrame(command: FrameCommand, payload: PayloadOf = () => ({})) {
  return {
    entry: 'countRequest' as const,
    invoke: {
      id: 'request',
      src: 'frameRequest' as const,
      input: ({ context, event }: { context: FrameContext; event: EventObject }): FrameRequestInput =>
        ({
          transport: context.transport,
          id: `r${context.requestCount}`,
          command,
          payload: payload({ context, event: event as FrameMachineEvent }),
          owner: 'auth',
        }) satisfies FrameRequestInput,
    },
  }
}

/**
 * `frameRequestMachine`'s type by name: the declarations of what runs it name it instead of repeating its whole type
 * (what keeps the package's .d.ts files small).
 */
export interface FrameRequestMachine extends FrameRequestMachineType {}
type FrameRequestMachineType = typeof frameRequestMachine
