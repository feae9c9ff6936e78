import type { Address } from 'viem'
import type { BalanceChange } from '../../chains/eip155/simulate'
import { NATIVE_TOKEN_ADDRESS } from '../../constants'
import {
  type ExpectedChanges,
  type SimulationDisagreement,
  simulationDisagreement,
} from '../../utils/simulation'
import { simulatedChanges, simulationResultOf } from '../send/simulation'
import type { SwapSimulation, SwapToken } from './types'

/**
 * "See before you sign", the swap's part: what its preview says will move, and whether the simulation of the
 * checked approvals and swap agrees. Gas is not part of it (the network fee has its own line).
 */

const addressOf = (token: SwapToken) =>
  (token.address.toLowerCase() === NATIVE_TOKEN_ADDRESS ? NATIVE_TOKEN_ADDRESS : token.address) as Address

/**
 * The preview of a swap: exactly the amount of the token paid leaves the account, at least the least amount
 * out (the quote shown less the slippage) of the token received arrives, and nothing else moves.
 *
 * @example
 * expectedOfSwap(usdc, eth, 100_000_000n, 32_670_000_000_000_000n)
 * // { outflows: [{ token: usdc, …, amount: 100_000_000n }], inflows: [{ token: 0xeee…, …, minimum: 3267… }] }
 * @internal
 */
export function expectedOfSwap(
  from: SwapToken,
  to: SwapToken,
  amountIn: bigint,
  minAmountOut: bigint,
): ExpectedChanges {
  return {
    outflows: [{ token: addressOf(from), symbol: from.symbol, decimals: from.decimals, amount: amountIn }],
    inflows: [{ token: addressOf(to), symbol: to.symbol, decimals: to.decimals, minimum: minAmountOut }],
  }
}

/** How the swap's simulation disagrees with its preview, or undefined (agrees, or could not simulate). */
export function swapSimulationDisagreement(
  expected: ExpectedChanges,
  simulation: SwapSimulation,
): SimulationDisagreement | undefined {
  return simulationDisagreement(expected, simulationResultOf(simulation))
}

/** The balance changes the preview shows: the simulated ones, or undefined (none to show: never a guess). */
export const swapSimulatedChanges: (simulation: SwapSimulation | undefined) => BalanceChange[] | undefined =
  simulatedChanges

/** The two tokens of the pair, as the simulation reads their balances. */
export function simulationTokensOf(from: SwapToken, to: SwapToken) {
  return [from, to].map((t) => ({ address: addressOf(t), symbol: t.symbol, decimals: t.decimals }))
}
