import { BaseError, type BaseErrorParameters } from './base'

/**
 * Errors of sign-in with the wallet (SPEC §1 `siwx`, issue 15). 'Signature verification failed' is the SPEC's
 * text (§8); the others are ours and say what the visitor can do.
 */
export class SignInError extends BaseError {
  override name = 'SignInError'
}

/** The signature does not prove the account signed the message (an EOA by ecrecover, a smart account on chain). */
export class SignatureVerificationError extends SignInError {
  override name = 'SignatureVerificationError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('Signature verification failed', parameters)
  }
}

/** The visitor declined in the wallet. */
export class SignInRejectedError extends SignInError {
  override name = 'SignInRejectedError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('Sign-in was declined in the wallet. Sign in again, or cancel.', parameters)
  }
}

/** The wallet did not answer the signature request in time (SIGN_IN_SIGNATURE_TIMEOUT_MS). */
export class SignInTimeoutError extends SignInError {
  override name = 'SignInTimeoutError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('The wallet did not answer. Check it, then sign in again.', parameters)
  }
}

/** The host requires sign-in and the visitor declined: the kit disconnected. */
export class SignInRequiredError extends SignInError {
  override name = 'SignInRequiredError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('This app requires you to sign in with your wallet. You were disconnected.', parameters)
  }
}

/** The message the host made is not for the connected account and chain, or not a sign-in message at all. */
export class InvalidSignInMessageError extends SignInError {
  override name = 'InvalidSignInMessageError'
  constructor(details: string, parameters: BaseErrorParameters = {}) {
    super('The sign-in message is not valid', { ...parameters, details })
  }
}
