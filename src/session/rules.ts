import { REQUEST_EXPIRY_MAX_S, REQUEST_TTL_MS } from '../constants'
import { BaseError } from '../errors/base'
import {
  AuthRequestNotFoundError,
  InvalidChainsError,
  InvalidParamsError,
  InvalidRejectReasonError,
  InvalidRequestExpiryError,
  InvalidSettleError,
  MultiNamespaceAuthError,
  NonEip155AuthError,
  NotConnectedError,
  OutOfOrderUpdateError,
  RecentlyDeletedError,
  RequestExpiredError,
  RequestNotActiveError,
  RequestNotFoundError,
  SessionEndedError,
  SessionError,
  type SessionErrorInfo,
  SettleExpiredError,
  sessionErrorInfo,
  toSessionError,
  UnapprovedChainError,
  UnapprovedEventError,
  UnapprovedMethodError,
  WrongRoleError,
} from '../errors/session'
import type {
  RequestPlan,
  RequestRule,
  Role,
  SessionClientContext,
  SessionClientEvent,
  SessionCommand,
  SessionNotice,
} from '../machines/session/types'
import { chainNamespaceOf, eip155ChainId, formatChainId, parseChainId } from '../utils/caip'
import { answerLocally } from './eip155'
import { eventsForChain, methodsForChain, sessionChains, unique } from './namespaces'
import { hasOwn, own } from './own'
import { wasRecentlyDeleted } from './recentlyDeleted'
import type { Namespaces, RecordKind } from './types'
import {
  isPlainObject,
  validateConforming,
  validateProperties,
  validateProposalNamespaces,
  validateScopedSubset,
  validateSessionNamespaces,
} from './validateNamespaces'
import { isErrorReason } from './validateReject'
import { requestExpiryInRange } from './validateRequest'
import {
  isNonEmptyString,
  pairingTopicRules,
  proposalIdRules,
  type RecordsView,
  sessionTopicRules,
} from './validateTopic'
import { isUpdateInOrder } from './validateUpdate'

/**
 * The SPEC §5 rules of the session client, one named check each. The client machine has a guard of the same
 * name for every rule and lists, per command or report, the rules it applies in order; a refused command never
 * reaches the WalletConnect client. Each check returns the rule's SPEC §8 error, or `undefined` when it holds.
 */

/**
 * The records as the SPEC §5 rules read them, at `now` (read once by the caller).
 * @internal
 */
export function recordsView(context: SessionClientContext, now: number): RecordsView {
  return {
    now,
    recentlyDeleted: context.recentlyDeleted,
    sessions: context.sessions,
    proposals: context.proposals,
    pairings: context.pairings,
  }
}

/**
 * A record the client holds, or held a moment ago (SPEC §4: reusing it is refused).
 * @internal
 */
export function isKnownKey(
  context: Pick<
    SessionClientContext,
    'recentlyDeleted' | 'proposals' | 'sessions' | 'requests' | 'auths' | 'pairings'
  >,
  kind: RecordKind,
  key: string | number,
): boolean {
  const id = String(key)
  if (wasRecentlyDeleted(context.recentlyDeleted, id)) return true
  switch (kind) {
    case 'proposal':
      return hasOwn(context.proposals, id)
    case 'session':
      return hasOwn(context.sessions, id)
    case 'request':
      return hasOwn(context.requests, id)
    case 'auth':
      return hasOwn(context.auths, id)
    case 'pairing':
      return hasOwn(context.pairings, id)
  }
}

/**
 * The chain the app starts on: the namespace's default, else the first approved one.
 * @internal
 */
export function defaultChain(namespaces: Namespaces): string | undefined {
  const preferred = namespaces.eip155?.defaultChain
  if (preferred) return parseChainId(preferred) ? preferred : formatChainId('eip155', preferred)
  return sessionChains(namespaces)[0]
}

