import { BaseError, type BaseErrorParameters, type ErrorInfo, findCode, walkError } from './base'
import { isUserRejection } from './connection'

/**
 * Errors of the swap flow (SPEC §7 convert endpoints, §8, §9; issue 16). Where the SPEC names a text it is the
 * `shortMessage` exactly ('Network not supported for Swaps', 'Network not supported for Gas Price'); the other
 * texts are ours and say what the visitor can do.
 */
export class SwapError extends BaseError {
  override name = 'SwapError'
  /** An EIP-1193 / JSON-RPC code when there is one (4001 for a declined request). */
  readonly code: number | undefined

  constructor(shortMessage: string, parameters: BaseErrorParameters & { code?: number } = {}) {
    super(shortMessage, parameters)
    this.code = parameters.code
  }
}

// SPEC §8: the convert API refuses the chain.

/** SPEC §8: thrown by the swap (quotes, tokens, build-transaction) and approve calls. */
export class SwapNetworkNotSupportedError extends SwapError {
  override name = 'SwapNetworkNotSupportedError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('Network not supported for Swaps', parameters)
  }
}

/** SPEC §8: thrown by the gas-price call. */
export class GasPriceNetworkNotSupportedError extends SwapError {
  override name = 'GasPriceNetworkNotSupportedError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('Network not supported for Gas Price', parameters)
  }
}

// The form. Shown beside it; nothing has been sent.

export class SwapTokensError extends SwapError {
  override name = 'SwapTokensError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('Unable to load the tokens to swap.', parameters)
  }
}

/** The quote could not be fetched: `swap.retry` asks again. */
export class SwapQuoteError extends SwapError {
  override name = 'SwapQuoteError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('Unable to get a quote. Try again.', parameters)
  }
}

/** Two different tokens are needed. */
export class SwapPairRequiredError extends SwapError {
  override name = 'SwapPairRequiredError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('Select the tokens to swap', parameters)
  }
}

/** Not a positive decimal number, or more decimals than the token has. */
export class InvalidSwapAmountError extends SwapError {
  override name = 'InvalidSwapAmountError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('Invalid amount', parameters)
  }
}

/** No quote for the amount yet (being fetched, or it failed). */
export class SwapQuoteRequiredError extends SwapError {
  override name = 'SwapQuoteRequiredError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('Waiting for a quote', parameters)
  }
}

/** The amount is more than the balance of the token paid. */
export class SwapInsufficientBalanceError extends SwapError {
  override name = 'SwapInsufficientBalanceError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('Insufficient balance', parameters)
  }
}

/** The native balance cannot pay the network fee of the quote (with the amount, when the native token is paid). */
export class SwapInsufficientGasError extends SwapError {
  override name = 'SwapInsufficientGasError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('Insufficient funds for the network fee', parameters)
  }
}

// The way to the swap.

export class SwapAllowanceError extends SwapError {
  override name = 'SwapAllowanceError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('Unable to check the token allowance.', parameters)
  }
}

/** build-approve or build-transaction failed. */
export class SwapBuildError extends SwapError {
  override name = 'SwapBuildError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('Unable to prepare the transaction.', parameters)
  }
}

/** The visitor declined the approval or the swap in the wallet (EIP-1193 4001). */
export class SwapRejectedError extends SwapError {
  override name = 'SwapRejectedError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('Transaction declined in the wallet.', { code: 4001, ...parameters })
  }
}

/** The approval transaction was mined and failed. */
export class ApproveRevertedError extends SwapError {
  override name = 'ApproveRevertedError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('The approval failed.', parameters)
  }
}

/**
 * The swap transaction was mined and failed: almost always the price moved past the slippage tolerance between
 * the quote and the block. The form (pair, amount, slippage) is kept; a fresh quote is a retry away.
 */
export class SwapRevertedError extends SwapError {
  override name = 'SwapRevertedError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('The swap failed: the price moved past your slippage tolerance.', parameters)
  }
}

/** The wallet did not answer the transaction request within `SEND_REQUEST_TIMEOUT_MS` (src/constants.ts). */
export class SwapTimeoutError extends SwapError {
  override name = 'SwapTimeoutError'
  constructor(parameters: BaseErrorParameters & { timeoutMs?: number } = {}) {
    super('The wallet did not answer in time. Check its activity before trying again.', {
      ...parameters,
      details:
        parameters.details ??
        (parameters.timeoutMs === undefined ? undefined : `No answer after ${parameters.timeoutMs / 1000} s`),
    })
  }
}

/** Anything else on the way to a hash. */
export class SwapTransactionError extends SwapError {
  override name = 'SwapTransactionError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('Failed to send the transaction.', parameters)
  }
}

/**
 * No receipt after the SPEC §9 receipt timeout and the pending-transaction polling. The transaction was sent
 * (its hash is in `details`) and may still be mined, so it must not simply be sent again.
 */
export class SwapPendingError extends SwapError {
  override name = 'SwapPendingError'
  constructor(parameters: BaseErrorParameters & { hash?: string } = {}) {
    super('The transaction is still pending.', {
      ...parameters,
      details: parameters.details ?? (parameters.hash ? `Transaction ${parameters.hash}` : undefined),
    })
  }
}

/** What part of a built transaction did not match what the visitor reviewed (SwapBuildMismatchError). */
export type SwapBuildMismatch =
  | 'router'
  | 'approval.to'
  | 'approval.function'
  | 'approval.spender'
  | 'approval.amount'
  | 'approval.value'
  | 'swap.to'
  | 'swap.function'
  | 'swap.tokenIn'
  | 'swap.tokenOut'
  | 'swap.amountIn'
  | 'swap.recipient'
  | 'swap.minAmountOut'
  | 'swap.deadline'
  | 'swap.value'

