import type { Hex } from 'viem'
import { type EventFromLogic, fromPromise, getNextSnapshot, type SnapshotFrom } from 'xstate'
import { CallsFailedError, CallsOutcomeUnknownError, callsErrorInfo } from '../../src/errors/calls'
import {
  SolanaSwapMismatchError,
  SwapBuildMismatchError,
  SwapQuoteExpiredError,
  SwapRejectedError,
} from '../../src/errors/swap'
import type { AtomicStatus, CallsStatus } from '../../src/machines/calls/types'
import {
  minimumOut,
  needsApproval,
  parseSwapAmount,
  type SwapPrepared,
  type SwapQuote,
  type SwapReceipt,
  type SwapSimulation,
  type SwapStatus,
  type SwapToken,
  type SwapTransaction,
  selectIsPreviewing,
  selectSwapAction,
  selectSwapInFlight,
  selectSwapStatus,
  swapMachine,
  type TokenBalance,
} from '../../src/machines/swap'
import { expectedOfSwap, swapSimulationDisagreement } from '../../src/machines/swap/simulation'
import { createModel, describeEvent, type ModelPath } from '../../src/testing'

/**
 * The swap machine's model. Slots never settle on their own: each answer is an event of the path
 * (`xstate.done.actor.<id>` with an output, `xstate.error.actor.<id>` with an error; the machine names its
 * invokes, so the approval's and the swap's transactions are told apart), and the debounce and the preview's
 * refresh are explored as delayed events. The approval's and the swap's transactions are child machines
 * (src/machines/transaction.ts, modelled in transaction.test.ts): here their notices and how they end are events
 * of the path, so every order of answers, timers and visitor actions is a path. The build
 * check (`checkBuild`) passes or refuses; what it decides is unit-tested in src/chains/eip155/swapBuildCheck.
 *
 * The notices (`emit`) are replaced by checks that throw when a notice would go out without its facts.
 *
 * Shared by swap.test.ts (every path replayed on the machine) and swap.ui.test.tsx (through the views).
 */
export const never = <T>() => new Promise<T>(() => {})
export const modelMachine = swapMachine.provide({
  actors: {
    fetchTokens: fromPromise(never<SwapToken[]>),
    fetchQuote: fromPromise(never<SwapQuote>),
    fetchAllowance: fromPromise(never<string>),
    buildApprove: fromPromise(never<SwapTransaction>),
    buildSwap: fromPromise(never<SwapTransaction>),
    checkBuild: fromPromise(never<SwapPrepared>),
    simulate: fromPromise(never<SwapSimulation>),
    sendTransaction: fromPromise(never<Hex>),
    waitForReceipt: fromPromise(never<SwapReceipt>),
    pollReceipt: fromPromise(never<SwapReceipt>),
    capabilities: fromPromise(never<AtomicStatus>),
    sendCalls: fromPromise(never<string>),
    callsStatus: fromPromise(never<CallsStatus>),
  },
  actions: {
    emitSubmitted: ({ context }) => {
      if (!context.hash || !context.hashKind) throw new Error('swap.submitted without a hash')
    },
    emitSucceeded: ({ context }) => {
      if (!context.hash || context.hashKind !== 'swap' || !context.from || !context.to || !context.quote)
        throw new Error('swap.succeeded without the swap it announces')
      if (!context.amount) throw new Error('swap.succeeded without the amount')
    },
    emitTimedOut: ({ context }) => {
      if (context.error?.name !== 'SwapTimeoutError') throw new Error('request.timedOut without its error')
    },
    emitFailed: ({ context }) => {
      if (!context.error) throw new Error('swap.failed without an error')
    },
  },
})

type Machine = typeof modelMachine
export type Snapshot = SnapshotFrom<Machine>
export type Event = EventFromLogic<Machine>

