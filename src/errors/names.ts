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
