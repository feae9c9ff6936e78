import {
  InvalidParamsError,
  InvalidRejectReasonError,
  NotConnectedError,
  type SessionError,
  type SessionErrorInfo,
  sessionErrorInfo,
  toSessionError,
  WrongRoleError,
} from '../errors/session'
import type {
  Role,
  SessionClientContext,
  SessionClientEvent,
  SessionCommand,
  SessionNotice,
} from '../machines/session'
import { answerLocally, type LocalAnswer } from './eip155'
import { sessionChains } from './namespaces'
import { wasRecentlyDeleted } from './recentlyDeleted'
import type { Namespaces, RecordKind } from './types'
import { validateApprove } from './validateApprove'
import { validateAuthenticate, validateAuthResponse } from './validateAuthenticate'
import { validateConnect } from './validateConnect'
import { validateEmit } from './validateEmit'
import { isPlainObject } from './validateNamespaces'
import { isErrorReason, validateReject } from './validateReject'
import { validateRequest } from './validateRequest'
import { validateRespond } from './validateRespond'
import { validateSettle } from './validateSettle'
import { type RecordsView, validateSessionTopic } from './validateTopic'
import { validateUpdate } from './validateUpdate'

/**
 * Which SPEC §5 rule applies to which command or report of the session client, over the records it keeps. The
 * machine's guards ask `refusalOf`; a refused command never reaches the WalletConnect client.
 */

/** The records as the SPEC §5 rules read them. */
export function recordsView(context: SessionClientContext): RecordsView {
  return {
    now: Date.now(),
    recentlyDeleted: context.recentlyDeleted,
    sessions: context.sessions,
    proposals: context.proposals,
    pairings: context.pairings,
  }
}

/** A record the client holds, or held a moment ago (SPEC §4: reusing it is refused). */
export function isKnownKey(context: SessionClientContext, kind: RecordKind, key: string | number): boolean {
  const id = String(key)
  if (wasRecentlyDeleted(context.recentlyDeleted, id)) return true
  switch (kind) {
    case 'proposal':
      return id in context.proposals
    case 'session':
      return id in context.sessions
    case 'request':
      return id in context.requests
    case 'auth':
      return id in context.auths
    case 'pairing':
      return id in context.pairings
  }
}

/** The chain the app starts on: the namespace's default, else the first approved one. */
export function defaultChain(namespaces: Namespaces): string | undefined {
  const eip155 = namespaces.eip155
  if (eip155?.defaultChain) {
    return eip155.defaultChain.includes(':') ? eip155.defaultChain : `eip155:${eip155.defaultChain}`
  }
  return sessionChains(namespaces)[0]
}

/** A chain reference from a chainChanged payload or a switch request: `1`, `'0x1'` or `'1'` → `'1'`. */
export function chainReference(data: unknown): string | undefined {
  if (typeof data === 'number' && Number.isSafeInteger(data)) return String(data)
  if (typeof data === 'string' && /^0x[0-9a-f]+$/i.test(data)) return BigInt(data).toString()
  if (typeof data === 'string' && /^\d+$/.test(data)) return data
  return undefined
}

/** The chain a fulfilled wallet_switchEthereumChain moved to, so the app follows it. */
export function switchTarget(event: Extract<SessionNotice, { type: 'request.settled' }>): string | undefined {
  if (event.outcome !== 'fulfilled' || event.request.method !== 'wallet_switchEthereumChain') return undefined
  const params = event.request.params
  const first = Array.isArray(params) ? params[0] : undefined
  const reference = isPlainObject(first) ? chainReference(first.chainId) : undefined
  return reference === undefined ? undefined : `eip155:${reference}`
}

export type RequestPlan =
  | { kind: 'refused'; error: SessionError }
  | { kind: 'local'; topic: string; answer: Extract<LocalAnswer, { kind: 'result' }> }
  | { kind: 'send'; topic: string; chainId: string }

/**
 * App: where a request goes. No session: 'Please call connect() before request()'. A locally handled eip155
 * method is answered here (SPEC §7); anything else must pass the request rule (SPEC §5) to be sent.
 */
