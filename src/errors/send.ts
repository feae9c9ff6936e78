import {
  ChainMismatchError,
  ContractFunctionRevertedError,
  ExecutionRevertedError,
  InsufficientFundsError,
} from 'viem'
import {
  ChainNotConfiguredError as WagmiChainNotConfiguredError,
  ConnectorAccountNotFoundError as WagmiConnectorAccountNotFoundError,
  ConnectorChainMismatchError as WagmiConnectorChainMismatchError,
} from 'wagmi'
import { BaseError, type BaseErrorParameters, type ErrorInfo, findCode, walkError } from './base'
import {
  ChainNotConfiguredError,
  ConnectorAccountNotFoundError,
  ConnectorChainMismatchError,
  ConnectorNotConnectedError,
  isUserRejection,
  isWagmiConnectorNotConnected,
} from './connection'
import {
  SolanaError,
  SolanaInsufficientFundsError,
  SolanaInvalidAddressError,
  SolanaInvalidAmountError,
  SolanaUserRejectedError,
} from './solana'

/**
 * Errors of the send flow (SPEC §4 "Sending a token", §5 send validation, §8). Where the SPEC names a text it is
 * the `shortMessage` exactly ('An amount and receiver address are required', 'A token is required',
 * 'Unsupported chain', 'Error resolving name'); the other texts are ours and say what the visitor can do.
 */
export class SendError extends BaseError {
  override name = 'SendError'
  /** An EIP-1193 / JSON-RPC code when there is one (4001 for a declined request). */
  readonly code: number | undefined

  constructor(shortMessage: string, parameters: BaseErrorParameters & { code?: number } = {}) {
    super(shortMessage, parameters)
    this.code = parameters.code
  }
}

// SPEC §5 validation. Shown beside the form; nothing has been sent.

export class AmountAndReceiverRequiredError extends SendError {
  override name = 'AmountAndReceiverRequiredError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('An amount and receiver address are required', parameters)
  }
}

export class TokenRequiredError extends SendError {
  override name = 'TokenRequiredError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('A token is required', parameters)
  }
}

/** The token lives on a chain namespace this kit cannot send on. */
export class UnsupportedChainError extends SendError {
  override name = 'UnsupportedChainError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('Unsupported chain', parameters)
  }
}

/** The token's address is neither a contract address (CAIP-10 or 0x) nor the native currency. */
export class InvalidTokenError extends SendError {
  override name = 'InvalidTokenError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('Invalid token', parameters)
  }
}

/** Not a positive decimal number, or more decimals than the token has. */
export class InvalidAmountError extends SendError {
  override name = 'InvalidAmountError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('Invalid amount', parameters)
  }
}

/**
 * The amount is more than the balance: the form's check, the token contract's refusal, or the chain's
 * "insufficient funds for gas * price + value" when the balance changed after the preview.
 */
export class InsufficientBalanceError extends SendError {
  override name = 'InsufficientBalanceError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('Insufficient funds', parameters)
  }
}

/** Neither an address nor something that looks like a name. */
export class InvalidReceiverError extends SendError {
  override name = 'InvalidReceiverError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('Invalid address', parameters)
  }
}

/** A name as receiver on Solana: names resolve to eip155 addresses only (SPEC §1 names on eip155). */
export class NameOnSolanaError extends SendError {
  override name = 'NameOnSolanaError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('Invalid address: names work on EVM networks only', parameters)
  }
}

// The way to the transaction.

/** SPEC §8: the name did not resolve to an address. */
export class ResolveNameError extends SendError {
  override name = 'ResolveNameError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('Error resolving name', parameters)
  }
}

export class FeeEstimateError extends SendError {
  override name = 'FeeEstimateError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('Unable to estimate the network fee.', parameters)
  }
}

/** The estimate came back, but the native balance cannot pay the fee (with the amount, for a native send). */
export class InsufficientFeeFundsError extends SendError {
  override name = 'InsufficientFeeFundsError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('Insufficient funds for the network fee', parameters)
  }
}

/** The visitor declined the transaction in the wallet (EIP-1193 4001). */
export class TransactionRejectedError extends SendError {
  override name = 'TransactionRejectedError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('Transaction declined in the wallet.', { code: 4001, ...parameters })
  }
}

/** The wallet is on another chain than the token's. */
export class SendChainMismatchError extends SendError {
  override name = 'SendChainMismatchError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('The wallet is on another network than the token.', parameters)
  }
}

