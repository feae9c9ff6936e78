/** The account names flow's types (src/machines/names.ts): its context, events, notices and what its slots take. */
import type { Address } from 'viem'

/** One suggestion of `GET /v1/profile/suggestions/{label}`: a full name and whether someone holds it. */
export interface NameSuggestion {
  /** The full name, `alice.reown.id`. */
  name: string
  registered: boolean
}

/** What `fetchSuggestions` takes: the normalised label (lowercase, no suffix). */
export interface NameSuggestionsRequest {
  label: string
}

/** What `signRegistration` takes: the account and its chain, and the full name to register. */
export interface NameSignRequest {
  address: Address
  /** The eip155 reference the wallet signs on (the coin type is derived from it). */
  chainId: number
  /** The full name, `alice.reown.id`. */
  name: string
}

/** What `signRegistration` answers: the message signed, its signature, the ENSIP-11 coin type of the chain. */
export interface NameSignedRegistration {
  /**
   * One sentence (src/utils/names.ts `nameRegistrationMessage`): `app.example.com asks you to register the name
   * alice.reown.id for the account 0x… on chain 1 at 2026-01-01T00:00:00Z.`
   */
  message: string
  signature: `0x${string}`
  coinType: number
}

/** What `registerName` takes (SPEC §7 `POST /v1/profile/account`). */
export interface NameRegisterRequest {
  address: Address
  coinType: number
  message: string
  signature: `0x${string}`
}

/** What `registerName` answers: the record of the name registered (at least its full name). */
export interface RegisteredNameRecord {
  /** The full name, lowercase. */
  name: string
  /** When it was registered, in milliseconds since the epoch (when the API says). */
  registered?: number
}

export interface NamesContext {
  /** The account that registers: the kit starts a names machine per account. */
  address: Address
  /** The eip155 reference of the account's network (the message is signed on it). */
  chainId: number
  /** The name as typed (or picked). */
  value: string
  /** The value normalised: trimmed, lowercased, the `.reown.id` suffix stripped. */
  label: string
  /** The answer for `label`: the label itself first (with its real `registered`), then alternatives. */
  suggestions: NameSuggestion[]
  /** A SPEC §8 text: 'Error fetching name suggestions', 'Error registering name {name}'. */
  error: string | undefined
  /** The signed message, between signing and submitting. */
  signed: NameSignedRegistration | undefined
  /** The full name once registered. */
  registeredName: string | undefined
}

export interface NamesInput {
  address: Address
  chainId: number
}

export type NamesEvent =
  /** The name as typed: validated, then (valid) checked after the debounce. */
  | { type: 'names.type'; value: string }
  /** A suggestion's full name or a label: becomes the value and is checked. */
  | { type: 'names.pick'; name: string }
  /** From `available`: the message is signed and the name registered. */
  | { type: 'names.register' }
  /** From `suggestionsFailed`: checks the name again. */
  | { type: 'names.retry' }

/** `names.registered` (named, so declarations name it instead of repeating it). */
export interface NameRegistered {
  type: 'names.registered'
  name: string
  address: Address
}

/** What the names machine tells the kit (`actor.on(type, …)`). */
export type NamesNotice =
  /** The wallet is asked to sign the registration message. */
  | { type: 'names.signing' }
  /** The name is registered for the address (the kit shows the success view and reads the profile again). */
  | NameRegistered
  /** The registration failed: back to the form with 'Error registering name {name}'. */
  | { type: 'names.failed'; name: string }