/**
 * A chain reference from a chainChanged payload or a switch request: `1`, `'0x1'` or `'1'` → `'1'`.
 * @internal
 */
export function chainReference(data: unknown): string | undefined {
  if (typeof data === 'number' && Number.isSafeInteger(data)) return String(data)
  if (typeof data === 'string' && /^0x[0-9a-f]+$/i.test(data)) return BigInt(data).toString()
  if (typeof data === 'string' && /^\d+$/.test(data)) return data
  return undefined
}

/**
 * The chain a chainChanged event moved to, in the event's namespace (`eip155:10`).
 * @internal
 */
export function changedChain(chainId: string, data: unknown): string | undefined {
  const namespace = chainNamespaceOf(chainId)
  const reference = chainReference(data)
  return namespace === undefined || reference === undefined ? undefined : formatChainId(namespace, reference)
}

/**
 * The chain a fulfilled wallet_switchEthereumChain moved to, so the app follows it.
 * @internal
 */
export function switchTarget(event: Extract<SessionNotice, { type: 'request.settled' }>): string | undefined {
  if (event.outcome !== 'fulfilled' || event.request.method !== 'wallet_switchEthereumChain') return undefined
  const params = event.request.params
  const first = Array.isArray(params) ? params[0] : undefined
  const reference = isPlainObject(first) ? chainReference(first.chainId) : undefined
  return reference === undefined ? undefined : eip155ChainId(BigInt(reference))
}

// --------------------------------------------------------------------------------------------- request plan

type SendCommand = Extract<SessionCommand, { type: 'request.send' }>

/**
 * App: where a request goes, from the records at `now`. No session: 'Please call connect() before request()'. A
 * locally handled eip155 method is answered here (SPEC §7); anything else must pass the request rule (SPEC §5)
 * to be sent, and gets its expiry (epoch ms, capped by the client's request lifetime).
 * @internal
 */
export function planRequest(context: SessionClientContext, event: SendCommand, now: number): RequestPlan {
  const refused = (rule: RequestRule, error: SessionError): RequestPlan => ({ kind: 'refused', rule, error })
  const view = recordsView(context, now)
  if (!Number.isSafeInteger(event.id) || isKnownKey(context, 'request', event.id)) {
    return refused('requestIdReused', new InvalidParamsError('A request id must be a new number'))
  }
  const topics = Object.keys(context.sessions)
  const topic = event.topic ?? topics[topics.length - 1]
  if (topic === undefined) return refused('notConnected', new NotConnectedError())
  const topicRules: [RequestRule, keyof typeof sessionTopicRules][] = [
    ['requestTopicMalformed', 'topicMalformed'],
    ['requestTopicRecentlyDeleted', 'topicRecentlyDeleted'],
    ['requestTopicUnknown', 'unknownTopic'],
    ['requestSessionExpired', 'sessionExpired'],
  ]
  for (const [rule, name] of topicRules) {
    const error = sessionTopicRules[name](topic, view)
    if (error) return refused(rule, error)
  }
  const record = own(context.sessions, topic)!
  const chainId = event.chainId ?? record.chainId ?? defaultChain(record.namespaces)
  const local = isPlainObject(event.request)
    ? answerLocally(event.request, { session: record, chainId, rpcMap: context.rpcMap })
    : undefined
  if (local?.kind === 'error') return refused('localAnswerRefused', local.error)
  if (local?.kind === 'result') return { kind: 'local', topic, answer: local }
  const sendChainId = local?.kind === 'wallet' ? local.chainId : (chainId ?? '')
  if (!sessionChains(record.namespaces).includes(sendChainId)) {
    return refused('requestChainNotApproved', new UnapprovedChainError({ details: sendChainId }))
  }
  const request: unknown = event.request
  if (!isPlainObject(request) || !isNonEmptyString(request.method)) {
    return refused('methodMissing', new InvalidParamsError('request() needs a method'))
  }
  if (!methodsForChain(record.namespaces, sendChainId).includes(request.method)) {
    return refused(
      'methodNotApproved',
      new UnapprovedMethodError({ details: `${request.method} on ${sendChainId}` }),
    )
  }
  const { expiry } = event
  if (!requestExpiryInRange(expiry)) {
    return refused('requestExpiryOutOfRange', new InvalidRequestExpiryError({ details: String(expiry) }))
  }
  const lifetime = expiry === undefined ? REQUEST_TTL_MS : expiry * 1000
  const ttl = context.ttl.requestMs
  return {
    kind: 'send',
    topic,
    chainId: sendChainId,
    expiry: ttl === undefined ? now + lifetime : Math.min(now + lifetime, now + ttl),
  }
}

