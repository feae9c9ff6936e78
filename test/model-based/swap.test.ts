import { type Address, encodeFunctionData, erc20Abi, type Hex } from 'viem'
import { describe, expect, it } from 'vitest'
import type { Config } from 'wagmi'
import { createActor, fromPromise, SimulatedClock, waitFor } from 'xstate'
import { createSwapActors } from '../../src/actors/swap'
import type { ConvertClient } from '../../src/api/convert'
import { swapRouterAbi } from '../../src/chains/eip155/swapRouter'
import {
  CALLS_CAPABILITIES_TIMEOUT_MS,
  SEND_REQUEST_TIMEOUT_MS,
  SWAP_DEADLINE_MAX_S,
  SWAP_EXPIRY_MARGIN_MS,
  SWAP_QUOTE_DEBOUNCE_MS,
  SWAP_QUOTE_REFRESH_MS,
} from '../../src/constants'
import { SwapQuoteExpiredError, swapErrorInfo, toSwapError } from '../../src/errors/swap'
import type { SendCallsRequest } from '../../src/machines/calls/batch'
import type { AtomicStatus, CallsStatus } from '../../src/machines/calls/types'
import {
  minimumOut,
  type SwapApproveRequest,
  type SwapBuildRequest,
  type SwapNotice,
  type SwapQuote,
  type SwapQuoteRequest,
  type SwapReceipt,
  type SwapSendRequest,
  type SwapSimulation,
  type SwapSimulationRequest,
  type SwapTransaction,
  selectSwapAction,
  selectSwapProgress,
  selectSwapStatus,
  swapMachine,
  swapSimulatedChanges,
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
  SOLANA_INPUT,
  SOLANA_QUOTE,
  short,
  solanaModel,
  USDT,
} from './swap.model'

/** The swap machine's model (swap.model.ts): every path replayed, the invariants checked in every state. */
describe('swap machine, model-based', () => {
  it('has the expected number of covering paths (a change to the machine shows here)', () => {
    expect(model.paths.length).toBe(81)
  })

  for (const path of model.paths) {
    it(`replays ${short(path)}`, () => {
      replayPath(model, path, { invariant })
    })
  }

  it('has the expected number of covering paths on Solana (the maker path)', () => {
    expect(solanaModel.paths.length).toBe(46)
  })

  for (const path of solanaModel.paths) {
    it(`replays on Solana ${short(path)}`, () => {
      replayPath(solanaModel, path, { invariant })
    })
  }

  it('reaches every state and takes every transition of the machine (replaying every path itself)', () => {
    const results: ReplayResult[] = model.paths.map((path) => replayPath(model, path, { invariant }))
    expect(results).toHaveLength(81)
    // The Solana paths take the transitions only a Solana swap can (no allowance, a quote past its window).
    const solana = solanaModel.paths.map((path) => replayPath(solanaModel, path, { invariant }))
    assertCoverage(model, [...results, ...solana])
  })
})

const ROUTER: Address = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
const MALLORY: Address = '0x000000000000000000000000000000000000bad0'
/** The kit's clock for the build check (ms), and the deadline an honest build sets: 20 minutes on. */
const NOW_MS = 1_800_000_000_000
const DEADLINE = BigInt(NOW_MS / 1000 + 1200)

/** An honest convert API: approve(router, amount) on the token paid; the router's swap as the preview shows it. */
const honest = {
  approve: (input: SwapApproveRequest): SwapTransaction => ({
    to: input.from as Address,
    data: encodeFunctionData({
      abi: erc20Abi,
      functionName: 'approve',
      args: [ROUTER, BigInt(input.amount)],
    }),
    value: '0',
  }),
  swap: (input: SwapBuildRequest): SwapTransaction => ({
    to: ROUTER,
    data: encodeFunctionData({
      abi: swapRouterAbi,
      functionName: 'swapExactIn',
      args: [
        input.from as Address,
        input.to as Address,
        BigInt(input.amount),
        minimumOut(QUOTE.toAmount, input.slippage),
        input.userAddress as Address,
        DEADLINE,
      ],
    }),
    value: input.from === ETH.address ? input.amount : '0',
  }),
}

/**
 * The machine with fakes that answer, on a simulated clock; the slots' calls recorded. The build check is the
 * kit's own (src/actors/swap.ts over src/chains/eip155/swapBuildCheck.ts), with the router allow-list.
 */