export const CHAIN = 'eip155:1'
export const ALICE = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
export const HASH: Hex = `0x${'ab'.repeat(32)}`
export const USDT: SwapToken = {
  address: '0xdac17f958d2ee523a2206206994597c13d831ec7',
  symbol: 'USDT',
  name: 'Tether USD',
  decimals: 6,
  chainId: CHAIN,
}
export const ETH: SwapToken = {
  address: '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee',
  symbol: 'ETH',
  name: 'Ether',
  decimals: 18,
  chainId: CHAIN,
}
const balance = (token: SwapToken, numeric: string): TokenBalance => ({
  name: token.name,
  symbol: token.symbol,
  chainId: CHAIN,
  ...(token === ETH ? {} : { address: `${CHAIN}:${token.address}` }),
  price: 1,
  quantity: { decimals: String(token.decimals), numeric },
})
export const BALANCES = [balance(USDT, '100'), balance(ETH, '2')]
/** Too little ETH for the quote's network fee. */
export const LOW_GAS = [balance(USDT, '100'), balance(ETH, '0.0001')]
/** 10 USDT for 0.004 ETH, 0.001 ETH of gas. */
export const QUOTE: SwapQuote = {
  fromAmount: '10000000',
  toAmount: '4000000000000000',
  priceImpact: 0.1,
  fee: '0',
  gasFee: '1000000000000000',
}
export const TX: SwapTransaction = { to: USDT.address as Hex, data: '0x095ea7b3', value: '0' }
/**
 * What the check passes: the reset to zero, the approval of 10 USDT and the swap, valid for 20 minutes. A path
 * whose amount is another (Max) finds no checked approval for it: the machine refuses instead of sending.
 */
export const PREPARED: SwapPrepared = {
  approvals: [
    { amount: '0', transaction: TX },
    { amount: '10000000', transaction: TX },
  ],
  swap: TX,
  validForMs: 1_200_000,
}
/** The simulation of 10 USDT → ETH as the preview shows it: −10 USDT, +0.004 ETH (at least the least amount out). */
const simulated = (usdt: string): SwapSimulation => ({
  account: ALICE,
  result: {
    status: 'simulated',
    changes: [
      { token: USDT.address as Hex, symbol: 'USDT', decimals: 6, delta: usdt },
      { token: ETH.address as Hex, symbol: 'ETH', decimals: 18, delta: '4000000000000000' },
    ],
  },
})
export const AGREES = simulated('-10000000')
/** 100 USDT leaving where the preview shows 10: blocked. */
export const DISAGREES = simulated('-100000000')
export const UNSIMULATED: SwapSimulation = {
  account: ALICE,
  result: { status: 'unavailable', reason: 'eth_simulateV1 not supported' },
}
export const INPUT = { chainId: 1, userAddress: ALICE, from: USDT, to: ETH, balances: BALANCES } as const

