import type { Hex } from 'viem'
import { describe, expect, it } from 'vitest'
import { type EventFromLogic, fromPromise, type SnapshotFrom } from 'xstate'
import { defineEvmNetwork } from '../../src/config'
import { NATIVE_TOKEN_ADDRESS } from '../../src/constants'
import { TransactionRejectedError } from '../../src/errors/send'
import {
  chainReference,
  type FeeEstimate,
  hasWrongChecksum,
  isSolanaAddress,
  isSolanaToken,
  type NonceReading,
  type NonceStatus,
  type ResolvedName,
  type SendReceipt,
  type SendSimulation,
  type SendStatus,
  selectFormError,
  selectInFlight,
  selectIsPreviewing,
  selectSendStatus,
  sendMachine,
  type TokenBalance,
  type TokenOnChain,
  validateSend,
} from '../../src/machines/send'
import { transactionOf } from '../../src/machines/send/rules'
import {
  assertCoverage,
  createModel,
  describeEvent,
  type ModelPath,
  type ReplayResult,
  replayPath,
} from '../../src/testing'

/**
 * The send machine's model. Slots never settle on their own: each answer is an event of the path
 * (`xstate.done.actor.<id>` with an output, `xstate.error.actor.<id>` with an error; the machine names its
 * invokes), and the simulation's time limit is explored as a delayed event, so every order of answers, timers
 * and visitor actions is a path. The send's transaction is a child machine (src/machines/transaction.ts,
 * modelled in transaction.test.ts with its nonce, receipt windows and time limit): here its notices and how it
 * ends are events of the path, and the rules the send gives it are checked in every state it runs in.
 *
 * The notices (`emit`) are checked for what they announce: the emit actions are replaced by checks that throw
 * when a notice would go out without its facts. The unit tests check what a listener receives.
 */
const never = <T>() => new Promise<T>(() => {})
const modelMachine = sendMachine.provide({
  actors: {
    resolveName: fromPromise(never<ResolvedName>),
    estimateFee: fromPromise(never<FeeEstimate>),
    sendNative: fromPromise(never<Hex>),
    sendErc20: fromPromise(never<Hex>),
    waitForReceipt: fromPromise(never<SendReceipt>),
    pollReceipt: fromPromise(never<SendReceipt>),
    estimateSolanaFee: fromPromise(never<FeeEstimate>),
    sendSolana: fromPromise(never<string>),
    simulate: fromPromise(never<SendSimulation>),
    readTokenMetadata: fromPromise(never<TokenOnChain>),
    readNonce: fromPromise(never<NonceReading>),
    checkNonce: fromPromise(never<NonceStatus>),
    watchNonce: fromPromise(never<NonceStatus>),
  },
  actions: {
    emitSubmitted: ({ context }) => {
      if (!context.hash) throw new Error('send.submitted without a hash')
    },
    emitSucceeded: ({ context }) => {
      if (!context.hash || !context.token || !context.sendTokenAmount || !context.resolvedAddress)
        throw new Error('send.succeeded without the hash, token, amount and receiver it announces')
    },
    emitTimedOut: ({ context }) => {
      if (context.error?.name !== 'SendTimeoutError') throw new Error('request.timedOut without its error')
    },
    emitFailed: ({ context }) => {
      if (!context.error) throw new Error('send.failed without an error')
    },
  },
})

type Machine = typeof modelMachine
type Snapshot = SnapshotFrom<Machine>
type Event = EventFromLogic<Machine>

const CHAIN = 'eip155:31337'
const PAYER_ADDRESS = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'
const BOB = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const HASH = `0x${'ab'.repeat(32)}`

