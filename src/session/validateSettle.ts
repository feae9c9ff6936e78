import { InvalidSettleError, type SessionError, SettleExpiredError } from '../errors/session'
import { isPlainObject, validateSessionNamespaces } from './validateNamespaces'
import { isNonEmptyString } from './validateTopic'

/**
 * SPEC §5 settle: a relay, the controller's public key and namespaces are required, and the settlement has not
 * expired (`expiry` counts seconds, as on the wire).
 *
 * @example
 * validateSettle({ relay: { protocol: 'irn' }, namespaces }, Date.now())?.shortMessage
 * // "Missing or invalid. A settlement needs a relay, the controller's public key and namespaces"
 */
export function validateSettle(params: unknown, now: number): SessionError | undefined {
  if (!isPlainObject(params)) return new InvalidSettleError()
  const { relay, controller, namespaces, expiry } = params
  if (!isPlainObject(relay) || !isNonEmptyString(relay.protocol))
    return new InvalidSettleError({ details: 'relay' })
  if (!isPlainObject(controller) || !isNonEmptyString(controller.publicKey)) {
    return new InvalidSettleError({ details: 'controller public key' })
  }
  if (namespaces === undefined) return new InvalidSettleError({ details: 'namespaces' })
  const namespacesError = validateSessionNamespaces(namespaces)
  if (namespacesError) return namespacesError
  if (typeof expiry !== 'number' || expiry * 1000 <= now) return new SettleExpiredError()
  return undefined
}
