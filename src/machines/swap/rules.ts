/**
 * The swap flow's rules as pure functions of its context (src/machines/swap.ts names them as guards and actions):
 * the native currency, the amount and the pair, the balances before review (the token paid, the native currency
 * for gas), the approvals the allowance needs (USDT-style: zero first), the least amount out, and what each slot
 * is asked for.
 */
import { type Address, formatUnits, numberToHex, parseUnits } from 'viem'
import { NATIVE_TOKEN_ADDRESS, TX_RECEIPT_TIMEOUT_MS } from '../../constants'
import type { BaseError } from '../../errors/base'
import {
  InvalidSwapAmountError,
  SwapInsufficientBalanceError,
  SwapInsufficientGasError,
  SwapPairRequiredError,
  SwapQuoteRequiredError,
} from '../../errors/swap'
import type { KitBatchCall } from '../calls/types'
import { expectedOfSwap, simulationTokensOf } from './simulation'
import type {
  SwapApproval,
  SwapCheckRequest,
  SwapContext,
  SwapQuoteRequest,
  SwapReceiptRequest,
  SwapSendRequest,
  SwapSimulationRequest,
  SwapToken,
  SwapTransaction,
  TokenBalance,
} from './types'

/** The address the convert API uses for the native currency (src/constants.ts). */
export const SWAP_NATIVE_ADDRESS = NATIVE_TOKEN_ADDRESS

/** True for the native currency (the 0xeee… marker, or no address). */
export function isNative(token: Pick<SwapToken, 'address'>): boolean {
  const address = token.address.trim().toLowerCase()
  return address === '' || address === SWAP_NATIVE_ADDRESS
}

const DECIMAL = /^(\d+\.?\d*|\.\d+)$/

/** The amount in base units, or undefined if it is not a decimal the token can hold. */
export function parseSwapAmount(amount: string, decimals: number): bigint | undefined {
  const text = amount.trim()
  if (!DECIMAL.test(text)) return undefined
  const fraction = text.split('.')[1] ?? ''
  if (fraction.length > decimals) return undefined
  return parseUnits(text, decimals)
}

/**
 * The amount paid in base units, when positive and valid for the `from` token.
 * @internal
 */
export function amountOf(context: Pick<SwapContext, 'from' | 'amount'>): bigint | undefined {
  if (!context.from) return undefined
  const value = parseSwapAmount(context.amount, context.from.decimals)
  return value === undefined || value === 0n ? undefined : value
}

/** @internal */
export function pairOf(context: Pick<SwapContext, 'from' | 'to'>): [SwapToken, SwapToken] | undefined {
  const { from, to } = context
  return from && to && !sameToken(from, to) ? [from, to] : undefined
}

export function sameToken(a: SwapToken, b: SwapToken): boolean {
  if (a.chainId !== b.chainId) return false
  if (isNative(a) || isNative(b)) return isNative(a) && isNative(b)
  return a.address.toLowerCase() === b.address.toLowerCase()
}

/** The address part of a balance's (CAIP-10 or plain) address, lower case; '' for the native currency. */
function balanceAddress(balance: TokenBalance): string {
  const raw = (balance.address ?? '').trim().toLowerCase()
  const address = raw.split(':').pop() ?? ''
  return address === SWAP_NATIVE_ADDRESS ? '' : address
}

/** The balance of a token in base units, when the balances list it. */
function balanceOf(context: Pick<SwapContext, 'balances'>, token: SwapToken): bigint | undefined {
  const address = isNative(token) ? '' : token.address.trim().toLowerCase()
  const entry = context.balances.find((b) => b.chainId === token.chainId && balanceAddress(b) === address)
  if (!entry) return undefined
  const numeric = entry.quantity.numeric.trim()
  if (!DECIMAL.test(numeric)) return undefined
  const [whole = '', fraction = ''] = numeric.split('.')
  return parseUnits(`${whole || '0'}.${fraction.slice(0, token.decimals) || '0'}`, token.decimals)
}

function nativeOf(token: SwapToken): SwapToken {
  // SOL has 9 decimals (lamports), eip155 native currencies 18.
  const decimals = token.chainId.startsWith('solana:') ? 9 : 18
  return { address: SWAP_NATIVE_ADDRESS, symbol: '', name: '', decimals, chainId: token.chainId }
}

/**
 * The first problem with the form before review (issue 16: the pair, the amount, a quote, the balance of the
 * token paid, the native currency for gas), or undefined. Views label the review button with it; the machine
 * shows it when `swap.review` comes anyway. A balance the list does not hold is not proof of zero.
 *
 * @example
 * ```tsx
 * import { useSelector } from '@xstate/react'
 * import { type swapMachine, validateSwap } from 'walletstate/machines'
 * import { useCapability } from 'walletstate/react'
 * import type { ActorRefFrom } from 'xstate'
 *
 * export function ReviewButton() {
 *   // The swap's actor while a swap view is open.
 *   const { actor } = useCapability<ActorRefFrom<typeof swapMachine>>('swap')
 *   const problem = useSelector(actor, (s) => (s ? validateSwap(s.context) : undefined))
 *   return <button type="button" disabled={problem !== undefined}>{problem?.shortMessage ?? 'Review swap'}</button>
 * }
 * ```
 */
export function validateSwap(
  context: Pick<SwapContext, 'from' | 'to' | 'amount' | 'quote' | 'balances'>,
): BaseError | undefined {
  const pair = pairOf(context)
  if (!pair) return new SwapPairRequiredError()
  const [from] = pair
  const amount = amountOf(context)
  if (amount === undefined) return new InvalidSwapAmountError()
  if (!context.quote) return new SwapQuoteRequiredError()
  const balance = balanceOf(context, from)
  if (balance !== undefined && amount > balance) return new SwapInsufficientBalanceError()
  const gas = BigInt(context.quote.gasFee)
  const native = balanceOf(context, nativeOf(from))
  const needed = isNative(from) ? amount + gas : gas
  if (native !== undefined && needed > native) return new SwapInsufficientGasError()
  return undefined
}