function start(options: {
  allowance?: string
  receipt?: SwapReceipt['status']
  sendTransaction?: () => Promise<Hex>
  buildApprove?: (input: SwapApproveRequest) => SwapTransaction
  buildSwap?: (input: SwapBuildRequest) => SwapTransaction
  /** Default: a node that cannot simulate. */
  simulate?: (input: SwapSimulationRequest) => SwapSimulation
  /** The wallet's atomic batching on the chain. Default: it has no `wallet_getCapabilities`. */
  capabilities?: () => Promise<AtomicStatus>
  /** The batch's final status. Default: confirmed, one receipt. */
  batchStatus?: CallsStatus
  /** Reads the batch's status (default: `batchStatus`). */
  callsStatus?: () => Promise<CallsStatus>
  sendCalls?: () => Promise<string>
}) {
  const calls = {
    quotes: [] as SwapQuoteRequest[],
    approvals: [] as SwapApproveRequest[],
    swaps: 0,
    sent: [] as SwapSendRequest[],
    simulated: [] as SwapSimulationRequest[],
    capabilities: [] as unknown[],
    batches: [] as SendCallsRequest[],
  }
  const notices: SwapNotice[] = []
  const clock = new SimulatedClock()
  const real = createSwapActors({
    wagmi: {} as Config,
    convert: {} as ConvertClient,
    routers: { 'eip155:1': ROUTER },
    now: () => NOW_MS,
  })
  const send = options.sendTransaction ?? (async () => HASH)
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
        return (options.buildApprove ?? honest.approve)(input)
      }),
      buildSwap: fromPromise(async ({ input }: { input: SwapBuildRequest }) => {
        calls.swaps++
        return (options.buildSwap ?? honest.swap)(input)
      }),
      checkBuild: real.checkBuild,
      simulate: fromPromise(async ({ input }: { input: SwapSimulationRequest }) => {
        calls.simulated.push(input)
        if (!options.simulate) throw new Error('eth_simulateV1 is not supported')
        return options.simulate(input)
      }),
      sendTransaction: fromPromise(async ({ input }: { input: SwapSendRequest }) => {
        calls.sent.push(input)
        return send()
      }),
      waitForReceipt: fromPromise(async () => ({ status: options.receipt ?? 'success', blockNumber: '1' })),
      pollReceipt: fromPromise(never<SwapReceipt>),
      capabilities: fromPromise(async ({ input }) => {
        calls.capabilities.push(input)
        if (!options.capabilities) throw new Error('wallet_getCapabilities: method not found')
        return options.capabilities()
      }),
      sendCalls: fromPromise(async ({ input }: { input: SendCallsRequest }) => {
        calls.batches.push(input)
        return (options.sendCalls ?? (async () => 'batch-1'))()
      }),
      callsStatus: fromPromise(
        async (): Promise<CallsStatus> =>
          (await options.callsStatus?.()) ??
          options.batchStatus ?? {
            status: 'success',
            atomic: true,
            receipts: [{ transactionHash: HASH, blockNumber: '16', status: 'success' }],
          },
      ),
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

/** Reviews 10 USDT → ETH and waits for the preview to settle: ready, or refused. */
async function reviewed(run: ReturnType<typeof start>) {
  await quoted(run)
  run.actor.send({ type: 'swap.review' })
  return waitFor(run.actor, (s) => s.matches({ preview: 'ready' }) || s.matches('failed'))
}

/*
 * Guards "every transaction the kit builds from the convert API's answer is decoded and checked before a wallet
 * sees it": before, the preview offered Approve/Swap with nothing built, and the builds of build-approve and
 * build-transaction went to `sendTransaction` unread (src/machines/swap.ts approving.building/swapping.building).
 */
