import { InvalidParamsError, type SessionError } from '../errors/session'
import { own } from './own'
import type { Namespaces } from './types'
import {
  isPlainObject,
  validateConforming,
  validateProperties,
  validateScopedSubset,
  validateSessionNamespaces,
} from './validateNamespaces'
import { type RecordsView, validateProposalId } from './validateTopic'

export interface ApproveParams {
  id: number
  namespaces: Namespaces
  sessionProperties?: Record<string, unknown>
  scopedProperties?: Record<string, unknown>
  relayProtocol?: string
}

/**
 * SPEC §5 approve: the proposal exists and is unexpired, and the approved namespaces are well formed and satisfy
 * the required ones; properties are not null and scoped properties are a subset of the approved namespaces.
 *
 * @example
 * validateApprove({ id: 1, namespaces }, view)?.shortMessage // "proposal id doesn't exist"
 */
export function validateApprove(params: unknown, view: RecordsView): SessionError | undefined {
  if (!isPlainObject(params)) return new InvalidParamsError('approve() params must be an object')
  const proposalError = validateProposalId(params.id, view)
  if (proposalError) return proposalError
  const proposal = own(view.proposals, String(params.id))!
  const namespacesError = validateSessionNamespaces(params.namespaces)
  if (namespacesError) return namespacesError
  const namespaces = params.namespaces as Namespaces
  if (params.relayProtocol !== undefined && typeof params.relayProtocol !== 'string') {
    return new InvalidParamsError('approve() relayProtocol must be a string')
  }
  return (
    validateConforming(proposal.requiredNamespaces, namespaces) ??
    validateProperties(params.sessionProperties, 'sessionProperties') ??
    validateProperties(params.scopedProperties, 'scopedProperties') ??
    validateScopedSubset(params.scopedProperties, namespaces)
  )
}
