/**
 * The account names rules as pure functions (src/machines/names.ts names them as guards and actions): what a
 * typed name becomes (SPEC §5: the `.reown.id` suffix optional and stripped, any case), whether it may be
 * registered (letters, digits, hyphens, at least NAME_MIN_LENGTH characters; the legacy `.wcn.id` never) and
 * which rule to show when not, and which entry of an answer is the name's own. What the API client and the
 * registration slot share with them is in src/utils/names.ts.
 */
import { NAME_LEGACY_SUFFIX, NAME_MAX_LENGTH, NAME_MIN_LENGTH, NAME_SUFFIX } from '../../constants'
import { NAME_LABEL_RULE_TEXTS } from '../../errors/names'
import { fullNameOf, isLegacyName, nameLabelRuleOf, normaliseNameLabel } from '../../utils/names'
import type { NameSuggestion } from './types'

export { NAME_LABEL_RULE_TEXTS } from '../../errors/names'
export {
  fullNameOf,
  nameCoinTypeOf,
  nameLabelRuleOf,
  nameRegistrationMessage,
  normaliseNameLabel,
} from '../../utils/names'

/** SPEC §5's rule, as the form shows it under an invalid name. */
export const NAME_RULE_MESSAGE = `Use only letters, digits and hyphens, at least ${NAME_MIN_LENGTH} characters`
/** A label longer than NAME_MAX_LENGTH: no name that long could be looked up again. */
export const NAME_LENGTH_RULE_MESSAGE = `Use at most ${NAME_MAX_LENGTH} characters`
/** A legacy `.wcn.id` name typed: it resolves, but is not registered any more (SPEC §5). */
export const NAME_LEGACY_RULE_MESSAGE = `Names ending in ${NAME_LEGACY_SUFFIX} can no longer be registered: choose a ${NAME_SUFFIX} name`

const SPEC_LABEL = new RegExp(`^[a-z0-9-]{${NAME_MIN_LENGTH},${NAME_MAX_LENGTH}}$`)

/**
 * SPEC §5's rule the typed name breaks (letters, digits and hyphens, the length, not a legacy `.wcn.id` name), or
 * undefined when it keeps it (or nothing is typed).
 *
 * @example
 * nameSpecRuleOf('ali') // NAME_RULE_MESSAGE
 * nameSpecRuleOf('alice.wcn.id') // NAME_LEGACY_RULE_MESSAGE
 */
export function nameSpecRuleOf(value: string): string | undefined {
  const label = normaliseNameLabel(value)
  if (label === '') return undefined
  if (isLegacyName(label)) return NAME_LEGACY_RULE_MESSAGE
  if (SPEC_LABEL.test(label)) return undefined
  return label.length > NAME_MAX_LENGTH && /^[a-z0-9-]+$/.test(label)
    ? NAME_LENGTH_RULE_MESSAGE
    : NAME_RULE_MESSAGE
}

/**
 * The LDH rule (`NameLabelRule`: no `xn--`, no hyphen first or last, none in the 3rd and 4th positions) the
 * typed name breaks, as the form shows it, or undefined.
 *
 * @example
 * nameLdhRuleOf('al--ice') // NAME_LABEL_RULE_TEXTS.hyphen34
 */
export function nameLdhRuleOf(value: string): string | undefined {
  const rule = nameLabelRuleOf(normaliseNameLabel(value))
  return rule && NAME_LABEL_RULE_TEXTS[rule]
}

/**
 * Why the typed name cannot be registered (the rule to show), or undefined when it can (or nothing is typed):
 * SPEC §5's rule first, then the LDH rules.
 *
 * @example
 * nameRuleOf('ali') // NAME_RULE_MESSAGE
 * nameRuleOf('alice.wcn.id') // NAME_LEGACY_RULE_MESSAGE
 * nameRuleOf('-alice-') // NAME_LABEL_RULE_TEXTS.hyphenEdge
 * nameRuleOf('Alice.reown.id') // undefined
 */
export function nameRuleOf(value: string): string | undefined {
  return nameSpecRuleOf(value) ?? nameLdhRuleOf(value)
}

/** The label's own entry among the suggestions (the API lists it first), if the answer holds it. */
export function ownSuggestion(
  label: string,
  suggestions: readonly NameSuggestion[],
): NameSuggestion | undefined {
  const full = fullNameOf(label)
  return suggestions.find((suggestion) => suggestion.name === full)
}
