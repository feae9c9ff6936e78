import type { Address, Hex } from 'viem'
import { describe, expect, it } from 'vitest'
import { createActor, fromPromise, SimulatedClock } from 'xstate'
import { NATIVE_TOKEN_ADDRESS, SIMULATION_TIMEOUT_MS } from '../../constants'
import {
  type FeeEstimate,
  type NonceReading,
  type SendRequest,
  type SendSimulation,
  type SendSimulationRequest,
  type SendTransactionRequest,
  selectSendStatus,
  sendMachine,
  type TokenBalance,
  type TokenOnChain,
} from '../send'
import { expectedOfSend } from './simulation'

/**
 * Issue 33 "See before you sign", the send flow: the send is simulated when the preview is shown, before confirm
 * can be sent; a simulation that disagrees with the preview blocks confirm with its reason; a node that cannot
 * simulate (unavailable, an error, no answer in time) shows the preview without the line and blocks nothing.
 */
const CHAIN = 'eip155:31337'
const USDC_ADDRESS = '0x5FbDB2315678afecb367f032d93F642f64180aa3' as Address
const ALICE = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266' as Address
const BOB = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' as Address
const USDC: TokenBalance = {
  name: 'USD Coin',
  symbol: 'USDC',
  chainId: CHAIN,
  address: `${CHAIN}:${USDC_ADDRESS}`,
  price: 1,
  quantity: { decimals: '6', numeric: '100' },
}
const ETH: TokenBalance = {
  name: 'Ether',
  symbol: 'ETH',
  chainId: CHAIN,
  price: 3000,
  quantity: { decimals: '18', numeric: '2' },
}
const FEE: FeeEstimate = {
  gas: '21000',
  maxFeePerGas: '1',
  maxPriorityFeePerGas: '1',
  fee: '21000',
  formatted: '0.000000000000021',
  symbol: 'ETH',
  decimals: 18,
}

function harness() {
  const simulations: {
    input: SendSimulationRequest
    resolve: (s: SendSimulation) => void
    reject: (e: unknown) => void
  }[] = []
  const sent: unknown[] = []
  const machine = sendMachine.provide({
    actors: {
      estimateFee: fromPromise<FeeEstimate, SendRequest>(async () => FEE),
      // The token's contract states what the listing says (the on-chain check passes).
      readTokenMetadata: fromPromise<TokenOnChain, { chainId: number; address: Address }>(
        async ({ input }) => ({ ...input, decimals: 6, symbol: 'USDC' }),
      ),
      readNonce: fromPromise<NonceReading, { chainId: number }>(async () => ({
        from: ALICE,
        nonce: 0,
        fromBlock: '1',
      })),
      simulate: fromPromise<SendSimulation, SendSimulationRequest>(
        ({ input }) => new Promise((resolve, reject) => simulations.push({ input, resolve, reject })),
      ),
      sendErc20: fromPromise<Hex, SendTransactionRequest & { token: Address }>(async ({ input }) => {
        sent.push(input)
        return new Promise<Hex>(() => {})
      }),
      sendNative: fromPromise<Hex, SendTransactionRequest>(async ({ input }) => {
        sent.push(input)
        return new Promise<Hex>(() => {})
      }),
    },
  })
  const clock = new SimulatedClock()
  const actor = createActor(machine, { input: { tokenBalances: [ETH, USDC] }, clock }).start()
  const flush = () => new Promise((resolve) => setTimeout(resolve, 0))
  const preview = async (token: TokenBalance, amount: string) => {
    actor.send({ type: 'send.setToken', token })
    actor.send({ type: 'send.setAmount', amount })
    actor.send({ type: 'send.setReceiver', receiverAddress: BOB })
    actor.send({ type: 'send.preview' })
    await flush()
  }
  return {
    actor,
    simulations,
    sent,
    clock,
    flush,
    preview,
    status: () => selectSendStatus(actor.getSnapshot()),
  }
}

const change = (token: Address, symbol: string, decimals: number, delta: bigint) => ({
  token,
  symbol,
  decimals,
  delta: delta.toString(),
})

