import { type AnyActorRef, assertEvent, assign, enqueueActions, fromPromise, setup } from 'xstate'
import { SESSION_ANSWER_TIMEOUT_MS } from '../../constants'
import {
  type ErrorReason,
  RequestExpiredError,
  SessionEndedError,
  type SessionErrorInfo,
} from '../../errors/session'
import { endedWithSession, errorInfoOf } from '../../session/rules'
import type { RequestInfo, RpcResponse } from '../../session/types'
import { errorOf, info, notProvided, outputOf, remaining, systemClock } from './shared'
import type { Clock, SessionNotice } from './types'

/**
 * One request in a session (`request:<id>`), on either side:
 * - `outgoingRequestMachine` (app): awaiting → fulfilled | rejected | expired | removed.
 * - `incomingRequestMachine` (wallet): waiting (queued → active) → fulfilled | rejected | expired | removed; the
 *   client's queue activates one at a time.
 */
export interface OutgoingRequestInput {
  parent?: AnyActorRef
  clock?: Clock
  request: RequestInfo
  /** The request was sent by someone else on the same client (the kit's provider): only its answer is awaited. */
  observed: boolean
  /** Seconds, when the app chose the request's expiry. */
  expirySeconds?: number
}

export interface OutgoingRequestContext {
  parent: AnyActorRef | undefined
  clock: Clock
  request: RequestInfo
  observed: boolean
  expirySeconds: number | undefined
  result: unknown
  error: SessionErrorInfo | undefined
}

export type OutgoingRequestEvent =
  | { type: 'wc.requestResult'; id: number; result: unknown }
  | { type: 'wc.requestError'; id: number; error: SessionErrorInfo }
  | { type: 'request.remove'; id: number }

export const outgoingRequestMachine = setup({
  types: {
    context: {} as OutgoingRequestContext,
    events: {} as OutgoingRequestEvent,
    input: {} as OutgoingRequestInput,
    tags: {} as 'pending',
  },
  actors: {
    sendRequest: fromPromise<unknown, RequestInfo & { expirySeconds?: number }>(
      notProvided('outgoingRequestMachine', 'sendRequest'),
    ),
  },
  delays: {
    requestExpiry: ({ context }) => remaining(context.clock, context.request.expiry),
  },
  guards: {
    observed: ({ context }) => context.observed,
    /** The library rejects what is pending when the peer ends the session (its error, by class or code). */
    sessionEnded: (_, error: unknown) => endedWithSession(error),
  },
  actions: {
    setResult: assign((_, result: unknown) => ({ result })),
    setError: assign((_, error: unknown) => ({ error: errorInfoOf(error) })),
    setExpired: assign({ error: info(new RequestExpiredError()) }),
    setRemoved: assign({ error: info(new SessionEndedError()) }),
    /** Tells the client (absent when the machine runs on its own). */
    notify: enqueueActions(({ context, enqueue }, notice: SessionNotice) => {
      if (context.parent) enqueue.sendTo(context.parent, notice)
    }),
  },
}).createMachine({
  id: 'outgoingRequest',
  context: ({ input }) => ({
    parent: input.parent,
    clock: input.clock ?? systemClock,
    request: input.request,
    observed: input.observed,
    expirySeconds: input.expirySeconds,
    result: undefined,
    error: undefined,
  }),
  initial: 'awaiting',
  states: {
    /** Out to the wallet; it answers, or the request expires (SPEC §4), or its session ends. */
    awaiting: {
      tags: 'pending',
      after: { requestExpiry: { target: 'expired', actions: 'setExpired' } },
      on: { 'request.remove': { target: 'removed', actions: 'setRemoved' } },
      initial: 'sending',
      states: {
        sending: {
          // Sent by someone else on the same client: only its answer is awaited.
          always: { guard: 'observed', target: 'pending' },
          invoke: {
            id: 'sendRequest',
            src: 'sendRequest',
            input: ({ context }) => ({
              ...context.request,
              ...(context.expirySeconds === undefined ? {} : { expirySeconds: context.expirySeconds }),
            }),
            onDone: {
              target: '#outgoingRequest.fulfilled',
              actions: { type: 'setResult', params: outputOf },
            },
            onError: [
              // The library rejects what is pending when the peer ends the session: removed, not refused.
              {
                guard: { type: 'sessionEnded', params: errorOf },
                target: '#outgoingRequest.removed',
                actions: 'setRemoved',
              },
              { target: '#outgoingRequest.rejected', actions: { type: 'setError', params: errorOf } },
            ],
          },
        },
        pending: {
          on: {
            'wc.requestResult': {
              target: '#outgoingRequest.fulfilled',
              actions: {
                type: 'setResult',
                params: ({ event }: { event: { result: unknown } }) => event.result,
              },
            },
            'wc.requestError': {
              target: '#outgoingRequest.rejected',
              actions: assign(({ event }) => ({ error: event.error })),
            },
          },
        },
      },
    },
    fulfilled: {
      type: 'final',
      entry: { type: 'notify', params: ({ context }) => settled(context, 'fulfilled') },
    },
    rejected: {
      type: 'final',
      entry: { type: 'notify', params: ({ context }) => settled(context, 'rejected') },
    },
    expired: {
      type: 'final',
      entry: { type: 'notify', params: ({ context }) => settled(context, 'expired') },
    },
    removed: {
      type: 'final',
      entry: { type: 'notify', params: ({ context }) => settled(context, 'removed') },
    },
  },
  output: ({ context }) => ({ result: context.result, error: context.error }),
})

