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
import { PING_RESPONSE_DELAY_MS, SESSION_TTL_MS } from '../../constants'
import type { ErrorReason, SessionErrorInfo } from '../../errors/session'
import { errorInfoOf } from '../../session/rules'
import type { Participant, SessionEventInfo, SessionInfo } from '../../session/types'
import { errorOf, notProvided, reached, remaining, systemClock } from './shared'
import type { Clock, Role, SessionNotice } from './types'

/**
 * One session (`session:<topic>`, SPEC §4): settling → active (lifetime, ping, extend, emit) → deleted | expired |
 * peerDisconnected (or settlementFailed).
 */
export interface SessionInput {
  parent?: AnyActorRef
  role: Role
  clock?: Clock
  session: SessionInfo
  /** How long an extension lasts (SPEC §4: extending resets the expiry). */
  ttlMs?: number
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
    sessionExpiry: ({ context }) => remaining(context.clock, context.expiry),
    /** SPEC §9: the pinger handles the peer's answer 500 ms late. */
    pingResponse: PING_RESPONSE_DELAY_MS,
  },
  guards: {
    acknowledged: ({ context }) => context.acknowledged,
    byPeer: ({ event }) => event.type === 'wc.sessionDelete' && event.by === 'peer',
    hasOutbox: ({ context }) => context.outbox.length > 0,
    /** The session's expiry has come: a delay clamped to what a timer holds may end before it. */
    expiryReached: ({ context }) => reached(context.clock, context.expiry),
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
              after: {
                // A far expiry (past what one timer holds) re-arms the delay instead of firing early.
                sessionExpiry: [
                  { guard: 'expiryReached', target: '#session.expired' },
                  { target: 'live', reenter: true },
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

/**
 * `sessionMachine`'s type by name: the declarations of what runs it name it instead of repeating its whole type
 * (what keeps the package's .d.ts files small).
 */
export interface SessionMachine extends SessionMachineType {}
type SessionMachineType = typeof sessionMachine
