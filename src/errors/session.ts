import { REQUEST_EXPIRY_MAX_S, REQUEST_EXPIRY_MIN_S } from '../constants'
import { BaseError, type BaseErrorParameters, codeOf, type ErrorInfo } from './base'

/**
 * Remote-session errors (SPEC §5 rules, SPEC §8 texts). Each carries the numeric `code` a WalletConnect peer
 * understands, so the same error can be shown locally and sent to the peer as a rejection `reason`.
 *
 * Where SPEC §8 names a text, it is the `shortMessage` exactly; where it does not, the text follows the reference
 * client's categories ("Missing or invalid.", "Unsupported chains.", ...) and says which rule was broken.
 */
export interface ErrorReason {
  code: number
  message: string
}

/**
 * What a snapshot keeps of a session error: the kit's one `ErrorInfo`, whose `code` a session error always has
 * (the name is kept for existing code).
 */
export type SessionErrorInfo = ErrorInfo & { code: number }

/** Root of the remote-session errors. */
export class SessionError extends BaseError {
  override name = 'SessionError'
  readonly code: number

  constructor(shortMessage: string, parameters: BaseErrorParameters & { code: number }) {
    super(shortMessage, parameters)
    this.code = parameters.code
  }

  /** The rejection reason sent to the peer. */
  get reason(): ErrorReason {
    return { code: this.code, message: this.shortMessage }
  }
}

// WalletConnect's codes (reference client) and EIP-1193's (SPEC §8).
const MISSING_OR_INVALID = 5
const NO_MATCHING_KEY = 2
const EXPIRED = 6
const NON_CONFORMING_NAMESPACES = 9
const INVALID_UPDATE_REQUEST = 1003
const UNAUTHORIZED_METHOD = 3001
const UNAUTHORIZED_EVENT = 3002
const UNSUPPORTED_CHAINS = 5100
const UNSUPPORTED_METHODS = 5101
const UNSUPPORTED_EVENTS = 5102
const UNSUPPORTED_ACCOUNTS = 5103
const UNSUPPORTED_NAMESPACE_KEY = 5104
const SESSION_SETTLEMENT_FAILED = 7000
const USER_DISCONNECTED = 6000
const PROVIDER_DISCONNECTED = 4900
const CHAIN_DISCONNECTED = 4901
const SWITCH_CHAIN_ERROR = 4902
const UNAUTHORIZED = 4100

type Parameters = BaseErrorParameters

// ---------- SPEC §8 texts ----------

/** A topic or id that was deleted a moment ago is reused (SPEC §4, §8). */
export class RecentlyDeletedError extends SessionError {
  override name = 'RecentlyDeletedError'
  constructor(parameters: Parameters = {}) {
    super('Record was recently deleted', { ...parameters, code: MISSING_OR_INVALID })
  }
}

export class SessionTopicNotFoundError extends SessionError {
  override name = 'SessionTopicNotFoundError'
  constructor(parameters: Parameters = {}) {
    super("session topic doesn't exist", { ...parameters, code: NO_MATCHING_KEY })
  }
}

export class ProposalNotFoundError extends SessionError {
  override name = 'ProposalNotFoundError'
  constructor(parameters: Parameters = {}) {
    super("proposal id doesn't exist", { ...parameters, code: NO_MATCHING_KEY })
  }
}

export class PairingTopicNotFoundError extends SessionError {
  override name = 'PairingTopicNotFoundError'
  constructor(parameters: Parameters = {}) {
    super("pairing topic doesn't exist", { ...parameters, code: NO_MATCHING_KEY })
  }
}

/** SPEC §8 "expired topic or proposal", for sessions. */
export class SessionExpiredError extends SessionError {
  override name = 'SessionExpiredError'
  constructor(parameters: Parameters = {}) {
    super('session topic expired', { ...parameters, code: EXPIRED })
  }
}

/** SPEC §8 "expired topic or proposal", for pairings. */
export class PairingExpiredError extends SessionError {
  override name = 'PairingExpiredError'
  constructor(parameters: Parameters = {}) {
    super('pairing topic expired', { ...parameters, code: EXPIRED })
  }
}

