import {
  type AnyActorRef,
  assertEvent,
  assign,
  enqueueActions,
  fromCallback,
  fromPromise,
  raise,
  setup,
} from 'xstate'
import { PING_RESPONSE_DELAY_MS, REQUEST_TTL_MS, SESSION_OUTCOMES_KEPT, SESSION_TTL_MS } from '../constants'
import {
  type ErrorReason,
  InvalidParamsError,
  RequestExpiredError,
  SessionEndedError,
  type SessionError,
  type SessionErrorInfo,
  SignatureVerificationError,
  sessionErrorInfo,
  WrongRoleError,
} from '../errors/session'
import { sessionChains } from '../session/namespaces'
import { createRecentlyDeleted, type RecentlyDeleted, rememberDeleted } from '../session/recentlyDeleted'
import {
  chainReference,
  defaultChain,
  errorInfoOf,
  isKnownKey,
  planRequest,
  recordsView,
  refusalOf,
  switchTarget,
} from '../session/rules'
import type {
  AuthenticateParams,
  AuthRequestInfo,
  Cacao,
  Namespaces,
  Participant,
  Properties,
  ProposalInfo,
  ProposalNamespaces,
  RecordKind,
  RequestInfo,
  RpcRequest,
  RpcResponse,
  SessionEventInfo,
  SessionInfo,
  SettleParams,
} from '../session/types'
import type { ApproveParams } from '../session/validateApprove'
import { validateProposal } from '../session/validateConnect'
import { validateIncomingRequest } from '../session/validateRequest'
import { validateSettle } from '../session/validateSettle'
import { validateUpdate } from '../session/validateUpdate'

/**
 * The remote (WalletConnect) session lifecycle of SPEC §4, for both sides: the app proposes and requests, the
 * wallet approves and answers (SPEC §6).
 *
 * One `sessionClientMachine` per WalletConnect client. It keeps the records the SPEC §5 rules are checked
 * against, checks every command before anything reaches the library, and spawns one child per record, so each
 * proposal, session, request and one-click auth request is an actor with states of its own in the inspector:
 *
 * - `proposalMachine` (`proposal:<id>`): pending → approved | rejected | expired.
 * - `sessionMachine` (`session:<topic>`): settling → active (lifetime, ping, extend, emit) → deleted | expired |
 *   peerDisconnected (or settlementFailed).
 * - `outgoingRequestMachine` (`request:<id>`, app): awaiting → fulfilled | rejected | expired | removed.
 * - `incomingRequestMachine` (`request:<id>`, wallet): waiting (queued → active) → fulfilled | rejected |
 *   expired | removed. The client's `queue` region (idle | active) lets one request at a time be active.
 * - `authMachine` (`auth:<id>`): one-click auth, approved only after the signatures check out.
 *
 * Events named `wc.*` are what the WalletConnect client reports (the adapter in `actors/session.ts` turns the
 * client's events into them); the others are commands and the children's notices. Every effect is a named actor
 * slot; the adapter fills them over a real client, tests with fakes.
 */
export type Role = 'app' | 'wallet'

/** Lifetimes shorter than the library's (for tests and demos); each is capped by the record's own expiry. */
export interface SessionTtls {
  proposalMs?: number
  sessionMs?: number
  requestMs?: number
  authMs?: number
}

const notProvided = (machine: string, slot: string) => () => {
  throw new Error(`${machine}: the "${slot}" actor slot was not provided`)
}

const remaining = (expiry: number) => Math.max(0, expiry - Date.now())

const info = (error: SessionError): SessionErrorInfo => sessionErrorInfo(error)

/** Action params from an invoked actor's error and done events. */
const errorOf = ({ event }: { event: { error: unknown } }) => event.error
const outputOf = ({ event }: { event: { output: unknown } }) => event.output

/** Notices children send their client (`parent`); absent in a child run on its own. */
export type SessionNotice =
  | {
      type: 'proposal.settled'
      id: number
      outcome: 'approved' | 'rejected' | 'expired'
      reason?: ErrorReason
    }
  | {
      type: 'auth.settled'
      id: number
      outcome: 'approved' | 'rejected' | 'expired'
      session?: SessionInfo
      pairingTopic?: string
      reason?: ErrorReason
    }
  | {
      type: 'session.ended'
      topic: string
      outcome: 'deleted' | 'expired' | 'peerDisconnected' | 'settlementFailed'
    }
  | { type: 'session.expiryChanged'; topic: string; expiry: number }
  | {
      type: 'request.settled'
      id: number
      topic: string
      outcome: 'fulfilled' | 'rejected' | 'expired' | 'removed'
      request: RpcRequest
      result?: unknown
      error?: SessionErrorInfo
    }

// ===================================================================================================== proposal

export interface ProposalInput {
  parent?: AnyActorRef
  role: Role
  proposal: ProposalInfo
  /** Set when the wallet found the proposal invalid: it is rejected to the peer with this reason. */
  refusal?: SessionErrorInfo
}

export interface ProposalContext {
  parent: AnyActorRef | undefined
  role: Role
  proposal: ProposalInfo
  refusal: SessionErrorInfo | undefined
  /** What the wallet approves with. */
  approval: ApproveParams | undefined
  /** The rejection reason, given (wallet) or received (app). */
  reason: ErrorReason | undefined
  /** The session topic derived on approval (wallet). */
  topic: string | undefined
  /** The last command that failed in the library. */
  error: SessionErrorInfo | undefined
}

export type ProposalEvent =
  | ({ type: 'proposal.approve' } & ApproveParams)
  | { type: 'proposal.reject'; id: number; reason: ErrorReason }
  | { type: 'wc.proposalApproved'; id: number }
  | { type: 'wc.proposalRejected'; id: number; reason: ErrorReason }
  | { type: 'wc.proposalExpired'; id: number }

export const proposalMachine = setup({
  types: {
    context: {} as ProposalContext,
    events: {} as ProposalEvent,
    input: {} as ProposalInput,
    tags: {} as 'pending' | 'busy',
  },
  actors: {
    approve: fromPromise<{ topic: string }, ApproveParams>(notProvided('proposalMachine', 'approve')),
    reject: fromPromise<void, { id: number; reason: ErrorReason }>(notProvided('proposalMachine', 'reject')),
  },
  delays: {
    proposalExpiry: ({ context }) => remaining(context.proposal.expiry),
  },
  guards: {
    refused: ({ context }) => context.refusal !== undefined,
  },
  actions: {
    setApproval: assign(({ event }) => {
      assertEvent(event, 'proposal.approve')
      const { type: _, ...approval } = event
      return { approval, error: undefined }
    }),
    setReason: assign(({ event }) => {
      assertEvent(event, ['proposal.reject', 'wc.proposalRejected'])
      return { reason: event.reason, error: undefined }
    }),
    setTopic: assign((_, output: { topic: string }) => ({ topic: output.topic })),
    setError: assign((_, error: unknown) => ({ error: errorInfoOf(error) })),
    /** Tells the client (absent when the machine runs on its own). */
    notify: enqueueActions(({ context, enqueue }, notice: SessionNotice) => {
      if (context.parent) enqueue.sendTo(context.parent, notice)
    }),
  },
}).createMachine({
  id: 'proposal',
  context: ({ input }) => ({
    parent: input.parent,
    role: input.role,
    proposal: input.proposal,
    refusal: input.refusal,
    approval: undefined,
    reason: input.refusal ? { code: input.refusal.code, message: input.refusal.message } : undefined,
    topic: undefined,
    error: undefined,
  }),
  initial: 'pending',
  states: {
    pending: {
      tags: 'pending',
      // An invalid proposal (wallet) is rejected to its peer at once; any other waits for an answer.
      always: { guard: 'refused', target: 'refusing' },
      after: { proposalExpiry: 'expired' },
      on: {
        'proposal.approve': { target: 'approving', actions: 'setApproval' },
        'proposal.reject': { target: 'rejecting', actions: 'setReason' },
        'wc.proposalApproved': 'approved',
        'wc.proposalRejected': { target: 'rejected', actions: 'setReason' },
        'wc.proposalExpired': 'expired',
      },
    },
    approving: {
      tags: 'busy',
      invoke: {
        id: 'approve',
        src: 'approve',
        input: ({ context }) => context.approval!,
        onDone: { target: 'approved', actions: { type: 'setTopic', params: ({ event }) => event.output } },
        onError: { target: 'pending', actions: { type: 'setError', params: errorOf } },
      },
      on: { 'wc.proposalExpired': 'expired' },
    },
    rejecting: {
      tags: 'busy',
      invoke: {
        id: 'reject',
        src: 'reject',
        input: ({ context }) => ({ id: context.proposal.id, reason: context.reason! }),
        onDone: 'rejected',
        onError: { target: 'pending', actions: { type: 'setError', params: errorOf } },
      },
      on: { 'wc.proposalExpired': 'expired' },
    },
    /** The SPEC §8 error goes to the peer as the rejection reason. */
    refusing: {
      tags: 'busy',
      invoke: {
        id: 'refuse',
        src: 'reject',
        input: ({ context }) => ({ id: context.proposal.id, reason: context.reason! }),
        onDone: 'rejected',
        onError: { target: 'rejected', actions: { type: 'setError', params: errorOf } },
      },
    },
    approved: {
      type: 'final',
      entry: {
        type: 'notify',
        params: ({ context }) => ({ type: 'proposal.settled', id: context.proposal.id, outcome: 'approved' }),
      },
    },
    rejected: {
      type: 'final',
      entry: {
        type: 'notify',
        params: ({ context }) => ({
          type: 'proposal.settled',
          id: context.proposal.id,
          outcome: 'rejected',
          ...(context.reason ? { reason: context.reason } : {}),
        }),
      },
    },
    expired: {
      type: 'final',
      entry: {
        type: 'notify',
        params: ({ context }) => ({ type: 'proposal.settled', id: context.proposal.id, outcome: 'expired' }),
      },
    },
  },
})