// The done and error events of invoked actors are machine-internal types, so they are cast as events.
const answers = [
  { type: 'xstate.done.actor.fetchTokens', output: [USDT, ETH] },
  { type: 'xstate.error.actor.fetchTokens', error: new Error('Network not supported for Swaps') },
  { type: 'xstate.done.actor.fetchQuote', output: QUOTE },
  { type: 'xstate.error.actor.fetchQuote', error: new Error('HTTP 500') },
  { type: 'xstate.done.actor.refreshQuote', output: QUOTE },
  { type: 'xstate.error.actor.refreshQuote', error: new Error('HTTP 500') },
  { type: 'xstate.done.actor.fetchAllowance', output: '0' },
  // 1 USDT: non-zero but short of 10 (USDT-style: to zero first).
  { type: 'xstate.done.actor.fetchAllowance', output: '1000000' },
  { type: 'xstate.done.actor.fetchAllowance', output: '1000000000000' },
  { type: 'xstate.error.actor.fetchAllowance', error: new Error('HTTP 500') },
  { type: 'xstate.done.actor.buildResetApproval', output: TX },
  { type: 'xstate.error.actor.buildResetApproval', error: new Error('HTTP 500') },
  { type: 'xstate.done.actor.buildApprove', output: TX },
  { type: 'xstate.error.actor.buildApprove', error: new Error('Network not supported for Swaps') },
  // The approval's transaction (src/machines/transaction.ts, its own model in transaction.test.ts): its notices
  // and how it ended.
  { type: 'transaction.submitted', hash: HASH },
  { type: 'transaction.timedOut' },
  { type: 'xstate.done.actor.approveTransaction', output: { status: 'mined', hash: HASH } },
  {
    type: 'xstate.done.actor.approveTransaction',
    output: { status: 'failed', reason: 'declined', error: new SwapRejectedError() },
  },
  { type: 'xstate.done.actor.approveTransaction', output: { status: 'failed', reason: 'timedOut' } },
  {
    type: 'xstate.done.actor.approveTransaction',
    output: { status: 'failed', reason: 'reverted', hash: HASH },
  },
  {
    type: 'xstate.done.actor.approveTransaction',
    output: { status: 'failed', reason: 'unseen', hash: HASH },
  },
  { type: 'xstate.done.actor.buildSwap', output: TX },
  { type: 'xstate.error.actor.buildSwap', error: new Error('HTTP 500') },
  { type: 'xstate.done.actor.checkBuild', output: PREPARED },
  { type: 'xstate.error.actor.checkBuild', error: new SwapBuildMismatchError({ mismatch: 'swap.to' }) },
  { type: 'xstate.done.actor.simulate', output: AGREES },
  { type: 'xstate.done.actor.simulate', output: DISAGREES },
  { type: 'xstate.done.actor.simulate', output: UNSIMULATED },
  { type: 'xstate.error.actor.simulate', error: new Error('HTTP 500') },
  // The swap's transaction: left open in the wallet past the time limit, then mined or not.
  { type: 'transaction.overdue', stage: 'late' },
  { type: 'xstate.done.actor.swapTransaction', output: { status: 'mined', hash: HASH } },
  {
    type: 'xstate.done.actor.swapTransaction',
    output: { status: 'failed', reason: 'declined', error: new SwapRejectedError() },
  },
  { type: 'xstate.done.actor.swapTransaction', output: { status: 'failed', reason: 'expired' } },
  { type: 'xstate.done.actor.swapTransaction', output: { status: 'failed', reason: 'reverted', hash: HASH } },
  { type: 'xstate.done.actor.swapTransaction', output: { status: 'failed', reason: 'unseen', hash: HASH } },
  // The wallet's capabilities on the chain (the approvals due): atomic batching, none, or no answer.
  { type: 'xstate.done.actor.walletCapabilities', output: 'supported' },
  { type: 'xstate.done.actor.walletCapabilities', output: 'unsupported' },
  { type: 'xstate.error.actor.walletCapabilities', error: new Error('Method not found') },
  // The approvals and the swap as one batch (src/machines/calls/batch.ts, its own model in batch.test.ts): the
  // wallet took it, and how it ended.
  { type: 'batch.sent', id: 'batch-1' },
  {
    type: 'xstate.done.actor.swapBatch',
    output: {
      status: 'confirmed',
      id: 'batch-1',
      result: {
        status: 'success',
        atomic: true,
        receipts: [{ transactionHash: HASH, blockNumber: '16', status: 'success' }],
      },
    },
  },
  {
    type: 'xstate.done.actor.swapBatch',
    output: {
      status: 'failed',
      error: callsErrorInfo(new CallsFailedError({ code: 4001 })),
    },
  },
  // Taken by the wallet, and no final status by its deadline (its status reads failed): it may still land.
  {
    type: 'xstate.done.actor.swapBatch',
    output: { status: 'unknown', id: 'batch-1', error: callsErrorInfo(new CallsOutcomeUnknownError()) },
  },
] as unknown as Event[]

export const events: Event[] = [
  { type: 'swap.setAmount', amount: '10' },
  { type: 'swap.selectFrom', token: ETH },
  { type: 'swap.selectTo', token: USDT },
  { type: 'swap.setSlippage', slippage: 0.5 },
  { type: 'swap.setSlippage', slippage: 0 },
  { type: 'swap.setBalances', balances: LOW_GAS },
  ...answers,
]

/**
 * State identity: the state and the context that decides where the machine goes and what the invariants speak
 * of. The slippage is left out (it decides nothing but the build request), so the graph stays small.
 */