// ----------------------------------------------------------------------------------------------- the rules

/**
 * One SPEC §5 rule over the client's records and the command or report it checks.
 */
export type ClientRule = (
  context: SessionClientContext,
  event: SessionClientEvent,
  /** Read only by the rules about expiry. */
  clock: () => number,
) => SessionError | undefined

const field = (event: SessionClientEvent, name: string): unknown =>
  (event as unknown as Record<string, unknown>)[name]

/** The library call each command stands for, as `WrongRoleError` names it. */
const COMMAND_NAMES: Partial<Record<SessionClientEvent['type'], string>> = {
  'session.connect': 'connect()',
  'session.pair': 'pair()',
  'session.authenticate': 'authenticate()',
  'proposal.approve': 'approve()',
  'proposal.reject': 'reject()',
  'auth.approve': 'approveSessionAuthenticate()',
  'auth.reject': 'rejectSessionAuthenticate()',
  'request.send': 'request()',
  'request.respond': 'respond()',
  'session.emit': 'emit()',
}

const onlyFor =
  (role: Role): ClientRule =>
  (context, event) =>
    context.role === role ? undefined : new WrongRoleError(COMMAND_NAMES[event.type] ?? event.type, role)

/** A key rule of `validateTopic.ts` over one field of the event. */
const keyRule =
  (
    rule: (key: unknown, view: RecordsView) => SessionError | undefined,
    key: (event: SessionClientEvent) => unknown,
  ): ClientRule =>
  (context, event, clock) =>
    rule(key(event), recordsView(context, clock()))

const topic = (event: SessionClientEvent) => field(event, 'topic')
const id = (event: SessionClientEvent) => field(event, 'id')
/** Connect's parameters (an object once `connectParamsNotObject` holds), or the proposal a wallet received. */
const connectParams = (event: SessionClientEvent): Record<string, unknown> => {
  const params = field(event, event.type === 'wc.sessionPropose' ? 'proposal' : 'params')
  return isPlainObject(params) ? params : {}
}
/** A pairing rule applies only when connect names a pairing topic. */
const pairingRule =
  (rule: (key: unknown, view: RecordsView) => SessionError | undefined): ClientRule =>
  (context, event, clock) => {
    const { pairingTopic } = connectParams(event)
    return pairingTopic === undefined ? undefined : rule(pairingTopic, recordsView(context, clock()))
  }
const authParams = (event: SessionClientEvent): Record<string, unknown> => {
  const params = field(event, 'params')
  return isPlainObject(params) ? params : {}
}
const settleParams = (event: SessionClientEvent): Record<string, unknown> => {
  const settle = field(event, 'settle')
  return isPlainObject(settle) ? settle : {}
}
const sessionOf = (context: SessionClientContext, event: SessionClientEvent) =>
  own(context.sessions, String(topic(event)))
