import { InvalidParamsError, type SessionError } from '../errors/session'
import {
  isPlainObject,
  validateProperties,
  validateProposalNamespaces,
  validateScopedSubset,
} from './validateNamespaces'
import { type RecordsView, validatePairingTopic } from './validateTopic'

/**
 * SPEC §5 connect: the parameters are an object; a given pairing topic exists and is unexpired; chains are
 * written `namespace:chainId`; property values are not null; scoped properties are a subset of the namespaces.
 * The wallet applies the same rules to a proposal it receives (`validateProposal`).
 *
 * @example
 * validateConnect('eip155', view)?.shortMessage // 'Missing or invalid. connect() params must be an object'
 */
export function validateConnect(params: unknown, view: RecordsView): SessionError | undefined {
  if (!isPlainObject(params)) return new InvalidParamsError('connect() params must be an object')
  if (params.pairingTopic !== undefined) {
    const pairing = validatePairingTopic(params.pairingTopic, view)
    if (pairing) return pairing
  }
  return validateProposalShape(params)
}

/** The rules a wallet checks on a proposal it received: the connect rules, without the pairing. */
export function validateProposal(proposal: unknown): SessionError | undefined {
  if (!isPlainObject(proposal)) return new InvalidParamsError('The proposal must be an object')
  return validateProposalShape(proposal)
}

function validateProposalShape(params: Record<string, unknown>): SessionError | undefined {
  const { relays, requiredNamespaces, optionalNamespaces, sessionProperties, scopedProperties } = params
  if (relays !== undefined) {
    const valid =
      Array.isArray(relays) &&
      relays.length > 0 &&
      relays.every((relay) => isPlainObject(relay) && typeof relay.protocol === 'string')
    if (!valid) return new InvalidParamsError('relays must be a list of { protocol }')
  }
  return (
    validateProposalNamespaces(requiredNamespaces, 'requiredNamespaces') ??
    validateProposalNamespaces(optionalNamespaces, 'optionalNamespaces') ??
    validateProperties(sessionProperties, 'sessionProperties') ??
    validateProperties(scopedProperties, 'scopedProperties') ??
    validateScopedSubset(scopedProperties, {
      ...(isPlainObject(requiredNamespaces) ? requiredNamespaces : {}),
      ...(isPlainObject(optionalNamespaces) ? optionalNamespaces : {}),
    })
  )
}
