import type { ErrorReason, SessionError, SessionErrorInfo } from '../../errors/session'
import type { LocalAnswer } from '../../session/eip155'
import type { RecentlyDeleted } from '../../session/recentlyDeleted'
import type {
  AuthenticateParams,
  AuthRequestInfo,
  Cacao,
  Namespaces,
  Participant,
  Properties,
  ProposalInfo,
  ProposalNamespaces,
  RecordKind,
  RequestInfo,
  RpcRequest,
  RpcResponse,
  SessionEventInfo,
  SessionInfo,
  SettleParams,
} from '../../session/types'
import type { ApproveParams } from '../../session/validateApprove'

/**
 * The types the session machines and the SPEC §5 rules (`src/session/rules.ts`) share: the client's records,
 * its events and commands, and the children's notices. Types only, so the rules never import a machine.
 */
export type Role = 'app' | 'wallet'

/** The time source of every session machine (epoch ms); tests and demos inject their own. */
export type Clock = () => number

/** Lifetimes shorter than the library's (for tests and demos); each is capped by the record's own expiry. */
export interface SessionTtls {
  proposalMs?: number
  sessionMs?: number
  requestMs?: number
  authMs?: number
}

/** Notices children send their client (`parent`); absent in a child run on its own. */
export type SessionNotice =
  | {
      type: 'proposal.settled'
      id: number
      outcome: 'approved' | 'rejected' | 'expired'
      reason?: ErrorReason
    }
  | {
      type: 'auth.settled'
      id: number
      outcome: 'approved' | 'rejected' | 'expired'
      session?: SessionInfo
      pairingTopic?: string
      reason?: ErrorReason
    }
  | {
      type: 'session.ended'
      topic: string
      outcome: 'deleted' | 'expired' | 'peerDisconnected' | 'settlementFailed'
    }
  | { type: 'session.expiryChanged'; topic: string; expiry: number }
  | {
      type: 'request.settled'
      id: number
      topic: string
      outcome: 'fulfilled' | 'rejected' | 'expired' | 'removed'
      request: RpcRequest
      result?: unknown
      error?: SessionErrorInfo
    }

/** The client keeps what the SPEC §5 rules are checked against; its children keep the lifecycles. */
export interface ProposalRecord {
  id: number
  pairingTopic: string
  expiry: number
  requiredNamespaces: ProposalNamespaces
  /** The pairing URI, when this client's own connect created the proposal. */
  uri?: string
}

export interface SessionRecord {
  topic: string
  expiry: number
  namespaces: Namespaces
  requiredNamespaces: ProposalNamespaces
  sessionProperties?: Properties
  scopedProperties?: Properties
  peer: Participant
  /** App: the chain requests go to unless they name one (`eip155:1`). */
  chainId?: string
  /** The last update applied (SPEC §4: older ones are discarded). */
  lastUpdateId?: number
}

export interface RequestRecord {
  id: number
  topic: string
  method: string
}

export interface Outcome {
  kind: RecordKind
  key: string
  outcome: string
  local?: boolean
  result?: unknown
  reason?: ErrorReason
  error?: SessionErrorInfo
}

export interface Refusal {
  /** The command or report refused (its event type). */
  command: string
  /** The id or topic it named. */
  key?: string
  error: SessionErrorInfo
}

export interface SessionClientInput {
  role: Role
  ttl?: SessionTtls
  /** App: RPC URLs by chain (`eip155:1` → URL), for the locally answered eip155 methods. */
  rpcMap?: Record<string, string>
  /** App: when a proposal this client made expires unanswered, propose again (a fresh URI). Default true. */
  renewExpiredProposals?: boolean
  /** Where the machines read the time (epoch ms). Default `Date.now()`. */
  clock?: Clock
  /** How long a session's peer may stay silent before the app pings it. Default SESSION_PING_INTERVAL_MS. */
  pingIntervalMs?: number
  /** This side extends its sessions before they expire and pings silent peers. Default: the app's side. */
  keepAlive?: boolean
}

export interface SessionClientContext {
  role: Role
  ttl: SessionTtls
  rpcMap: Record<string, string>
  renewExpiredProposals: boolean
  pairings: Record<string, { expiry: number }>
  proposals: Record<string, ProposalRecord>
  sessions: Record<string, SessionRecord>
  requests: Record<string, RequestRecord>
  auths: Record<string, { id: number; pairingTopic?: string }>
  /** Wallet: received requests waiting their turn, oldest first; the first is the active one. */
  queue: string[]
  activeRequest: string | undefined
  recentlyDeleted: RecentlyDeleted
  /** App: the parameters of the last connect, kept to propose again when the proposal expires. */
  connectParams: unknown
  /** App: the pairing URI of the last connect (the QR code). */
  pairingUri: string | undefined
  /** The latest settled records, newest last. */
  outcomes: Outcome[]
  lastError: Refusal | undefined
  /** App: the plan of the `request.send` being handled (see `RequestPlan`); undefined between requests. */
  plan: RequestPlan | undefined
  clock: Clock
  pingIntervalMs: number | undefined
  keepAlive: boolean | undefined
}