export function serialize(snapshot: Snapshot): string {
  const c = snapshot.context
  return JSON.stringify({
    value: snapshot.value,
    from: c.from?.symbol ?? null,
    to: c.to?.symbol ?? null,
    amount: c.amount,
    lowGas: c.balances === LOW_GAS || c.balances.some((b) => b.quantity.numeric === '0.0001'),
    quote: c.quote !== undefined,
    allowance: c.allowance ?? null,
    built: c.built ? [c.built.approvals.length, c.built.swap !== undefined] : null,
    prepared: c.prepared !== undefined,
    simulation: c.simulation?.result.status ?? null,
    hash: c.hashKind ?? null,
    batch: c.batchId !== undefined,
    error: c.error?.name ?? null,
  })
}

export const model = createModel(modelMachine, { events, input: INPUT, serializeState: serialize })

/**
 * The Solana path (a maker's quote and transaction): the same chart, its Solana slots answering. No allowance
 * is read (the maker's transfers need none), the build takes the quote's id and may be refused as past the
 * quote's window (the form then asks for a fresh quote), the check decodes the maker's transaction, and the
 * wallet's answer is the end (it signs, sends and confirms).
 */
export const SOLANA_CHAIN = 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1'
export const VISITOR = '3oGHMXGt3YnzuuEs496heyLgzXBvXKGDEbvLZ1hbALvB'
const SIGNATURE = '5'.repeat(88)
export const SOL: SwapToken = { ...ETH, symbol: 'SOL', name: 'Solana', decimals: 9, chainId: SOLANA_CHAIN }
export const USDC: SwapToken = {
  address: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
  symbol: 'USDC',
  name: 'USD Coin',
  decimals: 6,
  chainId: SOLANA_CHAIN,
}
const SOLANA_BALANCES: TokenBalance[] = [
  {
    name: 'USD Coin',
    symbol: 'USDC',
    chainId: SOLANA_CHAIN,
    address: `${SOLANA_CHAIN}:${USDC.address}`,
    price: 1,
    quantity: { decimals: '6', numeric: '100' },
  },
  {
    name: 'Solana',
    symbol: 'SOL',
    chainId: SOLANA_CHAIN,
    price: 150,
    quantity: { decimals: '9', numeric: '2' },
  },
]
/** 10 USDC for 0.0664 SOL, 10,000 lamports of network fee, the maker's quote. */
export const SOLANA_QUOTE: SwapQuote = {
  fromAmount: '10000000',
  toAmount: '66466666',
  fee: '30000',
  gasFee: '10000',
  id: 'quote-1',
  maker: 'GyVrnLoLbwrQENKb6aQQiL4KGTydk3DNMejeVsMSNRS3',
  expiresAt: 1_000_000,
}
const SOLANA_TX: SwapTransaction = {
  to: '0x',
  data: '0x',
  value: '0',
  solana: { transaction: 'AQID', maker: SOLANA_QUOTE.maker!, feePayer: VISITOR, fee: '10000' },
}
export const SOLANA_INPUT = {
  chainId: SOLANA_CHAIN,
  userAddress: VISITOR,
  connectorId: 'solana:walletstate-solana-dev-wallet',
  from: USDC,
  to: SOL,
  balances: SOLANA_BALANCES,
} as const

const solanaAnswers = [
  { type: 'xstate.done.actor.fetchTokens', output: [USDC, SOL] },
  { type: 'xstate.done.actor.fetchQuote', output: SOLANA_QUOTE },
  { type: 'xstate.done.actor.refreshQuote', output: SOLANA_QUOTE },
  { type: 'xstate.done.actor.buildSwap', output: SOLANA_TX },
  { type: 'xstate.error.actor.buildSwap', error: new SwapQuoteExpiredError() },
  { type: 'xstate.done.actor.checkBuild', output: { approvals: [], swap: SOLANA_TX, validForMs: 0 } },
  {
    type: 'xstate.error.actor.checkBuild',
    error: new SolanaSwapMismatchError({ mismatch: 'recipient' }),
  },
  // Solana's slot does not simulate (it says so): the preview shows no simulated line. A slot that would, agreeing
  // with the preview (−10 USDC, +0.0664 SOL).
  { type: 'xstate.error.actor.simulate', error: new Error('Solana swaps are checked, not simulated') },
  {
    type: 'xstate.done.actor.simulate',
    output: {
      account: VISITOR,
      result: {
        status: 'simulated',
        changes: [
          { token: USDC.address, symbol: 'USDC', decimals: 6, delta: '-10000000' },
          { token: SOL.address, symbol: 'SOL', decimals: 9, delta: SOLANA_QUOTE.toAmount },
        ],
      },
    },
  },
  { type: 'transaction.timedOut' },
  // A wallet-confirmed transaction tells no hash before its end; the chart takes the notice alike if it came.
  { type: 'transaction.submitted', hash: SIGNATURE },
  { type: 'xstate.done.actor.swapTransaction', output: { status: 'mined', hash: SIGNATURE } },
  {
    type: 'xstate.done.actor.swapTransaction',
    output: { status: 'failed', reason: 'declined', error: new SwapRejectedError() },
  },
  { type: 'xstate.done.actor.swapTransaction', output: { status: 'failed', reason: 'timedOut' } },
] as unknown as Event[]

