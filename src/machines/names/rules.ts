/**
 * The account names rules as pure functions (src/machines/names.ts names them as guards and actions): what a
 * typed name becomes (SPEC §5: the `.reown.id` suffix optional and stripped, any case), whether it may be
 * registered (letters, digits, hyphens, at least NAME_MIN_LENGTH characters; the legacy `.wcn.id` never), the
 * full name, and the registration message and coin type the wallet signs for.
 */
import { NAME_LEGACY_SUFFIX, NAME_MIN_LENGTH, NAME_SUFFIX } from '../../constants'
import type { NameSuggestion } from './types'

/** SPEC §5's rule, as the form shows it under an invalid name. */
export const NAME_RULE_MESSAGE = `Use only letters, digits and hyphens, at least ${NAME_MIN_LENGTH} characters`
/** A legacy `.wcn.id` name typed: it resolves, but is not registered any more (SPEC §5). */
export const NAME_LEGACY_RULE_MESSAGE = `Names ending in ${NAME_LEGACY_SUFFIX} can no longer be registered: choose a ${NAME_SUFFIX} name`

const LABEL = /^[a-z0-9-]+$/

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
 * Why the typed name cannot be registered (the rule to show), or undefined when it can (or nothing is typed).
 *
 * @example
 * nameRuleOf('ali') // NAME_RULE_MESSAGE
 * nameRuleOf('alice.wcn.id') // NAME_LEGACY_RULE_MESSAGE
 * nameRuleOf('Alice.reown.id') // undefined
 */
export function nameRuleOf(value: string): string | undefined {
  const label = normaliseNameLabel(value)
  if (label === '') return undefined
  if (label.endsWith(NAME_LEGACY_SUFFIX)) return NAME_LEGACY_RULE_MESSAGE
  if (label.length < NAME_MIN_LENGTH || !LABEL.test(label)) return NAME_RULE_MESSAGE
  return undefined
}

/** The full name of a label: `alice` → `alice.reown.id`. */
export function fullNameOf(label: string): string {
  return `${label}${NAME_SUFFIX}`
}

/** The label's own entry among the suggestions (the API lists it first), if the answer holds it. */
export function ownSuggestion(
  label: string,
  suggestions: readonly NameSuggestion[],
): NameSuggestion | undefined {
  const full = fullNameOf(label)
  return suggestions.find((suggestion) => suggestion.name === full)
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
