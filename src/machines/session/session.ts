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
import {
  PING_RESPONSE_DELAY_MS,
  SESSION_EXTEND_MARGIN_MS,
  SESSION_PEER_ANSWER_TIMEOUT_MS,
  SESSION_PING_INTERVAL_MS,
  SESSION_TTL_MS,
} from '../../constants'
import { type ErrorReason, PeerNotAnsweringError, type SessionErrorInfo } from '../../errors/session'
import { errorInfoOf } from '../../session/rules'
import type { Participant, SessionEventInfo, SessionInfo } from '../../session/types'
import { errorOf, extendAt, info, notProvided, reached, remaining, systemClock } from './shared'
import type { Clock, Role, SessionNotice } from './types'

/**
 * One session (`session:<topic>`, SPEC §4): settling → active (lifetime, ping, extend, emit) → deleted | expired |
 * peerDisconnected (or settlementFailed).
 *
 * The side that keeps the session alive (`keepAlive`: the app by default) extends it before it expires (the named
 * delay `extendDue`, SESSION_EXTEND_MARGIN_MS before the expiry the wallet set, or halfway through a shorter
 * session) and pings the peer after `pingIntervalMs` without word from it. A ping or an extension the peer does not
 * answer within SESSION_PEER_ANSWER_TIMEOUT_MS (or answers with an error) is the tag `unresponsive`: the session is
 * kept, the peer is asked again after the interval (or at once on `session.ping`), and a pong ends it.
 */
export interface SessionInput {
  parent?: AnyActorRef
  role: Role
  clock?: Clock
  session: SessionInfo
  /** How long an extension lasts (SPEC §4: extending resets the expiry). */
  ttlMs?: number
  /** This side extends the session before it expires and pings a silent peer. Default: the app's side. */
  keepAlive?: boolean
  /** How long the peer may stay silent before it is pinged. Default SESSION_PING_INTERVAL_MS. */
  pingIntervalMs?: number
}

