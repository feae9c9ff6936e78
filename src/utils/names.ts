import { NAME_LEGACY_SUFFIX, NAME_MAX_LENGTH, NAME_MIN_LENGTH, NAME_SUFFIX } from '../constants'

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

/** Whether a normalised label may be registered (a legacy `.wcn.id` name never: it holds dots). */
export function isRegistrableLabel(label: string): boolean {
  return REGISTRABLE_LABEL.test(label)
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

/**
 * The message a registration signs (SPEC §7): JSON text of the full name, no attributes, the time in seconds.
 *
 * @example
 * nameRegistrationMessage('alice.reown.id', 1_700_000_000)
 * // '{"name":"alice.reown.id","attributes":{},"timestamp":1700000000}'
 */
export function nameRegistrationMessage(name: string, timestampSeconds: number): string {
  return JSON.stringify({ name, attributes: {}, timestamp: timestampSeconds })
}
