import { BaseError, type BaseErrorParameters, type ErrorInfo } from './base'

/*
 * Errors of the Solana adapter (src/chains/solana). Its own module, importing only ./base: the Solana code is
 * loaded on demand and must not pull wagmi's or viem's error classes in with it.
 *
 * Solana libraries wrap differently from viem: @solana/wallet-adapter-base's `WalletError` keeps the wallet's
 * error in `.error` (not `.cause`), and web3.js' `SendTransactionError` keeps the program logs in `.logs`. The
 * walk below follows both.
 */

/** Root of the Solana adapter's errors. */
export class SolanaError extends BaseError {
  override name = 'SolanaError'
  /** A wallet or JSON-RPC code when there is one (4001 for a declined request). */
  readonly code: number | undefined
  constructor(shortMessage: string, parameters: BaseErrorParameters & { code?: number } = {}) {
    super(shortMessage, parameters)
    this.code = parameters.code
  }
}

/** The chosen Wallet Standard wallet is not (or no longer) registered in the page, or has no Solana features. */
export class SolanaWalletNotFoundError extends SolanaError {
  override name = 'SolanaWalletNotFoundError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('Solana wallet not found.', parameters)
  }
}

/** The visitor declined in the wallet (code 4001, as Solana extension wallets use it). */
export class SolanaUserRejectedError extends SolanaError {
  override name = 'SolanaUserRejectedError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('User rejected the request.', { ...parameters, code: 4001 })
  }
}

/** A signing or sending request while no account is connected (or after the wallet dropped it). */
export class SolanaNotConnectedError extends SolanaError {
  override name = 'SolanaNotConnectedError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('Solana wallet not connected.', parameters)
  }
}

/** The wallet answered a connect without an account, or the account cannot do what was asked. */
export class SolanaAccountError extends SolanaError {
  override name = 'SolanaAccountError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('The wallet has no Solana account for this request.', parameters)
  }
}

/** The Solana JSON-RPC could not be reached or answered with a server error. */
export class SolanaRpcUnavailableError extends SolanaError {
  override name = 'SolanaRpcUnavailableError'
  constructor(parameters: BaseErrorParameters & { code?: number } = {}) {
    super('The Solana network is unavailable. Try again later.', parameters)
  }
}

/** The balance cannot pay the amount (and the fee), or the token account holds less than the amount. */
export class SolanaInsufficientFundsError extends SolanaError {
  override name = 'SolanaInsufficientFundsError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('Insufficient funds', parameters)
  }
}

/** Not a base58 public key of 32 bytes (or, for a token recipient, not a wallet address). */
export class SolanaInvalidAddressError extends SolanaError {
  override name = 'SolanaInvalidAddressError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('Invalid address', parameters)
  }
}

/** Not a positive whole number of base units (lamports, or the token's smallest unit). */
export class SolanaInvalidAmountError extends SolanaError {
  override name = 'SolanaInvalidAmountError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('Invalid amount', parameters)
  }
}

/** A preflight commitment outside SPEC §5's list. */
export class SolanaInvalidCommitmentError extends SolanaError {
  override name = 'SolanaInvalidCommitmentError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('Invalid preflight commitment', parameters)
  }
}

/** The chain refused or failed the transaction (simulation, execution, or expiry before confirmation). */
export class SolanaTransactionFailedError extends SolanaError {
  override name = 'SolanaTransactionFailedError'
  constructor(parameters: BaseErrorParameters & { code?: number } = {}) {
    super('Transaction failed.', parameters)
  }
}

/**
 * A remote wallet (WalletConnect) answered something that is not what the request's method promises: a missing
 * or malformed signature, an account that is not a Solana public key. The wallet is untrusted; its answer is
 * refused, never used.
 */
export class SolanaWalletAnswerError extends SolanaError {
  override name = 'SolanaWalletAnswerError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('The wallet answered with malformed data.', parameters)
  }
}

/** What was being done when the error came: it picks the fallback error when nothing more specific fits. */
export type SolanaOperation = 'connect' | 'disconnect' | 'sign' | 'send'

const FALLBACKS: Record<SolanaOperation, string> = {
  connect: 'Connection failed.',
  disconnect: 'Failed to disconnect',
  sign: 'Signing failed.',
  send: 'Transaction failed.',
}