describe('swap machine, the build checked before the wallet', () => {
  it('builds and checks the approval and the swap before the preview is ready; confirm sends exactly those', async () => {
    const run = start({ allowance: '0' })
    const ready = await reviewed(run)
    expect(ready.matches({ preview: 'ready' })).toBe(true)
    expect(run.calls.approvals.map((a) => a.amount)).toEqual(['10000000'])
    expect(run.calls.swaps).toBe(1)
    const prepared = ready.context.prepared!
    run.actor.send({ type: 'swap.confirm' })
    await waitFor(run.actor, (s) => s.matches('done'))
    expect(run.calls.sent.map(({ to, data, value }) => ({ to, data, value }))).toEqual([
      prepared.approvals[0]!.transaction,
      prepared.swap,
    ])
    // Nothing was built again on the way: the wallet got the transactions the check passed.
    expect(run.calls.swaps).toBe(1)
  })

  it('refuses an approval for another spender: failed.refused with a named error, and the wallet is never asked', async () => {
    const run = start({
      allowance: '0',
      buildApprove: (input) => ({
        ...honest.approve(input),
        data: encodeFunctionData({
          abi: erc20Abi,
          functionName: 'approve',
          args: [MALLORY, 2n ** 256n - 1n],
        }),
      }),
    })
    const refused = await reviewed(run)
    expect(refused.matches({ failed: 'refused' })).toBe(true)
    expect(refused.context.error).toMatchObject({
      name: 'SwapBuildMismatchError',
      message:
        'The swap service prepared a transaction that does not match your swap, so it was not sent to your wallet.',
    })
    expect(refused.can({ type: 'swap.confirm' })).toBe(false)
    expect(run.calls.sent).toEqual([])
    expect(run.notices.at(-1)).toMatchObject({ type: 'swap.failed' })
  })

  it('refuses a swap to another contract with extra value and no least amount out; nothing is sent', async () => {
    const run = start({
      allowance: '10000000',
      buildSwap: (input) => ({
        to: MALLORY,
        data: encodeFunctionData({
          abi: swapRouterAbi,
          functionName: 'swapExactIn',
          args: [
            input.from as Address,
            input.to as Address,
            BigInt(input.amount),
            0n,
            input.userAddress as Address,
            DEADLINE,
          ],
        }),
        value: '7000000000000000000',
      }),
    })
    const refused = await reviewed(run)
    expect(refused.matches({ failed: 'refused' })).toBe(true)
    expect(run.calls.sent).toEqual([])
    // Try again quotes and builds afresh (and the same hostile build is refused again).
    run.actor.send({ type: 'swap.retry' })
    await waitFor(run.actor, (s) => s.matches({ form: 'quoted' }))
    run.actor.send({ type: 'swap.review' })
    await waitFor(run.actor, (s) => s.matches({ failed: 'refused' }))
    expect(run.calls.swaps).toBe(2)
    expect(run.calls.sent).toEqual([])
  })

  it('a refreshed quote is built and checked again before the preview is ready again', async () => {
    const run = start({ allowance: '10000000' })
    await reviewed(run)
    expect(run.calls.swaps).toBe(1)
    run.clock.increment(SWAP_QUOTE_REFRESH_MS)
    await waitFor(run.actor, (s) => s.matches({ preview: 'ready' }) && run.calls.swaps === 2)
    expect(run.calls.quotes).toHaveLength(2)
  })

  it('a new slippage is another least amount out: the swap is built and checked again', async () => {
    const run = start({ allowance: '10000000' })
    await reviewed(run)
    run.actor.send({ type: 'swap.setSlippage', slippage: 0.5 })
    const ready = await waitFor(run.actor, (s) => s.matches({ preview: 'ready' }) && run.calls.swaps === 2)
    expect(ready.context.slippage).toBe(0.5)
  })
})

/*
 * Guards "one payment, one transaction" for the swap: before, Cancel was accepted while the wallet held the swap
 * (swapping.sending), and the send time limit led to failed.retryable, whose Try again asked for a second swap
 * while the first was still live in the wallet.
 */