/** SPEC §8 "expired topic or proposal", for proposals. */
export class ProposalExpiredError extends SessionError {
  override name = 'ProposalExpiredError'
  constructor(parameters: Parameters = {}) {
    super('proposal expired', { ...parameters, code: EXPIRED })
  }
}

/** A request's own expiry passed before it was answered (SPEC §4). */
export class RequestExpiredError extends SessionError {
  override name = 'RequestExpiredError'
  constructor(parameters: Parameters = {}) {
    super('request expired', { ...parameters, code: EXPIRED })
  }
}

export class MultiNamespaceAuthError extends SessionError {
  override name = 'MultiNamespaceAuthError'
  constructor(parameters: Parameters = {}) {
    super('Multi-namespace requests are not supported', { ...parameters, code: UNSUPPORTED_NAMESPACE_KEY })
  }
}

export class NonEip155AuthError extends SessionError {
  override name = 'NonEip155AuthError'
  constructor(parameters: Parameters = {}) {
    super('Only eip155 namespace is supported for authenticated sessions', {
      ...parameters,
      code: UNSUPPORTED_NAMESPACE_KEY,
    })
  }
}

export class AuthRequestNotFoundError extends SessionError {
  override name = 'AuthRequestNotFoundError'
  constructor(id: number | string, parameters: Parameters = {}) {
    super(`Could not find pending auth request with id ${id}`, { ...parameters, code: NO_MATCHING_KEY })
  }
}

/** An authenticated session whose signatures do not check out (SESSION_SETTLEMENT_FAILED). */
export class SignatureVerificationError extends SessionError {
  override name = 'SignatureVerificationError'
  constructor(parameters: Parameters = {}) {
    super('Signature verification failed', { ...parameters, code: SESSION_SETTLEMENT_FAILED })
  }
}

export class NotConnectedError extends SessionError {
  override name = 'NotConnectedError'
  constructor(parameters: Parameters = {}) {
    super('Please call connect() before request()', { ...parameters, code: PROVIDER_DISCONNECTED })
  }
}

export class SwitchChainFailedError extends SessionError {
  override name = 'SwitchChainFailedError'
  constructor(parameters: Parameters = {}) {
    super('Failed to switch to chain', { ...parameters, code: SWITCH_CHAIN_ERROR })
  }
}

export class CallStatusNotApprovedError extends SessionError {
  override name = 'CallStatusNotApprovedError'
  constructor(parameters: Parameters = {}) {
    super('Fetching call status not approved by the wallet', { ...parameters, code: UNAUTHORIZED })
  }
}

export class NoRpcUrlError extends SessionError {
  override name = 'NoRpcUrlError'
  constructor(parameters: Parameters = {}) {
    super('No RPC url provided for chainId', { ...parameters, code: CHAIN_DISCONNECTED })
  }
}

// ---------- rules the SPEC states without a text ----------

/** A parameter is missing or malformed; `what` names it ("connect() params must be an object"). */
export class InvalidParamsError extends SessionError {
  override name = 'InvalidParamsError'
  constructor(what: string, parameters: Parameters = {}) {
    super(`Missing or invalid. ${what}`, { ...parameters, code: MISSING_OR_INVALID })
  }
}

export class InvalidChainsError extends SessionError {
  override name = 'InvalidChainsError'
  constructor(parameters: Parameters = {}) {
    super('Unsupported chains. Chains must be written namespace:chainId', {
      ...parameters,
      code: UNSUPPORTED_CHAINS,
    })
  }
}

export class InvalidAccountsError extends SessionError {
  override name = 'InvalidAccountsError'
  constructor(parameters: Parameters = {}) {
    super('Unsupported accounts. Accounts must be written namespace:chainId:address', {
      ...parameters,
      code: UNSUPPORTED_ACCOUNTS,
    })
  }
}

export class InvalidMethodsError extends SessionError {
  override name = 'InvalidMethodsError'
  constructor(parameters: Parameters = {}) {
    super('Unsupported methods. Methods must be a list of names', {
      ...parameters,
      code: UNSUPPORTED_METHODS,
    })
  }
}

