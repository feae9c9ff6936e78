import { BaseError, type BaseErrorParameters } from './base'

/*
 * Errors of Bitcoin (bip122) over WalletConnect (src/chains/bip122). Its own module, importing only ./base: the
 * Bitcoin code loads on demand.
 */

/** Root of the Bitcoin adapter's errors. */
export class Bip122Error extends BaseError {
  override name = 'Bip122Error'
  /** The wallet's code when there is one (5000 for a declined request). */
  readonly code: number | undefined
  constructor(shortMessage: string, parameters: BaseErrorParameters & { code?: number } = {}) {
    super(shortMessage, parameters)
    this.code = parameters.code
  }
}

/** The WalletConnect session has no Bitcoin account (the wallet did not approve bip122). */
export class Bip122AccountError extends Bip122Error {
  override name = 'Bip122AccountError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('The wallet shared no Bitcoin account.', parameters)
  }
}

/** A signing request while no Bitcoin account is connected (or after the session ended). */
export class Bip122NotConnectedError extends Bip122Error {
  override name = 'Bip122NotConnectedError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('Bitcoin wallet not connected.', parameters)
  }
}

/** The visitor declined in the wallet (WalletConnect's 5000, or EIP-1193's 4001). */
export class Bip122UserRejectedError extends Bip122Error {
  override name = 'Bip122UserRejectedError'
  constructor(parameters: BaseErrorParameters & { code?: number } = {}) {
    super('User rejected the request.', parameters)
  }
}

/** The wallet answered something that is not a Bitcoin account or signature. */
export class Bip122WalletAnswerError extends Bip122Error {
  override name = 'Bip122WalletAnswerError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('The wallet answered with something that is not valid.', parameters)
  }
}