// ====================================================================================================== session

export interface SessionInput {
  parent?: AnyActorRef
  role: Role
  session: SessionInfo
  /** How long an extension lasts (SPEC §4: extending resets the expiry). */
  ttlMs?: number
}

export interface SessionContext {
  parent: AnyActorRef | undefined
  role: Role
  topic: string
  peer: Participant
  expiry: number
  acknowledged: boolean
  ttlMs: number
  /** Events waiting to be emitted to the peer, oldest first. */
  outbox: { chainId: string; event: SessionEventInfo }[]
  /** Pings the peer answered, and pings the peer sent (answered with success by the library). */
  pongs: number
  pingsAnswered: number
  error: SessionErrorInfo | undefined
}

export type SessionEvent =
  | { type: 'wc.settleAcknowledged'; topic: string; session?: SessionInfo }
  | { type: 'wc.settleFailed'; topic: string; reason?: ErrorReason }
  | { type: 'wc.sessionDelete'; topic: string; by: 'peer' | 'self' }
  | { type: 'wc.sessionExpire'; topic: string }
  | { type: 'wc.sessionPing'; topic: string }
  | { type: 'session.ping'; topic: string }
  /** From the ping actor: the peer answered with success. */
  | { type: 'session.pong' }
  | { type: 'session.pingFailed'; error: SessionErrorInfo }
  | { type: 'session.extend'; topic: string }
  /** The expiry was reset (our extension, or the peer's). */
  | { type: 'session.extended'; topic: string; expiry: number }
  | { type: 'session.emit'; topic: string; chainId: string; event: SessionEventInfo }
  | { type: 'session.disconnect'; topic: string; reason?: ErrorReason }

const USER_DISCONNECTED: ErrorReason = { code: 6000, message: 'User disconnected.' }

export const sessionMachine = setup({
  types: {
    context: {} as SessionContext,
    events: {} as SessionEvent,
    input: {} as SessionInput,
    tags: {} as 'busy',
  },
  actors: {
    /** Pings the peer; sends back `session.pong` when it answers with success, `session.pingFailed` otherwise. */
    ping: fromCallback<SessionEvent, { topic: string }>(notProvided('sessionMachine', 'ping')),
    extend: fromPromise<void, { topic: string }>(notProvided('sessionMachine', 'extend')),
    emit: fromPromise<void, { topic: string; chainId: string; event: SessionEventInfo }>(
      notProvided('sessionMachine', 'emit'),
    ),
    disconnect: fromPromise<void, { topic: string; reason: ErrorReason }>(
      notProvided('sessionMachine', 'disconnect'),
    ),
  },
  delays: {
    sessionExpiry: ({ context }) => remaining(context.expiry),
    /** SPEC §9: the pinger handles the peer's answer 500 ms late. */
    pingResponse: PING_RESPONSE_DELAY_MS,
  },
  guards: {
    acknowledged: ({ context }) => context.acknowledged,
    byPeer: ({ event }) => event.type === 'wc.sessionDelete' && event.by === 'peer',
    hasOutbox: ({ context }) => context.outbox.length > 0,
  },
  actions: {
    acknowledge: assign({ acknowledged: true }),
    setExpiry: assign(({ event }) => {
      assertEvent(event, 'session.extended')
      return { expiry: event.expiry }
    }),
    raiseExtended: raise(({ context }) => ({
      type: 'session.extended' as const,
      topic: context.topic,
      expiry: Date.now() + context.ttlMs,
    })),
    countPingAnswered: assign(({ context }) => ({ pingsAnswered: context.pingsAnswered + 1 })),
    countPong: assign(({ context }) => ({ pongs: context.pongs + 1, error: undefined })),
    queueEmit: assign(({ context, event }) => {
      assertEvent(event, 'session.emit')
      return { outbox: [...context.outbox, { chainId: event.chainId, event: event.event }] }
    }),
    shiftOutbox: assign(({ context }) => ({ outbox: context.outbox.slice(1) })),
    setError: assign((_, error: unknown) => ({ error: errorInfoOf(error) })),
    setPingError: assign(({ event }) => {
      assertEvent(event, 'session.pingFailed')
      return { error: event.error }
    }),
    /** Tells the client (absent when the machine runs on its own). */
    notify: enqueueActions(({ context, enqueue }, notice: SessionNotice) => {
      if (context.parent) enqueue.sendTo(context.parent, notice)
    }),
  },
}).createMachine({
  id: 'session',
  context: ({ input }) => ({
    parent: input.parent,
    role: input.role,
    topic: input.session.topic,
    peer: input.session.peer,
    expiry: input.session.expiry,
    acknowledged: input.session.acknowledged,
    ttlMs: input.ttlMs ?? SESSION_TTL_MS,
    outbox: [],
    pongs: 0,
    pingsAnswered: 0,
    error: undefined,
  }),
  on: {
    'wc.sessionExpire': '.expired',
  },
  initial: 'settling',
  states: {
    /** SPEC §4: on approval a topic is derived, settled and acknowledged. */
    settling: {
      always: { guard: 'acknowledged', target: 'active' },
      after: { sessionExpiry: 'expired' },
      on: {
        'wc.settleAcknowledged': { target: 'active', actions: 'acknowledge' },
        'wc.settleFailed': 'settlementFailed',
        'session.disconnect': 'deleting',
        'wc.sessionDelete': [{ guard: 'byPeer', target: 'peerDisconnected' }, { target: 'deleted' }],
      },
    },
    active: {
      type: 'parallel',
      on: {
        'session.disconnect': 'deleting',
        'wc.sessionDelete': [{ guard: 'byPeer', target: 'peerDisconnected' }, { target: 'deleted' }],
        'wc.sessionPing': { actions: 'countPingAnswered' },
      },
      states: {
        lifetime: {
          initial: 'live',
          states: {
            live: {
              after: { sessionExpiry: '#session.expired' },
              on: {
                'session.extended': {
                  target: 'live',
                  reenter: true,
                  actions: [
                    'setExpiry',
                    {
                      type: 'notify',
                      params: ({ event }) => ({
                        type: 'session.expiryChanged',
                        topic: event.topic,
                        expiry: event.expiry,
                      }),
                    },
                  ],
                },
              },
            },
          },
        },
        ping: {
          initial: 'idle',
          states: {
            idle: { on: { 'session.ping': 'pinging' } },
            pinging: {
              tags: 'busy',
              invoke: { id: 'ping', src: 'ping', input: ({ context }) => ({ topic: context.topic }) },
              on: {
                'session.pong': 'answered',
                'session.pingFailed': { target: 'idle', actions: 'setPingError' },
              },
            },
            /** The peer answered with success; the answer is handled after the SPEC's delay. */
            answered: { after: { pingResponse: { target: 'idle', actions: 'countPong' } } },
          },
        },
        extend: {
          initial: 'idle',
          states: {
            idle: { on: { 'session.extend': 'extending' } },
            extending: {
              tags: 'busy',
              // Like the reference client, the expiry is reset first; the peer is told after.
              entry: 'raiseExtended',
              invoke: {
                id: 'extend',
                src: 'extend',
                input: ({ context }) => ({ topic: context.topic }),
                onDone: 'idle',
                onError: { target: 'idle', actions: { type: 'setError', params: errorOf } },
              },
            },
          },
        },
        emit: {
          initial: 'idle',
          on: { 'session.emit': { actions: 'queueEmit' } },
          states: {
            idle: { always: { guard: 'hasOutbox', target: 'emitting' } },
            emitting: {
              invoke: {
                id: 'emit',
                src: 'emit',
                input: ({ context }) => ({ topic: context.topic, ...context.outbox[0]! }),
                onDone: { target: 'idle', actions: 'shiftOutbox' },
                onError: {
                  target: 'idle',
                  actions: ['shiftOutbox', { type: 'setError', params: errorOf }],
                },
              },
            },
          },
        },
      },
    },
    deleting: {
      tags: 'busy',
      invoke: {
        id: 'disconnect',
        src: 'disconnect',
        input: ({ context, event }) => ({
          topic: context.topic,
          reason: event.type === 'session.disconnect' && event.reason ? event.reason : USER_DISCONNECTED,
        }),
        onDone: 'deleted',
        onError: [
          { guard: 'acknowledged', target: 'active', actions: { type: 'setError', params: errorOf } },
          { target: 'settling', actions: { type: 'setError', params: errorOf } },
        ],
      },
      on: {
        'wc.sessionDelete': [{ guard: 'byPeer', target: 'peerDisconnected' }, { target: 'deleted' }],
      },
    },
    deleted: { type: 'final', entry: { type: 'notify', params: ({ context }) => ended(context, 'deleted') } },
    expired: { type: 'final', entry: { type: 'notify', params: ({ context }) => ended(context, 'expired') } },
    peerDisconnected: {
      type: 'final',
      entry: { type: 'notify', params: ({ context }) => ended(context, 'peerDisconnected') },
    },
    settlementFailed: {
      type: 'final',
      entry: { type: 'notify', params: ({ context }) => ended(context, 'settlementFailed') },
    },
  },
})