/** The namespaces a command approves or an update brings. */
const approvedNamespaces = (event: SessionClientEvent) => field(event, 'namespaces')
/** The namespaces whose keys scoped properties may use: approved (approve) or requested (connect). */
const requestedNamespaces = (event: SessionClientEvent): Record<string, unknown> => {
  if (event.type === 'proposal.approve') return event.namespaces
  const { requiredNamespaces, optionalNamespaces } = connectParams(event)
  return {
    ...(isPlainObject(requiredNamespaces) ? requiredNamespaces : {}),
    ...(isPlainObject(optionalNamespaces) ? optionalNamespaces : {}),
  }
}
const properties = (event: SessionClientEvent): Record<string, unknown> =>
  event.type === 'session.connect' || event.type === 'wc.sessionPropose'
    ? connectParams(event)
    : (event as unknown as Record<string, unknown>)

/** A connect rule as the wallet applies it to a proposal it received (the app's own proposals pass). */
const receivedByWallet =
  (rule: ClientRule): ClientRule =>
  (context, event, clock) =>
    context.role === 'wallet' ? rule(context, event, clock) : undefined

/** A rule over the request a wallet received (`wc.sessionRequest`), at one reading of the clock. */
const receivedRequestRule =
  (rule: (received: Record<string, unknown>, view: RecordsView) => SessionError | undefined): ClientRule =>
  (context, event, clock) => {
    const received = field(event, 'request')
    return rule(isPlainObject(received) ? received : {}, recordsView(context, clock()))
  }

const WC_URI = /^wc:[0-9a-f]{64}@2\?/i

/** Connect rules, shared with the proposals a wallet receives. */
const requestedNamespacesMalformed: ClientRule = (_, event) => {
  const { relays, requiredNamespaces, optionalNamespaces } = connectParams(event)
  if (
    relays !== undefined &&
    !(
      Array.isArray(relays) &&
      relays.length > 0 &&
      relays.every((relay) => isPlainObject(relay) && typeof relay.protocol === 'string')
    )
  ) {
    return new InvalidParamsError('relays must be a list of { protocol }')
  }
  return (
    validateProposalNamespaces(requiredNamespaces, 'requiredNamespaces') ??
    validateProposalNamespaces(optionalNamespaces, 'optionalNamespaces')
  )
}
const nullProperty: ClientRule = (_, event) => {
  const { sessionProperties, scopedProperties } = properties(event)
  return (
    validateProperties(sessionProperties, 'sessionProperties') ??
    validateProperties(scopedProperties, 'scopedProperties')
  )
}
const scopedPropertiesOutsideNamespaces: ClientRule = (_, event) =>
  validateScopedSubset(properties(event).scopedProperties, requestedNamespaces(event))

/**
 * Every SPEC §5 rule of the client by name. Where a name is shared (`nullProperty`), the rule is the same one
 * applied to another command.
 */
