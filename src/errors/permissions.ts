import { BaseError, type BaseErrorParameters, type ErrorInfo, findCode } from './base'

/** Errors of ERC-7715 permissions (`features.smartSessions`: `wallet_grantPermissions`, `wallet_revokePermissions`). */
export class PermissionsError extends BaseError {
  override name = 'PermissionsError'
  /** An EIP-1193 / JSON-RPC code when there is one (4001 for a request declined in the wallet). */
  readonly code: number | undefined

  constructor(shortMessage: string, parameters: BaseErrorParameters & { code?: number } = {}) {
    super(shortMessage, parameters)
    this.code = parameters.code
  }
}

/** `features.smartSessions` is off (its default): nothing is asked, no code loads. */
export class SmartSessionsDisabledError extends PermissionsError {
  override name = 'SmartSessionsDisabledError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('Smart sessions are off: enable features.smartSessions', parameters)
  }
}

/** Permissions need a connected eip155 account. */
export class PermissionsNotConnectedError extends PermissionsError {
  override name = 'PermissionsNotConnectedError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('Connect a wallet to grant permissions', parameters)
  }
}

/** The account connected is not a smart account: only a smart account enforces a permission. */
export class NotSmartAccountError extends PermissionsError {
  override name = 'NotSmartAccountError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('Permissions need a smart account: switch to your smart account', parameters)
  }
}

/**
 * The wallet does not report ERC-7715 permissions for the account (its `wallet_getCapabilities` has no
 * `permissions` capability granting a key signer an `erc20-token-transfer`): nothing is asked of it.
 */
export class PermissionsUnsupportedError extends PermissionsError {
  override name = 'PermissionsUnsupportedError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('The wallet does not support permissions (ERC-7715) for this account', parameters)
  }
}

/** The host's request is malformed (its details say what). Refused before the wallet is asked. */
export class InvalidPermissionRequestError extends PermissionsError {
  override name = 'InvalidPermissionRequestError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('The permission request is invalid', parameters)
  }
}

/** Another grant or revoke is on its way: one at a time. */
export class PermissionsBusyError extends PermissionsError {
  override name = 'PermissionsBusyError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('A permission request is already in progress', parameters)
  }
}

/** The wallet answered with something that is not ERC-7715's shape. */
export class InvalidPermissionsAnswerError extends PermissionsError {
  override name = 'InvalidPermissionsAnswerError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('The wallet answered wallet_grantPermissions with an invalid result', parameters)
  }
}

/** The wallet did not answer in time. */
export class PermissionsTimeoutError extends PermissionsError {
  override name = 'PermissionsTimeoutError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('The wallet did not answer in time', parameters)
  }
}

/** The wallet declined or failed the grant or the revoke (its details say why). */
export class PermissionsFailedError extends PermissionsError {
  override name = 'PermissionsFailedError'
  constructor(parameters: BaseErrorParameters & { code?: number } = {}) {
    super(
      parameters.code === 4001
        ? 'The permission request was declined in the wallet'
        : 'The permission request failed',
      parameters,
    )
  }
}

const PERMISSIONS_ERRORS = {
  SmartSessionsDisabledError,
  PermissionsNotConnectedError,
  NotSmartAccountError,
  PermissionsUnsupportedError,
  InvalidPermissionRequestError,
  PermissionsBusyError,
  InvalidPermissionsAnswerError,
  PermissionsTimeoutError,
} as const

/** What a snapshot keeps of a permissions error (plain data); any other error as a failed request. */
export function permissionsErrorInfo(error: unknown): ErrorInfo {
  const code = findCode(error)
  const known =
    error instanceof PermissionsError
      ? error
      : new PermissionsFailedError({
          cause: error,
          ...(code === undefined ? {} : { code }),
          ...(error instanceof BaseError
            ? { details: error.shortMessage }
            : error instanceof Error
              ? { details: error.message }
              : {}),
        })
  return {
    name: known.name,
    message: known.shortMessage,
    ...(known.code === undefined ? {} : { code: known.code }),
    ...(known.details ? { details: known.details } : {}),
  }
}

/** The error a host gets from the kit's snapshot: the kit's own by name, anything else as `PermissionsFailedError`. */
export function permissionsErrorOf(info: ErrorInfo): PermissionsError {
  const Known = PERMISSIONS_ERRORS[info.name as keyof typeof PERMISSIONS_ERRORS]
  if (Known) return new Known(info.details ? { details: info.details } : {})
  return new PermissionsFailedError({
    ...(info.details ? { details: info.details } : {}),
    ...(info.code === undefined ? {} : { code: info.code }),
  })
}
