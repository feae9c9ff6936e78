import { describe, expect, it } from 'vitest'
import { createActor, type EventFromLogic, fromPromise, type SnapshotFrom, waitFor } from 'xstate'
import { type BatchInput, type BatchOutput, batchMachine } from '../../src/machines/calls/batch'
import type { CallsStatus } from '../../src/machines/calls/types'
import { assertCoverage, createModel, replayPath } from '../../src/testing'

/**
 * A batch's life (src/machines/calls/batch.ts), the child the host's batches and the swap's approval and swap run
 * on: every order of the wallet's answers (the batch taken or declined; its status pending, confirmed, failed, or
 * not read) and of the time limits. Slots never settle on their own: each answer is an event of the path. The
 * invariant: the wallet is asked once, a batch is followed only by its id, and an end has its facts. (The SPEC §5
 * rule is its parents' guard, checked before it starts: calls.test.ts, swap.test.ts.)
 */
const never = <T>() => new Promise<T>(() => {})
let asked = 0
const modelMachine = batchMachine.provide({
  actors: {
    sendCalls: fromPromise(() => {
      asked++
      return never<string>()
    }),
    callsStatus: fromPromise(never<CallsStatus>),
  },
})
type Machine = typeof modelMachine
type Snapshot = SnapshotFrom<Machine>
type Event = EventFromLogic<Machine>

const BOB = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' as const
const HASH = `0x${'ab'.repeat(32)}` as const
const receipt = (status: 'success' | 'reverted') => ({ transactionHash: HASH, blockNumber: '16', status })
const CALLS: BatchInput['calls'] = [
  { to: BOB, data: '0x095ea7b3' },
  { to: BOB, value: '0x1' },
]
const INPUT: BatchInput = { calls: CALLS, chainId: 31337, prompts: 1, atomicRequired: true }

// The done and error events of invoked actors are machine-internal types, so they are cast as events.
const events = [
  { type: 'xstate.done.actor.sendCalls', output: 'batch-1' },
  { type: 'xstate.error.actor.sendCalls', error: Object.assign(new Error('User rejected'), { code: 4001 }) },
  { type: 'xstate.done.actor.callsStatus', output: { status: 'pending', atomic: true, receipts: [] } },
  {
    type: 'xstate.done.actor.callsStatus',
    output: { status: 'success', atomic: true, receipts: [receipt('success')] },
  },
  {
    type: 'xstate.done.actor.callsStatus',
    output: { status: 'failure', atomic: true, receipts: [receipt('reverted')] },
  },
  { type: 'xstate.error.actor.callsStatus', error: new Error('HTTP 503') },
] as unknown as Event[]

const serializeState = (s: Snapshot) =>
  JSON.stringify([
    s.value,
    s.context.id !== undefined,
    s.context.output?.status,
    s.context.output?.status === 'failed' ? s.context.output.error.name : undefined,
  ])

const model = createModel(modelMachine, { input: INPUT, events, serializeState })
const PATHS = 10

function invariant(s: Snapshot) {
  const output = s.context.output as BatchOutput | undefined
  if (s.matches('ended') !== (output !== undefined)) throw new Error('an end without its output')
  if (asked !== 1) throw new Error(`the wallet asked ${asked} times`)
  if (s.matches('following') && !s.context.id) throw new Error('followed without its id')
  if (output?.status === 'confirmed' && output.result.receipts.length === 0)
    throw new Error('confirmed without its receipt')
  if (output?.status === 'failed' && !output.error.name) throw new Error('failed without its error')
}

describe('A batch, model-based', () => {
  it('has the expected number of covering paths (a change to the machine shows here)', () => {
    expect(model.paths.length).toBe(PATHS)
  })

  for (const path of model.paths)
    it(`replays ${path.description}`, () => {
      asked = 0
      replayPath(model, path, { invariant })
    })

  it('reaches every state and takes every transition of the machine', () => {
    const results = model.paths.map((path) => {
      asked = 0
      return replayPath(model, path, { invariant })
    })
    assertCoverage(model, results)
  })
})

describe('A batch, with answering slots', () => {
  it('asks once with atomicRequired, tells its id, then follows it to its receipts', async () => {
    const sent: unknown[] = []
    const statuses: CallsStatus['status'][] = ['pending', 'success']
    const actor = createActor(
      batchMachine.provide({
        actors: {
          sendCalls: fromPromise(async ({ input }) => {
            sent.push(input)
            return 'batch-1'
          }),
          callsStatus: fromPromise(
            async (): Promise<CallsStatus> => ({
              status: statuses.shift() ?? 'pending',
              atomic: true,
              receipts: [receipt('success')],
            }),
          ),
        },
        delays: { callsStatusPoll: 0 },
      }),
      { input: INPUT },
    ).start()
    const done = await waitFor(actor, (s) => s.status === 'done')
    expect(sent).toEqual([{ calls: CALLS, chainId: 31337, atomicRequired: true }])
    expect(done.output).toEqual({
      status: 'confirmed',
      id: 'batch-1',
      result: { status: 'success', atomic: true, receipts: [receipt('success')] },
    })
    expect(statuses).toEqual([])
  })

  it('a failure status: the calls error with how many reverted', async () => {
    const actor = createActor(
      batchMachine.provide({
        actors: {
          sendCalls: fromPromise(async () => 'batch-1'),
          callsStatus: fromPromise(
            async (): Promise<CallsStatus> => ({
              status: 'failure',
              atomic: true,
              receipts: [receipt('reverted')],
            }),
          ),
        },
      }),
      { input: INPUT },
    ).start()
    const done = await waitFor(actor, (s) => s.status === 'done')
    expect(done.output).toMatchObject({
      status: 'failed',
      id: 'batch-1',
      error: { name: 'CallsFailedError', details: '1 of 2 calls reverted or were not sent' },
    })
  })
})