export const clientRules = {
  // SPEC §6: the app proposes and requests, the wallet approves and answers.
  appOnly: onlyFor('app'),
  walletOnly: onlyFor('wallet'),

  // Topics are existing strings (ping, extend, disconnect, emit, a peer's update).
  topicMalformed: keyRule(sessionTopicRules.topicMalformed, topic),
  topicRecentlyDeleted: keyRule(sessionTopicRules.topicRecentlyDeleted, topic),
  unknownTopic: keyRule(sessionTopicRules.unknownTopic, topic),
  sessionExpired: keyRule(sessionTopicRules.sessionExpired, topic),

  // Connect: an object; a given pairing topic exists and is unexpired; chains written namespace:chainId;
  // property values not null; scoped properties a subset of the namespaces.
  connectParamsNotObject: (_, event) =>
    isPlainObject(field(event, 'params'))
      ? undefined
      : new InvalidParamsError('connect() params must be an object'),
  pairingTopicMalformed: pairingRule(pairingTopicRules.pairingTopicMalformed),
  pairingRecentlyDeleted: pairingRule(pairingTopicRules.pairingRecentlyDeleted),
  unknownPairing: pairingRule(pairingTopicRules.unknownPairing),
  pairingExpired: pairingRule(pairingTopicRules.pairingExpired),
  requestedNamespacesMalformed,
  nullProperty,
  scopedPropertiesOutsideNamespaces,

  // A proposal the wallet received: the connect rules, without the pairing.
  receivedNamespacesMalformed: receivedByWallet(requestedNamespacesMalformed),
  receivedNullProperty: receivedByWallet(nullProperty),
  receivedScopedPropertiesOutsideNamespaces: receivedByWallet(scopedPropertiesOutsideNamespaces),

  // A request the wallet received (SPEC §5 request): a valid session, an approved chain, a method approved on it,
  // and an expiry that is a time, not past and within the library's limit.
  receivedByApp: (context) =>
    context.role === 'wallet' ? undefined : new WrongRoleError('Answering requests', 'wallet'),
  /** A JSON-RPC id from the relay is a positive safe integer (issue 13: NaN, 1.5, "31" were queued). */
  receivedIdMalformed: receivedRequestRule((r) =>
    typeof r.id === 'number' && Number.isSafeInteger(r.id) && r.id > 0
      ? undefined
      : new InvalidParamsError('A request id must be a positive whole number'),
  ),
  receivedTopicMalformed: receivedRequestRule((r) => sessionTopicRules.topicMalformed(r.topic)),
  receivedTopicRecentlyDeleted: receivedRequestRule((r, view) =>
    sessionTopicRules.topicRecentlyDeleted(r.topic, view),
  ),
  receivedTopicUnknown: receivedRequestRule((r, view) => sessionTopicRules.unknownTopic(r.topic, view)),
  receivedSessionExpired: receivedRequestRule((r, view) => sessionTopicRules.sessionExpired(r.topic, view)),
  receivedChainNotApproved: receivedRequestRule((r, view) => {
    const session = own(view.sessions, String(r.topic))
    return session && isNonEmptyString(r.chainId) && sessionChains(session.namespaces).includes(r.chainId)
      ? undefined
      : new UnapprovedChainError({ details: String(r.chainId) })
  }),
  receivedMethodMissing: receivedRequestRule((r) =>
    isPlainObject(r.request) && isNonEmptyString(r.request.method)
      ? undefined
      : new InvalidParamsError('request() needs a method'),
  ),
  receivedMethodNotApproved: receivedRequestRule((r, view) => {
    const session = own(view.sessions, String(r.topic))
    const method = String((r.request as { method: unknown }).method)
    return session && methodsForChain(session.namespaces, String(r.chainId)).includes(method)
      ? undefined
      : new UnapprovedMethodError({ details: `${method} on ${String(r.chainId)}` })
  }),
  receivedExpiryMalformed: receivedRequestRule((r) =>
    typeof r.expiry === 'number' && Number.isFinite(r.expiry) ? undefined : new InvalidRequestExpiryError(),
  ),
  requestExpired: receivedRequestRule((r, view) =>
    typeof r.expiry === 'number' && r.expiry <= view.now ? new RequestExpiredError() : undefined,
  ),
  receivedExpiryTooFar: receivedRequestRule((r, view) =>
    typeof r.expiry === 'number' && r.expiry - view.now > REQUEST_EXPIRY_MAX_S * 1000
      ? new InvalidRequestExpiryError()
      : undefined,
  ),

  // Pair (wallet): a WalletConnect v2 URI.
  pairUriMalformed: (_, event) => {
    const uri = field(event, 'uri')
    return typeof uri === 'string' && WC_URI.test(uri)
      ? undefined
      : new InvalidParamsError('pair() needs a WalletConnect v2 URI')
  },

  // Authenticate: a new id; non-empty chains, uri, domain, nonce; chains namespace:chainId; one namespace, eip155.
  authIdReused: (context, event) => {
    const key = id(event)
    return typeof key === 'number' && Number.isSafeInteger(key) && !isKnownKey(context, 'auth', key)
      ? undefined
      : new InvalidParamsError('An auth request id must be a new number')
  },
  authParamsMissing: (_, event) => {
    const params = authParams(event)
    if (!Array.isArray(params.chains) || params.chains.length === 0) {
      return new InvalidParamsError('authenticate() chains must be a non-empty list')
    }
    for (const name of ['uri', 'domain', 'nonce'] as const) {
      if (!isNonEmptyString(params[name])) return new InvalidParamsError(`authenticate() ${name} is required`)
    }
    return undefined
  },
  authChainsMalformed: (_, event) => {
    const bad = (authParams(event).chains as unknown[]).find((chain) => !parseChainId(chain))
    return bad === undefined ? undefined : new InvalidChainsError({ details: String(bad) })
  },
  multiNamespaceAuth: (_, event) => {
    const namespaces = unique((authParams(event).chains as string[]).map((chain) => chainNamespaceOf(chain)))
    return namespaces.length > 1 ? new MultiNamespaceAuthError({ details: namespaces.join(', ') }) : undefined
  },
  nonEip155Auth: (_, event) => {
    const namespace = chainNamespaceOf((authParams(event).chains as string[])[0])
    return namespace === 'eip155' ? undefined : new NonEip155AuthError({ details: namespace })
  },

  // Approve and reject: the proposal exists and is unexpired.
  proposalIdMalformed: keyRule(proposalIdRules.proposalIdMalformed, id),
  proposalRecentlyDeleted: keyRule(proposalIdRules.proposalRecentlyDeleted, id),
  unknownProposal: keyRule(proposalIdRules.unknownProposal, id),
  proposalExpired: keyRule(proposalIdRules.proposalExpired, id),
  // Approve (and a peer's update): namespaces well formed and satisfying the required ones.
  approvedNamespacesMalformed: (_, event) => {
    const error = validateSessionNamespaces(approvedNamespaces(event))
    if (error) return error
    const relayProtocol = field(event, 'relayProtocol')
    return relayProtocol !== undefined && typeof relayProtocol !== 'string'
      ? new InvalidParamsError('approve() relayProtocol must be a string')
      : undefined
  },
  namespacesNotConforming: (context, event) => {
    const required =
      event.type === 'wc.sessionUpdate'
        ? sessionOf(context, event)?.requiredNamespaces
        : own(context.proposals, String(id(event)))?.requiredNamespaces
    return validateConforming(required ?? {}, approvedNamespaces(event) as Namespaces)
  },
  // Reject (a proposal or an auth request): the reason has a code and a message.
  rejectReasonInvalid: (_, event) =>
    isErrorReason(field(event, 'reason')) ? undefined : new InvalidRejectReasonError(),

  // Approving or rejecting one-click auth needs a pending auth request with that id.
  unknownAuthRequest: (context, event) => {
    const key = id(event)
    return typeof key === 'number' && own(context.auths, String(key))
      ? undefined
      : new AuthRequestNotFoundError(String(key))
  },

  // Respond (wallet): a known request, the active one (SPEC §4), with a result or an error with code and message.
  requestIdMalformed: (_, event) =>
    typeof id(event) === 'number' ? undefined : new InvalidParamsError('A request id must be a number'),
  requestRecentlyDeleted: (context, event) => {
    const deleted = wasRecentlyDeleted(context.recentlyDeleted, id(event) as number)
    return deleted ? new RecentlyDeletedError({ details: `${deleted}: ${id(event)}` }) : undefined
  },
  unknownRequest: (context, event) =>
    own(context.requests, String(id(event)))
      ? undefined
      : new RequestNotFoundError({ details: String(id(event)) }),
  requestNotActive: (context, event) =>
    context.activeRequest === String(id(event))
      ? undefined
      : new RequestNotActiveError({ details: String(id(event)) }),
  responseMalformed: (_, event) => {
    const response = field(event, 'response')
    const valid =
      isPlainObject(response) &&
      (('result' in response && response.result !== undefined) ||
        ('error' in response && isErrorReason(response.error)))
    return valid
      ? undefined
      : new InvalidParamsError('respond() needs a result or an error with code and message')
  },

  // Emit (wallet): an approved chain, and an event approved on it.
  chainNotApproved: (context, event) => {
    const chainId = field(event, 'chainId')
    const session = sessionOf(context, event)
    return session && isNonEmptyString(chainId) && sessionChains(session.namespaces).includes(chainId)
      ? undefined
      : new UnapprovedChainError({ details: String(chainId) })
  },
  eventNameMissing: (_, event) => {
    const emitted = field(event, 'event')
    return isPlainObject(emitted) && isNonEmptyString(emitted.name)
      ? undefined
      : new InvalidParamsError('emit() needs an event name')
  },
  eventNotApproved: (context, event) => {
    const chainId = String(field(event, 'chainId'))
    const { name } = field(event, 'event') as { name: string }
    const session = sessionOf(context, event)
    return session && eventsForChain(session.namespaces, chainId).includes(name)
      ? undefined
      : new UnapprovedEventError({ details: `${name} on ${chainId}` })
  },

  // Settle: relay, controller public key and namespaces required; not expired.
  settlementIncomplete: (_, event) => {
    const { relay, controller, namespaces } = settleParams(event)
    if (!isPlainObject(field(event, 'settle'))) return new InvalidSettleError()
    if (!isPlainObject(relay) || !isNonEmptyString(relay.protocol))
      return new InvalidSettleError({ details: 'relay' })
    if (!isPlainObject(controller) || !isNonEmptyString(controller.publicKey)) {
      return new InvalidSettleError({ details: 'controller public key' })
    }
    if (namespaces === undefined) return new InvalidSettleError({ details: 'namespaces' })
    return validateSessionNamespaces(namespaces)
  },
  settlementExpired: (_, event, clock) => {
    const { expiry } = settleParams(event)
    return typeof expiry !== 'number' || expiry * 1000 <= clock() ? new SettleExpiredError() : undefined
  },

  // SPEC §4: out-of-order updates are discarded.
  updateOutOfOrder: (context, event) => {
    const updateId = id(event) as number
    return isUpdateInOrder(sessionOf(context, event)?.lastUpdateId, updateId)
      ? undefined
      : new OutOfOrderUpdateError({ details: String(updateId) })
  },
} satisfies Record<string, ClientRule>

