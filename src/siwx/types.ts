/**
 * Sign-in with the wallet (SIWX, SPEC §1 `siwx`): how the host makes the message the visitor signs and keeps
 * the sessions that come of it. The kit asks, after every connect and on every change of account or chain,
 * for a valid session of that account on that chain; without one it asks the visitor to sign
 * (`ConnectingSiwe`), checks the signature itself (EOAs and smart accounts, through the chain's RPC), then
 * hands the session to `addSession`. `createSiwe()` (src/siwx/siwe.ts) is a ready EIP-4361 implementation.
 */

/** The account and chain a message is for. `chainId` is CAIP-2 (`eip155:1`). */
export interface SiwxMessageInput {
  accountAddress: `0x${string}`
  chainId: string
}

/** What a sign-in message says (EIP-4361's fields; `chainId` is CAIP-2). */
export interface SiwxMessageData extends SiwxMessageInput {
  domain: string
  uri: string
  version: '1'
  nonce: string
  statement?: string
  /** ISO 8601. */
  issuedAt: string
  expirationTime?: string
  notBefore?: string
  requestId?: string
  resources?: string[]
}

/** A message to sign: its fields and the text the wallet shows and signs. */
export interface SiwxMessage {
  data: SiwxMessageData
  message: string
}

/** A signed message: what the app keeps and checks. */
export interface SiwxSession extends SiwxMessage {
  signature: `0x${string}`
  /** The session's id where a server keeps it (the sandbox sessions preset). */
  id?: string
}

/** The host's sign-in: message, sessions, and whether signing in is required. */
export interface SiwxConfig {
  /** The message for this account and chain (a fresh nonce each time). */
  createMessage(input: SiwxMessageInput): Promise<SiwxMessage>
  /** Keeps a session the kit has verified; throws to refuse it (the visitor stays signed out). */
  addSession(session: SiwxSession): Promise<void>
  /** The sessions kept for this account and chain (the kit still checks each before it trusts it). */
  getSessions(chainId: string, address: `0x${string}`): Promise<SiwxSession[]>
  /** Ends the sessions of this account and chain (sign-out, disconnect). */
  revokeSession(chainId: string, address: `0x${string}`): Promise<void>
  /** True: a visitor who declines to sign is disconnected. Default false (sign-in optional). */
  getRequired?(): boolean
  /**
   * The domain and URI its messages are made for (EIP-4361 `domain`, `uri`): the page's host and origin when
   * absent. A kept session signed for another domain, or with a URI on another origin, is dropped.
   */
  getDomain?(): SiwxDomain | undefined | Promise<SiwxDomain | undefined>
}

/** The EIP-4361 `domain` and `uri` an app's messages are made for. */
export interface SiwxDomain {
  domain: string
  uri: string
}

/**
 * Reown AppKit's SIWE configuration (`siweConfig`, from `createSIWEConfig`), accepted as is so an AppKit host
 * keeps its server code: the kit maps it onto SIWX (src/siwx/fromSiweConfig.ts). The app's server makes the
 * nonce, verifies the signed message and keeps the session (a cookie, usually); the kit also keeps the signed
 * message in the browser so it can check the signature itself before it trusts the server's session.
 */
export interface SiweConfig {
  /** The message's fields beyond the account, nonce and chain (AppKit `getMessageParams`). */
  getMessageParams?(): Promise<SiweMessageParams>
  /** The message text for these fields (the kit parses it back as EIP-4361 before anyone signs it). */
  createMessage(args: SiweCreateMessageArgs): string
  getNonce(address?: string): Promise<string>
  /** The server's session, if any. */
  getSession(): Promise<SiweSession | null>
  /** The server checks a signed message and starts its session: false refuses it. */
  verifyMessage(args: { message: string; signature: string }): Promise<boolean>
  signOut(): Promise<boolean>
  onSignIn?(session?: SiweSession): void
  onSignOut?(): void
  /** `false` turns sign-in off. */
  enabled?: boolean
  /** A visitor who declines to sign is disconnected. Default false. */
  required?: boolean
}

/** AppKit's `getMessageParams` answer. */
export interface SiweMessageParams {
  domain?: string
  uri?: string
  /** The chain numbers sign-in is offered on (informative; the kit signs in on the connected chain). */
  chains?: number[]
  statement?: string
  iat?: string
  exp?: string
  nbf?: string
  requestId?: string
  resources?: string[]
}

/** What AppKit passes to `createMessage`: `address` is the account's DID (`did:pkh:eip155:1:0x…`). */
export interface SiweCreateMessageArgs extends SiweMessageParams {
  address: string
  chainId: number
  nonce: string
  version: '1'
  domain: string
  uri: string
  iat: string
}

/** AppKit's session: the signed-in account and chain number. */
export interface SiweSession {
  address: string
  chainId: number
}
