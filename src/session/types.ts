/**
 * The data of a remote (WalletConnect) session, as SPEC §3 names it, in plain JSON-safe shapes: what the session
 * machines keep in their context and what the adapter turns the WalletConnect client's records into. Times are
 * epoch milliseconds (the client's own records count seconds; the adapter converts).
 */

/** SPEC §3 App metadata. */
export interface AppMetadata {
  name: string
  description: string
  url: string
  icons: string[]
  redirect?: { native?: string; universal?: string; linkMode?: boolean }
}

/** A participant: its public key and metadata (SPEC §3 self and peer). */
export interface Participant {
  publicKey: string
  metadata: AppMetadata
}

/** SPEC §3 Namespace, as approved in a session: accounts are `namespace:chainId:address`. */
export interface Namespace {
  chains?: string[]
  accounts: string[]
  methods: string[]
  events: string[]
  rpcMap?: Record<string, string>
  defaultChain?: string
}

export type Namespaces = Record<string, Namespace>

/** A namespace as a proposal asks for it (no accounts yet). */
export interface ProposalNamespace {
  chains?: string[]
  methods: string[]
  events: string[]
  rpcMap?: Record<string, string>
  defaultChain?: string
}

export type ProposalNamespaces = Record<string, ProposalNamespace>

/** Session and scoped properties: string keys to values (a null value breaks SPEC §5). */
export type Properties = Record<string, unknown>

/** SPEC §3 Proposal. */
export interface ProposalInfo {
  id: number
  pairingTopic: string
  /** Epoch ms after which the proposal is expired. */
  expiry: number
  proposer: Participant
  requiredNamespaces: ProposalNamespaces
  optionalNamespaces: ProposalNamespaces
  relays: { protocol: string }[]
  sessionProperties?: Properties
  scopedProperties?: Properties
}

/** SPEC §3 Pairing session. */
export interface SessionInfo {
  topic: string
  pairingTopic?: string
  /** Epoch ms after which the session is expired. */
  expiry: number
  acknowledged: boolean
  relay: { protocol: string }
  /** The controller's (the wallet's) public key. */
  controller: string
  self: Participant
  peer: Participant
  namespaces: Namespaces
  requiredNamespaces: ProposalNamespaces
  optionalNamespaces: ProposalNamespaces
  sessionProperties?: Properties
  scopedProperties?: Properties
}

/** A JSON-RPC request carried in a session (wc_sessionRequest). */
export interface RpcRequest {
  method: string
  params?: unknown
}

/** One request in a session, sent by the app or received by the wallet. */
export interface RequestInfo {
  id: number
  topic: string
  chainId: string
  request: RpcRequest
  /** Epoch ms after which the request is expired. */
  expiry: number
}

/** What a wallet answers: a result or an error. */
export type RpcResponse = { result: unknown } | { error: { code: number; message: string } }

/** A session event (wc_sessionEvent), e.g. chainChanged. */
export interface SessionEventInfo {
  name: string
  data: unknown
}

/** The settle request's parameters, as received: validated by SPEC §5's settle rule before anything uses them. */
export interface SettleParams {
  relay?: unknown
  controller?: unknown
  namespaces?: unknown
  /** Seconds, as on the wire. */
  expiry?: unknown
  sessionProperties?: unknown
  scopedProperties?: unknown
}

/** One-click auth (wc_sessionAuthenticate) request parameters, app side (SPEC §5 authenticate rule). */
export interface AuthenticateParams {
  chains: string[]
  uri: string
  domain: string
  nonce: string
  statement?: string
  methods?: string[]
  resources?: string[]
  /** Seconds. */
  expiry?: number
}

/** A CAIP-122 payload and its signature (a CACAO), as the wallet signs it. */
export interface Cacao {
  h: { t: string }
  p: {
    domain: string
    aud: string
    nonce: string
    iss: string
    version?: string
    iat: string
    nbf?: string
    exp?: string
    statement?: string
    requestId?: string
    resources?: string[]
  }
  s: { t: string; s: string; m?: string }
}

/** A one-click auth request as the wallet receives it. */
export interface AuthRequestInfo {
  id: number
  pairingTopic: string
  /** Epoch ms. */
  expiry: number
  requester: Participant
  /** The CAIP-122 payload the wallet signs, chains included. */
  payload: {
    chains: string[]
    domain: string
    aud: string
    nonce: string
    type?: string
    version?: string
    iat: string
    /** Until when the signed message is valid, and from when (ISO 8601): signed as asked. */
    exp?: string
    nbf?: string
    statement?: string
    requestId?: string
    resources?: string[]
  }
}

/** Kinds of records the recently-deleted map remembers (SPEC §4). */
export type RecordKind = 'pairing' | 'session' | 'proposal' | 'request' | 'auth'