/** No account to send from. */
export class SendAccountNotFoundError extends SendError {
  override name = 'SendAccountNotFoundError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('Connect a wallet to send.', parameters)
  }
}

/** The transaction was mined, or would be, and failed: the reason is in `details`. */
export class TransactionRevertedError extends SendError {
  override name = 'TransactionRevertedError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('The transaction failed.', parameters)
  }
}

/**
 * The wallet did not answer the transaction request within `SEND_REQUEST_TIMEOUT_MS` (src/constants.ts). The
 * request is abandoned: a hash the wallet sends later is ignored by the send flow, and if the wallet did send
 * the transaction it shows in the activity list. So the text asks the visitor to look there before sending
 * again.
 */
export class SendTimeoutError extends SendError {
  override name = 'SendTimeoutError'
  constructor(parameters: BaseErrorParameters & { timeoutMs?: number } = {}) {
    super('The wallet did not answer in time. Check its activity before sending again.', {
      ...parameters,
      details:
        parameters.details ??
        (parameters.timeoutMs === undefined ? undefined : `No answer after ${parameters.timeoutMs / 1000} s`),
    })
  }
}

/** Anything else on the way to a hash. */
export class SendTransactionError extends SendError {
  override name = 'SendTransactionError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('Failed to send the transaction.', parameters)
  }
}

/**
 * No receipt after the SPEC §9 receipt timeout and the pending-transaction polling. The transaction was sent
 * (its hash is in `details`) and may still be mined, so it must not simply be sent again.
 */
export class TransactionPendingError extends SendError {
  override name = 'TransactionPendingError'
  constructor(parameters: BaseErrorParameters & { hash?: string } = {}) {
    super('The transaction is still pending.', {
      ...parameters,
      details: parameters.details ?? (parameters.hash ? `Transaction ${parameters.hash}` : undefined),
    })
  }
}

/**
 * A mixed-case receiver whose EIP-55 checksum does not match: one letter was mistyped, or its case changed.
 * Never silently "fixed" into another address; all-lowercase and all-uppercase addresses carry no checksum.
 */
export class ReceiverChecksumError extends SendError {
  override name = 'ReceiverChecksumError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('Invalid address: its checksum does not match. Check it for a mistyped letter.', parameters)
  }
}

/**
 * The token's contract states other decimals (or another symbol) than the balances say: an amount scaled by
 * the stated decimals would send another quantity than the one typed, so the token is refused.
 */
export class TokenDecimalsMismatchError extends SendError {
  override name = 'TokenDecimalsMismatchError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('This token cannot be sent: its contract does not match its listing.', parameters)
  }
}

/** The token's `decimals()` could not be read from the chain, so no amount of it can be trusted. */
export class TokenMetadataUnavailableError extends SendError {
  override name = 'TokenMetadataUnavailableError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('Unable to read the token from the network. Try again.', parameters)
  }
}

/**
 * After the wallet's time limit: no transaction of this payment is mined yet, and the wallet may still hold
 * the request. Sending again asks for the same transaction slot (nonce), so at most one of the two is mined.
 */
export class SendStillOpenError extends SendError {
  override name = 'SendStillOpenError'
  constructor(parameters: BaseErrorParameters = {}) {
    super(
      'The wallet did not answer in time, and nothing was sent yet. Send again replaces the open request: only one can go through.',
      parameters,
    )
  }
}

/**
 * The nonce of the payment's first request was taken by another transaction of the account (not this payment):
 * that request can no longer go through, and a new one gets a new nonce.
 */
export class SendNonceTakenError extends SendError {
  override name = 'SendNonceTakenError'
  constructor(parameters: BaseErrorParameters = {}) {
    super(
      'Another transaction of your account was sent instead of this one. Check your activity before sending again.',
      parameters,
    )
  }
}

/** Where in the flow an error happened: decides the fallback when nothing more specific is recognised. */
export type SendStage = 'resolve' | 'estimate' | 'send' | 'receipt' | 'token'

/**
 * Maps anything a wallet, viem or wagmi throws in the send flow onto the kit's error family, keeping the cause.
 *
 * @example
 * try { await sendTransaction(config, request) } catch (error) { throw toSendError(error, 'send') }
 */
