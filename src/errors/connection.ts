import { UserRejectedRequestError } from 'viem'
import {
  ChainNotConfiguredError as WagmiChainNotConfiguredError,
  ConnectorAccountNotFoundError as WagmiConnectorAccountNotFoundError,
  ConnectorAlreadyConnectedError as WagmiConnectorAlreadyConnectedError,
  ConnectorChainMismatchError as WagmiConnectorChainMismatchError,
  ConnectorNotFoundError as WagmiConnectorNotFoundError,
} from 'wagmi'
import { BaseError, type BaseErrorParameters, type ErrorInfo, findCode, hasCode, walkError } from './base'

export type { ErrorInfo } from './base'

/** SPEC §8 connector errors, one class each, so callers switch on `name`. */
export class ChainNotConfiguredError extends BaseError {
  override name = 'ChainNotConfiguredError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('Chain not configured.', parameters)
  }
}

export class ConnectorAlreadyConnectedError extends BaseError {
  override name = 'ConnectorAlreadyConnectedError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('Connector already connected.', parameters)
  }
}

export class ConnectorNotConnectedError extends BaseError {
  override name = 'ConnectorNotConnectedError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('Connector not connected.', parameters)
  }
}

export class ConnectorAccountNotFoundError extends BaseError {
  override name = 'ConnectorAccountNotFoundError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('Account not found for connector.', parameters)
  }
}

export class ConnectorChainMismatchError extends BaseError {
  override name = 'ConnectorChainMismatchError'
  constructor(parameters: BaseErrorParameters = {}) {
    super("The current chain of the connector does not match the connection's chain.", parameters)
  }
}

export class ConnectorNotFoundError extends BaseError {
  override name = 'ConnectorNotFoundError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('Connector not found.', parameters)
  }
}

/**
 * SPEC §8 'Address or auth connector not found': an action only the embedded wallet can do (update the e-mail,
 * switch the account type) was asked while the kit is not connected through it, so there is no auth connector
 * or no address to do it for.
 */
export class AuthConnectorNotFoundError extends BaseError {
  override name = 'AuthConnectorNotFoundError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('Address or auth connector not found', parameters)
  }
}

/** The visitor declined in the wallet (EIP-1193 code 4001). */
export class UserRejectedError extends BaseError {
  override name = 'UserRejectedError'
  readonly code = 4001
  constructor(parameters: BaseErrorParameters = {}) {
    super('Connection declined in the wallet.', parameters)
  }
}

/**
 * The wallet did not answer a connect request within `CONNECT_TIMEOUT_MS` (src/constants.ts). The attempt is
 * abandoned (its prompt or pairing ended); retry asks again.
 */
export class ConnectTimeoutError extends BaseError {
  override name = 'ConnectTimeoutError'
  constructor(parameters: BaseErrorParameters & { timeoutMs?: number } = {}) {
    super('The wallet did not answer in time.', {
      ...parameters,
      details:
        parameters.details ??
        (parameters.timeoutMs === undefined ? undefined : `No answer after ${parameters.timeoutMs / 1000} s`),
    })
  }
}

export class DisconnectError extends BaseError {
  override name = 'DisconnectError'
  constructor(parameters: BaseErrorParameters & { chains?: boolean } = {}) {
    super(parameters.chains ? 'Failed to disconnect chains' : 'Failed to disconnect', parameters)
  }
}

/**
 * SPEC §8 "per-chain failures reported as 'Failed to disconnect chains'": the disconnect of one chain namespace
 * (each namespace's connection disconnects its own) failed; its details name the namespace. The visitor's toast
 * keeps 'Failed to disconnect'; this is the error the failure is reported as.
 *
 * @example
 * chainsDisconnectError(['eip155'], cause).shortMessage // 'Failed to disconnect chains'
 */
export function chainsDisconnectError(namespaces: readonly string[], cause?: unknown): DisconnectError {
  return new DisconnectError({
    chains: true,
    details: `Not disconnected: ${namespaces.join(', ')}`,
    ...(cause === undefined ? {} : { cause }),
  })
}

export class SwitchChainError extends BaseError {
  override name = 'SwitchChainError'
  readonly code = 4902
  constructor(parameters: BaseErrorParameters = {}) {
    super('Failed to switch to chain', parameters)
  }
}

/**
 * SPEC §8 code 32603 "invalid chain id": the wallet refused a network switch because it does not know the chain
 * id it was asked for (some wallets answer 32603, not 4902). Its code is kept; the visitor reads the SPEC's
 * 'Failed to switch to chain' with the reason.
 */
