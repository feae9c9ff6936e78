import { OutOfOrderUpdateError, type SessionError } from '../errors/session'
import { own } from './own'
import type { Namespaces } from './types'
import { validateConforming, validateSessionNamespaces } from './validateNamespaces'
import { type RecordsView, validateSessionTopic } from './validateTopic'

/**
 * SPEC §4: out-of-order update requests are discarded. JSON-RPC ids are a millisecond timestamp followed by three
 * random digits, so an update whose timestamp is older than the last one applied came late.
 */
export function isUpdateInOrder(lastId: number | undefined, id: number): boolean {
  if (lastId === undefined) return true
  return Math.floor(id / 1000) >= Math.floor(lastId / 1000)
}

/** An update the peer sent: in order, for a valid session, with namespaces that still satisfy the required ones. */
export function validateUpdate(
  update: { topic: string; id: number; namespaces: unknown },
  lastId: number | undefined,
  view: RecordsView,
): SessionError | undefined {
  const topicError = validateSessionTopic(update.topic, view)
  if (topicError) return topicError
  if (!isUpdateInOrder(lastId, update.id)) return new OutOfOrderUpdateError({ details: String(update.id) })
  const namespacesError = validateSessionNamespaces(update.namespaces)
  if (namespacesError) return namespacesError
  return validateConforming(
    own(view.sessions, update.topic)!.requiredNamespaces,
    update.namespaces as Namespaces,
  )
}
