import { type Address, formatUnits } from 'viem'
import type { BalanceChange, BalanceSimulation } from '../chains/eip155/simulate'
import { formatQuantity } from './format'

/**
 * What the preview shows will move, for the simulation to agree with: every outflow exactly, every inflow at
 * least (a swap's quote less its slippage). Amounts in base units, positive. Gas is not part of it (the fee has
 * its own line, and simulated native deltas exclude gas).
 */
export interface ExpectedChanges {
  outflows: readonly { token: Address; symbol: string; decimals: number; amount: bigint }[]
  inflows: readonly { token: Address; symbol: string; decimals: number; minimum: bigint }[]
}

/** Why a simulation disagrees with the preview. */
export type SimulationDisagreement =
  | { kind: 'reverted' }
  /** A token the preview does not show moves (in or out). */
  | { kind: 'unexpected'; change: BalanceChange }
  /** A token shown leaving leaves in another amount (more, or less). */
  | { kind: 'outflow'; shown: bigint; shownDecimals: number; change: BalanceChange }
  /** A token shown arriving arrives below the minimum shown. */
  | { kind: 'inflow'; minimum: bigint; shownDecimals: number; change: BalanceChange }
  /** A token shown moving does not move. */
  | { kind: 'missing'; token: Address; symbol: string; decimals: number; amount: bigint }

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase()

/**
 * `a` (in `aDecimals`) against `b` (in `bDecimals`), by value: -1, 0 or 1. Amounts are compared as the visitor
 * reads them, so a preview scaled by wrong decimals ("5 USDC" that are 50) disagrees with the chain's.
 */
function compareValues(a: bigint, aDecimals: number, b: bigint, bDecimals: number): number {
  const left = a * 10n ** BigInt(Math.max(bDecimals - aDecimals, 0))
  const right = b * 10n ** BigInt(Math.max(aDecimals - bDecimals, 0))
  return left === right ? 0 : left < right ? -1 : 1
}

/**
 * "See before you sign": the first way the simulation disagrees with the preview, or undefined when it
 * agrees (or when the node could not simulate: the preview then shows no line and nothing is blocked). Exact
 * outflows, minimum inflows, no other token moving; amounts compared by value, each in its own decimals.
 *
 * @example
 * simulationDisagreement(
 *   { outflows: [{ token: usdc, symbol: 'USDC', decimals: 6, amount: 5_000_000n }], inflows: [] },
 *   { status: 'simulated', changes: [{ token: usdc, symbol: 'USDC', decimals: 6, delta: -50_000_000n }] },
 * ) // { kind: 'outflow', shown: 5_000_000n, change: … }
 * @internal
 */
export function simulationDisagreement(
  expected: ExpectedChanges,
  simulation: BalanceSimulation,
): SimulationDisagreement | undefined {
  if (simulation.status === 'unavailable') return undefined
  if (simulation.status === 'reverted') return { kind: 'reverted' }
  for (const change of simulation.changes) {
    if (change.delta < 0n) {
      const shown = expected.outflows.find((o) => same(o.token, change.token))
      if (!shown) return { kind: 'unexpected', change }
      if (compareValues(-change.delta, change.decimals, shown.amount, shown.decimals) !== 0)
        return { kind: 'outflow', shown: shown.amount, shownDecimals: shown.decimals, change }
    } else if (change.delta > 0n) {
      const shown = expected.inflows.find((i) => same(i.token, change.token))
      if (!shown) return { kind: 'unexpected', change }
      if (compareValues(change.delta, change.decimals, shown.minimum, shown.decimals) < 0)
        return { kind: 'inflow', minimum: shown.minimum, shownDecimals: shown.decimals, change }
    }
  }
  const moved = (token: Address, sign: 1n | -1n) =>
    simulation.changes.some((c) => same(c.token, token) && c.delta * sign > 0n)
  for (const o of expected.outflows) {
    if (o.amount > 0n && !moved(o.token, -1n)) return { kind: 'missing', ...o }
  }
  for (const i of expected.inflows) {
    if (i.minimum > 0n && !moved(i.token, 1n)) return { kind: 'missing', ...i, amount: i.minimum }
  }
  return undefined
}

/** U+2212, the minus sign the preview writes ("−5 USDC"). */
const MINUS = '\u2212'

/**
 * A signed amount with its symbol, as the preview shows a balance change: "−5 USDC", "+0.0331 ETH". Up to
 * `maxDecimals` decimals, cut toward zero; a change too small for them shows as "<0.0001" rather than "0".
 *
 * @example
 * formatBalanceChange({ token, symbol: 'USDC', decimals: 6, delta: -5_000_000n }) // '−5 USDC'
 * @internal
 */
export function formatBalanceChange(
  change: Pick<BalanceChange, 'symbol' | 'decimals' | 'delta'>,
  maxDecimals = 6,
  locale?: string,
): string {
  const sign = change.delta < 0n ? MINUS : '+'
  const magnitude = change.delta < 0n ? -change.delta : change.delta
  let text = formatQuantity(formatUnits(magnitude, change.decimals), maxDecimals, locale)
  if (text === '0' && magnitude > 0n)
    text = `<${formatQuantity(`0.${'0'.repeat(maxDecimals - 1)}1`, maxDecimals, locale)}`
  return `${sign}${text} ${change.symbol}`
}