/** Whether the `from` token's allowance (when known) is short of the amount. */
export function needsApproval(context: Pick<SwapContext, 'from' | 'amount' | 'allowance'>): boolean {
  if (!context.from || isNative(context.from) || context.allowance === undefined) return false
  const amount = amountOf(context)
  return amount !== undefined && BigInt(context.allowance) < amount
}

/**
 * The allowance the next approval sets: zero first when a smaller non-zero one is in the way (USDT-style).
 * @internal
 */
export function approveAmountOf(context: SwapContext): string {
  const allowance = BigInt(context.allowance ?? '0')
  return allowance > 0n ? '0' : amountOf(context)!.toString()
}

export function maxAmount(context: SwapContext): string | undefined {
  const from = context.from
  if (!from) return undefined
  const balance = balanceOf(context, from)
  if (balance === undefined) return undefined
  const reserve = isNative(from) && context.quote ? BigInt(context.quote.gasFee) : 0n
  return formatUnits(balance > reserve ? balance - reserve : 0n, from.decimals)
}

/** The form as a quote request. Only called where the form is known to be quotable. */
export function quoteRequestOf(context: SwapContext): SwapQuoteRequest {
  return {
    chainId: context.chainId,
    userAddress: context.userAddress,
    from: context.from!.address,
    to: context.to!.address,
    amount: amountOf(context)!.toString(),
  }
}

/**
 * A built transaction without the API's gas limit, for the wallet to estimate when it is sent.
 * @internal
 */
export function withoutGas({ gas: _gas, ...transaction }: SwapTransaction): SwapTransaction {
  return transaction
}

/**
 * The checked approval that sets the allowance due next (zero first, USDT-style, then the amount).
 * @internal
 */
export function checkedApproval(context: SwapContext): SwapApproval | undefined {
  const amount = approveAmountOf(context)
  return context.prepared?.approvals.find((a) => a.amount === amount)
}

/**
 * Only entered when `approvalChecked` holds.
 * @internal
 */
export function approvalRequestOf(context: SwapContext): SwapSendRequest {
  return { ...checkedApproval(context)!.transaction, chainId: context.chainId, kind: 'approve' }
}

/**
 * The least amount out the preview shows: the quote less the slippage, rounded down (slippage to 0.000001 %).
 *
 * @example
 * minimumOut('1000', 1) // 990n
 */
export function minimumOut(toAmount: string, slippage: number): bigint {
  const keep = BigInt(Math.max(0, 100_000_000 - Math.round(slippage * 1_000_000)))
  return (BigInt(toAmount) * keep) / 100_000_000n
}

/**
 * What the preview shows will move: the amount out, at least the least amount out in.
 * @internal
 */
export function expectedOf(context: SwapContext) {
  return expectedOfSwap(
    context.from!,
    context.to!,
    amountOf(context)!,
    minimumOut(context.quote!.toAmount, context.slippage),
  )
}

/** The checked approvals, then the swap, from the account: what the wallet will be asked for, in order. */
export function simulationRequestOf(context: SwapContext): SwapSimulationRequest {
  const prepared = context.prepared!
  return {
    chainId: context.chainId,
    account: context.userAddress,
    calls: [...prepared.approvals.map((a) => a.transaction), prepared.swap],
    tokens: simulationTokensOf(context.from!, context.to!),
  }
}

/**
 * The checked approvals, then the checked swap, as one batch (the calls simulated, in the same order): the wallet's
 * one confirmation when it batches atomically. Each value in wei as hex; gas is the wallet's to estimate.
 * @internal
 */
export function batchCallsOf(context: SwapContext): KitBatchCall[] {
  return simulationRequestOf(context).calls.map(({ to, data, value }) => ({
    to,
    data,
    value: numberToHex(BigInt(value)),
  }))
}

/**
 * Whether the swap is on a Solana network (a maker's transaction, signed by the maker first).
 * @internal
 */
export function isSolanaSwap(context: Pick<SwapContext, 'chainId'>): boolean {
  return typeof context.chainId === 'string' && context.chainId.startsWith('solana:')
}

/**
 * What was built, beside the swap the preview shows, for `checkBuild`. Only called with a swap built.
 * @internal
 */
export function checkRequestOf(context: SwapContext): SwapCheckRequest {
  return {
    chainId: context.chainId,
    account: context.userAddress,
    ...(context.quote?.maker ? { maker: context.quote.maker } : {}),
    tokenIn: context.from!.address,
    tokenOut: context.to!.address,
    amountIn: amountOf(context)!.toString(),
    minAmountOut: minimumOut(context.quote!.toAmount, context.slippage).toString(),
    approvals: context.built?.approvals ?? [],
    swap: context.built!.swap!,
  }
}

/**
 * The account's eip155 chain and address, for what only an eip155 swap reaches (approvals, batches, receipts:
 * a Solana swap has none of them).
 * @internal
 */
export function eip155Of(context: Pick<SwapContext, 'chainId' | 'userAddress'>): {
  chainId: number
  address: Address
} {
  return { chainId: Number(context.chainId), address: context.userAddress as Address }
}

/** @internal */
export function receiptRequestOf(context: SwapContext): SwapReceiptRequest {
  return { hash: context.hash!, chainId: eip155Of(context).chainId, timeoutMs: TX_RECEIPT_TIMEOUT_MS }
}