/** What the adapter reports from the WalletConnect client. */
export type SignClientEvent =
  | {
      type: 'wc.sync'
      pairings: Record<string, { expiry: number }>
      proposals: ProposalInfo[]
      sessions: SessionInfo[]
      requests: (Omit<RequestInfo, 'expiry'> & { expiry?: unknown })[]
    }
  | { type: 'wc.pairings'; pairings: Record<string, { expiry: number }> }
  | { type: 'wc.sessionPropose'; proposal: ProposalInfo }
  | { type: 'wc.proposalApproved'; id: number }
  | { type: 'wc.proposalRejected'; id: number; reason: ErrorReason }
  | { type: 'wc.proposalExpired'; id: number }
  | {
      type: 'wc.sessionSettle'
      topic: string
      settle: SettleParams
      self: Participant
      /** Wallet: the proposer. App: the settlement's controller. */
      peer: Participant
      pairingTopic?: string
      requiredNamespaces?: ProposalNamespaces
      optionalNamespaces?: ProposalNamespaces
    }
  | { type: 'wc.settleAcknowledged'; topic: string; session?: SessionInfo }
  | { type: 'wc.settleFailed'; topic: string; reason?: ErrorReason }
  | { type: 'wc.sessionDelete'; topic: string; by: 'peer' | 'self' }
  | { type: 'wc.sessionExpire'; topic: string }
  | { type: 'wc.sessionPing'; topic: string }
  | { type: 'wc.sessionExtend'; topic: string }
  | { type: 'wc.sessionUpdate'; topic: string; id: number; namespaces: unknown }
  | { type: 'wc.sessionEvent'; topic: string; chainId: string; event: SessionEventInfo }
  | { type: 'wc.requestSent'; request: Omit<RequestInfo, 'expiry'> & { expiry?: number } }
  | { type: 'wc.requestResult'; id: number; result: unknown }
  | { type: 'wc.requestError'; id: number; error: SessionErrorInfo }
  | { type: 'wc.sessionRequest'; request: Omit<RequestInfo, 'expiry'> & { expiry?: unknown } }
  | { type: 'wc.requestExpired'; id: number }
  | { type: 'wc.sessionAuthenticate'; request: AuthRequestInfo }

/** What the client asks of the adapter without waiting for an answer. */
export type SignClientCommand =
  /** Our timer expired a record first: make the library forget it too (a wallet tells the peer its request expired). */
  | { type: 'library.expireProposal'; id: number }
  | { type: 'library.expireSession'; topic: string }
  | { type: 'library.expireRequest'; id: number; topic: string }

/** Commands, from the kit, the wallet page or a test. */
export type SessionCommand =
  | { type: 'session.connect'; params: unknown }
  | { type: 'session.pair'; uri: string }
  | { type: 'session.authenticate'; id: number; params: AuthenticateParams }
  | ({ type: 'proposal.approve' } & ApproveParams)
  | { type: 'proposal.reject'; id: number; reason: ErrorReason }
  | { type: 'auth.approve'; id: number; auths: Cacao[] }
  | { type: 'auth.reject'; id: number; reason: ErrorReason }
  | {
      type: 'request.send'
      /** The caller's id for the request (unique; see `nextRequestId`). */
      id: number
      topic?: string
      chainId?: string
      request: RpcRequest
      /** Seconds. */
      expiry?: number
    }
  | { type: 'request.respond'; id: number; response: RpcResponse }
  | { type: 'session.ping'; topic: string }
  | { type: 'session.extend'; topic: string }
  | { type: 'session.emit'; topic: string; chainId: string; event: SessionEventInfo }
  | { type: 'session.disconnect'; topic: string; reason?: ErrorReason }

export type SessionClientEvent = SessionCommand | SignClientEvent | SessionNotice

export interface ConnectOutput {
  uri: string | undefined
  pairingTopic: string
}

/**
 * App: where a request goes, computed once per `request.send` (one clock read) and kept in the client's context
 * while its guards branch on it. A refusal names the SPEC §5 rule it broke.
 */
export type RequestPlan =
  | { kind: 'refused'; rule: RequestRule; error: SessionError }
  | { kind: 'local'; topic: string; answer: Extract<LocalAnswer, { kind: 'result' }> }
  | { kind: 'send'; topic: string; chainId: string; expiry: number }

/** The SPEC §5 rules a request can break, in the order they are checked. */
export type RequestRule =
  | 'requestIdReused'
  | 'notConnected'
  | 'requestTopicMalformed'
  | 'requestTopicRecentlyDeleted'
  | 'requestTopicUnknown'
  | 'requestSessionExpired'
  | 'localAnswerRefused'
  | 'requestChainNotApproved'
  | 'methodMissing'
  | 'methodNotApproved'
  | 'requestExpiryOutOfRange'