const ETH: TokenBalance = {
  name: 'Ether',
  symbol: 'ETH',
  chainId: CHAIN,
  value: 6000,
  price: 3000,
  quantity: { decimals: '18', numeric: '2' },
}
const STK: TokenBalance = {
  name: 'Sandbox Token',
  symbol: 'STK',
  chainId: CHAIN,
  address: `${CHAIN}:0x5FbDB2315678afecb367f032d93F642f64180aa3`,
  value: 2000,
  price: 2,
  quantity: { decimals: '18', numeric: '1000' },
}
const fee = (wei: string, formatted: string): FeeEstimate => ({
  gas: '21000',
  maxFeePerGas: '1',
  maxPriorityFeePerGas: '1',
  fee: wei,
  formatted,
  symbol: 'ETH',
  decimals: 18,
})
/** Payable from 2 ETH with 0.5 sent, not with all of it (Max before any estimate). */
const FEE = fee('42000000000000', '0.000042')
const STK_ON_CHAIN: TokenOnChain = {
  chainId: 31337,
  address: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
  decimals: 18,
  symbol: 'STK',
}
/** BOB with one letter's case changed: its EIP-55 checksum does not match. */
const BOB_MISTYPED = '0x70997970c51812dc3A010C7d01b50e0d17dc79C8'

// Solana (issue 17): SOL only (an SPL token takes the same states); the receiver a base58 public key.
const SOLANA_CHAIN = 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp'
const BOB_SOL = 'GsbwXfJraMomNxBcjYLcG3mxkBUiyWXAB32fGbSMQRdW'
const SOL: TokenBalance = {
  name: 'Solana',
  symbol: 'SOL',
  chainId: SOLANA_CHAIN,
  value: 300,
  price: 150,
  quantity: { decimals: '9', numeric: '2' },
}
/** One signature: payable from 2 SOL with 0.5 sent. */
const SOL_FEE: FeeEstimate = { gas: '1', fee: '5000', formatted: '0.000005', symbol: 'SOL', decimals: 9 }

// The done and error events of invoked actors are machine-internal types, so they are cast as events.
const answers = [
  { type: 'xstate.done.actor.resolveName', output: { address: BOB, name: 'bob.reown.id' } },
  { type: 'xstate.error.actor.resolveName', error: new Error('not found') },
  { type: 'xstate.done.actor.estimateFee', output: FEE },
  { type: 'xstate.error.actor.estimateFee', error: new Error('RPC down') },
  { type: 'xstate.done.actor.estimateSolanaFee', output: SOL_FEE },
  { type: 'xstate.error.actor.estimateSolanaFee', error: new Error('fetch failed') },
  // See before you sign: the simulation agrees with "send 0.5 ETH" (and disagrees with a STK send: ETH moving
  // that its preview does not show), would revert, or the node cannot simulate.
  {
    type: 'xstate.done.actor.simulate',
    output: {
      account: PAYER_ADDRESS,
      result: {
        status: 'simulated',
        changes: [{ token: NATIVE_TOKEN_ADDRESS, symbol: 'ETH', decimals: 18, delta: '-500000000000000000' }],
      },
    },
  },
  {
    type: 'xstate.done.actor.simulate',
    output: {
      account: PAYER_ADDRESS,
      result: { status: 'reverted', callIndex: 0, reason: 'execution reverted' },
    },
  },
  {
    type: 'xstate.done.actor.simulate',
    output: { account: PAYER_ADDRESS, result: { status: 'unavailable', reason: 'no eth_simulateV1' } },
  },
  { type: 'xstate.error.actor.simulate', error: new Error('fetch failed') },
  // STK's contract: as listed, or stating other decimals (the token is refused), or unreadable.
  { type: 'xstate.done.actor.readTokenMetadata', output: STK_ON_CHAIN },
  { type: 'xstate.done.actor.readTokenMetadata', output: { ...STK_ON_CHAIN, decimals: 6 } },
  { type: 'xstate.error.actor.readTokenMetadata', error: new Error('execution reverted') },
  // The send's transaction (src/machines/transaction.ts): its notices (a transaction known; past the time limit,
  // where the chain says the nonce stands; a request sent again that failed) and how it ended.
  { type: 'transaction.submitted', hash: HASH },
  { type: 'transaction.overdue', stage: 'checking' },
  { type: 'transaction.overdue', stage: 'open' },
  { type: 'transaction.overdue', stage: 'taken' },
  { type: 'transaction.failedAgain', error: new Error('nonce too low') },
  { type: 'xstate.done.actor.transaction', output: { status: 'mined', hash: HASH } },
  {
    type: 'xstate.done.actor.transaction',
    output: { status: 'failed', reason: 'declined', error: new TransactionRejectedError() },
  },
  { type: 'xstate.done.actor.transaction', output: { status: 'failed', reason: 'timedOut' } },
  { type: 'xstate.done.actor.transaction', output: { status: 'failed', reason: 'reverted', hash: HASH } },
  { type: 'xstate.done.actor.transaction', output: { status: 'failed', reason: 'unseen', hash: HASH } },
] as unknown as Event[]