const ended = (
  context: SessionContext,
  outcome: Extract<SessionNotice, { type: 'session.ended' }>['outcome'],
): SessionNotice => ({ type: 'session.ended', topic: context.topic, outcome })

// ============================================================================================= outgoing request

export interface OutgoingRequestInput {
  parent?: AnyActorRef
  request: RequestInfo
  /** The request was sent by someone else on the same client (the kit's provider): only its answer is awaited. */
  observed: boolean
  /** Seconds, when the app chose the request's expiry. */
  expirySeconds?: number
}

export interface OutgoingRequestContext {
  parent: AnyActorRef | undefined
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
    requestExpiry: ({ context }) => remaining(context.request.expiry),
  },
  guards: {
    observed: ({ context }) => context.observed,
    sessionEnded: (_, error: unknown) => errorInfoOf(error).code === USER_DISCONNECTED.code,
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

// ============================================================================================= incoming request

export interface IncomingRequestInput {
  parent?: AnyActorRef
  request: RequestInfo
  /** Set when the request broke a SPEC §5 rule: the error is sent to the peer. */
  refusal?: SessionErrorInfo
}

export interface IncomingRequestContext {
  parent: AnyActorRef | undefined
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

export const incomingRequestMachine = setup({
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
    requestExpiry: ({ context }) => remaining(context.request.expiry),
  },
  guards: {
    refused: ({ context }) => context.refusal !== undefined,
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
}).createMachine({
  id: 'incomingRequest',
  context: ({ input }) => ({
    parent: input.parent,
    request: input.request,
    refusal: input.refusal,
    response: undefined,
    error: input.refusal,
  }),
  initial: 'waiting',
  states: {
    waiting: {
      // An invalid request never waits: it is refused to the peer at once.
      always: { guard: 'refused', target: 'refusing' },
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
    fulfilling: {
      tags: 'busy',
      invoke: {
        id: 'respond',
        src: 'respond',
        input: ({ context }) => ({
          topic: context.request.topic,
          id: context.request.id,
          response: context.response!,
        }),
        onDone: 'fulfilled',
        onError: { target: 'waiting.active', actions: { type: 'setError', params: errorOf } },
      },
      on: { 'request.remove': { target: 'removed', actions: 'setRemoved' } },
    },
    rejecting: {
      tags: 'busy',
      invoke: {
        id: 'respond',
        src: 'respond',
        input: ({ context }) => ({
          topic: context.request.topic,
          id: context.request.id,
          response: context.response!,
        }),
        onDone: 'rejected',
        onError: { target: 'waiting.active', actions: { type: 'setError', params: errorOf } },
      },
      on: { 'request.remove': { target: 'removed', actions: 'setRemoved' } },
    },
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

// ========================================================================================== one-click auth

export interface AuthInput {
  parent?: AnyActorRef
  role: Role
  id: number
  /** Epoch ms. */
  expiry: number
  /** App: what to ask for. */
  params?: AuthenticateParams
  /** Wallet: what was asked. */
  request?: AuthRequestInfo
}

export interface AuthContext {
  parent: AnyActorRef | undefined
  role: Role
  id: number
  expiry: number
  params: AuthenticateParams | undefined
  request: AuthRequestInfo | undefined
  /** App: the pairing URI to show. */
  uri: string | undefined
  pairingTopic: string | undefined
  auths: Cacao[] | undefined
  session: SessionInfo | undefined
  reason: ErrorReason | undefined
  error: SessionErrorInfo | undefined
}

export type AuthEvent =
  | { type: 'auth.approve'; id: number; auths: Cacao[] }
  | { type: 'auth.reject'; id: number; reason: ErrorReason }
  /** From the app's authenticate actor. */
  | { type: 'auth.uri'; uri: string; pairingTopic: string }
  | { type: 'auth.approved'; session?: SessionInfo }
  | { type: 'auth.failed'; error: SessionErrorInfo }

export const authMachine = setup({
  types: {
    context: {} as AuthContext,
    events: {} as AuthEvent,
    input: {} as AuthInput,
    tags: {} as 'pending' | 'busy',
  },
  actors: {
    /** App: asks the wallet; sends back `auth.uri`, then `auth.approved` or `auth.failed`. */
    authenticate: fromCallback<AuthEvent, AuthenticateParams>(notProvided('authMachine', 'authenticate')),
    /** Wallet: the signature checks, before anything is approved. */
    verifyAuth: fromPromise<boolean, { request: AuthRequestInfo | undefined; auths: Cacao[] }>(
      notProvided('authMachine', 'verifyAuth'),
    ),
    approveAuth: fromPromise<{ session?: SessionInfo }, { id: number; auths: Cacao[] }>(
      notProvided('authMachine', 'approveAuth'),
    ),
    rejectAuth: fromPromise<void, { id: number; reason: ErrorReason }>(
      notProvided('authMachine', 'rejectAuth'),
    ),
  },
  delays: {
    authExpiry: ({ context }) => remaining(context.expiry),
  },
  guards: {
    isApp: ({ context }) => context.role === 'app',
    verified: (_, valid: boolean) => valid,
  },
  actions: {
    setAuths: assign(({ event }) => {
      assertEvent(event, 'auth.approve')
      return { auths: event.auths, error: undefined }
    }),
    setReason: assign(({ event }) => {
      assertEvent(event, 'auth.reject')
      return { reason: event.reason, error: undefined }
    }),
    setSignatureFailure: assign(() => {
      const error = new SignatureVerificationError()
      return { reason: error.reason, error: info(error) }
    }),
    setUri: assign(({ event }) => {
      assertEvent(event, 'auth.uri')
      return { uri: event.uri, pairingTopic: event.pairingTopic }
    }),
    setSession: assign((_, session: SessionInfo | undefined) => ({ session })),
    setFailure: assign(({ event }) => {
      assertEvent(event, 'auth.failed')
      return { error: event.error, reason: { code: event.error.code, message: event.error.message } }
    }),
    setError: assign((_, error: unknown) => ({ error: errorInfoOf(error) })),
    /** Tells the client (absent when the machine runs on its own). */
    notify: enqueueActions(({ context, enqueue }, notice: SessionNotice) => {
      if (context.parent) enqueue.sendTo(context.parent, notice)
    }),
  },
}).createMachine({
  id: 'auth',
  context: ({ input }) => ({
    parent: input.parent,
    role: input.role,
    id: input.id,
    expiry: input.expiry,
    params: input.params,
    request: input.request,
    uri: undefined,
    pairingTopic: input.request?.pairingTopic,
    auths: undefined,
    session: undefined,
    reason: undefined,
    error: undefined,
  }),
  initial: 'pending',
  states: {
    /** App: the request is out; the wallet signs in, refuses, or lets it expire. */
    requesting: {
      tags: 'pending',
      invoke: { id: 'authenticate', src: 'authenticate', input: ({ context }) => context.params! },
      after: { authExpiry: 'expired' },
      on: {
        'auth.approved': {
          target: 'approved',
          actions: { type: 'setSession', params: ({ event }) => event.session },
        },
        'auth.failed': { target: 'rejected', actions: 'setFailure' },
      },
      initial: 'creating',
      states: {
        creating: { on: { 'auth.uri': { target: 'waiting', actions: 'setUri' } } },
        waiting: {},
      },
    },
    /** Wallet: waits for the person's decision. */
    pending: {
      tags: 'pending',
      always: { guard: 'isApp', target: 'requesting' },
      after: { authExpiry: 'expired' },
      on: {
        'auth.approve': { target: 'verifying', actions: 'setAuths' },
        'auth.reject': { target: 'rejecting', actions: 'setReason' },
      },
    },
    /** SPEC §4: authenticated sessions are approved after signature checks. */
    verifying: {
      tags: 'busy',
      invoke: {
        id: 'verifyAuth',
        src: 'verifyAuth',
        input: ({ context }) => ({ request: context.request, auths: context.auths ?? [] }),
        onDone: [
          { guard: { type: 'verified', params: ({ event }) => event.output }, target: 'approving' },
          { target: 'refusingSignature', actions: 'setSignatureFailure' },
        ],
        onError: { target: 'refusingSignature', actions: 'setSignatureFailure' },
      },
    },
    approving: {
      tags: 'busy',
      invoke: {
        id: 'approveAuth',
        src: 'approveAuth',
        input: ({ context }) => ({ id: context.id, auths: context.auths ?? [] }),
        onDone: {
          target: 'approved',
          actions: { type: 'setSession', params: ({ event }) => event.output.session },
        },
        onError: { target: 'rejected', actions: { type: 'setError', params: errorOf } },
      },
    },
    rejecting: {
      tags: 'busy',
      invoke: {
        id: 'rejectAuth',
        src: 'rejectAuth',
        input: ({ context }) => ({ id: context.id, reason: context.reason! }),
        onDone: 'rejected',
        onError: { target: 'pending', actions: { type: 'setError', params: errorOf } },
      },
    },
    /** The peer is told why: 'Signature verification failed' (SESSION_SETTLEMENT_FAILED). */
    refusingSignature: {
      tags: 'busy',
      invoke: {
        id: 'rejectAuth',
        src: 'rejectAuth',
        input: ({ context }) => ({ id: context.id, reason: context.reason! }),
        onDone: 'rejected',
        onError: 'rejected',
      },
    },
    approved: {
      type: 'final',
      entry: {
        type: 'notify',
        params: ({ context }) => ({
          type: 'auth.settled',
          id: context.id,
          outcome: 'approved',
          ...(context.session ? { session: context.session } : {}),
          ...(context.pairingTopic ? { pairingTopic: context.pairingTopic } : {}),
        }),
      },
    },
    rejected: {
      type: 'final',
      entry: {
        type: 'notify',
        params: ({ context }) => ({
          type: 'auth.settled',
          id: context.id,
          outcome: 'rejected',
          ...(context.reason ? { reason: context.reason } : {}),
        }),
      },
    },
    expired: {
      type: 'final',
      entry: {
        type: 'notify',
        params: ({ context }) => ({ type: 'auth.settled', id: context.id, outcome: 'expired' }),
      },
    },
  },
})

// ======================================================================================================= client

/** The client keeps what the SPEC §5 rules are checked against; its children keep the lifecycles. */
export interface ProposalRecord {
  id: number
  pairingTopic: string
  expiry: number
  requiredNamespaces: ProposalNamespaces
  /** The pairing URI, when this client's own connect created the proposal. */
  uri?: string
}

export interface SessionRecord {
  topic: string
  expiry: number
  namespaces: Namespaces
  requiredNamespaces: ProposalNamespaces
  sessionProperties?: Properties
  scopedProperties?: Properties
  peer: Participant
  /** App: the chain requests go to unless they name one (`eip155:1`). */
  chainId?: string
  /** The last update applied (SPEC §4: older ones are discarded). */
  lastUpdateId?: number
}

export interface RequestRecord {
  id: number
  topic: string
  method: string
}

export interface Outcome {
  kind: RecordKind
  key: string
  outcome: string
  local?: boolean
  result?: unknown
  reason?: ErrorReason
  error?: SessionErrorInfo
}

export interface Refusal {
  /** The command or report refused (its event type). */
  command: string
  /** The id or topic it named. */
  key?: string
  error: SessionErrorInfo
}

export interface SessionClientInput {
  role: Role
  ttl?: SessionTtls
  /** App: RPC URLs by chain (`eip155:1` → URL), for the locally answered eip155 methods. */
  rpcMap?: Record<string, string>
  /** App: when a proposal this client made expires unanswered, propose again (a fresh URI). Default true. */
  renewExpiredProposals?: boolean
}

export interface SessionClientContext {
  role: Role
  ttl: SessionTtls
  rpcMap: Record<string, string>
  renewExpiredProposals: boolean
  pairings: Record<string, { expiry: number }>
  proposals: Record<string, ProposalRecord>
  sessions: Record<string, SessionRecord>
  requests: Record<string, RequestRecord>
  auths: Record<string, { id: number; pairingTopic?: string }>
  /** Wallet: received requests waiting their turn, oldest first; the first is the active one. */
  queue: string[]
  activeRequest: string | undefined
  recentlyDeleted: RecentlyDeleted
  /** App: the parameters of the last connect, kept to propose again when the proposal expires. */
  connectParams: unknown
  /** App: the pairing URI of the last connect (the QR code). */
  pairingUri: string | undefined
  /** The latest settled records, newest last. */
  outcomes: Outcome[]
  lastError: Refusal | undefined
}

/** What the adapter reports from the WalletConnect client. */
export type SignClientEvent =
  | {
      type: 'wc.sync'
      pairings: Record<string, { expiry: number }>
      proposals: ProposalInfo[]
      sessions: SessionInfo[]
      requests: (Omit<RequestInfo, 'expiry'> & { expiry?: unknown })[]
    }
  | { type: 'wc.pairings'; pairings: Record<string, { expiry: number }> }
  | { type: 'wc.sessionPropose'; proposal: ProposalInfo }
  | { type: 'wc.proposalApproved'; id: number }
  | { type: 'wc.proposalRejected'; id: number; reason: ErrorReason }
  | { type: 'wc.proposalExpired'; id: number }
  | {
      type: 'wc.sessionSettle'
      topic: string
      settle: SettleParams
      self: Participant
      /** Wallet: the proposer. App: the settlement's controller. */
      peer: Participant
      pairingTopic?: string
      requiredNamespaces?: ProposalNamespaces
      optionalNamespaces?: ProposalNamespaces
    }
  | { type: 'wc.settleAcknowledged'; topic: string; session?: SessionInfo }
  | { type: 'wc.settleFailed'; topic: string; reason?: ErrorReason }
  | { type: 'wc.sessionDelete'; topic: string; by: 'peer' | 'self' }
  | { type: 'wc.sessionExpire'; topic: string }
  | { type: 'wc.sessionPing'; topic: string }
  | { type: 'wc.sessionExtend'; topic: string }
  | { type: 'wc.sessionUpdate'; topic: string; id: number; namespaces: unknown }
  | { type: 'wc.sessionEvent'; topic: string; chainId: string; event: SessionEventInfo }
  | { type: 'wc.requestSent'; request: Omit<RequestInfo, 'expiry'> & { expiry?: number } }
  | { type: 'wc.requestResult'; id: number; result: unknown }
  | { type: 'wc.requestError'; id: number; error: SessionErrorInfo }
  | { type: 'wc.sessionRequest'; request: Omit<RequestInfo, 'expiry'> & { expiry?: unknown } }
  | { type: 'wc.requestExpired'; id: number }
  | { type: 'wc.sessionAuthenticate'; request: AuthRequestInfo }

/** What the client asks of the adapter without waiting for an answer. */
export type SignClientCommand =
  /** Our timer expired a record first: make the library forget it too (a wallet tells the peer its request expired). */
  | { type: 'library.expireProposal'; id: number }
  | { type: 'library.expireSession'; topic: string }
  | { type: 'library.expireRequest'; id: number; topic: string }

/** Commands, from the kit, the wallet page or a test. */
export type SessionCommand =
  | { type: 'session.connect'; params: unknown }
  | { type: 'session.pair'; uri: string }
  | { type: 'session.authenticate'; id: number; params: AuthenticateParams }
  | ({ type: 'proposal.approve' } & ApproveParams)
  | { type: 'proposal.reject'; id: number; reason: ErrorReason }
  | { type: 'auth.approve'; id: number; auths: Cacao[] }
  | { type: 'auth.reject'; id: number; reason: ErrorReason }
  | {
      type: 'request.send'
      /** The caller's id for the request (unique; see `nextRequestId`). */
      id: number
      topic?: string
      chainId?: string
      request: RpcRequest
      /** Seconds. */
      expiry?: number
    }
  | { type: 'request.respond'; id: number; response: RpcResponse }
  | { type: 'session.ping'; topic: string }
  | { type: 'session.extend'; topic: string }
  | { type: 'session.emit'; topic: string; chainId: string; event: SessionEventInfo }
  | { type: 'session.disconnect'; topic: string; reason?: ErrorReason }

export type SessionClientEvent = SessionCommand | SignClientEvent | SessionNotice

export interface ConnectOutput {
  uri: string | undefined
  pairingTopic: string
}

export const sessionClientMachine = setup({
  types: {
    context: {} as SessionClientContext,
    events: {} as SessionClientEvent,
    input: {} as SessionClientInput,
    tags: {} as 'connecting' | 'pairing',
    /** Each settled record, for hosts that follow them with `actor.on(type, listener)`. */
    emitted: {} as SessionNotice,
  },
  actors: {
    /** The WalletConnect client: reports `wc.*` events, receives `library.*` commands. */
    signClient: fromCallback<SignClientCommand, { role: Role }>(() => () => {}),
    connect: fromPromise<ConnectOutput, { params: unknown }>(notProvided('sessionClientMachine', 'connect')),
    pair: fromPromise<void, { uri: string }>(notProvided('sessionClientMachine', 'pair')),
    proposal: proposalMachine,
    session: sessionMachine,
    outgoingRequest: outgoingRequestMachine,
    incomingRequest: incomingRequestMachine,
    auth: authMachine,
  },
  guards: {
    refused: ({ context, event }) => refusalOf(context, event) !== undefined,
    answeredLocally: ({ context, event }) => {
      assertEvent(event, 'request.send')
      return planRequest(context, event).kind === 'local'
    },
    /** Already known, or recently deleted (at-least-once delivery): reported again, ignored. */
    known: ({ context, event }) => isKnown(context, event),
    isActiveRequest: ({ context, event }) => {
      assertEvent(event, 'request.settled')
      return context.activeRequest === String(event.id)
    },
    hasQueued: ({ context }) => context.queue.length > 0,
    renews: ({ context, event }) => {
      assertEvent(event, 'proposal.settled')
      return (
        context.role === 'app' &&
        context.renewExpiredProposals &&
        event.outcome === 'expired' &&
        context.proposals[String(event.id)]?.uri !== undefined &&
        context.connectParams !== undefined
      )
    },
  },
  actions: {
    refuse: assign(({ context, event }) => {
      const error = refusalOf(context, event)!
      return { lastError: { command: event.type, ...keyOf(event), error: info(error) } }
    }),
    setConnectError: assign((_, error: unknown) => ({
      lastError: { command: 'session.connect', error: errorInfoOf(error) },
    })),
    setPairError: assign((_, error: unknown) => ({
      lastError: { command: 'session.pair', error: errorInfoOf(error) },
    })),
    rememberConnect: assign(({ event }) => {
      assertEvent(event, 'session.connect')
      return { connectParams: event.params, pairingUri: undefined, lastError: undefined }
    }),
    setPairingUri: assign(({ context }, output: ConnectOutput) => {
      const proposals = { ...context.proposals }
      for (const [key, record] of Object.entries(proposals)) {
        if (record.pairingTopic === output.pairingTopic)
          proposals[key] = { ...record, ...(output.uri ? { uri: output.uri } : {}) }
      }
      return { pairingUri: output.uri, proposals }
    }),
    setPairings: assign(({ event }) => {
      assertEvent(event, 'wc.pairings')
      return { pairings: event.pairings }
    }),
    /** Forwards the event to the child it names. */
    forward: enqueueActions(({ context, event, enqueue }) => {
      const target = childOf(context, event)
      if (target) enqueue.sendTo(target, event)
    }),
    sync: enqueueActions(({ context, event, enqueue, self }) => {
      assertEvent(event, 'wc.sync')
      let next = context
      for (const proposal of event.proposals) {
        if (isKnownKey(next, 'proposal', proposal.id)) continue
        next = addProposal(next, proposal, enqueue, self, undefined)
      }
      for (const session of event.sessions) {
        if (isKnownKey(next, 'session', session.topic)) continue
        next = addSession(next, session, enqueue, self)
      }
      for (const request of event.requests) {
        if (isKnownKey(next, 'request', request.id)) continue
        next = addIncomingRequest(next, request, enqueue, self)
      }
      enqueue.assign({ ...next, pairings: { ...context.pairings, ...event.pairings } })
    }),
    addProposal: enqueueActions(({ context, event, enqueue, self }) => {
      assertEvent(event, 'wc.sessionPropose')
      const refusal = context.role === 'wallet' ? validateProposal(event.proposal) : undefined
      enqueue.assign(addProposal(context, event.proposal, enqueue, self, refusal))
    }),
    addSettledSession: enqueueActions(({ context, event, enqueue, self }) => {
      assertEvent(event, 'wc.sessionSettle')
      enqueue.assign(addSession(context, sessionFromSettle(event), enqueue, self))
    }),
    logSettlementFailure: assign(({ context, event }) => {
      assertEvent(event, 'wc.sessionSettle')
      const error = info(validateSettle(event.settle, Date.now())!)
      return {
        lastError: { command: event.type, key: event.topic, error },
        outcomes: logged(context, { kind: 'session', key: event.topic, outcome: 'settlementFailed', error }),
      }
    }),
    refreshSession: assign(({ context, event }) => {
      assertEvent(event, 'wc.settleAcknowledged')
      const record = context.sessions[event.topic]
      if (!record || !event.session) return {}
      const { session } = event
      return {
        sessions: {
          ...context.sessions,
          [event.topic]: {
            ...record,
            namespaces: session.namespaces,
            requiredNamespaces: session.requiredNamespaces,
            ...(session.sessionProperties ? { sessionProperties: session.sessionProperties } : {}),
            ...(session.scopedProperties ? { scopedProperties: session.scopedProperties } : {}),
          },
        },
      }
    }),
    extendByPeer: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, 'wc.sessionExtend')
      if (!context.sessions[event.topic]) return
      const expiry = Date.now() + (context.ttl.sessionMs ?? SESSION_TTL_MS)
      enqueue.sendTo(`session:${event.topic}`, { type: 'session.extended', topic: event.topic, expiry })
    }),
    applyUpdate: assign(({ context, event }) => {
      assertEvent(event, 'wc.sessionUpdate')
      const record = context.sessions[event.topic]!
      return {
        sessions: {
          ...context.sessions,
          [event.topic]: { ...record, namespaces: event.namespaces as Namespaces, lastUpdateId: event.id },
        },
      }
    }),
    discardUpdate: assign(({ context, event }) => {
      assertEvent(event, 'wc.sessionUpdate')
      const record = context.sessions[event.topic]
      const error = validateUpdate(event, record?.lastUpdateId, recordsView(context))!
      return { lastError: { command: event.type, key: event.topic, error: info(error) } }
    }),
    applySessionEvent: assign(({ context, event }) => {
      assertEvent(event, 'wc.sessionEvent')
      const record = context.sessions[event.topic]
      if (!record || context.role !== 'app' || event.event.name !== 'chainChanged') return {}
      const reference = chainReference(event.event.data)
      if (reference === undefined) return {}
      const chainId = `${event.chainId.split(':')[0]}:${reference}`
      if (!sessionChains(record.namespaces).includes(chainId)) return {}
      return { sessions: { ...context.sessions, [event.topic]: { ...record, chainId } } }
    }),
    addObservedRequest: enqueueActions(({ context, event, enqueue, self }) => {
      assertEvent(event, 'wc.requestSent')
      const { request } = event
      const expiry = capped(request.expiry ?? Date.now() + REQUEST_TTL_MS, context.ttl.requestMs)
      enqueue.spawnChild('outgoingRequest', {
        id: `request:${request.id}`,
        input: { parent: self, request: { ...request, expiry }, observed: true },
      })
      enqueue.assign({
        requests: {
          ...context.requests,
          [String(request.id)]: { id: request.id, topic: request.topic, method: request.request.method },
        },
      })
    }),
    addReceivedRequest: enqueueActions(({ context, event, enqueue, self }) => {
      assertEvent(event, 'wc.sessionRequest')
      enqueue.assign(addIncomingRequest(context, event.request, enqueue, self))
    }),
    addReceivedAuth: enqueueActions(({ context, event, enqueue, self }) => {
      assertEvent(event, 'wc.sessionAuthenticate')
      const { request } = event
      const expiry = capped(request.expiry, context.ttl.authMs)
      enqueue.spawnChild('auth', {
        id: `auth:${request.id}`,
        input: { parent: self, role: 'wallet', id: request.id, expiry, request },
      })
      enqueue.assign({
        auths: {
          ...context.auths,
          [String(request.id)]: { id: request.id, pairingTopic: request.pairingTopic },
        },
      })
    }),
    startAuth: enqueueActions(({ context, event, enqueue, self }) => {
      assertEvent(event, 'session.authenticate')
      // The reference client keeps an auth request at least an hour.
      const expiry = capped(Date.now() + Math.max(event.params.expiry ?? 0, 3_600) * 1000, context.ttl.authMs)
      enqueue.spawnChild('auth', {
        id: `auth:${event.id}`,
        input: { parent: self, role: 'app', id: event.id, expiry, params: event.params },
      })
      enqueue.assign({
        auths: { ...context.auths, [String(event.id)]: { id: event.id } },
        lastError: undefined,
      })
    }),
    answerLocally: assign(({ context, event }) => {
      assertEvent(event, 'request.send')
      const plan = planRequest(context, event)
      if (plan.kind !== 'local') return {}
      const { answer, topic } = plan
      const record = context.sessions[topic]!
      return {
        ...(answer.chainId
          ? { sessions: { ...context.sessions, [topic]: { ...record, chainId: answer.chainId } } }
          : {}),
        outcomes: logged(context, {
          kind: 'request',
          key: String(event.id),
          outcome: 'fulfilled',
          local: true,
          result: answer.result,
        }),
        recentlyDeleted: rememberDeleted(context.recentlyDeleted, event.id, 'request'),
        lastError: undefined,
      }
    }),
    sendRequest: enqueueActions(({ context, event, enqueue, self }) => {
      assertEvent(event, 'request.send')
      const plan = planRequest(context, event)
      if (plan.kind !== 'send') return
      const expiry = capped(
        Date.now() + (event.expiry === undefined ? REQUEST_TTL_MS : event.expiry * 1000),
        context.ttl.requestMs,
      )
      const request: RequestInfo = {
        id: event.id,
        topic: plan.topic,
        chainId: plan.chainId,
        request: event.request,
        expiry,
      }
      enqueue.spawnChild('outgoingRequest', {
        id: `request:${event.id}`,
        input: {
          parent: self,
          request,
          observed: false,
          ...(event.expiry === undefined ? {} : { expirySeconds: event.expiry }),
        },
      })
      enqueue.assign({
        requests: {
          ...context.requests,
          [String(event.id)]: { id: event.id, topic: plan.topic, method: event.request.method },
        },
        lastError: undefined,
      })
    }),
    clearError: assign({ lastError: undefined }),
    refuseBusy: assign(({ event }) => ({
      lastError: {
        command: event.type,
        error: info(
          new InvalidParamsError(
            `${event.type === 'session.pair' ? 'pair()' : 'connect()'} is already in progress`,
          ),
        ),
      },
    })),
    // ----- notices -----
    forgetProposal: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, 'proposal.settled')
      const key = String(event.id)
      if (!context.proposals[key]) return
      enqueue.emit(event)
      const { [key]: _, ...proposals } = context.proposals
      enqueue.stopChild(`proposal:${key}`)
      if (event.outcome === 'expired')
        enqueue.sendTo('signClient', { type: 'library.expireProposal', id: event.id })
      enqueue.assign({
        proposals,
        recentlyDeleted: rememberDeleted(context.recentlyDeleted, event.id, 'proposal'),
        outcomes: logged(context, {
          kind: 'proposal',
          key,
          outcome: event.outcome,
          ...(event.reason ? { reason: event.reason } : {}),
        }),
      })
    }),
    forgetAuth: enqueueActions(({ context, event, enqueue, self }) => {
      assertEvent(event, 'auth.settled')
      const key = String(event.id)
      if (!context.auths[key]) return
      enqueue.emit(event)
      const { [key]: _, ...auths } = context.auths
      enqueue.stopChild(`auth:${key}`)
      let next: SessionClientContext = {
        ...context,
        auths,
        recentlyDeleted: rememberDeleted(context.recentlyDeleted, event.id, 'auth'),
        outcomes: logged(context, {
          kind: 'auth',
          key,
          outcome: event.outcome,
          ...(event.reason ? { reason: event.reason } : {}),
        }),
      }
      if (event.session && !isKnownKey(next, 'session', event.session.topic)) {
        next = addSession(next, { ...event.session, acknowledged: true }, enqueue, self)
      }
      // App: the fallback proposal sent beside the auth request is answered by the auth approval.
      if (event.outcome === 'approved' && event.pairingTopic) {
        for (const proposal of Object.values(context.proposals)) {
          if (proposal.pairingTopic !== event.pairingTopic) continue
          enqueue.sendTo(`proposal:${proposal.id}`, { type: 'wc.proposalApproved', id: proposal.id })
        }
      }
      enqueue.assign(next)
    }),
    forgetSession: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, 'session.ended')
      const { topic } = event
      if (!context.sessions[topic]) return
      enqueue.emit(event)
      const { [topic]: _, ...sessions } = context.sessions
      enqueue.stopChild(`session:${topic}`)
      if (event.outcome === 'expired') enqueue.sendTo('signClient', { type: 'library.expireSession', topic })
      // SPEC §4: when a session ends, its pending requests are removed.
      for (const request of Object.values(context.requests)) {
        if (request.topic === topic)
          enqueue.sendTo(`request:${request.id}`, { type: 'request.remove', id: request.id })
      }
      enqueue.assign({
        sessions,
        recentlyDeleted: rememberDeleted(context.recentlyDeleted, topic, 'session'),
        outcomes: logged(context, { kind: 'session', key: topic, outcome: event.outcome }),
      })
    }),
    setSessionExpiry: assign(({ context, event }) => {
      assertEvent(event, 'session.expiryChanged')
      const record = context.sessions[event.topic]
      if (!record) return {}
      return { sessions: { ...context.sessions, [event.topic]: { ...record, expiry: event.expiry } } }
    }),
    forgetRequest: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, 'request.settled')
      const key = String(event.id)
      const record = context.requests[key]
      if (!record) return
      enqueue.emit(event)
      const { [key]: _, ...requests } = context.requests
      enqueue.stopChild(`request:${key}`)
      if (event.outcome === 'expired' && context.role === 'wallet') {
        enqueue.sendTo('signClient', { type: 'library.expireRequest', id: event.id, topic: event.topic })
      }
      let sessions = context.sessions
      // A switch the wallet made for the app: the app follows it.
      const session = sessions[event.topic]
      const target = switchTarget(event)
      if (context.role === 'app' && session && target && sessionChains(session.namespaces).includes(target)) {
        sessions = { ...sessions, [event.topic]: { ...session, chainId: target } }
      }
      enqueue.assign({
        requests,
        sessions,
        queue: context.queue.filter((id) => id !== key),
        activeRequest: context.activeRequest === key ? undefined : context.activeRequest,
        recentlyDeleted: rememberDeleted(context.recentlyDeleted, event.id, 'request'),
        outcomes: logged(context, {
          kind: 'request',
          key,
          outcome: event.outcome,
          ...(event.outcome === 'fulfilled' ? { result: event.result } : {}),
          ...(event.error ? { error: event.error } : {}),
        }),
      })
    }),
    activateHead: enqueueActions(({ context, enqueue }) => {
      const head = context.queue[0]
      if (head === undefined) return
      enqueue.assign({ activeRequest: head })
      enqueue.sendTo(`request:${head}`, { type: 'request.activate', id: Number(head) })
    }),
  },
}).createMachine({
  id: 'sessionClient',
  context: ({ input }) => ({
    role: input.role,
    ttl: input.ttl ?? {},
    rpcMap: input.rpcMap ?? {},
    renewExpiredProposals: input.renewExpiredProposals ?? true,
    pairings: {},
    proposals: {},
    sessions: {},
    requests: {},
    auths: {},
    queue: [],
    activeRequest: undefined,
    recentlyDeleted: createRecentlyDeleted(),
    connectParams: undefined,
    pairingUri: undefined,
    outcomes: [],
    lastError: undefined,
  }),
  invoke: { id: 'signClient', src: 'signClient', input: ({ context }) => ({ role: context.role }) },
  type: 'parallel',
  on: {
    // ----- what the WalletConnect client reports -----
    'wc.sync': { actions: 'sync' },
    'wc.pairings': { actions: 'setPairings' },
    'wc.sessionPropose': [{ guard: 'known' }, { actions: 'addProposal' }],
    'wc.proposalApproved': { actions: 'forward' },
    'wc.proposalRejected': { actions: 'forward' },
    'wc.proposalExpired': { actions: 'forward' },
    'wc.sessionSettle': [
      { guard: 'known' },
      { guard: 'refused', actions: 'logSettlementFailure' },
      { actions: 'addSettledSession' },
    ],
    'wc.settleAcknowledged': { actions: ['refreshSession', 'forward'] },
    'wc.settleFailed': { actions: 'forward' },
    'wc.sessionDelete': { actions: 'forward' },
    'wc.sessionExpire': { actions: 'forward' },
    'wc.sessionPing': { actions: 'forward' },
    'wc.sessionExtend': { actions: 'extendByPeer' },
    'wc.sessionUpdate': [{ guard: 'refused', actions: 'discardUpdate' }, { actions: 'applyUpdate' }],
    'wc.sessionEvent': { actions: 'applySessionEvent' },
    'wc.requestSent': [{ guard: 'known' }, { actions: 'addObservedRequest' }],
    'wc.requestResult': { actions: 'forward' },
    'wc.requestError': { actions: 'forward' },
    'wc.sessionRequest': [{ guard: 'known' }, { actions: 'addReceivedRequest' }],
    'wc.requestExpired': { actions: 'forward' },
    'wc.sessionAuthenticate': [{ guard: 'known' }, { actions: 'addReceivedAuth' }],
    // ----- commands: each rule is checked here, before the library sees anything -----
    'session.authenticate': [{ guard: 'refused', actions: 'refuse' }, { actions: 'startAuth' }],
    'proposal.approve': [{ guard: 'refused', actions: 'refuse' }, { actions: ['clearError', 'forward'] }],
    'proposal.reject': [{ guard: 'refused', actions: 'refuse' }, { actions: ['clearError', 'forward'] }],
    'auth.approve': [{ guard: 'refused', actions: 'refuse' }, { actions: ['clearError', 'forward'] }],
    'auth.reject': [{ guard: 'refused', actions: 'refuse' }, { actions: ['clearError', 'forward'] }],
    'request.send': [
      { guard: 'refused', actions: 'refuse' },
      { guard: 'answeredLocally', actions: 'answerLocally' },
      { actions: 'sendRequest' },
    ],
    'request.respond': [{ guard: 'refused', actions: 'refuse' }, { actions: ['clearError', 'forward'] }],
    'session.ping': [{ guard: 'refused', actions: 'refuse' }, { actions: ['clearError', 'forward'] }],
    'session.extend': [{ guard: 'refused', actions: 'refuse' }, { actions: ['clearError', 'forward'] }],
    'session.emit': [{ guard: 'refused', actions: 'refuse' }, { actions: ['clearError', 'forward'] }],
    'session.disconnect': [{ guard: 'refused', actions: 'refuse' }, { actions: ['clearError', 'forward'] }],
    // ----- the children's notices -----
    'proposal.settled': [
      { guard: 'renews', target: '.connect.proposing', actions: 'forgetProposal' },
      { actions: 'forgetProposal' },
    ],
    'auth.settled': { actions: 'forgetAuth' },
    'session.ended': { actions: 'forgetSession' },
    'session.expiryChanged': { actions: 'setSessionExpiry' },
  },
  states: {
    /** App: creating a proposal and its pairing URI. */
    connect: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'session.connect': [
              { guard: 'refused', actions: 'refuse' },
              { target: 'proposing', actions: 'rememberConnect' },
            ],
          },
        },
        proposing: {
          tags: 'connecting',
          on: { 'session.connect': { actions: 'refuseBusy' } },
          invoke: {
            id: 'connect',
            src: 'connect',
            input: ({ context }) => ({ params: context.connectParams }),
            onDone: {
              target: 'idle',
              actions: { type: 'setPairingUri', params: ({ event }) => event.output },
            },
            onError: { target: 'idle', actions: { type: 'setConnectError', params: errorOf } },
          },
        },
      },
    },
    /** Wallet: pairing with an app from its URI (its proposal follows). */
    pair: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'session.pair': [
              { guard: 'refused', actions: 'refuse' },
              { target: 'pairing', actions: 'clearError' },
            ],
          },
        },
        pairing: {
          tags: 'pairing',
          on: { 'session.pair': { actions: 'refuseBusy' } },
          invoke: {
            id: 'pair',
            src: 'pair',
            input: ({ event }) => {
              assertEvent(event, 'session.pair')
              return { uri: event.uri }
            },
            onDone: 'idle',
            onError: { target: 'idle', actions: { type: 'setPairError', params: errorOf } },
          },
        },
      },
    },
    /** SPEC §4: requests are handled one at a time; the queue is idle or active. */
    queue: {
      initial: 'idle',
      states: {
        idle: {
          always: { guard: 'hasQueued', target: 'active' },
          on: { 'request.settled': { actions: 'forgetRequest' } },
        },
        active: {
          entry: 'activateHead',
          on: {
            'request.settled': [
              { guard: 'isActiveRequest', target: 'idle', actions: 'forgetRequest' },
              { actions: 'forgetRequest' },
            ],
          },
        },
      },
    },
  },
})