export function planRequest(
  context: SessionClientContext,
  event: Extract<SessionCommand, { type: 'request.send' }>,
): RequestPlan {
  const view = recordsView(context)
  if (!Number.isSafeInteger(event.id) || isKnownKey(context, 'request', event.id)) {
    return { kind: 'refused', error: new InvalidParamsError('A request id must be a new number') }
  }
  const topics = Object.keys(context.sessions)
  const topic = event.topic ?? topics[topics.length - 1]
  if (topic === undefined) return { kind: 'refused', error: new NotConnectedError() }
  const topicError = validateSessionTopic(topic, view)
  if (topicError) return { kind: 'refused', error: topicError }
  const record = context.sessions[topic]!
  const chainId = event.chainId ?? record.chainId ?? defaultChain(record.namespaces)
  const local = isPlainObject(event.request)
    ? answerLocally(event.request, { session: record, chainId, rpcMap: context.rpcMap })
    : undefined
  if (local?.kind === 'error') return { kind: 'refused', error: local.error }
  if (local?.kind === 'result') return { kind: 'local', topic, answer: local }
  const sendChainId = local?.kind === 'wallet' ? local.chainId : (chainId ?? '')
  const error = validateRequest(
    {
      topic,
      chainId: sendChainId,
      request: event.request,
      ...(event.expiry === undefined ? {} : { expiry: event.expiry }),
    },
    view,
  )
  return error ? { kind: 'refused', error } : { kind: 'send', topic, chainId: sendChainId }
}

/** The SPEC §5 rule a command or report breaks, if any. */
export function refusalOf(
  context: SessionClientContext,
  event: SessionClientEvent,
): SessionError | undefined {
  const view = recordsView(context)
  const role = (wanted: Role, command: string) =>
    context.role === wanted ? undefined : new WrongRoleError(command, wanted)
  switch (event.type) {
    case 'session.connect':
      return role('app', 'connect()') ?? validateConnect(event.params, view)
    case 'session.pair':
      return (
        role('wallet', 'pair()') ??
        (typeof event.uri === 'string' && /^wc:[0-9a-f]{64}@2\?/i.test(event.uri)
          ? undefined
          : new InvalidParamsError('pair() needs a WalletConnect v2 URI'))
      )
    case 'session.authenticate':
      return (
        role('app', 'authenticate()') ??
        (Number.isSafeInteger(event.id) && !isKnownKey(context, 'auth', event.id)
          ? validateAuthenticate(event.params)
          : new InvalidParamsError('An auth request id must be a new number'))
      )
    case 'proposal.approve': {
      const { type: _, ...params } = event
      return role('wallet', 'approve()') ?? validateApprove(params, view)
    }
    case 'proposal.reject': {
      const { type: _, ...params } = event
      return role('wallet', 'reject()') ?? validateReject(params, view)
    }
    case 'auth.approve':
      return role('wallet', 'approveSessionAuthenticate()') ?? validateAuthResponse(event.id, context.auths)
    case 'auth.reject':
      return (
        role('wallet', 'rejectSessionAuthenticate()') ??
        validateAuthResponse(event.id, context.auths) ??
        (isErrorReason(event.reason) ? undefined : new InvalidRejectReasonError())
      )
    case 'request.send': {
      const wrong = role('app', 'request()')
      if (wrong) return wrong
      const plan = planRequest(context, event)
      return plan.kind === 'refused' ? plan.error : undefined
    }
    case 'request.respond': {
      const { type: _, ...params } = event
      return (
        role('wallet', 'respond()') ??
        validateRespond(params, {
          active: context.activeRequest,
          known: new Set(Object.keys(context.requests)),
          recentlyDeleted: context.recentlyDeleted,
        })
      )
    }
    case 'session.ping':
    case 'session.extend':
    case 'session.disconnect':
      return validateSessionTopic(event.topic, view)
    case 'session.emit': {
      const { type: _, ...params } = event
      return role('wallet', 'emit()') ?? validateEmit(params, view)
    }
    case 'wc.sessionSettle':
      return validateSettle(event.settle, view.now)
    case 'wc.sessionUpdate': {
      const record = context.sessions[event.topic]
      return validateUpdate(event, record?.lastUpdateId, view)
    }
    default:
      return undefined
  }
}

/** Any failure, as snapshot data. */
export function errorInfoOf(error: unknown): SessionErrorInfo {
  if (
    isPlainObject(error) &&
    typeof error.name === 'string' &&
    typeof error.message === 'string' &&
    typeof error.code === 'number'
  ) {
    return { name: error.name, message: error.message, code: error.code }
  }
  return sessionErrorInfo(toSessionError(error))
}