describe('swap machine, one swap asked for at a time', () => {
  it('offers no cancel once the wallet holds the swap', async () => {
    const run = start({ allowance: '10000000', sendTransaction: never<Hex> })
    await reviewed(run)
    run.actor.send({ type: 'swap.confirm' })
    const sending = await waitFor(run.actor, (s) => s.matches({ swapping: 'sending' }))
    expect(sending.can({ type: 'swap.cancel' })).toBe(false)
    run.actor.send({ type: 'swap.cancel' })
    expect(run.actor.getSnapshot().matches({ swapping: 'sending' })).toBe(true)
  })

  it('past the time limit the swap is still awaited (overdue), never asked for twice, until it expires', async () => {
    const run = start({ allowance: '10000000', sendTransaction: never<Hex> })
    await reviewed(run)
    run.actor.send({ type: 'swap.confirm' })
    await waitFor(run.actor, (s) => s.matches({ swapping: 'sending' }))
    run.clock.increment(SEND_REQUEST_TIMEOUT_MS)
    const overdue = run.actor.getSnapshot()
    expect(overdue.matches({ swapping: { sending: 'overdue' } })).toBe(true)
    expect(overdue.context.error?.name).toBe('SwapTimeoutError')
    expect(run.notices.map((n) => n.type)).toContain('request.timedOut')
    expect(selectSwapProgress(overdue)).toMatch(/not answered yet.*will not be asked for twice/)
    for (const type of ['swap.retry', 'swap.confirm', 'swap.cancel', 'swap.back'] as const)
      expect(overdue.can({ type })).toBe(false)
    // Until the swap held is past its deadline (bounded by the check), nothing else may be asked for.
    run.clock.increment(SWAP_DEADLINE_MAX_S * 1000 + SWAP_EXPIRY_MARGIN_MS - SEND_REQUEST_TIMEOUT_MS - 1)
    expect(run.actor.getSnapshot().matches({ swapping: { sending: 'overdue' } })).toBe(true)
    run.clock.increment(SEND_REQUEST_TIMEOUT_MS + 1)
    const expired = run.actor.getSnapshot()
    expect(expired.matches({ failed: 'retryable' })).toBe(true)
    expect(expired.context.error?.name).toBe('SwapRequestExpiredError')
    expect(run.calls.sent).toHaveLength(1)
  })

  it('a late answer from the wallet while overdue is followed as usual', async () => {
    let answer: (hash: Hex) => void = () => {}
    const run = start({
      allowance: '10000000',
      sendTransaction: () => new Promise<Hex>((resolve) => (answer = resolve)),
    })
    await reviewed(run)
    run.actor.send({ type: 'swap.confirm' })
    await waitFor(run.actor, (s) => s.matches({ swapping: 'sending' }))
    run.clock.increment(SEND_REQUEST_TIMEOUT_MS)
    expect(run.actor.getSnapshot().matches({ swapping: { sending: 'overdue' } })).toBe(true)
    answer(HASH)
    await waitFor(run.actor, (s) => s.matches('done'))
    expect(run.calls.sent).toHaveLength(1)
  })
})

/*
 * Guards "see before you sign" for the swap: before, the preview offered Approve/Swap with nothing simulated; a
 * build that would move other amounts than the preview shows reached the wallet.
 */
describe('swap machine, the checked build simulated before the wallet', () => {
  const changes = (usdt: string, eth: string): SwapSimulation => ({
    account: ALICE,
    result: {
      status: 'simulated',
      changes: [
        { token: USDT.address as Address, symbol: 'USDT', decimals: 6, delta: usdt },
        { token: ETH.address as Address, symbol: 'ETH', decimals: 18, delta: eth },
      ],
    },
  })

  it('simulates the checked approval, then the swap, from the account; an agreeing result is kept for the preview', async () => {
    const run = start({ allowance: '0', simulate: () => changes('-10000000', QUOTE.toAmount) })
    const ready = await reviewed(run)
    expect(ready.matches({ preview: 'ready' })).toBe(true)
    const prepared = ready.context.prepared!
    expect(run.calls.simulated).toEqual([
      {
        chainId: 1,
        account: ALICE,
        calls: [prepared.approvals[0]!.transaction, prepared.swap],
        tokens: [
          { address: USDT.address, symbol: 'USDT', decimals: 6 },
          { address: ETH.address, symbol: 'ETH', decimals: 18 },
        ],
      },
    ])
    expect(swapSimulatedChanges(ready.context.simulation)?.map((c) => c.delta)).toEqual([
      -10_000_000n,
      4_000_000_000_000_000n,
    ])
  })

  it('blocks confirm when more leaves than the preview shows, or less arrives than its least amount', async () => {
    for (const simulation of [changes('-100000000', QUOTE.toAmount), changes('-10000000', '1')]) {
      const run = start({ allowance: '10000000', simulate: () => simulation })
      await quoted(run)
      run.actor.send({ type: 'swap.review' })
      const blocked = await waitFor(run.actor, (s) => s.matches({ preview: 'disagrees' }))
      expect(blocked.context.error?.name).toBe('SimulationDisagreementError')
      expect(blocked.can({ type: 'swap.confirm' })).toBe(false)
      run.actor.send({ type: 'swap.confirm' })
      expect(run.calls.sent).toEqual([])
    }
  })

  it('a node that cannot simulate: the preview is offered without a line, never a guessed one', async () => {
    const run = start({ allowance: '10000000' })
    const ready = await reviewed(run)
    expect(ready.matches({ preview: 'ready' })).toBe(true)
    expect(ready.context.simulation).toBeUndefined()
    expect(swapSimulatedChanges(ready.context.simulation)).toBeUndefined()
  })
})

