import {
  InvalidParamsError,
  type SessionError,
  UnapprovedChainError,
  UnapprovedEventError,
} from '../errors/session'
import { eventsForChain, sessionChains } from './namespaces'
import { own } from './own'
import { isPlainObject } from './validateNamespaces'
import { isNonEmptyString, type RecordsView, validateSessionTopic } from './validateTopic'

/**
 * SPEC §5 emit: a valid session, an approved chain, and an event approved on it.
 *
 * @example
 * validateEmit({ topic, chainId: 'eip155:1', event: { name: 'balanceChanged', data: 1 } }, view)?.shortMessage
 * // 'Unauthorized event. The event is not approved in the session'
 */
export function validateEmit(params: unknown, view: RecordsView): SessionError | undefined {
  if (!isPlainObject(params)) return new InvalidParamsError('emit() params must be an object')
  const topicError = validateSessionTopic(params.topic, view)
  if (topicError) return topicError
  const { namespaces } = own(view.sessions, params.topic as string)!
  const { chainId, event } = params
  if (!isNonEmptyString(chainId) || !sessionChains(namespaces).includes(chainId)) {
    return new UnapprovedChainError({ details: String(chainId) })
  }
  if (!isPlainObject(event) || !isNonEmptyString(event.name))
    return new InvalidParamsError('emit() needs an event name')
  if (!eventsForChain(namespaces, chainId).includes(event.name)) {
    return new UnapprovedEventError({ details: `${event.name} on ${chainId}` })
  }
  return undefined
}
