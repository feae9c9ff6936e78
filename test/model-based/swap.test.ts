import type { Hex } from 'viem'
import { describe, expect, it } from 'vitest'
import { createActor, fromPromise, SimulatedClock, waitFor } from 'xstate'
import { SWAP_QUOTE_DEBOUNCE_MS } from '../../src/constants'
import { swapErrorInfo, toSwapError } from '../../src/errors/swap'
import {
  type SwapApproveRequest,
  type SwapNotice,
  type SwapQuoteRequest,
  type SwapReceipt,
  selectSwapAction,
  swapMachine,
  validateSwap,
} from '../../src/machines/swap'
import { assertCoverage, type ReplayResult, replayPath } from '../../src/testing'
import {
  ALICE,
  ETH,
  HASH,
  INPUT,
  invariant,
  LOW_GAS,
  model,
  never,
  QUOTE,
  short,
  TX,
  USDT,
} from './swap.model'

/** The swap machine's model (swap.model.ts): every path replayed, the invariants checked in every state. */
describe('swap machine, model-based', () => {
  it('has the expected number of covering paths (a change to the machine shows here)', () => {
    expect(model.paths.length).toBe(64)
  })

  for (const path of model.paths) {
    it(`replays ${short(path)}`, () => {
      replayPath(model, path, { invariant })
    })
  }

  it('reaches every state and takes every transition of the machine (replaying every path itself)', () => {
    const results: ReplayResult[] = model.paths.map((path) => replayPath(model, path, { invariant }))
    expect(results).toHaveLength(64)
    assertCoverage(model, results)
  })
})

/** The machine with fakes that answer, on a simulated clock; the slots' calls recorded. */
function start(options: {
  allowance?: string
  receipt?: SwapReceipt['status']
  sendTransaction?: () => Promise<Hex>
}) {
  const calls = { quotes: [] as SwapQuoteRequest[], approvals: [] as SwapApproveRequest[], swaps: 0 }
  const notices: SwapNotice[] = []
  const clock = new SimulatedClock()
  const machine = swapMachine.provide({
    actors: {
      fetchTokens: fromPromise(async () => [USDT, ETH]),
      fetchQuote: fromPromise(async ({ input }: { input: SwapQuoteRequest }) => {
        calls.quotes.push(input)
        return QUOTE
      }),
      fetchAllowance: fromPromise(async () => options.allowance ?? '0'),
      buildApprove: fromPromise(async ({ input }: { input: SwapApproveRequest }) => {
        calls.approvals.push(input)
        return TX
      }),
      buildSwap: fromPromise(async () => {
        calls.swaps++
        return TX
      }),
      sendTransaction: fromPromise(options.sendTransaction ?? (async () => HASH)),
      waitForReceipt: fromPromise(async () => ({ status: options.receipt ?? 'success', blockNumber: '1' })),
      pollReceipt: fromPromise(never<SwapReceipt>),
    },
  })
  const actor = createActor(machine, { input: INPUT, clock })
  actor.on('*', (notice) => notices.push(notice as SwapNotice))
  actor.start()
  return { actor, clock, calls, notices }
}

/** Types an amount and waits for its quote. */
async function quoted(run: ReturnType<typeof start>, amount = '10') {
  await waitFor(run.actor, (s) => s.matches('form'))
  run.actor.send({ type: 'swap.setAmount', amount })
  run.clock.increment(SWAP_QUOTE_DEBOUNCE_MS)
  await waitFor(run.actor, (s) => s.matches({ form: 'quoted' }))
}

describe('swap errors', () => {
  it("recognises the SPEC §8 texts and the wallet's refusal, else names the stage", () => {
    const wrapped = (message: string) => new Error('request failed', { cause: new Error(message) })
    expect(toSwapError(wrapped('Network not supported for Swaps'), 'quote').shortMessage).toBe(
      'Network not supported for Swaps',
    )
    expect(toSwapError(wrapped('Network not supported for Gas Price'), 'quote').shortMessage).toBe(
      'Network not supported for Gas Price',
    )
    expect(swapErrorInfo({ code: 4001, message: 'User rejected the request.' }, 'send')).toEqual({
      name: 'SwapRejectedError',
      message: 'Transaction declined in the wallet.',
      code: 4001,
    })
    expect(toSwapError(new Error('HTTP 500'), 'quote').name).toBe('SwapQuoteError')
    expect(toSwapError(new Error('HTTP 500'), 'allowance').name).toBe('SwapAllowanceError')
    expect(toSwapError(new Error('HTTP 500'), 'build').name).toBe('SwapBuildError')
  })
})