/** The host's payment (Pay) on the sandbox chain: the kit sends it with its networks, the sender set before. */
const SANDBOX = defineEvmNetwork({
  id: 31337,
  name: 'Sandbox',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: ['http://127.0.0.1:8545'] } },
})
const PAYER = {
  address: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
  addresses: ['0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'],
  chainId: 31337,
  connectorId: 'injected',
} as const

const events: Event[] = [
  { type: 'send.pay', request: { recipient: BOB, amount: '0.5' }, networks: [SANDBOX] },
  { type: 'send.pay', request: { recipient: 'bob.reown.id', amount: '0.5' }, networks: [SANDBOX] },
  { type: 'send.setToken', token: ETH },
  { type: 'send.setToken', token: STK },
  { type: 'send.setToken', token: SOL },
  { type: 'send.setAmount', amount: '0.5' },
  { type: 'send.setReceiver', receiverAddress: BOB },
  { type: 'send.setReceiver', receiverAddress: 'bob.reown.id' },
  { type: 'send.setReceiver', receiverAddress: BOB_SOL },
  { type: 'send.setReceiver', receiverAddress: BOB_MISTYPED },
  { type: 'send.setTokenBalances', tokenBalances: [ETH, STK, SOL] },
  ...answers,
]

/**
 * State identity: the state and the context that decides where the machine goes (the form as typed, the fee
 * kept for Max) and what the invariants speak of. The event payloads are few, so the graph is finite.
 */
function serialize(snapshot: Snapshot): string {
  const c = snapshot.context
  return JSON.stringify({
    value: snapshot.value,
    token: c.token?.symbol ?? null,
    amount: c.sendTokenAmount ?? null,
    receiver: c.receiverAddress ?? null,
    resolved: c.resolvedAddress !== undefined,
    profile: c.receiverProfileName !== undefined,
    fee: c.fee?.formatted ?? null,
    error: c.error?.name ?? null,
    hash: c.hash !== undefined,
    simulation: c.simulation?.result.status ?? null,
    checked: c.tokenOnChain !== undefined,
  })
}

const model = createModel(modelMachine, {
  events,
  input: { tokenBalances: [ETH, STK, SOL], sender: PAYER as never },
  serializeState: serialize,
})