/** How deep a chain of `cause`/`error` links is followed. */
const MAX_DEPTH = 16

/** The error and everything under it along `cause` and wallet-adapter's `error`. */
function chainOf(error: unknown): unknown[] {
  const chain: unknown[] = []
  let current = error
  while (current !== undefined && current !== null && chain.length < MAX_DEPTH && !chain.includes(current)) {
    chain.push(current)
    if (typeof current !== 'object') break
    const next: unknown =
      'cause' in current && current.cause != null
        ? current.cause
        : 'error' in current && current.error != null
          ? current.error
          : undefined
    current = next
  }
  return chain
}

function codeOf(error: unknown): number | undefined {
  return error && typeof error === 'object' && 'code' in error && typeof error.code === 'number'
    ? error.code
    : undefined
}

/** Every message along the chain, with the program logs of a failed simulation, as one searchable text. */
function textOf(chain: unknown[]): string {
  const parts: string[] = []
  for (const e of chain) {
    if (typeof e === 'string') parts.push(e)
    if (!e || typeof e !== 'object') continue
    if ('message' in e && typeof e.message === 'string') parts.push(e.message)
    if ('logs' in e && Array.isArray(e.logs)) parts.push(...e.logs.filter((l) => typeof l === 'string'))
    if ('transactionMessage' in e && typeof e.transactionMessage === 'string')
      parts.push(e.transactionMessage)
  }
  return parts.join(' | ')
}

const REJECTED = /user rejected|rejected the request|user denied|user declined|request declined/i
// The system program's and the token program's words for it, and the runtime's rent and prior-credit checks.
const INSUFFICIENT =
  /insufficient (funds|lamports)|InsufficientFunds|no record of a prior credit|custom program error: 0x1\b|"Custom":1\}/i
// The fetch failing, and web3.js' `${status} ${statusText}: body` for a server error or rate limit.
const UNAVAILABLE =
  /failed to fetch|fetch failed|networkerror|network error|ECONNREFUSED|ECONNRESET|socket hang up|Internal Server Error|Service Unavailable|Bad Gateway|Gateway Timeout|Too Many Requests/i
const INVALID_ADDRESS = /invalid public key|non-base58|TokenOwnerOffCurve|Invalid address/i

/**
 * Maps anything a wallet, the wallet adapter or web3.js throws onto the Solana error family, keeping it as the
 * cause: a decline first (code 4001 or the words), then insufficient funds (the chain's and the programs'
 * words, program logs included), an unreachable RPC, an invalid address; else the operation's fallback.
 *
 * @example
 * toSolanaError(new WalletSignMessageError('User rejected the request.', { code: 4001 }), 'sign')
 * // SolanaUserRejectedError, 'User rejected the request.'
 */
export function toSolanaError(error: unknown, operation: SolanaOperation): SolanaError {
  if (error instanceof SolanaError) return error
  const chain = chainOf(error)
  const text = textOf(chain)
  const codes = chain.map(codeOf).filter((c): c is number => c !== undefined)
  if (codes.includes(4001) || REJECTED.test(text)) return new SolanaUserRejectedError({ cause: error })
  if (chain.some((e) => e && typeof e === 'object' && 'name' in e && e.name === 'WalletNotConnectedError'))
    return new SolanaNotConnectedError({ cause: error })
  if (INSUFFICIENT.test(text)) return new SolanaInsufficientFundsError({ cause: error })
  if (UNAVAILABLE.test(text)) return new SolanaRpcUnavailableError({ cause: error, code: codes[0] })
  if (INVALID_ADDRESS.test(text)) return new SolanaInvalidAddressError({ cause: error })
  if (operation === 'send') return new SolanaTransactionFailedError({ cause: error, code: codes[0] })
  return new SolanaError(FALLBACKS[operation], { cause: error, code: codes[0] })
}

/** What a snapshot keeps of a Solana error. */
export function solanaErrorInfo(error: unknown, operation: SolanaOperation): ErrorInfo {
  const kit = toSolanaError(error, operation)
  return {
    name: kit.name,
    message: kit.shortMessage,
    ...(kit.code === undefined ? {} : { code: kit.code }),
    ...(kit.details === undefined ? {} : { details: kit.details }),
  }
}