/*
 * Guards "swap's approve + swap in one confirmation where the wallet batches atomically" (EIP-5792): the checked
 * approvals and swap, exactly as simulated, go to the wallet as one atomic batch, followed to its final status;
 * without atomic batching, or no answer, the two steps are unchanged.
 */
describe('swap machine, the approval and the swap in one confirmation', () => {
  it('a batch whose status cannot be read by its deadline: unconfirmed (outcome unknown), no new swap offered; "Check again" reads that batch, never sends another', async () => {
    let reads = 0
    let answer: CallsStatus | undefined
    const run = start({
      allowance: '0',
      capabilities: async () => 'supported',
      callsStatus: async () => {
        reads++
        if (answer) return answer
        throw new Error('fetch failed')
      },
    })
    const ready = await reviewed(run)
    run.actor.send({ type: 'swap.confirm' })
    await waitFor(run.actor, (s) => s.matches({ confirmingBatch: 'confirming' }))
    await waitFor(run.actor, () => reads > 0)
    // A failed read is not the batch's end: still confirming, no retry offered.
    expect(run.actor.getSnapshot().matches({ confirmingBatch: 'confirming' })).toBe(true)
    expect(run.actor.getSnapshot().can({ type: 'swap.retry' })).toBe(false)
    run.clock.increment(ready.context.prepared!.validForMs + SWAP_EXPIRY_MARGIN_MS)
    const unconfirmed = await waitFor(run.actor, (s) => s.matches({ failed: 'unconfirmed' }))
    expect(unconfirmed.context.error).toMatchObject({
      name: 'CallsOutcomeUnknownError',
      details: expect.stringContaining('Batch batch-1: '),
    })
    expect(unconfirmed.context.batchId).toBe('batch-1')
    expect(selectSwapStatus(unconfirmed)).toBe('unconfirmed')
    answer = {
      status: 'success',
      atomic: true,
      receipts: [{ transactionHash: HASH, blockNumber: '16', status: 'success' }],
    }
    run.actor.send({ type: 'swap.retry' })
    const done = await waitFor(run.actor, (s) => s.matches('done'))
    expect(done.context).toMatchObject({ hash: HASH, hashKind: 'swap' })
    expect(run.calls.batches).toHaveLength(1)
    expect(run.calls.sent).toEqual([])
  })

  for (const atomic of ['supported', 'ready'] as const)
    it(`a wallet whose atomic batching is '${atomic}': one batch of the checked approval and swap, atomic required`, async () => {
      const run = start({ allowance: '0', capabilities: async () => atomic })
      const ready = await reviewed(run)
      const prepared = ready.context.prepared!
      run.actor.send({ type: 'swap.confirm' })
      const done = await waitFor(run.actor, (s) => s.matches('done'))
      expect(run.calls.capabilities).toEqual([{ address: ALICE, chainId: 1 }])
      const asBatch = (tx: SwapTransaction) => ({
        to: tx.to,
        data: tx.data,
        value: `0x${BigInt(tx.value).toString(16)}`,
      })
      expect(run.calls.batches).toEqual([
        {
          calls: [asBatch(prepared.approvals[0]!.transaction), asBatch(prepared.swap)],
          chainId: 1,
          atomicRequired: true,
        },
      ])
      // The batch is the simulated calls, in their order; no transaction was sent on its own.
      expect(run.calls.simulated[0]!.calls.map(asBatch)).toEqual(run.calls.batches[0]!.calls)
      expect(run.calls.sent).toEqual([])
      expect(done.context).toMatchObject({ hash: HASH, hashKind: 'swap', amount: '' })
      expect(run.notices.map((n) => n.type)).toEqual(['swap.previewing', 'swap.succeeded'])
    })

  it('USDT-style: the reset to zero, the approval and the swap in one batch, in that order', async () => {
    const run = start({ allowance: '1000000', capabilities: async () => 'supported' })
    await reviewed(run)
    run.actor.send({ type: 'swap.confirm' })
    await waitFor(run.actor, (s) => s.matches('done'))
    expect(run.calls.batches).toHaveLength(1)
    expect(run.calls.batches[0]!.calls).toHaveLength(3)
    expect(run.calls.approvals.map((a) => a.amount)).toEqual(['0', '10000000'])
    expect(run.calls.sent).toEqual([])
  })

  it("a wallet without atomic batching ('unsupported'): the two steps, unchanged", async () => {
    const run = start({ allowance: '0', capabilities: async () => 'unsupported' })
    const ready = await reviewed(run)
    run.actor.send({ type: 'swap.confirm' })
    await waitFor(run.actor, (s) => s.matches('done'))
    expect(run.calls.capabilities).toHaveLength(1)
    expect(run.calls.batches).toEqual([])
    expect(run.calls.sent.map((tx) => tx.kind)).toEqual(['approve', 'swap'])
    expect(run.calls.sent.map(({ to, data }) => ({ to, data }))).toEqual([
      {
        to: ready.context.prepared!.approvals[0]!.transaction.to,
        data: ready.context.prepared!.approvals[0]!.transaction.data,
      },
      { to: ready.context.prepared!.swap.to, data: ready.context.prepared!.swap.data },
    ])
  })

  it('a wallet that never says what it supports: the two steps once its time is up', async () => {
    const run = start({ allowance: '0', capabilities: never<AtomicStatus> })
    await reviewed(run)
    run.actor.send({ type: 'swap.confirm' })
    const checking = await waitFor(run.actor, (s) => s.matches('readingCapabilities'))
    expect(selectSwapProgress(checking)).toBe('Checking your wallet…')
    expect(run.calls.sent).toEqual([])
    run.clock.increment(CALLS_CAPABILITIES_TIMEOUT_MS)
    await waitFor(run.actor, (s) => s.matches('done'))
    expect(run.calls.batches).toEqual([])
    expect(run.calls.sent.map((tx) => tx.kind)).toEqual(['approve', 'swap'])
  })

  it('no approval due: the swap alone, the wallet not asked for its capabilities', async () => {
    const run = start({ allowance: '10000000', capabilities: async () => 'supported' })
    await reviewed(run)
    run.actor.send({ type: 'swap.confirm' })
    await waitFor(run.actor, (s) => s.matches('done'))
    expect(run.calls.capabilities).toEqual([])
    expect(run.calls.batches).toEqual([])
    expect(run.calls.sent.map((tx) => tx.kind)).toEqual(['swap'])
  })

  it('the wallet holds the batch: one confirmation asked for, no cancel; declined ends retryable with the calls error', async () => {
    let decline: (error: unknown) => void = () => {}
    const run = start({
      allowance: '0',
      capabilities: async () => 'supported',
      sendCalls: () => new Promise<string>((_, reject) => (decline = reject)),
    })
    await reviewed(run)
    run.actor.send({ type: 'swap.confirm' })
    const asking = await waitFor(run.actor, (s) => s.matches({ confirmingBatch: 'sending' }))
    expect(selectSwapProgress(asking)).toBe(
      'Confirm the approval and the swap in your wallet (one confirmation)…',
    )
    expect(asking.can({ type: 'swap.cancel' })).toBe(false)
    decline(Object.assign(new Error('User rejected the request.'), { code: 4001 }))
    const failed = await waitFor(run.actor, (s) => s.matches('failed'))
    expect(failed.matches({ failed: 'retryable' })).toBe(true)
    expect(failed.context.error).toMatchObject({
      name: 'CallsFailedError',
      message: 'The batch was declined in the wallet',
      code: 4001,
    })
    expect(run.calls.batches).toHaveLength(1)
    expect(run.calls.sent).toEqual([])
  })

  it('a batch that reverts: failed, with how many calls reverted; the form kept', async () => {
    const run = start({
      allowance: '0',
      capabilities: async () => 'supported',
      batchStatus: {
        status: 'failure',
        atomic: true,
        receipts: [{ transactionHash: HASH, blockNumber: '16', status: 'reverted' }],
      },
    })
    await reviewed(run)
    run.actor.send({ type: 'swap.confirm' })
    const failed = await waitFor(run.actor, (s) => s.matches('failed'))
    expect(failed.context.error).toMatchObject({
      name: 'CallsFailedError',
      details: '1 of 2 calls reverted or were not sent',
    })
    expect(failed.context).toMatchObject({ from: USDT, to: ETH, amount: '10' })
  })
})

