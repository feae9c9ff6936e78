import { BaseError, type BaseErrorParameters } from './base'

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
    super('The current chain of the connector does not match the connection’s chain.', parameters)
  }
}

export class ConnectorNotFoundError extends BaseError {
  override name = 'ConnectorNotFoundError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('Connector not found.', parameters)
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

export class DisconnectError extends BaseError {
  override name = 'DisconnectError'
  constructor(parameters: BaseErrorParameters & { chains?: boolean } = {}) {
    super(parameters.chains ? 'Failed to disconnect chains' : 'Failed to disconnect', parameters)
  }
}

export class SwitchChainError extends BaseError {
  override name = 'SwitchChainError'
  readonly code = 4902
  constructor(parameters: BaseErrorParameters = {}) {
    super('Failed to switch to chain', parameters)
  }
}

/** What a snapshot keeps of an error: plain data, so the inspector and storage can carry it. */
export interface ErrorInfo {
  name: string
  message: string
  code?: number
}

/** Maps anything thrown by a wallet or library onto the kit's error family and keeps the cause. */
export function toConnectionError(error: unknown): BaseError {
  // viem's and wagmi's errors have a BaseError of their own; only ours pass this check.
  if (error instanceof BaseError) return error
  // A wrapper's own code (viem's InternalRpcError, -32603) can sit above the wallet's 4001: look at all.
  if (
    codesOf(error).includes(4001) ||
    /user rejected|rejected the request|user denied/i.test(messageOf(error))
  ) {
    return new UserRejectedError({ cause: error })
  }
  const name = error instanceof Error ? error.name : ''
  if (name === 'ChainNotConfiguredError') return new ChainNotConfiguredError({ cause: error })
  if (name === 'ConnectorAlreadyConnectedError') return new ConnectorAlreadyConnectedError({ cause: error })
  if (name === 'ConnectorNotConnectedError') return new ConnectorNotConnectedError({ cause: error })
  if (name === 'ConnectorAccountNotFoundError') return new ConnectorAccountNotFoundError({ cause: error })
  if (name === 'ConnectorChainMismatchError') return new ConnectorChainMismatchError({ cause: error })
  if (name === 'ConnectorNotFoundError') return new ConnectorNotFoundError({ cause: error })
  return new BaseError('Connection failed.', { cause: error })
}

export function errorInfo(error: unknown): ErrorInfo {
  const kit = error instanceof BaseError ? error : toConnectionError(error)
  const code = findCode(kit)
  return { name: kit.name, message: kit.shortMessage, ...(code === undefined ? {} : { code }) }
}

function codesOf(error: unknown): number[] {
  const codes: number[] = []
  let current: unknown = error
  for (let depth = 0; depth < 8 && current && typeof current === 'object'; depth++) {
    if ('code' in current && typeof current.code === 'number') codes.push(current.code)
    current = 'cause' in current ? current.cause : undefined
  }
  return codes
}

function findCode(error: unknown): number | undefined {
  let current: unknown = error
  for (let depth = 0; depth < 8 && current && typeof current === 'object'; depth++) {
    if ('code' in current && typeof current.code === 'number') return current.code
    current = 'cause' in current ? current.cause : undefined
  }
  return undefined
}

function messageOf(error: unknown): string {
  let current: unknown = error
  const parts: string[] = []
  for (let depth = 0; depth < 8 && current && typeof current === 'object'; depth++) {
    if ('message' in current && typeof current.message === 'string') parts.push(current.message)
    current = 'cause' in current ? current.cause : undefined
  }
  return parts.join(' | ')
}
