import { type Address, encodeFunctionData, erc20Abi, type Hex, maxUint256 } from 'viem'
import { describe, expect, it } from 'vitest'
import { SwapBuildMismatchError } from '../../errors/swap'
import {
  type BuiltApproval,
  type BuiltCall,
  checkSwapBuild,
  type SwapBuildExpectation,
} from './swapBuildCheck'
import { swapRouterAbi } from './swapRouter'

/**
 * Guards the rule "every transaction the kit builds from the convert API's answer is decoded and checked before
 * a wallet sees it": before it, src/actors/swap.ts passed build-approve's and build-transaction's answers to the
 * wallet unread. One test per way a hostile build can differ from the swap reviewed; each fails when its
 * comparison in ./swapBuildCheck.ts is removed.
 */
const ROUTER: Address = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
const OTHER: Address = '0x000000000000000000000000000000000000dEaD'
const USDC: Address = '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512'
const ETH = '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee'
const ME: Address = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const NOW = 1_800_000_000n
const AMOUNT = 100_000_000n
const MIN_OUT = 33_000_000_000_000_000n

const expectation = (over: Partial<SwapBuildExpectation> = {}): SwapBuildExpectation => ({
  chainId: 31337,
  routers: { 'eip155:31337': ROUTER },
  account: ME,
  tokenIn: USDC,
  tokenOut: ETH,
  amountIn: AMOUNT,
  minAmountOut: MIN_OUT,
  nowSeconds: NOW,
  maxDeadlineSeconds: 1800,
  ...over,
})

const approveData = (spender: Address, amount: bigint) =>
  encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [spender, amount] })
const approval = (over: Partial<BuiltCall> = {}, amount = AMOUNT): BuiltApproval => ({
  amount: amount.toString(),
  transaction: { to: USDC, data: approveData(ROUTER, amount), value: '0', ...over },
})

type SwapArgs = [Address, Address, bigint, bigint, Address, bigint]
const swapArgs = (over: Partial<Record<number, unknown>> = {}): SwapArgs => {
  const args: SwapArgs = [USDC, ETH as Address, AMOUNT, MIN_OUT, ME, NOW + 1200n]
  for (const [i, v] of Object.entries(over)) (args as unknown[])[Number(i)] = v
  return args
}
const swapData = (args: SwapArgs = swapArgs()) =>
  encodeFunctionData({ abi: swapRouterAbi, functionName: 'swapExactIn', args })
const swap = (over: Partial<BuiltCall> = {}): BuiltCall => ({
  to: ROUTER,
  data: swapData(),
  value: '0',
  ...over,
})

function refused(
  built: { approvals: BuiltApproval[]; swap: BuiltCall },
  over: Partial<SwapBuildExpectation> = {},
) {
  const problem = checkSwapBuild(built, expectation(over))
  expect(problem).toBeInstanceOf(SwapBuildMismatchError)
  return problem!.mismatch
}

describe('checkSwapBuild: an honest build passes', () => {
  it('approve(router, amount) on the token paid, then the router swap', () => {
    expect(checkSwapBuild({ approvals: [approval()], swap: swap() }, expectation())).toBeUndefined()
  })
  it('a USDT-style reset to 0 before the amount', () => {
    const built = { approvals: [approval({}, 0n), approval()], swap: swap() }
    expect(checkSwapBuild(built, expectation())).toBeUndefined()
  })
  it('the native currency: value equal to the amount, no approval', () => {
    const args = swapArgs({ 0: ETH, 1: USDC, 3: 1n })
    const built = { approvals: [], swap: swap({ data: swapData(args), value: AMOUNT.toString() }) }
    expect(
      checkSwapBuild(built, expectation({ tokenIn: ETH, tokenOut: USDC, minAmountOut: 1n })),
    ).toBeUndefined()
  })
  it('a least amount out above the one shown, and a mixed-case router and calldata', () => {
    const data = swapData(swapArgs({ 3: MIN_OUT + 1n }))
      .toUpperCase()
      .replace('0X', '0x') as Hex
    expect(
      checkSwapBuild({ approvals: [], swap: swap({ to: ROUTER.toLowerCase(), data }) }, expectation()),
    ).toBeUndefined()
  })
})

