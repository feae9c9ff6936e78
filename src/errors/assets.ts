import { BaseError, type BaseErrorParameters } from './base'

/**
 * Errors of `wallet_getAssets` (EIP-7811) as the embedded wallet answers it: the request, the account asked
 * about, and the Data API's list of holdings. Each carries the JSON-RPC / EIP-1193 `code` a dapp switches on.
 */
export class AssetsError extends BaseError {
  override name = 'AssetsError'
  /** -32602 for a malformed request, 4100 for an account that is not the connected one, -32603 otherwise. */
  readonly code: number

  constructor(shortMessage: string, parameters: BaseErrorParameters & { code: number }) {
    super(shortMessage, parameters)
    this.code = parameters.code
  }
}

/** The request's params are not EIP-7811's `[{ account, assetFilter?, assetTypeFilter?, chainFilter? }]`. */
export class InvalidAssetsRequestError extends AssetsError {
  override name = 'InvalidAssetsRequestError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('Invalid wallet_getAssets request', { ...parameters, code: -32602 })
  }
}

/** The account asked about is not the one connected (EIP-1193 4100: not authorised). */
export class AssetsAccountError extends AssetsError {
  override name = 'AssetsAccountError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('wallet_getAssets answers for the connected account only', { ...parameters, code: 4100 })
  }
}

/** The Data API's list of holdings could not be read or is not one (a token on another chain, not an address). */
export class AssetsUnavailableError extends AssetsError {
  override name = 'AssetsUnavailableError'
  constructor(parameters: BaseErrorParameters = {}) {
    super("The wallet's assets could not be read", { ...parameters, code: -32603 })
  }
}
