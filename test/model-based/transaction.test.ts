import type { Hex } from 'viem'
import { describe, expect, it } from 'vitest'
import { type EventFromLogic, fromPromise, type SnapshotFrom } from 'xstate'
import {
  type NonceReading,
  type NonceStatus,
  type TransactionInput,
  type TransactionNotice,
  type TransactionReceipt,
  transactionMachine,
} from '../../src/machines/transaction'
import {
  assertCoverage,
  createModel,
  describeEvent,
  type Model,
  type ModelPath,
  type ReplayResult,
  replayPath,
} from '../../src/testing'

/**
 * The transaction machine's model (src/machines/transaction.ts), explored once per set of rules its parents
 * give it: a payment that holds a nonce (send on eip155), a request left open until its deadline (the swap), a
 * request failed at the time limit (an approval), a wallet that confirms itself (Solana), and a transaction
 * already sent whose receipt is looked for again. Slots never settle on their own: each answer is an event of
 * the path, and the time limit, the deadline and the receipt windows are explored as delayed events.
 *
 * The notices to the parent are checked for what they announce (the notify action is replaced by a check);
 * together the models reach every state and take every transition.
 */
const never = <T>() => new Promise<T>(() => {})
const HASH = `0x${'ab'.repeat(32)}` as Hex
const MALFORMED = `0x${'ab'.repeat(31)}`
const PAYER = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'
const OTHER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

const modelMachine = transactionMachine.provide({
  actors: {
    ask: fromPromise(never<string>),
    readNonce: fromPromise(never<NonceReading>),
    checkNonce: fromPromise(never<NonceStatus>),
    watchNonce: fromPromise(never<NonceStatus>),
    waitForReceipt: fromPromise(never<TransactionReceipt>),
    pollReceipt: fromPromise(never<TransactionReceipt>),
  },
  actions: {
    notify: ({ context }, notice: TransactionNotice) => {
      if (notice.type === 'transaction.submitted' && (!notice.hash || notice.hash !== context.hash))
        throw new Error('transaction.submitted without the hash it announces')
      if (notice.type === 'transaction.failedAgain' && !(notice.error instanceof Error))
        throw new Error('transaction.failedAgain without the error')
    },
  },
})

type Machine = typeof modelMachine
type Snapshot = SnapshotFrom<Machine>
type Event = EventFromLogic<Machine>

// The done and error events of invoked actors are machine-internal types, so they are cast as events.
const events = [
  { type: 'xstate.done.actor.readNonce', output: { from: PAYER, nonce: 5, fromBlock: '100' } },
  { type: 'xstate.error.actor.readNonce', error: new Error('RPC down') },
  { type: 'xstate.done.actor.ask', output: HASH },
  // SPEC §5: a wallet's answer that is no transaction hash (0x and 64 hex characters).
  { type: 'xstate.done.actor.ask', output: MALFORMED },
  { type: 'xstate.error.actor.ask', error: new Error('User rejected the request') },
  { type: 'xstate.done.actor.waitForReceipt', output: { status: 'success', blockNumber: '1' } },
  { type: 'xstate.done.actor.waitForReceipt', output: { status: 'reverted', blockNumber: '1' } },
  { type: 'xstate.error.actor.waitForReceipt', error: new Error('Timed out while waiting for transaction') },
  { type: 'xstate.done.actor.pollReceipt', output: { status: 'success', blockNumber: '2' } },
  { type: 'xstate.done.actor.pollReceipt', output: { status: 'reverted', blockNumber: '2' } },
  { type: 'xstate.done.actor.checkNonce', output: { status: 'open' } },
  { type: 'xstate.done.actor.checkNonce', output: { status: 'mined', hash: HASH } },
  { type: 'xstate.done.actor.checkNonce', output: { status: 'taken' } },
  { type: 'xstate.error.actor.checkNonce', error: new Error('RPC down') },
  { type: 'xstate.done.actor.watchNonce', output: { status: 'mined', hash: HASH } },
  { type: 'xstate.done.actor.watchNonce', output: { status: 'taken' } },
  { type: 'xstate.done.actor.watchNonce', output: { status: 'open' } },
  { type: 'transaction.retry' },
  // Asked again by the account the nonce is held for, and by another one (connected meanwhile).
  { type: 'transaction.retry', from: PAYER.toLowerCase() },
  { type: 'transaction.retry', from: OTHER },
] as unknown as Event[]

const REQUEST = { to: PAYER, value: '1' }
const RULES: Record<string, TransactionInput> = {
  nonce: { chainId: 31337, request: REQUEST, rules: { holdsNonce: true }, payment: REQUEST },
  deadline: { chainId: 31337, request: REQUEST, rules: { holdsNonce: false, deadlineMs: 60_000 } },
  plain: { chainId: 31337, request: REQUEST, rules: { holdsNonce: false } },
  // Solana's send: nothing is read from its chain.
  wallet: {
    chainId: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
    request: REQUEST,
    rules: { holdsNonce: false, confirmedByWallet: true },
  },
  sent: { chainId: 31337, request: REQUEST, rules: { holdsNonce: false }, hash: HASH },
}