export class InvalidEventsError extends SessionError {
  override name = 'InvalidEventsError'
  constructor(parameters: Parameters = {}) {
    super('Unsupported events. Events must be a list of names', { ...parameters, code: UNSUPPORTED_EVENTS })
  }
}

export class NullPropertyError extends SessionError {
  override name = 'NullPropertyError'
  constructor(parameters: Parameters = {}) {
    super('Missing or invalid. Property values must not be null', { ...parameters, code: MISSING_OR_INVALID })
  }
}

export class ScopedPropertiesError extends SessionError {
  override name = 'ScopedPropertiesError'
  constructor(parameters: Parameters = {}) {
    super('Missing or invalid. Scoped properties must be a subset of the namespaces', {
      ...parameters,
      code: MISSING_OR_INVALID,
    })
  }
}

export class NonConformingNamespacesError extends SessionError {
  override name = 'NonConformingNamespacesError'
  constructor(parameters: Parameters = {}) {
    super("Non conforming namespaces. The approved namespaces don't satisfy the required ones", {
      ...parameters,
      code: NON_CONFORMING_NAMESPACES,
    })
  }
}

export class InvalidRejectReasonError extends SessionError {
  override name = 'InvalidRejectReasonError'
  constructor(parameters: Parameters = {}) {
    super('Missing or invalid. A rejection reason needs a code and a message', {
      ...parameters,
      code: MISSING_OR_INVALID,
    })
  }
}

export class UnapprovedChainError extends SessionError {
  override name = 'UnapprovedChainError'
  constructor(parameters: Parameters = {}) {
    super('Unsupported chains. The chainId is not approved in the session', {
      ...parameters,
      code: UNSUPPORTED_CHAINS,
    })
  }
}

export class UnapprovedMethodError extends SessionError {
  override name = 'UnapprovedMethodError'
  constructor(parameters: Parameters = {}) {
    super("Unauthorized method. The method is not approved for the account's chain", {
      ...parameters,
      code: UNAUTHORIZED_METHOD,
    })
  }
}

export class UnapprovedEventError extends SessionError {
  override name = 'UnapprovedEventError'
  constructor(parameters: Parameters = {}) {
    super('Unauthorized event. The event is not approved in the session', {
      ...parameters,
      code: UNAUTHORIZED_EVENT,
    })
  }
}

export class InvalidRequestExpiryError extends SessionError {
  override name = 'InvalidRequestExpiryError'
  constructor(parameters: Parameters = {}) {
    super(
      `Missing or invalid. Request expiry must be a number of seconds from ${REQUEST_EXPIRY_MIN_S} to ${REQUEST_EXPIRY_MAX_S}`,
      { ...parameters, code: MISSING_OR_INVALID },
    )
  }
}

export class InvalidSettleError extends SessionError {
  override name = 'InvalidSettleError'
  constructor(parameters: Parameters = {}) {
    super("Missing or invalid. A settlement needs a relay, the controller's public key and namespaces", {
      ...parameters,
      code: MISSING_OR_INVALID,
    })
  }
}

export class SettleExpiredError extends SessionError {
  override name = 'SettleExpiredError'
  constructor(parameters: Parameters = {}) {
    super('session settlement expired', { ...parameters, code: EXPIRED })
  }
}

/** An update older than the last one applied (SPEC §4: out-of-order updates are discarded). */
export class OutOfOrderUpdateError extends SessionError {
  override name = 'OutOfOrderUpdateError'
  constructor(parameters: Parameters = {}) {
    super('Invalid update request. It is older than the last update', {
      ...parameters,
      code: INVALID_UPDATE_REQUEST,
    })
  }
}

/** A request left unanswered when its session ended (SPEC §4: pending requests are then removed). */
export class SessionEndedError extends SessionError {
  override name = 'SessionEndedError'
  constructor(parameters: Parameters = {}) {
    super('The session ended before the request was answered', { ...parameters, code: USER_DISCONNECTED })
  }
}

