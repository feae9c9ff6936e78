import type { AnyActorRef } from 'xstate'
import { REQUEST_TTL_MS, SESSION_OUTCOMES_KEPT } from '../../constants'
import { type SessionError, WrongRoleError } from '../../errors/session'
import { sessionChains } from '../../session/namespaces'
import { own } from '../../session/own'
import { rememberDeleted } from '../../session/recentlyDeleted'
import { defaultChain, isKnownKey, recordsView, switchTarget } from '../../session/rules'
import type { Participant, Properties, ProposalInfo, RequestInfo, SessionInfo } from '../../session/types'
import { validateIncomingRequest } from '../../session/validateRequest'
import type { ProposalInput } from './proposal'
import type { IncomingRequestInput } from './request'
import type { SessionInput } from './session'
import { info } from './shared'
import type {
  Outcome,
  SessionClientContext,
  SessionClientEvent,
  SessionNotice,
  SignClientEvent,
} from './types'

/** The session client's bookkeeping: its records, and the children it spawns for them. */

/**
 * `expiry`, or earlier when the client's own lifetime `ttlMs` (from now) ends first. An expiry that is not a
 * finite number (NaN, Infinity from a peer) is no lifetime at all: the record expires now (issue 13 item 6).
 */
export const capped = (now: number, expiry: number, ttlMs: number | undefined) => {
  if (!Number.isFinite(expiry)) return now
  return ttlMs === undefined ? expiry : Math.min(expiry, now + ttlMs)
}

export function logged(context: SessionClientContext, outcome: Outcome): Outcome[] {
  return [...context.outcomes, outcome].slice(-SESSION_OUTCOMES_KEPT)
}

export function keyOf(event: SessionClientEvent): { key?: string } {
  if ('id' in event && (typeof event.id === 'number' || typeof event.id === 'string'))
    return { key: String(event.id) }
  if ('topic' in event && typeof event.topic === 'string') return { key: event.topic }
  return {}
}

export function isKnown(context: SessionClientContext, event: SessionClientEvent): boolean {
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
export function childOf(context: SessionClientContext, event: SessionClientEvent): string | undefined {
  switch (event.type) {
    case 'wc.proposalApproved':
    case 'wc.proposalRejected':
    case 'wc.proposalExpired':
    case 'proposal.approve':
    case 'proposal.reject':
      return own(context.proposals, String(event.id)) ? `proposal:${event.id}` : undefined
    case 'auth.approve':
    case 'auth.reject':
      return own(context.auths, String(event.id)) ? `auth:${event.id}` : undefined
    case 'wc.settleAcknowledged':
    case 'wc.settleFailed':
    case 'wc.sessionDelete':
    case 'wc.sessionExpire':
    case 'wc.sessionPing':
    case 'session.ping':
    case 'session.extend':
    case 'session.emit':
    case 'session.disconnect':
      return own(context.sessions, event.topic) ? `session:${event.topic}` : undefined
    case 'wc.requestResult':
    case 'wc.requestError':
    case 'wc.requestExpired':
    case 'request.respond':
      return own(context.requests, String(event.id)) ? `request:${event.id}` : undefined
    default:
      return undefined
  }
}

export function addProposal(
  context: SessionClientContext,
  proposal: ProposalInfo,
  enqueue: SpawnEnqueue,
  self: AnyActorRef,
  refusal: SessionError | undefined,
): SessionClientContext {
  const expiry = capped(context.clock(), proposal.expiry, context.ttl.proposalMs)
  spawn(enqueue, 'proposal', `proposal:${proposal.id}`, {
    parent: self,
    role: context.role,
    clock: context.clock,
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

export function addSession(
  context: SessionClientContext,
  session: SessionInfo,
  enqueue: SpawnEnqueue,
  self: AnyActorRef,
): SessionClientContext {
  const expiry = capped(context.clock(), session.expiry, context.ttl.sessionMs)
  spawn(enqueue, 'session', `session:${session.topic}`, {
    parent: self,
    role: context.role,
    clock: context.clock,
    session: { ...session, expiry },
    ...(context.ttl.sessionMs === undefined ? {} : { ttlMs: context.ttl.sessionMs }),
    ...(context.pingIntervalMs === undefined ? {} : { pingIntervalMs: context.pingIntervalMs }),
    ...(context.keepAlive === undefined ? {} : { keepAlive: context.keepAlive }),
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
export function addIncomingRequest(
  context: SessionClientContext,
  received: Omit<RequestInfo, 'expiry'> & { expiry?: unknown },
  enqueue: SpawnEnqueue,
  self: AnyActorRef,
  /** Set when the client's guards checked the request already (`wc.sessionRequest`); a synced one is checked here. */
  checked?: { refusal: SessionError | undefined },
): SessionClientContext {
  const now = context.clock()
  const refusal = checked
    ? checked.refusal
    : context.role === 'wallet'
      ? validateIncomingRequest({ ...received, expiry: received.expiry }, recordsView(context, now))
      : new WrongRoleError('Answering requests', 'wallet')
  const expiry = capped(
    now,
    typeof received.expiry === 'number' ? received.expiry : now + REQUEST_TTL_MS,
    context.ttl.requestMs,
  )
  const request: RequestInfo = { ...received, expiry }
  spawn(enqueue, 'incomingRequest', `request:${request.id}`, {
    parent: self,
    clock: context.clock,
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
export type SpawnEnqueue = { spawnChild: (src: never, options: never) => void }

export function spawn(
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
export function sessionFromSettle(
  event: Extract<SignClientEvent, { type: 'wc.sessionSettle' }>,
): SessionInfo {
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

/** `wc.sync`: the library's records this client does not know yet, each with its child. */
export function syncRecords(
  context: SessionClientContext,
  event: Extract<SignClientEvent, { type: 'wc.sync' }>,
  enqueue: SpawnEnqueue,
  self: AnyActorRef,
): SessionClientContext {
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
  return { ...next, pairings: { ...context.pairings, ...event.pairings } }
}

/** The session records after the library acknowledged `session` (its namespaces and properties as settled). */
export function refreshed(
  sessions: SessionClientContext['sessions'],
  topic: string,
  session: SessionInfo,
): SessionClientContext['sessions'] {
  const record = sessions[topic]
  if (!record) return sessions
  return {
    ...sessions,
    [topic]: {
      ...record,
      namespaces: session.namespaces,
      requiredNamespaces: session.requiredNamespaces,
      ...(session.sessionProperties ? { sessionProperties: session.sessionProperties } : {}),
      ...(session.scopedProperties ? { scopedProperties: session.scopedProperties } : {}),
    },
  }
}

/** The records once a request settled: forgotten, out of the queue, logged; the app follows a switch it made. */
export function withoutRequest(
  context: SessionClientContext,
  event: Extract<SessionNotice, { type: 'request.settled' }>,
): Partial<SessionClientContext> {
  const key = String(event.id)
  const { [key]: _, ...requests } = context.requests
  let sessions = context.sessions
  // A switch the wallet made for the app: the app follows it.
  const session = sessions[event.topic]
  const target = switchTarget(event)
  if (context.role === 'app' && session && target && sessionChains(session.namespaces).includes(target)) {
    sessions = { ...sessions, [event.topic]: { ...session, chainId: target } }
  }
  return {
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
  }
}
