import type { Address } from 'viem'
import { describe, expect, it } from 'vitest'
import type { BalanceSimulation } from '../chains/eip155/simulate'
import { NATIVE_TOKEN_ADDRESS } from '../constants'
import { SimulationDisagreementError } from '../errors/simulation'
import { type ExpectedChanges, formatBalanceChange, simulationDisagreement } from './simulation'

// Issue 33 "See before you sign": a simulation that disagrees with the preview (other tokens moving, more leaving
// than shown) blocks confirm; a node that cannot simulate blocks nothing and shows no line.

const usdc = '0x5FbDB2315678afecb367f032d93F642f64180aa3' as Address
const stk = '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512' as Address
const eth = NATIVE_TOKEN_ADDRESS as Address
const USDC = { token: usdc, symbol: 'USDC', decimals: 6 }
const ETH = { token: eth, symbol: 'ETH', decimals: 18 }

/** The preview of "send 5 USDC". */
const send5: ExpectedChanges = { outflows: [{ ...USDC, amount: 5_000_000n }], inflows: [] }
/** The preview of "swap 100 USDC → at least 0.03 ETH". */
const swap: ExpectedChanges = {
  outflows: [{ ...USDC, amount: 100_000_000n }],
  inflows: [{ ...ETH, minimum: 30_000_000_000_000_000n }],
}
const simulated = (...changes: { token: Address; symbol: string; decimals: number; delta: bigint }[]) =>
  ({ status: 'simulated', changes }) as BalanceSimulation

describe('simulationDisagreement', () => {
  it('agrees when exactly what is shown leaves, and at least what is shown arrives', () => {
    expect(simulationDisagreement(send5, simulated({ ...USDC, delta: -5_000_000n }))).toBeUndefined()
    expect(
      simulationDisagreement(
        swap,
        simulated({ ...ETH, delta: 33_100_000_000_000_000n }, { ...USDC, delta: -100_000_000n }),
      ),
    ).toBeUndefined()
  })

  it('blocks when more leaves than shown (the 7-decimals case: 50 USDC for a preview of 5)', () => {
    expect(simulationDisagreement(send5, simulated({ ...USDC, delta: -50_000_000n }))).toMatchObject({
      kind: 'outflow',
      shown: 5_000_000n,
    })
    // The same base units, but the preview scaled them by 7 decimals (a Data API's) where the chain says 6:
    // "5 USDC" shown, 50 USDC leaving.
    const sevenDecimals: ExpectedChanges = {
      outflows: [{ ...USDC, decimals: 7, amount: 50_000_000n }],
      inflows: [],
    }
    expect(simulationDisagreement(sevenDecimals, simulated({ ...USDC, delta: -50_000_000n }))).toMatchObject({
      kind: 'outflow',
    })
    // Equal values in other decimals agree.
    const sameValue: ExpectedChanges = {
      outflows: [{ ...USDC, decimals: 7, amount: 50_000_000n }],
      inflows: [],
    }
    expect(simulationDisagreement(sameValue, simulated({ ...USDC, delta: -5_000_000n }))).toBeUndefined()
  })

  it('blocks when another token moves, out or in', () => {
    const other = { token: stk, symbol: 'STK', decimals: 18 }
    expect(
      simulationDisagreement(send5, simulated({ ...USDC, delta: -5_000_000n }, { ...other, delta: -1n })),
    ).toMatchObject({ kind: 'unexpected', change: { token: stk } })
    expect(
      simulationDisagreement(send5, simulated({ ...USDC, delta: -5_000_000n }, { ...other, delta: 1n })),
    ).toMatchObject({ kind: 'unexpected' })
    // ETH leaving in a swap that shows ETH only arriving is "another movement" too.
    expect(
      simulationDisagreement(swap, simulated({ ...ETH, delta: -3n }, { ...USDC, delta: -100_000_000n })),
    ).toMatchObject({ kind: 'unexpected', change: { token: eth } })
  })

  it('blocks when less arrives than the minimum shown, or what is shown does not move', () => {
    expect(
      simulationDisagreement(swap, simulated({ ...ETH, delta: 1n }, { ...USDC, delta: -100_000_000n })),
    ).toMatchObject({ kind: 'inflow' })
    expect(simulationDisagreement(swap, simulated({ ...USDC, delta: -100_000_000n }))).toMatchObject({
      kind: 'missing',
      token: eth,
    })
    expect(simulationDisagreement(send5, simulated())).toMatchObject({ kind: 'missing', token: usdc })
  })

  it('blocks a transaction that would revert; blocks nothing when the node cannot simulate', () => {
    expect(simulationDisagreement(send5, { status: 'reverted', callIndex: 0, reason: 'x' })).toEqual({
      kind: 'reverted',
    })
    expect(
      simulationDisagreement(send5, { status: 'unavailable', reason: 'no eth_simulateV1' }),
    ).toBeUndefined()
  })

  it('compares token addresses whatever their case', () => {
    const lower = { ...USDC, token: usdc.toLowerCase() as Address }
    expect(simulationDisagreement(send5, simulated({ ...lower, delta: -5_000_000n }))).toBeUndefined()
  })
})

describe('formatBalanceChange', () => {
  it('writes signed amounts with their symbols (DESIGN: "−5 USDC")', () => {
    expect(formatBalanceChange({ ...USDC, delta: -5_000_000n })).toBe('\u22125 USDC')
    expect(formatBalanceChange({ ...ETH, delta: 33_100_000_000_000_000n }, 4)).toBe('+0.0331 ETH')
    expect(formatBalanceChange({ ...ETH, delta: 1n }, 4)).toBe('+<0.0001 ETH')
  })
})

describe('SimulationDisagreementError', () => {
  it('says what the simulation found against what is shown, and that nothing was sent', () => {
    const error = new SimulationDisagreementError({
      kind: 'outflow',
      shown: 50_000_000n,
      shownDecimals: 7,
      change: { ...USDC, delta: -50_000_000n },
    })
    expect(error.shortMessage).toBe(
      'This transaction would take 50 USDC from your account, not the 5 USDC shown. Nothing was sent.',
    )
    expect(
      new SimulationDisagreementError({
        kind: 'unexpected',
        change: { token: stk, symbol: 'STK', decimals: 18, delta: -(10n ** 18n) },
      }).shortMessage,
    ).toBe('This transaction would also move \u22121 STK, which the preview does not show. Nothing was sent.')
  })
})