export class InvalidChainIdError extends BaseError {
  override name = 'InvalidChainIdError'
  readonly code = 32603
  constructor(parameters: BaseErrorParameters = {}) {
    super('Failed to switch to chain', { details: 'Invalid chain id', ...parameters })
  }
}

/** SPEC §8 code 32603 ("invalid chain id"; not JSON-RPC's -32603 internal error). */
export const INVALID_CHAIN_ID_CODE = 32603

/**
 * A failed network switch as the kit reports it: a decline stays a decline; a wallet's 32603 anywhere on the
 * cause chain is {@link InvalidChainIdError}; anything else is 'Failed to switch to chain' (4902).
 *
 * @example
 * switchChainError({ code: 32603, message: 'invalid chain id' }).name // 'InvalidChainIdError'
 */
export function switchChainError(error: unknown): BaseError {
  const mapped = toConnectionError(error)
  if (mapped instanceof UserRejectedError) return mapped
  if (hasCode(error, INVALID_CHAIN_ID_CODE)) return new InvalidChainIdError({ cause: error })
  return new SwitchChainError({ cause: error })
}

/** Another of the wallet's shared accounts could not be made the one shown (its connector refused or vanished). */
export class SelectAccountError extends BaseError {
  override name = 'SelectAccountError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('Failed to switch account', parameters)
  }
}

/**
 * Whether the visitor declined: viem's `UserRejectedRequestError` or an EIP-1193 4001 anywhere on the cause
 * chain (a wrapper's own code, e.g. viem's InternalRpcError -32603, can sit above the wallet's), or a wallet
 * that rejects with words instead of a code.
 */
export function isUserRejection(error: unknown): boolean {
  if (walkError(error, (e) => e instanceof UserRejectedRequestError || e instanceof UserRejectedError))
    return true
  if (hasCode(error, UserRejectedRequestError.code)) return true
  return /user rejected|rejected the request|user denied/i.test(messagesOf(error))
}

type Make = (parameters: BaseErrorParameters) => BaseError

/**
 * wagmi's connector errors, by class, and the SPEC §8 error each becomes. wagmi does not export its
 * `ConnectorNotConnectedError` from its entry point, so that one alone is recognised by its `name`.
 */
const WAGMI_ERRORS: ReadonlyArray<readonly [(error: unknown) => boolean, Make]> = [
  [(e) => e instanceof WagmiChainNotConfiguredError, (p) => new ChainNotConfiguredError(p)],
  [(e) => e instanceof WagmiConnectorAlreadyConnectedError, (p) => new ConnectorAlreadyConnectedError(p)],
  [(e) => isWagmiConnectorNotConnected(e), (p) => new ConnectorNotConnectedError(p)],
  [(e) => e instanceof WagmiConnectorAccountNotFoundError, (p) => new ConnectorAccountNotFoundError(p)],
  [(e) => e instanceof WagmiConnectorChainMismatchError, (p) => new ConnectorChainMismatchError(p)],
  [(e) => e instanceof WagmiConnectorNotFoundError, (p) => new ConnectorNotFoundError(p)],
]

/** wagmi's `ConnectorNotConnectedError` (not exported by wagmi, see above). */
export function isWagmiConnectorNotConnected(error: unknown): boolean {
  return (
    error instanceof Error && error.name === 'ConnectorNotConnectedError' && !(error instanceof BaseError)
  )
}

/**
 * Maps anything thrown by a wallet or library onto the kit's error family and keeps the cause: a decline
 * first, then wagmi's connector errors by class (anywhere on the cause chain), else 'Connection failed.'.
 *
 * @example
 * toConnectionError(new UserRejectedRequestError(cause)) // UserRejectedError, 'Connection declined in the wallet.'
 */
export function toConnectionError(error: unknown): BaseError {
  // viem's and wagmi's errors have a BaseError of their own; only ours pass this check.
  if (error instanceof BaseError) return error
  if (isUserRejection(error)) return new UserRejectedError({ cause: error })
  for (const [matches, make] of WAGMI_ERRORS) {
    if (walkError(error, matches)) return make({ cause: error })
  }
  return new BaseError('Connection failed.', { cause: error })
}

/** What a snapshot keeps of a connection error. */
export function errorInfo(error: unknown): ErrorInfo {
  const kit = error instanceof BaseError ? error : toConnectionError(error)
  const code = findCode(kit)
  return { name: kit.name, message: kit.shortMessage, ...(code === undefined ? {} : { code }) }
}

/** The messages along the cause chain, for wallets that say "rejected" without a code. */
function messagesOf(error: unknown): string {
  const parts: string[] = []
  walkError(error, (e) => {
    if (e && typeof e === 'object' && 'message' in e && typeof e.message === 'string') parts.push(e.message)
    return false
  })
  return parts.join(' | ')
}
