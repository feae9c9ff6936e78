import { InvalidParamsError, InvalidRejectReasonError, type SessionError } from '../errors/session'
import { isPlainObject } from './validateNamespaces'
import { isNonEmptyString, type RecordsView, validateProposalId } from './validateTopic'

/** A rejection reason: a numeric code and a message (SPEC §5 reject). */
export function isErrorReason(reason: unknown): reason is { code: number; message: string } {
  return (
    isPlainObject(reason) &&
    typeof reason.code === 'number' &&
    Number.isFinite(reason.code) &&
    reason.code !== 0 &&
    isNonEmptyString(reason.message)
  )
}

/**
 * SPEC §5 reject: the proposal exists and is unexpired, and the reason has a code and a message.
 *
 * @example
 * validateReject({ id: 1, reason: { message: 'no' } }, view)?.shortMessage
 * // 'Missing or invalid. A rejection reason needs a code and a message'
 */
export function validateReject(params: unknown, view: RecordsView): SessionError | undefined {
  if (!isPlainObject(params)) return new InvalidParamsError('reject() params must be an object')
  return (
    validateProposalId(params.id, view) ??
    (isErrorReason(params.reason) ? undefined : new InvalidRejectReasonError())
  )
}
