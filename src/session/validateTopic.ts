import {
  InvalidParamsError,
  PairingExpiredError,
  PairingTopicNotFoundError,
  ProposalExpiredError,
  ProposalNotFoundError,
  RecentlyDeletedError,
  type SessionError,
  SessionExpiredError,
  SessionTopicNotFoundError,
} from '../errors/session'
import { type RecentlyDeleted, wasRecentlyDeleted } from './recentlyDeleted'
import type { Namespaces, ProposalNamespaces } from './types'

/**
 * SPEC §5 "Topics are existing strings": the records a rule checks a topic or id against, and the checks.
 * Every rule returns the SPEC §8 error it breaks, or `undefined` when it holds.
 */
export interface SessionRecordView {
  expiry: number
  namespaces: Namespaces
  requiredNamespaces: ProposalNamespaces
}

export interface ProposalRecordView {
  expiry: number
  requiredNamespaces: ProposalNamespaces
}

export interface RecordsView {
  /** Epoch ms. */
  now: number
  recentlyDeleted: RecentlyDeleted
  sessions: Readonly<Record<string, SessionRecordView>>
  proposals: Readonly<Record<string, ProposalRecordView>>
  /** Known pairings (topic → expiry, epoch ms); only the app's connect looks at them. */
  pairings?: Readonly<Record<string, { expiry: number }>>
}

export const isNonEmptyString = (value: unknown): value is string =>
  typeof value === 'string' && value.trim() !== ''

/**
 * A session topic is a string, not recently deleted, known and unexpired.
 *
 * @example
 * validateSessionTopic('abc', view)?.shortMessage // "session topic doesn't exist"
 */
export function validateSessionTopic(topic: unknown, view: RecordsView): SessionError | undefined {
  if (!isNonEmptyString(topic)) return new InvalidParamsError('A session topic must be a non-empty string')
  const deleted = wasRecentlyDeleted(view.recentlyDeleted, topic)
  if (deleted) return new RecentlyDeletedError({ details: `${deleted}: ${topic}` })
  const session = view.sessions[topic]
  if (!session) return new SessionTopicNotFoundError({ details: topic })
  if (session.expiry <= view.now) return new SessionExpiredError({ details: topic })
  return undefined
}

/** A proposal id is a number, not recently deleted, known and unexpired. */
export function validateProposalId(id: unknown, view: RecordsView): SessionError | undefined {
  if (typeof id !== 'number' || !Number.isSafeInteger(id)) {
    return new InvalidParamsError('A proposal id must be a number')
  }
  const deleted = wasRecentlyDeleted(view.recentlyDeleted, id)
  if (deleted) return new RecentlyDeletedError({ details: `${deleted}: ${id}` })
  const proposal = view.proposals[String(id)]
  if (!proposal) return new ProposalNotFoundError({ details: String(id) })
  if (proposal.expiry <= view.now) return new ProposalExpiredError({ details: String(id) })
  return undefined
}

/** A pairing topic is a string, known and unexpired. */
export function validatePairingTopic(topic: unknown, view: RecordsView): SessionError | undefined {
  if (!isNonEmptyString(topic)) return new InvalidParamsError('A pairing topic must be a non-empty string')
  const deleted = wasRecentlyDeleted(view.recentlyDeleted, topic)
  if (deleted) return new RecentlyDeletedError({ details: `${deleted}: ${topic}` })
  const pairing = view.pairings?.[topic]
  if (!pairing) return new PairingTopicNotFoundError({ details: topic })
  if (pairing.expiry <= view.now) return new PairingExpiredError({ details: topic })
  return undefined
}