/** What must hold in every state of the send flow. */
function invariant(snapshot: Snapshot): void {
  const c = snapshot.context
  const fail = (message: string) => {
    throw new Error(`${message} in ${JSON.stringify(snapshot.value)}`)
  }
  if (snapshot.status !== 'active') fail(`actor ${snapshot.status}`)
  const inFlight =
    snapshot.matches({ transaction: 'sending' }) || snapshot.matches({ transaction: 'confirming' })
  if (c.loading !== inFlight) fail('loading out of step with sending/confirming')
  if (snapshot.hasTag('loading') !== inFlight) fail('loading tag out of step')
  const busy =
    inFlight ||
    snapshot.matches('resolving') ||
    snapshot.matches('checkingToken') ||
    snapshot.matches({ transaction: { overdue: 'checking' } }) ||
    snapshot.matches({ previewing: 'estimating' }) ||
    snapshot.matches({ previewing: 'simulating' })
  if (snapshot.hasTag('busy') !== busy) fail('busy tag out of step')
  const failed =
    snapshot.matches('failed') ||
    snapshot.matches({ previewing: 'unavailable' }) ||
    snapshot.matches({ previewing: 'disagrees' })
  if (snapshot.hasTag('failed') !== failed) fail('failed tag out of step')
  if (failed && !c.error) fail('failed without an error')
  // A sent transaction is never abandoned by a reset; a request the wallet has not answered is (a disconnect).
  if (snapshot.can({ type: 'send.reset' }) === snapshot.matches({ transaction: 'confirming' }))
    fail('reset offered while confirming, or refused elsewhere')
  // A timed-out request keeps no hash (a late one is ignored) and the form as typed; on eip155 the chain is asked
  // about its nonce first (overdue), on Solana the send fails as before.
  if (
    c.error?.name === 'SendTimeoutError' &&
    (!(
      snapshot.matches({ failed: 'retryable' }) || snapshot.matches({ transaction: { overdue: 'checking' } })
    ) ||
      c.hash)
  )
    fail('a timed-out send outside failed.retryable or overdue.checking, or with a hash')
  // One payment, one transaction: "Send again" waits for the chain's first word on the nonce of the request left
  // to the wallet. (The nonce itself is the transaction's: its model, transaction.test.ts, holds where it is kept.)
  const overdue = snapshot.matches({ transaction: 'overdue' })
  if (snapshot.matches({ transaction: { overdue: 'checking' } }) && snapshot.can({ type: 'send.retry' }))
    fail('"Send again" offered before the chain was looked at')
  if (overdue && (c.hash || c.loading)) fail('overdue with a hash, or loading')
  // The rules the send gives its transaction: on eip155 the payment holds its nonce (past the time limit the chain
  // is asked about it); Solana's wallet confirms its own send (no nonce, no receipt awaited: the transaction's
  // model holds that such a transaction never confirms, polls or is overdue).
  const solana = c.token !== undefined && isSolanaToken(c.token)
  if (snapshot.matches('transaction')) {
    const { rules, chainId } = transactionOf(c)
    const expected = solana
      ? { holdsNonce: false, confirmedByWallet: true }
      : { holdsNonce: true, chainId: chainReference(c.token!) }
    if (JSON.stringify({ ...rules, ...(solana ? {} : { chainId }) }) !== JSON.stringify(expected))
      fail('a transaction without its namespace’s rules')
  }
  // An ERC-20 is read from its contract before its preview, and the contract's decimals are the listing's.
  const erc20 = c.token !== undefined && !isSolanaToken(c.token) && c.token.address !== undefined
  if (snapshot.matches('checkingToken') && !erc20) fail('a contract read for a token without one')
  const previewedOn = snapshot.matches('previewing') || snapshot.matches('transaction')
  if (previewedOn && erc20 && c.tokenOnChain?.decimals !== Number(c.token!.quantity.decimals))
    fail('an ERC-20 previewed without its contract agreeing on its decimals')

  if (snapshot.matches('editing') && c.hash !== undefined) fail('a hash while editing')
  // Solana's branches are a Solana token's, and the only ones it takes: no name lookup (no receipt polling: the
  // rules of its transaction above).
  const solanaState = snapshot.matches({ previewing: { estimating: 'solana' } })
  if (solanaState && !solana) fail('a Solana slot for another token')
  if (solana && snapshot.matches('resolving')) fail('a Solana token in an eip155-only state')
  if (solana && c.resolvedAddress !== undefined && !isSolanaAddress(c.resolvedAddress))
    fail('a Solana send to something other than a public key')
  // Past the form, the form is valid, and stays so (the form keeps its values through failures).
  const pastForm = !snapshot.matches('editing') && !snapshot.matches('done')
  if (pastForm && validateSend(c) !== undefined)
    fail(`an invalid form past editing (${validateSend(c)?.name})`)
  if (pastForm && hasWrongChecksum(c.receiverAddress)) fail('a receiver with a wrong checksum past the form')
  const addressed = pastForm && !snapshot.matches('resolving') && !snapshot.matches('checkingToken')
  if (addressed && !c.resolvedAddress) fail('no resolved receiver')
  if (c.receiverProfileName !== undefined && !c.receiverAddress?.includes('.'))
    fail('a profile for an address')
  if ((snapshot.matches({ previewing: 'ready' }) || inFlight) && !c.fee) fail('no fee shown before sending')
  if ((snapshot.matches({ previewing: 'ready' }) || inFlight) && c.error) fail('an old error shown')
  if (snapshot.matches({ transaction: 'sending' }) && c.hash) fail('an old hash while sending')
  if (
    (snapshot.matches({ transaction: 'confirming' }) || snapshot.matches({ failed: 'unconfirmed' })) &&
    !c.hash
  )
    fail('confirming without a hash')
  if (snapshot.matches({ failed: 'unconfirmed' }) && c.error?.name !== 'TransactionPendingError')
    fail('unconfirmed without the pending error')
  if (snapshot.matches({ failed: 'unconfirmed' }) && snapshot.can({ type: 'send.edit' }))
    fail('editing offered while the sent transaction may still land')
  // The selectors the views read follow the states.
  const status = selectSendStatus(snapshot)
  const statusStates: Array<[SendStatus, boolean]> = [
    ['editing', snapshot.matches('editing')],
    ['resolving', snapshot.matches('resolving')],
    ['checkingToken', snapshot.matches('checkingToken')],
    ['overdue', overdue],
    ['estimating', snapshot.matches({ previewing: 'estimating' })],
    ['ready', snapshot.matches({ previewing: 'ready' })],
    ['unavailable', snapshot.matches({ previewing: 'unavailable' })],
    ['simulating', snapshot.matches({ previewing: 'simulating' })],
    ['disagrees', snapshot.matches({ previewing: 'disagrees' })],
    ['sending', snapshot.matches({ transaction: 'sending' })],
    ['confirming', snapshot.matches({ transaction: 'confirming' })],
    ['retryable', snapshot.matches({ failed: 'retryable' })],
    ['unconfirmed', snapshot.matches({ failed: 'unconfirmed' })],
    ['done', snapshot.matches('done')],
  ]
  for (const [name, inState] of statusStates)
    if ((status === name) !== inState) fail(`status ${status} vs ${name}`)
  if (selectIsPreviewing(snapshot) !== snapshot.matches('previewing')) fail('selectIsPreviewing out of step')
  if (selectInFlight(snapshot) !== (inFlight || snapshot.matches({ failed: 'unconfirmed' }) || overdue))
    fail('selectInFlight out of step')
  if (selectFormError(snapshot) !== (snapshot.matches('editing') ? c.error : undefined))
    fail('selectFormError out of step')
  // See before you sign: confirm only from ready; a disagreeing simulation says why and never reaches the wallet;
  // Solana has no simulation here.
  if (snapshot.can({ type: 'send.confirm' }) !== snapshot.matches({ previewing: 'ready' }))
    fail('confirm offered outside ready, or refused in ready')
  if (snapshot.matches({ previewing: 'disagrees' }) && c.error?.name !== 'SimulationDisagreementError')
    fail('a disagreeing simulation without its error')
  if (solana && (c.simulation || snapshot.matches({ previewing: 'simulating' })))
    fail('a Solana send simulated by the eip155 slot')
  if (snapshot.matches({ previewing: 'estimating' }) && c.simulation)
    fail('an old simulation while estimating')
  if (snapshot.matches('done')) {
    if (!c.hash) fail('done without a hash')
    if (c.token || c.sendTokenAmount || c.receiverAddress || c.resolvedAddress || c.fee || c.error)
      fail('done without the send state reset')
  }
}

