import { BaseError, type BaseErrorParameters } from './base'

/**
 * Errors of the account names flow (SPEC §7 profile calls, §8; issue 20). The short messages are SPEC §8's
 * texts, so the views show `shortMessage` as it is; what the API said goes in `details`.
 */
export class NamesError extends BaseError {
  override name = 'NamesError'
}

/** What a names call failed with, when the API answered: the HTTP status. */
export type NamesErrorParameters = BaseErrorParameters & { status?: number | undefined }

/** `GET /v1/profile/suggestions/{name}` failed, or answered something that is not about the name asked for. */
export class NameSuggestionsError extends NamesError {
  override name = 'NameSuggestionsError'
  readonly status: number | undefined
  constructor(parameters: NamesErrorParameters = {}) {
    super('Error fetching name suggestions', parameters)
    this.status = parameters.status
  }
}

/** `GET /v1/profile/reverse/{address}` failed: the names an address holds are unknown. */
export class NamesForAddressError extends NamesError {
  override name = 'NamesForAddressError'
  readonly status: number | undefined
  constructor(parameters: NamesErrorParameters = {}) {
    super('Error fetching names for address', parameters)
    this.status = parameters.status
  }
}

/**
 * A registration failed: the wallet did not sign the message, or `POST /v1/profile/account` refused it (409: the
 * name is taken; 400: the message; 401: the signature) or did not answer. `name` is the full name.
 */
export class NameRegistrationError extends NamesError {
  override name = 'NameRegistrationError'
  /** The full name (`alice.reown.id`). */
  readonly fullName: string
  readonly status: number | undefined
  constructor(parameters: NamesErrorParameters & { name: string }) {
    super(`Error registering name ${parameters.name}`, parameters)
    this.fullName = parameters.name
    this.status = parameters.status
  }
}

/**
 * The LDH rules a label must also keep (RFC 5891 §4.2.3.1, RFC 3492), beside SPEC §5's letters, digits and
 * hyphens: a label is not an IDNA/punycode one (`xn--80ak6aa92e` shows as another script's look-alike), starts
 * and ends with a letter or digit, and has no hyphens in its 3rd and 4th positions (reserved for such prefixes).
 */
export type NameLabelRule = 'punycode' | 'hyphenEdge' | 'hyphen34'

/** What the form shows under a label that breaks one of the LDH rules (localised like SPEC §5's rule). */
export const NAME_LABEL_RULE_TEXTS: Record<NameLabelRule, string> = {
  punycode: 'Names starting with xn-- cannot be registered: type the name in plain letters and digits',
  hyphenEdge: 'Start and end the name with a letter or digit',
  hyphen34: 'Do not use hyphens in both the 3rd and 4th positions',
}

/** A label that breaks an LDH rule ({@link NameLabelRule}): nothing is asked, signed or registered for it. */
export class NameLabelError extends NamesError {
  override name = 'NameLabelError'
  readonly label: string
  readonly rule: NameLabelRule
  constructor({ label, rule, ...parameters }: BaseErrorParameters & { label: string; rule: NameLabelRule }) {
    super(NAME_LABEL_RULE_TEXTS[rule], {
      ...parameters,
      details: parameters.details ?? `The label ${JSON.stringify(label.slice(0, 80))}`,
    })
    this.label = label
    this.rule = rule
  }
}