export const solanaModel = createModel(modelMachine, {
  events: [
    { type: 'swap.setAmount', amount: '10' },
    { type: 'swap.selectFrom', token: SOL },
    { type: 'swap.selectTo', token: SOL },
    { type: 'swap.setSlippage', slippage: 0.5 },
    { type: 'swap.setBalances', balances: SOLANA_BALANCES },
    ...solanaAnswers,
  ],
  input: SOLANA_INPUT,
  serializeState: serialize,
})

/** The errors a refused build ends with: the eip155 check's, or the Solana check's. */
const REFUSALS = ['SwapBuildMismatchError', 'SolanaSwapMismatchError']

/** What must hold in every state of the swap flow. */
export function invariant(snapshot: Snapshot): void {
  const c = snapshot.context
  const fail = (message: string) => {
    throw new Error(`${message} in ${JSON.stringify(snapshot.value)}`)
  }
  if (snapshot.status !== 'active') fail(`actor ${snapshot.status}`)
  const inFlight =
    snapshot.matches('confirmingBatch') ||
    snapshot.matches({ approving: 'sending' }) ||
    snapshot.matches({ approving: 'confirming' }) ||
    snapshot.matches({ swapping: 'sending' }) ||
    snapshot.matches({ swapping: 'confirming' })
  if (snapshot.hasTag('loading') !== inFlight) fail('loading tag out of step')
  const busy =
    snapshot.matches('loadingTokens') ||
    snapshot.matches({ form: 'quoting' }) ||
    snapshot.matches({ preview: 'checkingAllowance' }) ||
    snapshot.matches({ preview: 'preparing' }) ||
    snapshot.matches({ preview: 'checking' }) ||
    snapshot.matches({ preview: 'simulating' }) ||
    snapshot.matches({ preview: 'refreshing' }) ||
    snapshot.matches('readingCapabilities') ||
    snapshot.matches('confirmingBatch') ||
    snapshot.matches('approving') ||
    snapshot.matches('swapping')
  if (snapshot.hasTag('busy') !== busy) fail('busy tag out of step')
  const failed =
    snapshot.matches('tokensFailed') ||
    snapshot.matches({ form: 'quoteFailed' }) ||
    snapshot.matches({ preview: 'unavailable' }) ||
    snapshot.matches({ preview: 'disagrees' }) ||
    snapshot.matches('failed')
  if (snapshot.hasTag('failed') !== failed) fail('failed tag out of step')
  if (failed && !c.error) fail('failed without an error')
  if (c.slippage <= 0) fail('a slippage of zero or less')
  // A quote belongs to the form as it is: none while the form changes or is incomplete.
  if ((snapshot.matches({ form: 'idle' }) || snapshot.matches({ form: 'debouncing' })) && c.quote)
    fail('an old quote kept')
  // Past the form, the form is valid and stays so: pair, amount, quote, balances at review time.
  const pastForm =
    snapshot.matches('preview') ||
    snapshot.matches('readingCapabilities') ||
    snapshot.matches('confirmingBatch') ||
    snapshot.matches('approving') ||
    snapshot.matches('swapping') ||
    snapshot.matches('failed')
  if (pastForm && (!c.from || !c.to || !c.amount || !c.quote)) fail('the pair, amount or quote lost')
  if ((snapshot.matches({ preview: 'ready' }) || snapshot.matches('approving')) && !c.quote) fail('no quote')
  if (snapshot.matches('approving') && !needsApproval(c)) fail('approving without a short allowance')
  // Only checked transactions reach a wallet: nothing is offered or sent before the check passed.
  if (snapshot.matches({ preview: 'preparing' }) && c.prepared) fail('an old check kept while building')
  if (
    (snapshot.matches({ preview: 'ready' }) ||
      snapshot.matches('readingCapabilities') ||
      snapshot.matches('confirmingBatch') ||
      snapshot.matches('approving') ||
      snapshot.matches('swapping')) &&
    !c.prepared
  )
    fail('offered or sent without a checked build')
  if (snapshot.matches({ failed: 'refused' })) {
    if (!REFUSALS.includes(c.error?.name ?? '') || c.prepared) fail('refused without its error, or kept')
    if (c.hash) fail('refused after something was sent')
  }
  // See before you sign: a simulation that disagrees blocks confirm; a node that cannot simulate shows no line.
  if (snapshot.matches({ preview: 'disagrees' })) {
    if (c.error?.name !== 'SimulationDisagreementError' || c.prepared)
      fail('disagrees without its error, or kept')
    if (snapshot.can({ type: 'swap.confirm' })) fail('confirm offered against the simulation')
  }
  if (snapshot.matches({ preview: 'ready' }) && c.simulation && c.simulation.result.status !== 'simulated')
    fail('a simulation that did not run kept for the preview')
  if (snapshot.matches({ preview: 'ready' }) && c.simulation) {
    const shown = expectedOfSwap(
      c.from!,
      c.to!,
      parseSwapAmount(c.amount, c.from!.decimals)!,
      minimumOut(c.quote!.toAmount, c.slippage),
    )
    if (swapSimulationDisagreement(shown, c.simulation)) fail('ready with a disagreeing simulation')
  }
  // One confirmation for the approvals and the swap only with approvals due, and every one of them checked.
  if (
    (snapshot.matches('readingCapabilities') || snapshot.matches('confirmingBatch')) &&
    (!needsApproval(c) || c.prepared?.approvals.length === 0)
  )
    fail('a batch without the approvals it is for')
  // The wallet holds the batch (the swap in it): no cancel, no retry, no hash of an earlier step.
  if (snapshot.matches('confirmingBatch')) {
    if (snapshot.can({ type: 'swap.cancel' }) || snapshot.can({ type: 'swap.retry' }))
      fail('cancel or retry offered while the wallet holds the batch')
    if (c.hash) fail('an old hash while the batch is out')
  }
  // Once the wallet holds the swap, no cancel (a second swap could be asked for while the first is live).
  if (snapshot.matches({ swapping: 'sending' }) && snapshot.can({ type: 'swap.cancel' }))
    fail('cancel offered while the wallet holds the swap')
  if (snapshot.matches({ swapping: 'sending' }) && snapshot.can({ type: 'swap.retry' }))
    fail('a second swap offered while the wallet holds the first')
  if ((snapshot.matches({ approving: 'sending' }) || snapshot.matches({ swapping: 'sending' })) && c.hash)
    fail('an old hash while sending')
  if (snapshot.matches({ approving: 'confirming' }) && c.hashKind !== 'approve')
    fail('confirming no approval')
  if (snapshot.matches({ swapping: 'confirming' }) && c.hashKind !== 'swap') fail('confirming no swap')
  // The swap transaction, once sent, is never abandoned by a cancel.
  if (snapshot.matches({ swapping: 'confirming' }) && snapshot.can({ type: 'swap.cancel' }))
    fail('cancel offered for a swap already sent')
  if (snapshot.matches({ failed: 'unconfirmed' }) && c.batchId !== undefined) {
    // A batch sent whose outcome is unknown: said so, and "Check again" only reads that batch's status.
    if (c.error?.name !== 'CallsOutcomeUnknownError') fail('an unknown batch outcome not said')
    const next = getNextSnapshot(modelMachine, snapshot, { type: 'swap.retry' })
    if (!next.matches({ confirmingBatch: 'confirming' })) fail('retry does not look for the sent batch')
  } else if (snapshot.matches({ failed: 'unconfirmed' })) {
    if (c.error?.name !== 'SwapPendingError' || c.hashKind !== 'swap') fail('unconfirmed without its swap')
    // "Check again" looks for the receipt of the swap sent; it never builds or sends another.
    const next = getNextSnapshot(modelMachine, snapshot, { type: 'swap.retry' })
    if (!next.matches({ swapping: 'confirming' })) fail('retry does not look for the sent swap')
  }
  if (c.error?.name === 'SwapRevertedError' && (!c.from || !c.to || !c.amount))
    fail('a reverted swap lost the form')
  if (snapshot.matches('done')) {
    if (c.hashKind !== 'swap' || c.amount !== '' || c.quote) fail('done without the amount reset')
    if (!c.from || !c.to) fail('done without the pair')
  }
  // The selectors the views read follow the states.
  const status = selectSwapStatus(snapshot)
  const statusStates: Array<[SwapStatus, boolean]> = [
    ['loading', snapshot.matches('loadingTokens')],
    ['tokensFailed', snapshot.matches('tokensFailed')],
    ['editing', snapshot.matches({ form: 'idle' })],
    ['quoting', snapshot.matches({ form: 'debouncing' }) || snapshot.matches({ form: 'quoting' })],
    ['quoted', snapshot.matches({ form: 'quoted' })],
    ['quoteFailed', snapshot.matches({ form: 'quoteFailed' })],
    [
      'checking',
      snapshot.matches({ preview: 'checkingAllowance' }) ||
        snapshot.matches({ preview: 'preparing' }) ||
        snapshot.matches({ preview: 'checking' }) ||
        snapshot.matches({ preview: 'simulating' }),
    ],
    ['disagrees', snapshot.matches({ preview: 'disagrees' })],
    ['ready', snapshot.matches({ preview: 'ready' })],
    ['refreshing', snapshot.matches({ preview: 'refreshing' })],
    ['unavailable', snapshot.matches({ preview: 'unavailable' })],
    ['approving', snapshot.matches('approving') || snapshot.matches('readingCapabilities')],
    ['swapping', snapshot.matches('swapping') || snapshot.matches('confirmingBatch')],
    ['retryable', snapshot.matches({ failed: 'retryable' })],
    ['refused', snapshot.matches({ failed: 'refused' })],
    ['unconfirmed', snapshot.matches({ failed: 'unconfirmed' })],
    ['done', snapshot.matches('done')],
  ]
  for (const [name, inState] of statusStates)
    if ((status === name) !== inState) fail(`status ${status} vs ${name}`)
  if (selectIsPreviewing(snapshot) !== snapshot.matches('preview')) fail('selectIsPreviewing out of step')
  if (selectSwapInFlight(snapshot) !== (inFlight || snapshot.matches({ failed: 'unconfirmed' })))
    fail('selectSwapInFlight out of step')
  if (
    snapshot.matches({ preview: 'ready' }) &&
    selectSwapAction(snapshot) !== (needsApproval(c) ? 'Approve' : 'Swap')
  )
    fail('the action label out of step')
}

/** A readable path name: answers are named by the slot. */
export function short(path: ModelPath): string {
  if (path.steps.length === 0) return '(initial state)'
  return path.steps
    .map(({ event }) => {
      const e = event as Event
      if (e.type === 'swap.selectFrom' || e.type === 'swap.selectTo')
        return `${e.type.slice(5)}(${e.token.symbol})`
      if (e.type === 'swap.setBalances') return 'setBalances(low gas)'
      const answer = /^xstate\.(done|error)\.actor\.(.+)$/.exec(event.type)
      if (!answer) return describeEvent(event).replace(/^swap\./, '')
      if (answer[1] === 'error') return `failure(${answer[2]})`
      const output = (event as { output?: unknown }).output
      const detail =
        typeof output === 'string' && !output.startsWith('0x')
          ? output
          : ((output as { status?: string } | undefined)?.status ?? '')
      return `answer(${answer[2]}${detail ? `, ${detail}` : ''})`
    })
    .join(' → ')
}