describe('swap machine, behavior', () => {
  it('coalesces typing into one quote after the debounce', async () => {
    const run = start({})
    await waitFor(run.actor, (s) => s.matches('form'))
    for (const amount of ['1', '10', '10.', '10.5']) {
      run.actor.send({ type: 'swap.setAmount', amount })
      run.clock.increment(SWAP_QUOTE_DEBOUNCE_MS - 1)
    }
    expect(run.calls.quotes).toHaveLength(0)
    run.clock.increment(1)
    await waitFor(run.actor, (s) => s.matches({ form: 'quoted' }))
    expect(run.calls.quotes).toEqual([
      { chainId: 1, userAddress: ALICE, from: USDT.address, to: ETH.address, amount: '10500000' },
    ])
  })

  it('approves to zero first when a smaller allowance is in the way (USDT), then the amount, then swaps', async () => {
    const run = start({ allowance: '1000000' })
    await quoted(run)
    run.actor.send({ type: 'swap.review' })
    await waitFor(run.actor, (s) => s.matches({ preview: 'ready' }))
    expect(selectSwapAction(run.actor.getSnapshot())).toBe('Approve')
    run.actor.send({ type: 'swap.confirm' })
    await waitFor(run.actor, (s) => s.matches('done'))
    expect(run.calls.approvals.map((a) => a.amount)).toEqual(['0', '10000000'])
    expect(run.calls.swaps).toBe(1)
    expect(run.notices.map((n) => n.type)).toEqual([
      'swap.previewing',
      'swap.submitted',
      'swap.submitted',
      'swap.submitted',
      'swap.succeeded',
    ])
    expect(run.notices.at(-1)).toMatchObject({
      from: 'USDT',
      to: 'ETH',
      fromAmount: '10',
      toAmount: '0.004',
      message: 'Swapped 10 USDT for 0.004 ETH',
    })
    // The pair stays for the next swap; the amount goes.
    expect(run.actor.getSnapshot().context).toMatchObject({ from: USDT, to: ETH, amount: '' })
  })

  it('swaps without approving when the allowance covers the amount', async () => {
    const run = start({ allowance: '10000000' })
    await quoted(run)
    run.actor.send({ type: 'swap.review' })
    await waitFor(run.actor, (s) => s.matches({ preview: 'ready' }))
    expect(selectSwapAction(run.actor.getSnapshot())).toBe('Swap')
    run.actor.send({ type: 'swap.confirm' })
    await waitFor(run.actor, (s) => s.matches('done'))
    expect(run.calls.approvals).toHaveLength(0)
  })

  it('blocks review on an insufficient balance of the token paid', async () => {
    const run = start({})
    await quoted(run, '500')
    expect(validateSwap(run.actor.getSnapshot().context)?.name).toBe('SwapInsufficientBalanceError')
    run.actor.send({ type: 'swap.review' })
    const snapshot = run.actor.getSnapshot()
    expect(snapshot.matches({ form: 'quoted' })).toBe(true)
    expect(snapshot.context.error).toMatchObject({
      name: 'SwapInsufficientBalanceError',
      message: 'Insufficient balance',
    })
  })

  it('blocks review when the native balance cannot pay the gas', async () => {
    const run = start({})
    await quoted(run)
    run.actor.send({ type: 'swap.setBalances', balances: LOW_GAS })
    run.actor.send({ type: 'swap.review' })
    expect(run.actor.getSnapshot().context.error?.name).toBe('SwapInsufficientGasError')
  })

  it('keeps the pair and amount when the swap reverts (the quote moved past the slippage)', async () => {
    const run = start({ allowance: '10000000', receipt: 'reverted' })
    await quoted(run)
    run.actor.send({ type: 'swap.review' })
    await waitFor(run.actor, (s) => s.matches({ preview: 'ready' }))
    run.actor.send({ type: 'swap.confirm' })
    await waitFor(run.actor, (s) => s.matches('failed'))
    const { context } = run.actor.getSnapshot()
    expect(context.error?.name).toBe('SwapRevertedError')
    expect(context).toMatchObject({ from: USDT, to: ETH, amount: '10' })
    expect(run.notices.at(-1)).toMatchObject({ type: 'swap.failed', hash: HASH })
    run.actor.send({ type: 'swap.retry' })
    await waitFor(run.actor, (s) => s.matches({ form: 'quoted' }))
    expect(run.calls.quotes).toHaveLength(2)
  })

  it('returns to the preview when the approval is cancelled in the wallet step', async () => {
    const run = start({ allowance: '0', sendTransaction: never<Hex> })
    await quoted(run)
    run.actor.send({ type: 'swap.review' })
    await waitFor(run.actor, (s) => s.matches({ preview: 'ready' }))
    run.actor.send({ type: 'swap.confirm' })
    await waitFor(run.actor, (s) => s.matches({ approving: 'sending' }))
    run.actor.send({ type: 'swap.cancel' })
    const snapshot = await waitFor(run.actor, (s) => s.matches({ preview: 'ready' }))
    expect(snapshot.context).toMatchObject({ from: USDT, to: ETH, amount: '10' })
    expect(snapshot.context.error).toBeUndefined()
  })

  it('times out a wallet that never answers, with the SPEC alert', async () => {
    const run = start({ allowance: '10000000', sendTransaction: never<Hex> })
    await quoted(run)
    run.actor.send({ type: 'swap.review' })
    await waitFor(run.actor, (s) => s.matches({ preview: 'ready' }))
    run.actor.send({ type: 'swap.confirm' })
    await waitFor(run.actor, (s) => s.matches({ swapping: 'sending' }))
    run.clock.increment(120_000)
    expect(run.actor.getSnapshot().context.error?.name).toBe('SwapTimeoutError')
    expect(run.notices.map((n) => n.type)).toContain('request.timedOut')
  })
})