const settled = (
  context: { request: RequestInfo; result?: unknown; error: SessionErrorInfo | undefined },
  outcome: Extract<SessionNotice, { type: 'request.settled' }>['outcome'],
): SessionNotice => ({
  type: 'request.settled',
  id: context.request.id,
  topic: context.request.topic,
  outcome,
  request: context.request.request,
  ...(outcome === 'fulfilled' ? { result: context.result } : {}),
  ...(context.error && outcome !== 'fulfilled' ? { error: context.error } : {}),
})

export interface IncomingRequestInput {
  parent?: AnyActorRef
  clock?: Clock
  request: RequestInfo
  /** Set when the request broke a SPEC §5 rule: the error is sent to the peer. */
  refusal?: SessionErrorInfo
}

export interface IncomingRequestContext {
  parent: AnyActorRef | undefined
  clock: Clock
  request: RequestInfo
  refusal: SessionErrorInfo | undefined
  response: RpcResponse | undefined
  result?: unknown
  error: SessionErrorInfo | undefined
}

export type IncomingRequestEvent =
  /** From the client's queue: this request is now the one the wallet decides on. */
  | { type: 'request.activate'; id: number }
  | { type: 'request.respond'; id: number; response: RpcResponse }
  | { type: 'request.remove'; id: number }
  | { type: 'wc.requestExpired'; id: number }

const incomingRequestSetup = setup({
  types: {
    context: {} as IncomingRequestContext,
    events: {} as IncomingRequestEvent,
    input: {} as IncomingRequestInput,
    tags: {} as 'queued' | 'awaitingDecision' | 'busy',
  },
  actors: {
    respond: fromPromise<void, { topic: string; id: number; response: RpcResponse }>(
      notProvided('incomingRequestMachine', 'respond'),
    ),
  },
  delays: {
    requestExpiry: ({ context }) => remaining(context.clock, context.request.expiry),
    /** A refusal is one publish to the peer (SESSION_ANSWER_TIMEOUT_MS, beyond the sign client's own limit). */
    answerTimeout: SESSION_ANSWER_TIMEOUT_MS,
  },
  guards: {
    /** The wallet found the received request breaks a SPEC §5 request rule (the client names which). */
    invalidRequest: ({ context }) => context.refusal !== undefined,
    isResult: ({ event }) => event.type === 'request.respond' && 'result' in event.response,
  },
  actions: {
    setResponse: assign(({ event }) => {
      assertEvent(event, 'request.respond')
      return {
        response: event.response,
        ...('result' in event.response ? { result: event.response.result } : {}),
        error: 'error' in event.response ? remoteInfo(event.response.error) : undefined,
      }
    }),
    setError: assign((_, error: unknown) => ({ error: errorInfoOf(error) })),
    setExpired: assign({ error: info(new RequestExpiredError()) }),
    setRemoved: assign({ error: info(new SessionEndedError()) }),
    /** Tells the client (absent when the machine runs on its own). */
    notify: enqueueActions(({ context, enqueue }, notice: SessionNotice) => {
      if (context.parent) enqueue.sendTo(context.parent, notice)
    }),
  },
})

