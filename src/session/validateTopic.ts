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
import { own } from './own'
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

type Rule = (key: unknown, view: RecordsView) => SessionError | undefined

/** The first rule of `rules` that `key` breaks. */
function firstBroken(rules: Record<string, Rule>, key: unknown, view: RecordsView): SessionError | undefined {
  for (const rule of Object.values(rules)) {
    const error = rule(key, view)
    if (error) return error
  }
  return undefined
}

const recentlyDeleted: Rule = (key, view) => {
  if (typeof key !== 'string' && typeof key !== 'number') return undefined
  const deleted = wasRecentlyDeleted(view.recentlyDeleted, key)
  return deleted ? new RecentlyDeletedError({ details: `${deleted}: ${key}` }) : undefined
}

/**
 * SPEC §5 "Topics are existing strings", one rule each, in the order they are checked.
 * @internal
 */
export const sessionTopicRules = {
  topicMalformed: (topic) =>
    isNonEmptyString(topic)
      ? undefined
      : new InvalidParamsError('A session topic must be a non-empty string'),
  topicRecentlyDeleted: recentlyDeleted,
  unknownTopic: (topic, view) =>
    own(view.sessions, String(topic)) ? undefined : new SessionTopicNotFoundError({ details: String(topic) }),
  sessionExpired: (topic, view) => {
    const session = own(view.sessions, String(topic))
    return session && session.expiry <= view.now
      ? new SessionExpiredError({ details: String(topic) })
      : undefined
  },
} satisfies Record<string, Rule>

/**
 * A proposal id is a number, not recently deleted, known and unexpired (SPEC §5 approve and reject).
 * @internal
 */
export const proposalIdRules = {
  proposalIdMalformed: (id) =>
    typeof id === 'number' && Number.isSafeInteger(id)
      ? undefined
      : new InvalidParamsError('A proposal id must be a number'),
  proposalRecentlyDeleted: recentlyDeleted,
  unknownProposal: (id, view) =>
    own(view.proposals, String(id)) ? undefined : new ProposalNotFoundError({ details: String(id) }),
  proposalExpired: (id, view) => {
    const proposal = own(view.proposals, String(id))
    return proposal && proposal.expiry <= view.now
      ? new ProposalExpiredError({ details: String(id) })
      : undefined
  },
} satisfies Record<string, Rule>

/**
 * A pairing topic, when connect names one, is a string, known and unexpired (SPEC §5 connect).
 * @internal
 */
export const pairingTopicRules = {
  pairingTopicMalformed: (topic) =>
    isNonEmptyString(topic)
      ? undefined
      : new InvalidParamsError('A pairing topic must be a non-empty string'),
  pairingRecentlyDeleted: recentlyDeleted,
  unknownPairing: (topic, view) =>
    own(view.pairings, String(topic)) ? undefined : new PairingTopicNotFoundError({ details: String(topic) }),
  pairingExpired: (topic, view) => {
    const pairing = own(view.pairings, String(topic))
    return pairing && pairing.expiry <= view.now
      ? new PairingExpiredError({ details: String(topic) })
      : undefined
  },
} satisfies Record<string, Rule>

/**
 * A session topic is a string, not recently deleted, known and unexpired.
 *
 * @example
 * validateSessionTopic('abc', view)?.shortMessage // "session topic doesn't exist"
 */
export function validateSessionTopic(topic: unknown, view: RecordsView): SessionError | undefined {
  return firstBroken(sessionTopicRules, topic, view)
}

/** A proposal id is a number, not recently deleted, known and unexpired. */
export function validateProposalId(id: unknown, view: RecordsView): SessionError | undefined {
  return firstBroken(proposalIdRules, id, view)
}

/** A pairing topic is a string, known and unexpired. */
export function validatePairingTopic(topic: unknown, view: RecordsView): SessionError | undefined {
  return firstBroken(pairingTopicRules, topic, view)
}