/** A readable path name: answers are named by the slot. */
function short(path: ModelPath): string {
  if (path.steps.length === 0) return '(initial state)'
  return path.steps
    .map(({ event }) => {
      const e = event as Event
      if (e.type === 'send.setToken') return `setToken(${e.token.symbol})`
      if (e.type === 'send.setTokenBalances') return `setTokenBalances(${e.tokenBalances.length})`
      const answer = /^xstate\.(done|error)\.actor\.(.+)$/.exec(event.type)
      if (!answer) return describeEvent(event).replace(/^send\./, '')
      if (answer[1] === 'error') return `failure(${answer[2]})`
      const output = (event as { output?: unknown }).output as { status?: string; formatted?: string }
      const detail = output?.status ?? (output?.formatted ? `fee ${output.formatted}` : '')
      return `answer(${answer[2]}${detail ? `, ${detail}` : ''})`
    })
    .join(' → ')
}

describe('send machine, model-based', () => {
  it('has the expected number of covering paths (a change to the machine shows here)', () => {
    expect(model.paths.length).toBe(63)
  })

  for (const path of model.paths) {
    it(`replays ${short(path)}`, () => {
      replayPath(model, path, { invariant })
    })
  }

  it('reaches every state and takes every transition of the machine (replaying every path itself)', () => {
    const results: ReplayResult[] = model.paths.map((path) => replayPath(model, path, { invariant }))
    expect(results).toHaveLength(63)
    assertCoverage(model, results)
  })
})