export type ClientRuleName = keyof typeof clientRules

/**
 * Whether a request refused by its plan broke `rule`.
 * @internal
 */
export const planBroke = (plan: RequestPlan | undefined, rule: RequestRule): boolean =>
  plan?.kind === 'refused' && plan.rule === rule

// ------------------------------------------------------------------------------------------------ errors

/**
 * Any failure, as snapshot data: a session error found along the cause chain, else the mapped one.
 * @internal
 */
export function errorInfoOf(error: unknown): SessionErrorInfo {
  if (error instanceof BaseError) {
    const found = error.walk((e) => e instanceof SessionError)
    if (found instanceof SessionError) return sessionErrorInfo(found)
  }
  if (
    isPlainObject(error) &&
    typeof error.name === 'string' &&
    typeof error.message === 'string' &&
    typeof error.code === 'number'
  ) {
    return { name: error.name, message: error.message, code: error.code }
  }
  return sessionErrorInfo(toSessionError(error))
}

const SESSION_ENDED_CODE = new SessionEndedError().code

/**
 * Whether a failure means the request's session ended (the library rejects what is pending when the peer ends
 * the session, with USER_DISCONNECTED): a `SessionEndedError` along the cause chain, or that code.
 * @internal
 */
export function endedWithSession(error: unknown): boolean {
  if (error instanceof BaseError && error.walk((e) => e instanceof SessionEndedError)) return true
  return errorInfoOf(error).code === SESSION_ENDED_CODE
}
