import { REQUEST_EXPIRY_MAX_S, REQUEST_EXPIRY_MIN_S } from '../constants'
import {
  InvalidParamsError,
  InvalidRequestExpiryError,
  RequestExpiredError,
  type SessionError,
  UnapprovedChainError,
  UnapprovedMethodError,
} from '../errors/session'
import { methodsForChain, sessionChains } from './namespaces'
import { own } from './own'
import type { RpcRequest } from './types'
import { isPlainObject } from './validateNamespaces'
import { isNonEmptyString, type RecordsView, validateSessionTopic } from './validateTopic'

/** What the app asks to send (the reference client's `request()` parameters). */
export interface RequestParams {
  topic: string
  chainId: string
  request: RpcRequest
  /** Seconds the request stays valid. */
  expiry?: number
}

/** SPEC §5: a request's expiry, when given, is a number of seconds within the library's limits. */
export function requestExpiryInRange(expiry: unknown): boolean {
  return (
    expiry === undefined ||
    (typeof expiry === 'number' &&
      Number.isFinite(expiry) &&
      expiry >= REQUEST_EXPIRY_MIN_S &&
      expiry <= REQUEST_EXPIRY_MAX_S)
  )
}

/**
 * SPEC §5 request: a valid session, an approved chainId, a method approved for the account's chain and, when
 * given, a numeric expiry within the library's limits (`REQUEST_EXPIRY_MIN_S`…`REQUEST_EXPIRY_MAX_S`).
 *
 * @example
 * validateRequest({ topic, chainId: 'eip155:5', request: { method: 'personal_sign' } }, view)?.shortMessage
 * // 'Unsupported chains. The chainId is not approved in the session'
 */
export function validateRequest(params: unknown, view: RecordsView): SessionError | undefined {
  if (!isPlainObject(params)) return new InvalidParamsError('request() params must be an object')
  const approved = validateMethodOnChain(params, view)
  if (approved) return approved
  const { expiry } = params
  if (!requestExpiryInRange(expiry)) {
    return new InvalidRequestExpiryError({ details: String(expiry) })
  }
  return undefined
}

/**
 * The same rule on the wallet's side, for a request it received: its expiry is an absolute time (epoch ms) that
 * must be a number, not past, and not further away than the library allows.
 */
export function validateIncomingRequest(
  params: { topic: unknown; chainId: unknown; request: unknown; expiry: unknown },
  view: RecordsView,
): SessionError | undefined {
  const approved = validateMethodOnChain(params, view)
  if (approved) return approved
  const { expiry } = params
  if (typeof expiry !== 'number' || !Number.isFinite(expiry)) return new InvalidRequestExpiryError()
  if (expiry <= view.now) return new RequestExpiredError()
  if (expiry - view.now > REQUEST_EXPIRY_MAX_S * 1000) return new InvalidRequestExpiryError()
  return undefined
}

function validateMethodOnChain(
  params: { topic?: unknown; chainId?: unknown; request?: unknown },
  view: RecordsView,
): SessionError | undefined {
  const topicError = validateSessionTopic(params.topic, view)
  if (topicError) return topicError
  const { namespaces } = own(view.sessions, params.topic as string)!
  const { chainId, request } = params
  if (!isNonEmptyString(chainId) || !sessionChains(namespaces).includes(chainId)) {
    return new UnapprovedChainError({ details: String(chainId) })
  }
  if (!isPlainObject(request) || !isNonEmptyString(request.method)) {
    return new InvalidParamsError('request() needs a method')
  }
  if (!methodsForChain(namespaces, chainId).includes(request.method)) {
    return new UnapprovedMethodError({ details: `${request.method} on ${chainId}` })
  }
  return undefined
}