export class RequestNotFoundError extends SessionError {
  override name = 'RequestNotFoundError'
  constructor(parameters: Parameters = {}) {
    super("request id doesn't exist", { ...parameters, code: NO_MATCHING_KEY })
  }
}

/** Requests are answered one at a time (SPEC §4): only the active one can be. */
export class RequestNotActiveError extends SessionError {
  override name = 'RequestNotActiveError'
  constructor(parameters: Parameters = {}) {
    super('Missing or invalid. Only the active request can be answered', {
      ...parameters,
      code: MISSING_OR_INVALID,
    })
  }
}

/** A command of the other side (SPEC §6: the app proposes and requests, the wallet approves and answers). */
export class WrongRoleError extends SessionError {
  override name = 'WrongRoleError'
  constructor(command: string, role: 'app' | 'wallet', parameters: Parameters = {}) {
    super(`Missing or invalid. ${command} is for the ${role} side`, {
      ...parameters,
      code: MISSING_OR_INVALID,
    })
  }
}

// ---------- time limits (issue 13: no step waits on the relay forever) ----------

const noAnswerAfter = (timeoutMs: number | undefined) =>
  timeoutMs === undefined ? undefined : `No answer after ${timeoutMs / 1000} s`

/**
 * A call to the relay (connect(), pair(), an answer to the peer) did not settle within its limit
 * (SESSION_CONNECT_TIMEOUT_MS, SESSION_PAIR_TIMEOUT_MS, SESSION_ANSWER_TIMEOUT_MS, AUTH_APPROVE_TIMEOUT_MS in
 * src/constants.ts, each beyond the sign client's own relay limits). The call is no longer waited for; what the
 * library does with it later is not followed. `what` names the call ("connect()").
 */
export class RelayTimeoutError extends SessionError {
  override name = 'RelayTimeoutError'
  constructor(what: string, parameters: Parameters & { timeoutMs?: number } = {}) {
    super(`Expired. ${what} got no answer from the relay in time`, {
      ...parameters,
      code: EXPIRED,
      details: parameters.details ?? noAnswerAfter(parameters.timeoutMs),
    })
  }
}

/**
 * The signature checks of a one-click auth request did not finish within AUTH_VERIFY_TIMEOUT_MS
 * (src/constants.ts). Unchecked signatures are not approved: the request is refused to the peer with
 * 'Signature verification failed' (SPEC §8), and this error says locally why.
 */
export class SignatureVerificationTimeoutError extends SessionError {
  override name = 'SignatureVerificationTimeoutError'
  constructor(parameters: Parameters & { timeoutMs?: number } = {}) {
    super('Signature verification did not finish in time', {
      ...parameters,
      code: SESSION_SETTLEMENT_FAILED,
      details: parameters.details ?? noAnswerAfter(parameters.timeoutMs),
    })
  }
}

/**
 * The wallet did not answer a ping, or did not acknowledge an extension, within SESSION_PEER_ANSWER_TIMEOUT_MS
 * (src/constants.ts). The session is kept: the kit says the wallet is not answering and asks it again.
 */
export class PeerNotAnsweringError extends SessionError {
  override name = 'PeerNotAnsweringError'
  constructor(what: 'ping' | 'extend', parameters: Parameters & { timeoutMs?: number } = {}) {
    super(
      what === 'ping'
        ? 'Expired. The wallet did not answer the session ping in time'
        : 'Expired. The wallet did not acknowledge the session extension in time',
      { ...parameters, code: EXPIRED, details: parameters.details ?? noAnswerAfter(parameters.timeoutMs) },
    )
  }
}

/** The peer answered with an error of its own; its message and code are kept. */
export class RemoteError extends SessionError {
  override name = 'RemoteError'
}

// ---------- helpers ----------

/** Plain data for a snapshot. */
export function sessionErrorInfo(error: SessionError): SessionErrorInfo {
  return {
    name: error.name,
    message: error.shortMessage,
    code: error.code,
    ...(error.details ? { details: error.details } : {}),
  }
}

