import {
  InvalidParamsError,
  RecentlyDeletedError,
  RequestNotActiveError,
  RequestNotFoundError,
  type SessionError,
} from '../errors/session'
import { type RecentlyDeleted, wasRecentlyDeleted } from './recentlyDeleted'
import { isPlainObject } from './validateNamespaces'
import { isErrorReason } from './validateReject'

/**
 * The wallet's answer: to a known request, the active one (SPEC §4: one at a time), with a result or an error
 * that has a code and a message.
 */
export function validateRespond(
  params: unknown,
  queue: { active: string | undefined; known: ReadonlySet<string>; recentlyDeleted: RecentlyDeleted },
): SessionError | undefined {
  if (!isPlainObject(params)) return new InvalidParamsError('respond() params must be an object')
  const { id, response } = params
  if (typeof id !== 'number') return new InvalidParamsError('A request id must be a number')
  const deleted = wasRecentlyDeleted(queue.recentlyDeleted, id)
  if (deleted) return new RecentlyDeletedError({ details: `${deleted}: ${id}` })
  if (!queue.known.has(String(id))) return new RequestNotFoundError({ details: String(id) })
  if (queue.active !== String(id)) return new RequestNotActiveError({ details: String(id) })
  const valid =
    isPlainObject(response) &&
    (('result' in response && response.result !== undefined) ||
      ('error' in response && isErrorReason(response.error)))
  return valid
    ? undefined
    : new InvalidParamsError('respond() needs a result or an error with code and message')
}