// ===================================================================================================== helpers

const capped = (expiry: number, ttlMs: number | undefined) =>
  ttlMs === undefined ? expiry : Math.min(expiry, Date.now() + ttlMs)

function logged(context: SessionClientContext, outcome: Outcome): Outcome[] {
  return [...context.outcomes, outcome].slice(-SESSION_OUTCOMES_KEPT)
}

function keyOf(event: SessionClientEvent): { key?: string } {
  if ('id' in event && (typeof event.id === 'number' || typeof event.id === 'string'))
    return { key: String(event.id) }
  if ('topic' in event && typeof event.topic === 'string') return { key: event.topic }
  return {}
}

function isKnown(context: SessionClientContext, event: SessionClientEvent): boolean {
  switch (event.type) {
    case 'wc.sessionPropose':
      return isKnownKey(context, 'proposal', event.proposal.id)
    case 'wc.sessionSettle':
      return isKnownKey(context, 'session', event.topic)
    case 'wc.requestSent':
    case 'wc.sessionRequest':
      return isKnownKey(context, 'request', event.request.id)
    case 'wc.sessionAuthenticate':
      return isKnownKey(context, 'auth', event.request.id)
    default:
      return false
  }
}

/** The child an event is for, if it is alive. */
function childOf(context: SessionClientContext, event: SessionClientEvent): string | undefined {
  switch (event.type) {
    case 'wc.proposalApproved':
    case 'wc.proposalRejected':
    case 'wc.proposalExpired':
    case 'proposal.approve':
    case 'proposal.reject':
      return context.proposals[String(event.id)] ? `proposal:${event.id}` : undefined
    case 'auth.approve':
    case 'auth.reject':
      return context.auths[String(event.id)] ? `auth:${event.id}` : undefined
    case 'wc.settleAcknowledged':
    case 'wc.settleFailed':
    case 'wc.sessionDelete':
    case 'wc.sessionExpire':
    case 'wc.sessionPing':
    case 'session.ping':
    case 'session.extend':
    case 'session.emit':
    case 'session.disconnect':
      return context.sessions[event.topic] ? `session:${event.topic}` : undefined
    case 'wc.requestResult':
    case 'wc.requestError':
    case 'wc.requestExpired':
    case 'request.respond':
      return context.requests[String(event.id)] ? `request:${event.id}` : undefined
    default:
      return undefined
  }
}