/** Answers the peer with the response the visitor chose; a failed answer goes back to waiting (SPEC §5). */
const answering = (done: 'fulfilled' | 'rejected') =>
  incomingRequestSetup.createStateConfig({
    tags: 'busy',
    invoke: {
      id: 'respond',
      src: 'respond',
      input: ({ context }) => ({
        topic: context.request.topic,
        id: context.request.id,
        response: context.response!,
      }),
      onDone: done,
      onError: { target: 'waiting.active', actions: { type: 'setError', params: errorOf } },
    },
    on: { 'request.remove': { target: 'removed', actions: 'setRemoved' } },
  })

export const incomingRequestMachine = incomingRequestSetup.createMachine({
  id: 'incomingRequest',
  context: ({ input }) => ({
    parent: input.parent,
    clock: input.clock ?? systemClock,
    request: input.request,
    refusal: input.refusal,
    response: undefined,
    error: input.refusal,
  }),
  initial: 'waiting',
  states: {
    waiting: {
      // An invalid request never waits: it is refused to the peer at once.
      always: { guard: 'invalidRequest', target: 'refusing' },
      after: { requestExpiry: { target: 'expired', actions: 'setExpired' } },
      on: {
        'request.remove': { target: 'removed', actions: 'setRemoved' },
        'wc.requestExpired': { target: 'expired', actions: 'setExpired' },
      },
      initial: 'queued',
      states: {
        queued: { tags: 'queued', on: { 'request.activate': 'active' } },
        /** The one request the wallet decides on now. */
        active: {
          tags: 'awaitingDecision',
          on: {
            'request.respond': [
              { guard: 'isResult', target: '#incomingRequest.fulfilling', actions: 'setResponse' },
              { target: '#incomingRequest.rejecting', actions: 'setResponse' },
            ],
          },
        },
      },
    },
    fulfilling: answering('fulfilled'),
    rejecting: answering('rejected'),
    /** SPEC §8: an invalid request sends the error to the peer. */
    refusing: {
      tags: 'busy',
      invoke: {
        id: 'respond',
        src: 'respond',
        input: ({ context }) => ({
          topic: context.request.topic,
          id: context.request.id,
          response: { error: { code: context.refusal!.code, message: context.refusal!.message } },
        }),
        onDone: 'rejected',
        onError: 'rejected',
      },
      // As a failed refusal: rejected, the outcome keeping the refusal (why the request was refused); the
      // peer's request expires on its side if the answer never reached it.
      after: { answerTimeout: 'rejected' },
    },
    fulfilled: {
      type: 'final',
      entry: { type: 'notify', params: ({ context }) => settled(context, 'fulfilled') },
    },
    rejected: {
      type: 'final',
      entry: { type: 'notify', params: ({ context }) => settled(context, 'rejected') },
    },
    expired: {
      type: 'final',
      entry: { type: 'notify', params: ({ context }) => settled(context, 'expired') },
    },
    removed: {
      type: 'final',
      entry: { type: 'notify', params: ({ context }) => settled(context, 'removed') },
    },
  },
})

function remoteInfo(error: ErrorReason): SessionErrorInfo {
  return { name: 'RemoteError', message: error.message, code: error.code }
}

/**
 * `outgoingRequestMachine`'s type by name: the declarations of what runs it name it instead of repeating its whole type
 * (what keeps the package's .d.ts files small).
 */
export interface OutgoingRequestMachine extends OutgoingRequestMachineType {}
type OutgoingRequestMachineType = typeof outgoingRequestMachine

/**
 * `incomingRequestMachine`'s type by name: the declarations of what runs it name it instead of repeating its whole type
 * (what keeps the package's .d.ts files small).
 */
export interface IncomingRequestMachine extends IncomingRequestMachineType {}
type IncomingRequestMachineType = typeof incomingRequestMachine
