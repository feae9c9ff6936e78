import { type ClientRuleName, clientRules, planBroke } from '../../session/rules'
import type { RequestRule, SessionClientContext, SessionClientEvent } from './types'

/**
 * The client machine's SPEC §5 guards: one per rule of `src/session/rules.ts`, named as the rule, and the
 * transitions that refuse a command (or discard a report) by each rule in turn.
 */

type RuleGuard = (args: { context: SessionClientContext; event: SessionClientEvent }) => boolean

/** One guard per SPEC §5 rule, named as the rule: it holds when the command or report breaks the rule. */
export const ruleGuards = Object.fromEntries(
  Object.entries(clientRules).map(([name, rule]): [string, RuleGuard] => [
    name,
    ({ context, event }) => rule(context, event, context.clock) !== undefined,
  ]),
) as Record<ClientRuleName, RuleGuard>

/** Every rule a request's plan can name, in the order the plan checks them. */
export const REQUEST_RULES = [
  'requestIdReused',
  'notConnected',
  'requestTopicMalformed',
  'requestTopicRecentlyDeleted',
  'requestTopicUnknown',
  'requestSessionExpired',
  'localAnswerRefused',
  'requestChainNotApproved',
  'methodMissing',
  'methodNotApproved',
  'requestExpiryOutOfRange',
] as const satisfies readonly RequestRule[]

/** One guard per request rule: it holds when the plan in context broke it. */
export const planGuards = Object.fromEntries(
  REQUEST_RULES.map((rule): [string, RuleGuard] => [rule, ({ context }) => planBroke(context.plan, rule)]),
) as Record<RequestRule, RuleGuard>

/** Topics are existing strings (SPEC §5), in the order they are checked. */
export const TOPIC_RULES = [
  'topicMalformed',
  'topicRecentlyDeleted',
  'unknownTopic',
  'sessionExpired',
] as const
/** A proposal exists and is unexpired (SPEC §5 approve and reject). */
export const PROPOSAL_RULES = [
  'proposalIdMalformed',
  'proposalRecentlyDeleted',
  'unknownProposal',
  'proposalExpired',
] as const

/** A command refused by each rule in turn: `{ guard: rule, actions: refuse(rule) }`. */
export const refusedBy = <R extends ClientRuleName>(...rules: R[]) =>
  rules.map((rule) => ({ guard: rule, actions: { type: 'refuse' as const, params: { rule } } }))
/** Wallet: a received proposal that breaks each rule in turn is rejected to its peer. */
export const refusedProposals = <R extends ClientRuleName>(...rules: R[]) =>
  rules.map((rule) => ({ guard: rule, actions: { type: 'addProposal' as const, params: { rule } } }))
/** Wallet: a received request that breaks each rule in turn is refused to its peer. */
export const refusedRequests = <R extends ClientRuleName>(...rules: R[]) =>
  rules.map((rule) => ({ guard: rule, actions: { type: 'addReceivedRequest' as const, params: { rule } } }))
export const settlementFailures = <R extends ClientRuleName>(...rules: R[]) =>
  rules.map((rule) => ({ guard: rule, actions: { type: 'logSettlementFailure' as const, params: { rule } } }))
export const discardedUpdates = <R extends ClientRuleName>(...rules: R[]) =>
  rules.map((rule) => ({ guard: rule, actions: { type: 'discardUpdate' as const, params: { rule } } }))
export const planRefusals = <R extends RequestRule>(...rules: R[]) =>
  rules.map((rule) => ({ guard: rule, target: 'idle' as const, actions: 'refusePlan' as const }))