export function toSendError(error: unknown, stage: SendStage): BaseError {
  if (error instanceof SolanaError) return fromSolanaError(error)
  // viem's and wagmi's errors have a BaseError of their own; only ours pass this check.
  if (error instanceof BaseError) return error
  // Whatever a token contract's read failed with (a revert: no such function), the token is unreadable.
  if (stage === 'token') return new TokenMetadataUnavailableError({ cause: error })
  const find = (...classes: ErrorClass[]) =>
    walkError(error, (e) => classes.some((c) => e instanceof c)) !== null
  const text = causeChain(error).map(messageOf).join(' | ')
  if (isUserRejection(error)) return new TransactionRejectedError({ cause: error })
  if (find(ChainMismatchError, WagmiConnectorChainMismatchError, ConnectorChainMismatchError)) {
    return new SendChainMismatchError({ cause: error })
  }
  if (find(WagmiChainNotConfiguredError, ChainNotConfiguredError))
    return new UnsupportedChainError({ cause: error })
  if (
    find(WagmiConnectorAccountNotFoundError, ConnectorAccountNotFoundError, ConnectorNotConnectedError) ||
    walkError(error, isWagmiConnectorNotConnected) !== null
  ) {
    return new SendAccountNotFoundError({ cause: error })
  }
  // A token contract refusing more than the balance (OpenZeppelin's, the sandbox's and most others' texts):
  // a revert reason, which only its text tells apart.
  if (/exceeds balance|insufficient balance|ERC20InsufficientBalance/i.test(text)) {
    return new InsufficientBalanceError({ cause: error, details: revertReason(error) })
  }
  // viem's InsufficientFundsError, or the node's text under another wrapper.
  if (find(InsufficientFundsError) || /insufficient funds/i.test(text)) {
    return new InsufficientBalanceError({ cause: error })
  }
  if (find(ExecutionRevertedError, ContractFunctionRevertedError) || /execution reverted/i.test(text)) {
    return new TransactionRevertedError({ cause: error, details: revertReason(error) })
  }
  switch (stage) {
    case 'resolve':
      return new ResolveNameError({ cause: error })
    case 'estimate':
      return new FeeEstimateError({ cause: error })
    case 'send':
      return new SendTransactionError({ cause: error })
    case 'receipt':
      return new SendTransactionError({ cause: error })
  }
}

/**
 * One error family: a Solana send's error as the send flow's where the flow has its text (declined, funds,
 * address, amount; the views treat them as on eip155), else the Solana adapter's own (its message kept).
 */
function fromSolanaError(error: SolanaError): BaseError {
  if (error instanceof SolanaUserRejectedError) return new TransactionRejectedError({ cause: error })
  if (error instanceof SolanaInsufficientFundsError)
    return new InsufficientBalanceError({ cause: error, details: error.details })
  if (error instanceof SolanaInvalidAddressError)
    return new InvalidReceiverError({ cause: error, details: error.details })
  if (error instanceof SolanaInvalidAmountError)
    return new InvalidAmountError({ cause: error, details: error.details })
  return error
}

// biome-ignore lint/suspicious/noExplicitAny: any error class, whatever its constructor takes
type ErrorClass = abstract new (...args: any[]) => Error

/** What a snapshot keeps of a send error: plain data, for the inspector and the views. */
export function sendErrorInfo(error: unknown, stage: SendStage): ErrorInfo {
  const kit = toSendError(error, stage)
  const code = findCode(kit)
  return { name: kit.name, message: kit.shortMessage, ...(code === undefined ? {} : { code }) }
}

function causeChain(error: unknown): unknown[] {
  const chain: unknown[] = []
  walkError(error, (e) => {
    chain.push(e)
    return false
  })
  return chain
}

function messageOf(error: unknown): string {
  if (error && typeof error === 'object') {
    const short = 'shortMessage' in error && typeof error.shortMessage === 'string' ? error.shortMessage : ''
    const message = 'message' in error && typeof error.message === 'string' ? error.message : ''
    return [short, message].filter(Boolean).join(' ')
  }
  return typeof error === 'string' ? error : ''
}

/** A revert reason as viem reports it (`reason` on its revert errors), if any. */
function revertReason(error: unknown): string | undefined {
  const withReason = walkError(
    error,
    (e) => !!e && typeof e === 'object' && 'reason' in e && typeof e.reason === 'string' && e.reason !== '',
  ) as { reason: string } | null
  return withReason?.reason
}