function addProposal(
  context: SessionClientContext,
  proposal: ProposalInfo,
  enqueue: SpawnEnqueue,
  self: AnyActorRef,
  refusal: SessionError | undefined,
): SessionClientContext {
  const expiry = capped(proposal.expiry, context.ttl.proposalMs)
  spawn(enqueue, 'proposal', `proposal:${proposal.id}`, {
    parent: self,
    role: context.role,
    proposal: { ...proposal, expiry },
    ...(refusal ? { refusal: info(refusal) } : {}),
  } satisfies ProposalInput)
  return {
    ...context,
    proposals: {
      ...context.proposals,
      [String(proposal.id)]: {
        id: proposal.id,
        pairingTopic: proposal.pairingTopic,
        expiry,
        requiredNamespaces: proposal.requiredNamespaces,
      },
    },
  }
}

function addSession(
  context: SessionClientContext,
  session: SessionInfo,
  enqueue: SpawnEnqueue,
  self: AnyActorRef,
): SessionClientContext {
  const expiry = capped(session.expiry, context.ttl.sessionMs)
  spawn(enqueue, 'session', `session:${session.topic}`, {
    parent: self,
    role: context.role,
    session: { ...session, expiry },
    ...(context.ttl.sessionMs === undefined ? {} : { ttlMs: context.ttl.sessionMs }),
  } satisfies SessionInput)
  return {
    ...context,
    sessions: {
      ...context.sessions,
      [session.topic]: {
        topic: session.topic,
        expiry,
        namespaces: session.namespaces,
        requiredNamespaces: session.requiredNamespaces,
        peer: session.peer,
        ...(session.sessionProperties ? { sessionProperties: session.sessionProperties } : {}),
        ...(session.scopedProperties ? { scopedProperties: session.scopedProperties } : {}),
        ...(context.role === 'app' ? { chainId: defaultChain(session.namespaces) } : {}),
      },
    },
  }
}