/**
 * A transaction the convert API built (an approval or the swap) is not the one the preview describes: another
 * token, spender, router, function, amount, recipient or value, a smaller least amount out, a deadline out of
 * bounds, or a chain with no known router. Nothing was sent to the wallet; `mismatch` names what differed and
 * `details` says how.
 */
export class SwapBuildMismatchError extends SwapError {
  override name = 'SwapBuildMismatchError'
  readonly mismatch: SwapBuildMismatch
  constructor(parameters: BaseErrorParameters & { mismatch: SwapBuildMismatch }) {
    super(
      'The swap service prepared a transaction that does not match your swap, so it was not sent to your wallet.',
      parameters,
    )
    this.mismatch = parameters.mismatch
  }
}

/**
 * The wallet never answered the swap request, and the swap it holds is past its deadline: it can no longer be
 * mined with effect, so a new swap cannot pay twice.
 */
export class SwapRequestExpiredError extends SwapError {
  override name = 'SwapRequestExpiredError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('The swap your wallet was asked for has expired without an answer. You can swap again.', parameters)
  }
}

/** Where in the flow an error happened: decides the fallback when nothing more specific is recognised. */
export type SwapStage = 'tokens' | 'quote' | 'allowance' | 'build' | 'check' | 'send' | 'receipt'

/**
 * Maps anything the convert API, a wallet or viem throws in the swap flow onto the kit's error family, keeping
 * the cause. The SPEC §8 texts are recognised by their words, whatever wraps them.
 *
 * @example
 * try { await fetchQuote(request) } catch (error) { throw toSwapError(error, 'quote') }
 */
export function toSwapError(error: unknown, stage: SwapStage): BaseError {
  if (error instanceof BaseError) return error
  const text = messagesOf(error)
  if (/Network not supported for Swaps/i.test(text)) return new SwapNetworkNotSupportedError({ cause: error })
  if (/Network not supported for Gas Price/i.test(text))
    return new GasPriceNetworkNotSupportedError({ cause: error })
  if (isUserRejection(error)) return new SwapRejectedError({ cause: error })
  if (/insufficient funds/i.test(text)) return new SwapInsufficientGasError({ cause: error })
  if (/exceeds balance|insufficient balance|ERC20InsufficientBalance/i.test(text))
    return new SwapInsufficientBalanceError({ cause: error })
  switch (stage) {
    case 'tokens':
      return new SwapTokensError({ cause: error })
    case 'quote':
      return new SwapQuoteError({ cause: error })
    case 'allowance':
      return new SwapAllowanceError({ cause: error })
    case 'build':
    case 'check':
      return new SwapBuildError({ cause: error })
    case 'send':
    case 'receipt':
      return new SwapTransactionError({ cause: error })
  }
}

/**
 * A token of the pair whose contract states other decimals (or another symbol) than the convert API: the amount
 * would be scaled wrongly, so the pair is refused.
 */
export class SwapTokenMismatchError extends SwapError {
  override name = 'SwapTokenMismatchError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('This token cannot be swapped: its contract does not match its listing.', parameters)
  }
}

/** What a snapshot keeps of a swap error: plain data, for the inspector and the views. */
export function swapErrorInfo(error: unknown, stage: SwapStage): ErrorInfo {
  const kit = toSwapError(error, stage)
  const code = findCode(kit)
  return { name: kit.name, message: kit.shortMessage, ...(code === undefined ? {} : { code }) }
}

function messagesOf(error: unknown): string {
  const parts: string[] = []
  walkError(error, (e) => {
    if (e && typeof e === 'object') {
      for (const key of ['shortMessage', 'message'] as const)
        if (key in e && typeof (e as Record<string, unknown>)[key] === 'string')
          parts.push((e as Record<string, string>)[key]!)
    } else if (typeof e === 'string') parts.push(e)
    return false
  })
  return parts.join(' | ')
}

/** What differed in a Solana swap transaction from the swap the preview shows. */
export type SolanaSwapMismatch =
  | 'transaction'
  | 'feePayer'
  | 'signers'
  | 'makerSignature'
  | 'recipient'
  | 'amountIn'
  | 'minAmountOut'
  | 'instruction'

/**
 * The Solana transaction the swap service (its maker) built and signed is not the swap the preview describes:
 * the visitor's tokens go elsewhere than the maker or more than the amount leave, less than the least amount
 * shown comes in, another instruction touches the visitor's accounts, the maker's signature is not valid, or the
 * fee payer is not the one shown. Nothing was sent to the wallet; `mismatch` names what differed.
 */
export class SolanaSwapMismatchError extends SwapError {
  override name = 'SolanaSwapMismatchError'
  readonly mismatch: SolanaSwapMismatch
  constructor(parameters: BaseErrorParameters & { mismatch: SolanaSwapMismatch }) {
    super(
      'The swap service prepared a Solana transaction that does not match your swap, so it was not sent to your wallet.',
      parameters,
    )
    this.mismatch = parameters.mismatch
  }
}

/** The maker refused to fill a quote past its window: the form asks for a fresh quote. */
export class SwapQuoteExpiredError extends SwapError {
  override name = 'SwapQuoteExpiredError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('This quote has expired. Get a fresh quote to swap.', parameters)
  }
}