describe('checkSwapBuild: a hostile approval is refused', () => {
  it('no router configured for the chain', () => {
    expect(refused({ approvals: [approval()], swap: swap() }, { routers: {} })).toBe('router')
  })
  it('sent to another contract than the token paid', () => {
    expect(refused({ approvals: [approval({ to: OTHER })], swap: swap() })).toBe('approval.to')
  })
  it('an approval for the native currency', () => {
    const built = { approvals: [approval({ to: ETH })], swap: swap() }
    expect(refused(built, { tokenIn: ETH })).toBe('approval.to')
  })
  it('another function than approve (a transfer)', () => {
    const data = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [OTHER, AMOUNT] })
    expect(refused({ approvals: [approval({ data })], swap: swap() })).toBe('approval.function')
  })
  it('bytes appended to the approve call', () => {
    const data = `${approveData(ROUTER, AMOUNT)}deadbeef` as Hex
    expect(refused({ approvals: [approval({ data })], swap: swap() })).toBe('approval.function')
  })
  it('another spender', () => {
    const data = approveData(OTHER, AMOUNT)
    expect(refused({ approvals: [approval({ data })], swap: swap() })).toBe('approval.spender')
  })
  it('an unlimited amount (2^256-1) for an approval of the amount', () => {
    const data = approveData(ROUTER, maxUint256)
    expect(refused({ approvals: [approval({ data })], swap: swap() })).toBe('approval.amount')
  })
  it('an approval asked for neither the amount nor 0', () => {
    expect(refused({ approvals: [approval({}, AMOUNT * 2n)], swap: swap() })).toBe('approval.amount')
  })
  it('a value sent with the approval', () => {
    expect(refused({ approvals: [approval({ value: '3000000000000000000' })], swap: swap() })).toBe(
      'approval.value',
    )
  })
})

describe('checkSwapBuild: a hostile swap is refused', () => {
  const only = (call: BuiltCall, over: Partial<SwapBuildExpectation> = {}) =>
    refused({ approvals: [], swap: call }, over)
  it('sent to another contract than the router', () => {
    expect(only(swap({ to: OTHER }))).toBe('swap.to')
  })
  it('another function of the router', () => {
    const data = encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [OTHER, 1n] })
    expect(only(swap({ data }))).toBe('swap.function')
  })
  it('bytes appended to the swap call', () => {
    expect(only(swap({ data: `${swapData()}00` as Hex }))).toBe('swap.function')
  })
  it('another token paid', () => {
    expect(only(swap({ data: swapData(swapArgs({ 0: OTHER })) }))).toBe('swap.tokenIn')
  })
  it('another token bought', () => {
    expect(only(swap({ data: swapData(swapArgs({ 1: OTHER })) }))).toBe('swap.tokenOut')
  })
  it('another amount paid', () => {
    expect(only(swap({ data: swapData(swapArgs({ 2: AMOUNT * 10n })) }))).toBe('swap.amountIn')
  })
  it('paid out to someone else', () => {
    expect(only(swap({ data: swapData(swapArgs({ 4: OTHER })) }))).toBe('swap.recipient')
  })
  it('a least amount out of 0', () => {
    expect(only(swap({ data: swapData(swapArgs({ 3: 0n })) }))).toBe('swap.minAmountOut')
  })
  it('a least amount out one unit below the one shown', () => {
    expect(only(swap({ data: swapData(swapArgs({ 3: MIN_OUT - 1n })) }))).toBe('swap.minAmountOut')
  })
  it('a deadline already passed', () => {
    expect(only(swap({ data: swapData(swapArgs({ 5: NOW })) }))).toBe('swap.deadline')
  })
  it('a deadline past the bound (kept to be mined much later)', () => {
    expect(only(swap({ data: swapData(swapArgs({ 5: NOW + 1801n })) }))).toBe('swap.deadline')
    expect(only(swap({ data: swapData(swapArgs({ 5: maxUint256 })) }))).toBe('swap.deadline')
  })
  it('a value sent with a token swap', () => {
    expect(only(swap({ value: '7000000000000000000' }))).toBe('swap.value')
  })
  it('more value than the amount for the native currency', () => {
    const data = swapData(swapArgs({ 0: ETH, 1: USDC }))
    const over = { tokenIn: ETH, tokenOut: USDC }
    expect(only(swap({ data, value: (AMOUNT + 1n).toString() }), over)).toBe('swap.value')
    expect(only(swap({ data, value: '0' }), over)).toBe('swap.value')
  })
})

describe('SwapBuildMismatchError', () => {
  it('says nothing reached the wallet, and what differed', () => {
    const problem = checkSwapBuild({ approvals: [], swap: swap({ to: OTHER }) }, expectation())!
    expect(problem.shortMessage).toMatchInlineSnapshot(
      `"The swap service prepared a transaction that does not match your swap, so it was not sent to your wallet."`,
    )
    expect(problem.details).toContain(OTHER)
  })
})