describe('send: see before you sign', () => {
  it('simulates the send before confirm is offered, with the token as the preview names and scales it', async () => {
    const t = harness()
    await t.preview(USDC, '5')
    expect(t.status()).toBe('simulating')
    expect(t.actor.getSnapshot().can({ type: 'send.confirm' })).toBe(false)
    expect(t.simulations[0]?.input).toEqual({
      chainId: 31337,
      to: BOB,
      amount: 5_000_000n,
      token: USDC_ADDRESS,
      symbol: 'USDC',
      decimals: 6,
    })
  })

  it('agrees: ready, the changes kept for the preview, confirm sends', async () => {
    const t = harness()
    await t.preview(USDC, '5')
    const simulation: SendSimulation = {
      account: ALICE,
      result: { status: 'simulated', changes: [change(USDC_ADDRESS, 'USDC', 6, -5_000_000n)] },
    }
    t.simulations[0]?.resolve(simulation)
    await t.flush()
    expect(t.status()).toBe('ready')
    expect(t.actor.getSnapshot().context.simulation).toEqual(simulation)
    t.actor.send({ type: 'send.confirm' })
    await t.flush()
    expect(t.sent).toHaveLength(1)
  })

  // Guards the `simulationDisagrees` transition: on the old machine confirm went to the wallet whatever moved.
  it('disagrees (more leaving than shown, another token moving, a revert): confirm blocked, said, nothing sent', async () => {
    const cases: SendSimulation['result'][] = [
      { status: 'simulated', changes: [change(USDC_ADDRESS, 'USDC', 6, -50_000_000n)] },
      {
        status: 'simulated',
        changes: [
          change(USDC_ADDRESS, 'USDC', 6, -5_000_000n),
          change(NATIVE_TOKEN_ADDRESS as Address, 'ETH', 18, -(10n ** 18n)),
        ],
      },
      { status: 'reverted', callIndex: 0, reason: 'execution reverted' },
    ]
    for (const result of cases) {
      const t = harness()
      await t.preview(USDC, '5')
      t.simulations[0]?.resolve({ account: ALICE, result })
      await t.flush()
      expect(t.status()).toBe('disagrees')
      const snapshot = t.actor.getSnapshot()
      expect(snapshot.can({ type: 'send.confirm' })).toBe(false)
      expect(snapshot.hasTag('failed')).toBe(true)
      expect(snapshot.context.error?.name).toBe('SimulationDisagreementError')
      t.actor.send({ type: 'send.confirm' })
      await t.flush()
      expect(t.sent).toEqual([])
    }
  })

  it('the disagreement text names what the simulation found', async () => {
    const t = harness()
    await t.preview(USDC, '5')
    t.simulations[0]?.resolve({
      account: ALICE,
      result: { status: 'simulated', changes: [change(USDC_ADDRESS, 'USDC', 6, -50_000_000n)] },
    })
    await t.flush()
    expect(t.actor.getSnapshot().context.error?.message).toBe(
      'This transaction would take 50 USDC from your account, not the 5 USDC shown. Nothing was sent.',
    )
    // Try again simulates again (a fresh estimate, a fresh simulation).
    t.actor.send({ type: 'send.retry' })
    await t.flush()
    expect(t.status()).toBe('simulating')
    expect(t.actor.getSnapshot().context.simulation).toBeUndefined()
    expect(t.simulations).toHaveLength(2)
  })

  it('a node that cannot simulate (unavailable, an error, no answer in time): the preview without the line', async () => {
    const unavailable = harness()
    await unavailable.preview(ETH, '0.5')
    unavailable.simulations[0]?.resolve({
      account: ALICE,
      result: { status: 'unavailable', reason: 'no method' },
    })
    await unavailable.flush()
    expect(unavailable.status()).toBe('ready')

    const failing = harness()
    await failing.preview(ETH, '0.5')
    failing.simulations[0]?.reject(new Error('fetch failed'))
    await failing.flush()
    expect(failing.status()).toBe('ready')
    expect(failing.actor.getSnapshot().context.simulation).toBeUndefined()

    const silent = harness()
    await silent.preview(ETH, '0.5')
    silent.clock.increment(SIMULATION_TIMEOUT_MS)
    expect(silent.status()).toBe('ready')
    expect(silent.actor.getSnapshot().context.simulation).toBeUndefined()
    expect(silent.simulations[0]?.input.token).toBeUndefined()
  })
})

describe('expectedOfSend', () => {
  it('exactly the amount leaves; a send to oneself moves nothing', () => {
    const request = { chainId: 1, to: BOB, amount: 5n, token: USDC_ADDRESS, symbol: 'USDC', decimals: 6 }
    expect(expectedOfSend(request, ALICE)).toEqual({
      outflows: [{ token: USDC_ADDRESS, symbol: 'USDC', decimals: 6, amount: 5n }],
      inflows: [],
    })
    expect(expectedOfSend(request, BOB.toLowerCase() as Address)).toEqual({ outflows: [], inflows: [] })
    expect(expectedOfSend({ ...request, token: undefined }, ALICE).outflows[0]?.token).toBe(
      NATIVE_TOKEN_ADDRESS,
    )
  })
})