describe('swap machine on Solana (a maker fills the quote)', () => {
  /** The chart with Solana's slots faked: the maker's quote and build, the check passing, the wallet answering. */
  function startSolana(options: { expired?: boolean } = {}) {
    const calls = {
      quotes: 0,
      builds: [] as SwapBuildRequest[],
      sent: [] as SwapSendRequest[],
      allowances: 0,
    }
    const clock = new SimulatedClock()
    const tx: SwapTransaction = {
      to: '0x',
      data: '0x',
      value: '0',
      solana: {
        transaction: 'AQID',
        maker: SOLANA_QUOTE.maker!,
        feePayer: SOLANA_INPUT.userAddress,
        fee: '10000',
      },
    }
    const machine = swapMachine.provide({
      actors: {
        fetchTokens: fromPromise(async () => [SOLANA_INPUT.from, SOLANA_INPUT.to]),
        fetchQuote: fromPromise(async (): Promise<SwapQuote> => {
          calls.quotes++
          return { ...SOLANA_QUOTE, id: `quote-${calls.quotes}` }
        }),
        fetchAllowance: fromPromise(async () => {
          calls.allowances++
          return '0'
        }),
        buildSwap: fromPromise(async ({ input }: { input: SwapBuildRequest }) => {
          calls.builds.push(input)
          if (options.expired && calls.builds.length === 1) throw new SwapQuoteExpiredError()
          return tx
        }),
        checkBuild: fromPromise(async ({ input }) => ({ approvals: [], swap: input.swap, validForMs: 0 })),
        simulate: fromPromise(async (): Promise<SwapSimulation> => {
          throw new Error('Solana swaps are checked, not simulated')
        }),
        sendTransaction: fromPromise(async ({ input }: { input: SwapSendRequest }) => {
          calls.sent.push(input)
          return 'signature'.padEnd(88, '1') as Hex
        }),
        waitForReceipt: fromPromise(async (): Promise<SwapReceipt> => {
          throw new Error('a Solana swap reads no receipt')
        }),
      },
    })
    const actor = createActor(machine, { input: SOLANA_INPUT, clock }).start()
    return { actor, clock, calls }
  }

  it('builds the quote by its id, asks no allowance, and ends with the wallet’s answer (no receipt read)', async () => {
    const run = startSolana()
    await waitFor(run.actor, (s) => s.matches('form'))
    run.actor.send({ type: 'swap.setAmount', amount: '10' })
    run.clock.increment(SWAP_QUOTE_DEBOUNCE_MS)
    await waitFor(run.actor, (s) => s.matches({ form: 'quoted' }))
    run.actor.send({ type: 'swap.review' })
    await waitFor(run.actor, (s) => s.matches({ preview: 'ready' }))
    expect(run.calls.allowances).toBe(0)
    expect(run.calls.builds[0]).toMatchObject({ quoteId: 'quote-1', amount: '10000000' })
    run.actor.send({ type: 'swap.confirm' })
    const done = await waitFor(run.actor, (s) => s.matches('done'))
    expect(run.calls.sent).toHaveLength(1)
    expect(run.calls.sent[0]).toMatchObject({
      chainId: SOLANA_INPUT.chainId,
      connectorId: SOLANA_INPUT.connectorId,
      from: SOLANA_INPUT.userAddress,
      solana: { maker: SOLANA_QUOTE.maker },
    })
    expect(done.context.hashKind).toBe('swap')
  })

  it('a quote past its window: the maker refuses the build, and the form asks for a fresh quote', async () => {
    const run = startSolana({ expired: true })
    await waitFor(run.actor, (s) => s.matches('form'))
    run.actor.send({ type: 'swap.setAmount', amount: '10' })
    run.clock.increment(SWAP_QUOTE_DEBOUNCE_MS)
    await waitFor(run.actor, (s) => s.matches({ form: 'quoted' }))
    run.actor.send({ type: 'swap.review' })
    const stale = await waitFor(run.actor, (s) => s.matches({ form: 'quoteFailed' }))
    expect(stale.context.error).toMatchObject({
      name: 'SwapQuoteExpiredError',
      message: 'This quote has expired. Get a fresh quote to swap.',
    })
    expect(run.calls.sent).toEqual([])
    run.actor.send({ type: 'swap.retry' })
    await waitFor(run.actor, (s) => s.matches({ form: 'quoted' }))
    expect(run.calls.quotes).toBe(2)
    run.actor.send({ type: 'swap.review' })
    await waitFor(run.actor, (s) => s.matches({ preview: 'ready' }))
    expect(run.calls.builds[1]).toMatchObject({ quoteId: 'quote-2' })
  })
})