export interface SessionContext {
  parent: AnyActorRef | undefined
  role: Role
  clock: Clock
  topic: string
  peer: Participant
  expiry: number
  acknowledged: boolean
  ttlMs: number
  keepAlive: boolean
  pingIntervalMs: number
  /** When the next extension is due (epoch ms; planned on each new expiry). */
  extendAt: number
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
    tags: {} as 'busy' | 'unresponsive',
  },
  actors: {
    /** Pings the peer; sends back `session.pong` when it answers with success, `session.pingFailed` otherwise. */
    ping: fromCallback<SessionEvent, { topic: string }>(notProvided('sessionMachine', 'ping')),
    /** Extends the session; resolves once the peer acknowledged the extension. */
    extend: fromPromise<void, { topic: string }>(notProvided('sessionMachine', 'extend')),
    emit: fromPromise<void, { topic: string; chainId: string; event: SessionEventInfo }>(
      notProvided('sessionMachine', 'emit'),
    ),
    disconnect: fromPromise<void, { topic: string; reason: ErrorReason }>(
      notProvided('sessionMachine', 'disconnect'),
    ),
  },
  delays: {
    sessionExpiry: ({ context }) => remaining(context.clock, context.expiry),
    /** SPEC §9: the pinger handles the peer's answer 500 ms late. */
    pingResponse: PING_RESPONSE_DELAY_MS,
    /** Until the extension is due (see `extendAt`). */
    extendDue: ({ context }) => remaining(context.clock, context.extendAt),
    /** How long the peer may stay silent before it is pinged. */
    peerSilence: ({ context }) => context.pingIntervalMs,
    /** How long a ping or an extension waits for the peer's answer. */
    peerAnswer: SESSION_PEER_ANSWER_TIMEOUT_MS,
  },
  guards: {
    acknowledged: ({ context }) => context.acknowledged,
    byPeer: ({ event }) => event.type === 'wc.sessionDelete' && event.by === 'peer',
    hasOutbox: ({ context }) => context.outbox.length > 0,
    /** The session's expiry has come: a delay clamped to what a timer holds may end before it. */
    expiryReached: ({ context }) => reached(context.clock, context.expiry),
    keepsAlive: ({ context }) => context.keepAlive,
    /** This side keeps the session alive and its extension is due (a clamped delay may end before it). */
    extendDueReached: ({ context }) => context.keepAlive && reached(context.clock, context.extendAt),
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
      expiry: context.clock() + context.ttlMs,
    })),
    planExtend: assign(({ context }) => ({
      extendAt: extendAt(context.clock(), context.expiry, SESSION_EXTEND_MARGIN_MS),
    })),
    raiseExtend: raise(({ context }) => ({ type: 'session.extend' as const, topic: context.topic })),
    setPingTimedOut: assign({
      error: () => info(new PeerNotAnsweringError('ping', { timeoutMs: SESSION_PEER_ANSWER_TIMEOUT_MS })),
    }),
    setExtendTimedOut: assign({
      error: () => info(new PeerNotAnsweringError('extend', { timeoutMs: SESSION_PEER_ANSWER_TIMEOUT_MS })),
    }),
    clearError: assign({ error: undefined }),
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
    clock: input.clock ?? systemClock,
    topic: input.session.topic,
    peer: input.session.peer,
    expiry: input.session.expiry,
    acknowledged: input.session.acknowledged,
    ttlMs: input.ttlMs ?? SESSION_TTL_MS,
    keepAlive: input.keepAlive ?? input.role === 'app',
    pingIntervalMs: input.pingIntervalMs ?? SESSION_PING_INTERVAL_MS,
    extendAt: input.session.expiry,
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
      after: { sessionExpiry: { guard: 'expiryReached', target: 'expired' } },
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
              entry: 'planExtend',
              after: {
                // A far expiry (past what one timer holds) re-arms the delay instead of firing early.
                sessionExpiry: [
                  { guard: 'expiryReached', target: '#session.expired' },
                  { target: 'live', reenter: true },
                ],
                // Extended before it expires; the extension's new expiry plans the next one.
                extendDue: [
                  { guard: 'extendDueReached', actions: 'raiseExtend' },
                  { guard: 'keepsAlive', target: 'live', reenter: true },
                ],
              },
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
            idle: {
              after: { peerSilence: { guard: 'keepsAlive', target: 'pinging' } },
              on: {
                'session.ping': 'pinging',
                // The peer pinged (the library answered): it is not silent.
                'wc.sessionPing': { target: 'idle', reenter: true, actions: 'countPingAnswered' },
              },
            },
            pinging: {
              tags: 'busy',
              invoke: { id: 'ping', src: 'ping', input: ({ context }) => ({ topic: context.topic }) },
              on: {
                'session.pong': 'answered',
                'session.pingFailed': { target: 'unresponsive', actions: 'setPingError' },
              },
              after: { peerAnswer: { target: 'unresponsive', actions: 'setPingTimedOut' } },
            },
            /** The peer answered with success; the answer is handled after the SPEC's delay. */
            answered: { after: { pingResponse: { target: 'idle', actions: 'countPong' } } },
            /** The peer did not answer: the session is kept and the peer asked again (`session.ping` at once). */
            unresponsive: {
              tags: 'unresponsive',
              initial: 'waiting',
              on: { 'wc.sessionPing': { target: 'idle', actions: ['countPingAnswered', 'clearError'] } },
              states: {
                waiting: {
                  after: { peerSilence: { guard: 'keepsAlive', target: 'retrying' } },
                  on: { 'session.ping': 'retrying' },
                },
                retrying: {
                  tags: 'busy',
                  invoke: { id: 'ping', src: 'ping', input: ({ context }) => ({ topic: context.topic }) },
                  on: {
                    'session.pong': '#session.active.ping.answered',
                    'session.pingFailed': { target: 'waiting', actions: 'setPingError' },
                  },
                  after: { peerAnswer: { target: 'waiting', actions: 'setPingTimedOut' } },
                },
              },
            },
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
                onError: { target: 'failed', actions: { type: 'setError', params: errorOf } },
              },
              after: { peerAnswer: { target: 'failed', actions: 'setExtendTimedOut' } },
            },
            /** The peer did not acknowledge: extended again on `session.extend`, or once it answers a ping. */
            failed: {
              tags: 'unresponsive',
              on: { 'session.extend': 'extending', 'session.pong': 'extending' },
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

/**
 * `sessionMachine`'s type by name: the declarations of what runs it name it instead of repeating its whole type
 * (what keeps the package's .d.ts files small).
 */
export interface SessionMachine extends SessionMachineType {}
type SessionMachineType = typeof sessionMachine
