import { type Address, decodeFunctionData, encodeFunctionData, type Hex, isAddress } from 'viem'
import { type SwapBuildMismatch, SwapBuildMismatchError } from '../../errors/swap'
import { erc20ApproveAbi, swapRouterAbi } from './swapRouter'

/**
 * The check between the convert API's answer and the wallet: every transaction the API built for a swap is
 * decoded with viem and compared with what the visitor reviewed. Pure (the clock and the router allow-list
 * come in as arguments), so each way a hostile build can differ is a unit test (./swapBuildCheck.unit.test.ts).
 *
 * An approval must be `approve(router, amount)` on the token paid, with no value. The swap must be the router's
 * `swapExactIn` with the pair, the amount, the account as recipient, a least amount out no smaller than the
 * one shown, a deadline after now and no later than the bound, and a value equal to the amount for the native
 * currency (0 otherwise). The calldata must be exactly the canonical encoding of what it decodes to (nothing
 * appended). The first difference found is the answer, as a {@link SwapBuildMismatchError}.
 */

/** A built transaction as the convert client parsed it: `value` in wei, a decimal string. */
export interface BuiltCall {
  to: string
  data: Hex
  value: string
}

/** The native currency's marker in convert calls and in the router's arguments (any case). */
const NATIVE = '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee'

/** What the swap the visitor reviewed is, for the check. Token addresses as the convert API names them. */
export interface SwapBuildExpectation {
  /** eip155 reference of the account's chain. */
  chainId: number
  /** The router allow-list by CAIP-2 id (`KitConfig.swapRouters`). */
  routers: Readonly<Record<string, string>>
  account: Address
  /** The token paid (its contract, or the native marker) and the token received. */
  tokenIn: string
  tokenOut: string
  /** The amount paid, base units. */
  amountIn: bigint
  /** The least amount out the preview shows (the quote shown less the slippage), base units. */
  minAmountOut: bigint
  /** Unix seconds now, and the latest deadline accepted, in seconds from now. */
  nowSeconds: bigint
  maxDeadlineSeconds: number
}

/** One approval and the allowance it must set (the amount, or 0 first for a USDT-style reset). */
export interface BuiltApproval {
  amount: string
  transaction: BuiltCall
}

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase()
const isNative = (address: string) => same(address, NATIVE)
const mismatch = (kind: SwapBuildMismatch, details: string) =>
  new SwapBuildMismatchError({ mismatch: kind, details })

function weiOf(call: BuiltCall): bigint | undefined {
  return /^\d{1,78}$/.test(call.value) ? BigInt(call.value) : undefined
}

/**
 * The router the allow-list names for the chain, or undefined.
 *
 * @example
 * routerFor({ 'eip155:31337': '0x5FbDB2315678afecb367f032d93F642f64180aa3' }, 31337) // '0x5FbD…0aa3'
 */
export function routerFor(routers: Readonly<Record<string, string>>, chainId: number): Address | undefined {
  const router = routers[`eip155:${chainId}`]
  return router !== undefined && isAddress(router, { strict: false }) ? (router as Address) : undefined
}

/**
 * Checks one approval built for the swap; undefined when it is exactly `approve(router, amount)` on the token.
 *
 * @example
 * checkApproval(tx, { token: usdc, router, amount: 100_000_000n }) // undefined, or the mismatch
 */
export function checkApproval(
  call: BuiltCall,
  expected: { token: string; router: Address; amount: bigint },
): SwapBuildMismatchError | undefined {
  if (isNative(expected.token) || !same(call.to, expected.token))
    return mismatch(
      'approval.to',
      `The approval goes to ${call.to}, not to the token paid (${expected.token})`,
    )
  let decoded: ReturnType<typeof decodeFunctionData<typeof erc20ApproveAbi>>
  try {
    decoded = decodeFunctionData({ abi: erc20ApproveAbi, data: call.data.toLowerCase() as Hex })
  } catch {
    return mismatch('approval.function', 'The approval is not an ERC-20 approve call')
  }
  if (!same(encodeFunctionData({ abi: erc20ApproveAbi, ...decoded }), call.data))
    return mismatch('approval.function', 'The approval carries more data than an ERC-20 approve call')
  const [spender, amount] = decoded.args
  if (!same(spender, expected.router))
    return mismatch(
      'approval.spender',
      `The approval lets ${spender} spend, not the swap router ${expected.router}`,
    )
  if (amount !== expected.amount)
    return mismatch('approval.amount', `The approval is for ${amount}, not ${expected.amount} (base units)`)
  if (weiOf(call) !== 0n) return mismatch('approval.value', `The approval sends a value of ${call.value} wei`)
  return undefined
}