/** Wallet: a received request is checked (SPEC §5); a valid one joins the queue, an invalid one is refused to the peer. */
function addIncomingRequest(
  context: SessionClientContext,
  received: Omit<RequestInfo, 'expiry'> & { expiry?: unknown },
  enqueue: SpawnEnqueue,
  self: AnyActorRef,
): SessionClientContext {
  const refusal =
    context.role === 'wallet'
      ? validateIncomingRequest({ ...received, expiry: received.expiry }, recordsView(context))
      : new WrongRoleError('Answering requests', 'wallet')
  const expiry =
    typeof received.expiry === 'number'
      ? capped(received.expiry, context.ttl.requestMs)
      : capped(Date.now() + REQUEST_TTL_MS, context.ttl.requestMs)
  const request: RequestInfo = { ...received, expiry }
  spawn(enqueue, 'incomingRequest', `request:${request.id}`, {
    parent: self,
    request,
    ...(refusal ? { refusal: info(refusal) } : {}),
  } satisfies IncomingRequestInput)
  const key = String(request.id)
  return {
    ...context,
    requests: {
      ...context.requests,
      [key]: { id: request.id, topic: request.topic, method: request.request.method },
    },
    queue: refusal ? context.queue : [...context.queue, key],
  }
}

/**
 * `enqueue.spawnChild` is typed per source; these helpers build the input for one of three sources, so the call
 * goes through this one loosely typed seam (each caller's input is checked with `satisfies`).
 */