function serialize(snapshot: Snapshot): string {
  const c = snapshot.context
  return JSON.stringify({
    value: snapshot.value,
    status: snapshot.status,
    nonce: c.nonce ? (c.nonce.abandoned ? 'abandoned' : 'held') : null,
    hash: c.hash !== undefined,
    result: c.result ? [c.result.status, 'reason' in c.result ? c.result.reason : null] : null,
  })
}

const models = Object.entries(RULES).map(
  ([name, input]) => [name, createModel(modelMachine, { events, input, serializeState: serialize })] as const,
)

/** What must hold in every state of a transaction's life. */
function invariant(snapshot: Snapshot): void {
  const c = snapshot.context
  const fail = (message: string) => {
    throw new Error(`${message} in ${JSON.stringify(snapshot.value)}`)
  }
  const ended = snapshot.matches('ended')
  if (ended !== (snapshot.status === 'done')) fail('ended without being done, or done elsewhere')
  if (ended && !c.result) fail('ended without an output')
  if (ended && snapshot.output !== c.result) fail('the output is not the result')
  if (!ended && c.result) fail('a result before the end')
  if (snapshot.hasTag('loading') !== (snapshot.matches('sending') || snapshot.matches('confirming')))
    fail('loading out of step with sending/confirming')
  if (snapshot.hasTag('busy') !== (snapshot.hasTag('loading') || snapshot.matches({ overdue: 'checking' })))
    fail('busy out of step')
  // One request, one nonce: every wallet request of a payment asks for the nonce it holds.
  if (snapshot.matches({ sending: 'asking' }) && c.rules.holdsNonce && !c.nonce)
    fail('a wallet request without the nonce')
  if (
    !c.rules.holdsNonce &&
    (c.nonce || snapshot.matches('overdue') || snapshot.matches({ sending: 'nonce' }))
  )
    fail('a nonce where the rules hold none')
  if (snapshot.matches('overdue') && !snapshot.matches({ overdue: 'taken' }) && !c.nonce?.abandoned)
    fail('overdue without the nonce of the request left to the wallet')
  if ((snapshot.matches({ overdue: 'taken' }) || snapshot.matches('confirming')) && c.nonce)
    fail('the nonce held after its transaction is known (or taken)')
  if (snapshot.matches({ overdue: 'checking' }) && snapshot.can({ type: 'transaction.retry' }))
    fail('asking again before the chain was looked at')
  if ((snapshot.matches('overdue') || snapshot.matches('sending')) && c.hash)
    fail('a hash before one is known')
  if (snapshot.matches('confirming') && !c.hash) fail('confirming without a hash')
  if (snapshot.matches({ sending: { asking: 'late' } }) && c.rules.deadlineMs === undefined)
    fail('left open without a deadline')
  if (c.rules.confirmedByWallet && snapshot.matches('confirming'))
    fail('a receipt awaited for a confirmed one')
  const r = c.result
  if (r?.status === 'mined' && r.hash !== c.hash) fail('mined with another hash')
  if (r?.status === 'failed' && (r.reason === 'reverted' || r.reason === 'unseen') && !r.hash)
    fail('a sent transaction failed without its hash')
  if (r?.status === 'failed' && r.reason === 'expired' && c.rules.deadlineMs === undefined)
    fail('expired without a deadline')
  if (r?.status === 'failed' && r.reason === 'timedOut' && (c.nonce || c.rules.deadlineMs !== undefined))
    fail('failed at the time limit while a request may still be signed')
}

function short(path: ModelPath): string {
  if (path.steps.length === 0) return '(initial state)'
  return path.steps
    .map(({ event }) => {
      const answer = /^xstate\.(done|error)\.actor\.(.+)$/.exec(event.type)
      if (!answer) return describeEvent(event)
      if (answer[1] === 'error') return `failure(${answer[2]})`
      const output = (event as { output?: unknown }).output as { status?: string } | string
      const detail = typeof output === 'object' ? output?.status : undefined
      return `answer(${answer[2]}${detail ? `, ${detail}` : ''})`
    })
    .join(' → ')
}

const PATHS: Record<string, number> = { nonce: 26, deadline: 12, plain: 11, wallet: 3, sent: 3 }

describe('transaction machine, model-based', () => {
  for (const [name, model] of models) {
    describe(`rules: ${name}`, () => {
      it('has the expected number of covering paths (a change to the machine shows here)', () => {
        expect(model.paths.length).toBe(PATHS[name])
      })
      for (const path of model.paths) {
        it(`replays ${short(path)}`, () => {
          replayPath(model, path, { invariant })
        })
      }
    })
  }

  it('reaches every state and takes every transition of the machine, over every set of rules', () => {
    const results: ReplayResult[] = models.flatMap(([, model]) =>
      model.paths.map((path) => replayPath(model, path, { invariant })),
    )
    assertCoverage(models[0]![1] as Model<Machine>, results)
  })
})