/**
 * Checks the swap transaction; undefined when it is the router's `swapExactIn` of exactly the swap reviewed.
 *
 * @example
 * checkSwapCall(tx, router, expectation) // undefined, or the mismatch
 */
export function checkSwapCall(
  call: BuiltCall,
  router: Address,
  expected: SwapBuildExpectation,
): SwapBuildMismatchError | undefined {
  if (!same(call.to, router))
    return mismatch('swap.to', `The swap goes to ${call.to}, not to the swap router ${router}`)
  let decoded: ReturnType<typeof decodeFunctionData<typeof swapRouterAbi>>
  try {
    decoded = decodeFunctionData({ abi: swapRouterAbi, data: call.data.toLowerCase() as Hex })
  } catch {
    return mismatch('swap.function', "The swap is not a call of the router's swapExactIn")
  }
  if (!same(encodeFunctionData({ abi: swapRouterAbi, ...decoded }), call.data))
    return mismatch('swap.function', "The swap carries more data than the router's swapExactIn")
  const [tokenIn, tokenOut, amountIn, minAmountOut, to, deadline] = decoded.args
  if (!same(tokenIn, expected.tokenIn))
    return mismatch('swap.tokenIn', `The swap pays ${tokenIn}, not ${expected.tokenIn}`)
  if (!same(tokenOut, expected.tokenOut))
    return mismatch('swap.tokenOut', `The swap buys ${tokenOut}, not ${expected.tokenOut}`)
  if (amountIn !== expected.amountIn)
    return mismatch('swap.amountIn', `The swap pays ${amountIn}, not ${expected.amountIn} (base units)`)
  if (!same(to, expected.account))
    return mismatch('swap.recipient', `The swap pays out to ${to}, not to your account ${expected.account}`)
  if (minAmountOut < expected.minAmountOut)
    return mismatch(
      'swap.minAmountOut',
      `The swap accepts as little as ${minAmountOut}, less than the ${expected.minAmountOut} shown (base units)`,
    )
  const latest = expected.nowSeconds + BigInt(expected.maxDeadlineSeconds)
  if (deadline <= expected.nowSeconds || deadline > latest)
    return mismatch(
      'swap.deadline',
      `The swap's deadline ${deadline} is not between now (${expected.nowSeconds}) and ${latest}`,
    )
  const value = isNative(expected.tokenIn) ? expected.amountIn : 0n
  if (weiOf(call) !== value) return mismatch('swap.value', `The swap sends ${call.value} wei, not ${value}`)
  return undefined
}

/**
 * Checks everything built for one swap: the router known for the chain, each approval, then the swap. The
 * first mismatch, or undefined when the wallet may be asked for exactly these transactions.
 *
 * @example
 * const problem = checkSwapBuild({ approvals, swap }, expectation)
 * if (problem) throw problem
 */
export function checkSwapBuild(
  built: { approvals: readonly BuiltApproval[]; swap: BuiltCall },
  expected: SwapBuildExpectation,
): SwapBuildMismatchError | undefined {
  const router = routerFor(expected.routers, expected.chainId)
  if (!router)
    return mismatch('router', `No swap router is configured for eip155:${expected.chainId} (swapRouters)`)
  for (const approval of built.approvals) {
    if (!/^\d{1,78}$/.test(approval.amount))
      return mismatch('approval.amount', `The approval amount ${approval.amount} is not a number`)
    const amount = BigInt(approval.amount)
    if (amount !== 0n && amount !== expected.amountIn)
      return mismatch('approval.amount', `An approval of ${amount} is neither the amount nor a reset to 0`)
    const problem = checkApproval(approval.transaction, {
      token: expected.tokenIn,
      router,
      amount,
    })
    if (problem) return problem
  }
  return checkSwapCall(built.swap, router, expected)
}