/**
 * Maps anything the WalletConnect client or a peer threw onto the session error family, keeping the cause.
 * The reference client's texts differ from the SPEC's ("No matching key. session topic doesn't exist: …",
 * "Missing or invalid. Record was recently deleted - session: …"); this is where they are mapped.
 *
 * @example
 * try { await client.request(params) } catch (e) { throw toSessionError(e) }
 */
export function toSessionError(error: unknown): SessionError {
  if (error instanceof SessionError) return error
  const message = messageOf(error)
  const code = codeOf(error)
  const cause = { cause: error, details: message }
  for (const [pattern, make] of MAPPINGS) {
    if (pattern.test(message)) return make(message, cause)
  }
  return new RemoteError(message || 'Remote session failed', { ...cause, code: code ?? 5000 })
}

type Make = (message: string, parameters: Parameters) => SessionError

const MAPPINGS: ReadonlyArray<readonly [RegExp, Make]> = [
  [/Record was recently deleted/, (_, p) => new RecentlyDeletedError(p)],
  [/session (or pairing )?topic doesn't exist/, (_, p) => new SessionTopicNotFoundError(p)],
  [/proposal id doesn't exist/, (_, p) => new ProposalNotFoundError(p)],
  [/pairing topic doesn't exist/, (_, p) => new PairingTopicNotFoundError(p)],
  [/Expired\. session topic|session topic expired/, (_, p) => new SessionExpiredError(p)],
  [/Expired\. pairing topic|pairing topic expired/, (_, p) => new PairingExpiredError(p)],
  [/Expired\. proposal id|Proposal expired|proposal expired/, (_, p) => new ProposalExpiredError(p)],
  [/Request expired|request expired/, (_, p) => new RequestExpiredError(p)],
  [/session ended before the request/, (_, p) => new SessionEndedError(p)],
  [/Multi-namespace requests are not supported/, (_, p) => new MultiNamespaceAuthError(p)],
  [/Only eip155 namespace is supported/, (_, p) => new NonEip155AuthError(p)],
  [
    /Could not find pending auth request with id (\d+)/,
    (m, p) => new AuthRequestNotFoundError(/with id (\d+)/.exec(m)?.[1] ?? '?', p),
  ],
  [/Signature verification failed/, (_, p) => new SignatureVerificationError(p)],
  [/Please call connect\(\) before/, (_, p) => new NotConnectedError(p)],
  [/Failed to switch to chain/, (_, p) => new SwitchChainFailedError(p)],
  [/Fetching call status not approved/, (_, p) => new CallStatusNotApprovedError(p)],
  [/No RPC url provided for chainId/, (_, p) => new NoRpcUrlError(p)],
  [/request\(\) chainId|chainId is not approved/, (_, p) => new UnapprovedChainError(p)],
  [/request\(\) method|method is not approved/, (_, p) => new UnapprovedMethodError(p)],
  [/request\(\) expiry|Request expiry must be/, (_, p) => new InvalidRequestExpiryError(p)],
  [/emit\(\) event|event is not approved/, (_, p) => new UnapprovedEventError(p)],
  [/reject\(\) reason|rejection reason needs/, (_, p) => new InvalidRejectReasonError(p)],
  [/Scoped properties must be a subset/, (_, p) => new ScopedPropertiesError(p)],
  [/must contain an existing value for each key|must not be null/, (_, p) => new NullPropertyError(p)],
  [/conform to "namespace:chainId"|must be written namespace:chainId/, (_, p) => new InvalidChainsError(p)],
  [/Non conforming namespaces/, (_, p) => new NonConformingNamespacesError(p)],
  [/onSessionSettleRequest\(\)|settlement needs/, (_, p) => new InvalidSettleError(p)],
]

function messageOf(error: unknown): string {
  if (typeof error === 'string') return error
  if (error && typeof error === 'object' && 'message' in error && typeof error.message === 'string') {
    return error.message
  }
  return ''
}

/** Rebuilds an error from snapshot data (for callers awaiting a command's outcome); `name` is kept. */
export function sessionErrorFromInfo(info: SessionErrorInfo): SessionError {
  const error = new SessionError(info.message, {
    code: info.code,
    ...(info.details ? { details: info.details } : {}),
  })
  error.name = info.name
  return error
}
