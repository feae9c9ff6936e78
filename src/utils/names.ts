import type { Address } from 'viem'
import { NAME_LEGACY_SUFFIX, NAME_MAX_LENGTH, NAME_MIN_LENGTH, NAME_SUFFIX } from '../constants'
import type { NameLabelRule } from '../errors/names'

/**
 * What every layer needs to know of a name (SPEC §5; issue 20): the machine's rules (src/machines/names/rules.ts),
 * the Data API client (src/api/names.ts) and the registration slot (src/actors/names.ts) share these, so the
 * label checked is the label asked for and the message signed is the message sent.
 */

/** A label that may be registered: letters, digits and hyphens, at least NAME_MIN_LENGTH of them (SPEC §5). */
const REGISTRABLE_LABEL = new RegExp(`^[a-z0-9-]{${NAME_MIN_LENGTH},${NAME_MAX_LENGTH}}$`)

/**
 * The name as the API takes it: trimmed, lowercased, a trailing `.reown.id` stripped.
 *
 * @example
 * normaliseNameLabel(' Alice.reown.id ') // 'alice'
 */
export function normaliseNameLabel(value: string): string {
  const text = value.trim().toLowerCase()
  return text.endsWith(NAME_SUFFIX) ? text.slice(0, -NAME_SUFFIX.length) : text
}

/**
 * Which LDH rule a normalised label breaks, beside SPEC §5's characters (see `NameLabelRule`): an IDNA
 * (punycode) `xn--` label, a hyphen first or last, hyphens in the 3rd and 4th positions. `undefined` when none.
 *
 * @example
 * nameLabelRuleOf('xn--80ak6aa92e') // 'punycode'
 * nameLabelRuleOf('-alice-') // 'hyphenEdge'
 * nameLabelRuleOf('al--ice') // 'hyphen34'
 * nameLabelRuleOf('alice-bob') // undefined
 */
export function nameLabelRuleOf(label: string): NameLabelRule | undefined {
  if (label.startsWith('xn--')) return 'punycode'
  if (label.startsWith('-') || label.endsWith('-')) return 'hyphenEdge'
  if (label.slice(2, 4) === '--') return 'hyphen34'
  return undefined
}

/**
 * Whether a normalised label may be registered: SPEC §5's characters and length, and the LDH rules
 * ({@link nameLabelRuleOf}). A legacy `.wcn.id` name never: it holds dots.
 */
export function isRegistrableLabel(label: string): boolean {
  return REGISTRABLE_LABEL.test(label) && nameLabelRuleOf(label) === undefined
}

/** Whether a normalised label is a legacy `.wcn.id` name (resolved, not registered). */
export function isLegacyName(label: string): boolean {
  return label.endsWith(NAME_LEGACY_SUFFIX)
}

/** The full name of a label: `alice` → `alice.reown.id`. */
export function fullNameOf(label: string): string {
  return `${label}${NAME_SUFFIX}`
}

/**
 * ENSIP-11's coin type of an EVM chain, the one a registration is signed for (also for chain 1).
 *
 * @example
 * nameCoinTypeOf(1) // 2147483649
 */
export function nameCoinTypeOf(chainId: number): number {
  return (0x80000000 | chainId) >>> 0
}

/** What a registration message says: the name, for which account on which chain, asked by which app, when. */
export interface NameRegistrationFields {
  /** The full name (`alice.reown.id`). */
  name: string
  address: Address
  chainId: number
  /** The app's domain (its page's host, as in a sign-in message: `app.example.com`, `127.0.0.1:5173`). */
  domain: string
  /** When it was asked, in whole seconds. */
  issuedAt: Date
}

/**
 * The message a registration signs (SPEC §7's `message`): one sentence a visitor can read in the wallet, that
 * names the app's domain, the purpose, the name, the account (as the wallet gave it: checksummed), the chain and
 * the time (ISO 8601, UTC, seconds).
 *
 * @example
 * nameRegistrationMessage({ name: 'alice.reown.id', address, chainId: 1, domain: 'app.example.com', issuedAt })
 * // 'app.example.com asks you to register the name alice.reown.id for the account 0xf39F…2266 on chain 1 at 2023-11-14T22:13:20Z.'
 */
export function nameRegistrationMessage(fields: NameRegistrationFields): string {
  const time = `${fields.issuedAt.toISOString().slice(0, 19)}Z`
  return `${fields.domain} asks you to register the name ${fields.name} for the account ${fields.address} on chain ${fields.chainId} at ${time}.`
}

const REGISTRATION_MESSAGE =
  /^(?<domain>[^\s]+) asks you to register the name (?<name>[^\s]+) for the account (?<address>0x[0-9a-fA-F]{40}) on chain (?<chainId>[1-9][0-9]{0,15}) at (?<time>\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z)\.$/

/** The fields of a registration message ({@link nameRegistrationMessage}), or undefined when it is not one. */
export function parseNameRegistrationMessage(message: string): NameRegistrationFields | undefined {
  const groups = REGISTRATION_MESSAGE.exec(message)?.groups
  if (!groups) return undefined
  const { domain, name, address, chainId, time } = groups as Record<string, string>
  const issuedAt = new Date(time!)
  if (Number.isNaN(issuedAt.getTime())) return undefined
  return { domain: domain!, name: name!, address: address as Address, chainId: Number(chainId), issuedAt }
}