type SpawnEnqueue = { spawnChild: (src: never, options: never) => void }

function spawn(
  enqueue: SpawnEnqueue,
  src: 'proposal' | 'session' | 'incomingRequest',
  id: string,
  input: ProposalInput | SessionInput | IncomingRequestInput,
): void {
  ;(enqueue.spawnChild as (src: string, options: { id: string; input: unknown }) => void)(src, {
    id,
    input,
  })
}

/** Builds the session a valid settlement describes (app: the controller is the peer; wallet: we are). */
function sessionFromSettle(event: Extract<SignClientEvent, { type: 'wc.sessionSettle' }>): SessionInfo {
  const settle = event.settle as Required<Pick<SessionInfo, 'relay' | 'namespaces'>> & {
    controller: Participant
    expiry: number
    sessionProperties?: Properties
    scopedProperties?: Properties
  }
  return {
    topic: event.topic,
    ...(event.pairingTopic ? { pairingTopic: event.pairingTopic } : {}),
    expiry: settle.expiry * 1000,
    acknowledged: false,
    relay: settle.relay,
    controller: settle.controller.publicKey,
    self: event.self,
    peer: event.peer,
    namespaces: settle.namespaces,
    requiredNamespaces: event.requiredNamespaces ?? {},
    optionalNamespaces: event.optionalNamespaces ?? {},
    ...(settle.sessionProperties ? { sessionProperties: settle.sessionProperties } : {}),
    ...(settle.scopedProperties ? { scopedProperties: settle.scopedProperties } : {}),
  }
}

function remoteInfo(error: ErrorReason): SessionErrorInfo {
  return { name: 'RemoteError', message: error.message, code: error.code }
}

// ===================================================================================================== selectors

/** The pairing URI to show (app): the last one this client's connect produced. */
export const selectPairingUri = (snapshot: { context: SessionClientContext }) => snapshot.context.pairingUri

/** The request the wallet decides on now, if any. */
export const selectActiveRequest = (snapshot: { context: SessionClientContext }) =>
  snapshot.context.activeRequest === undefined
    ? undefined
    : snapshot.context.requests[snapshot.context.activeRequest]

/** Sessions, newest last. */
export const selectSessions = (snapshot: { context: SessionClientContext }) =>
  Object.values(snapshot.context.sessions)
