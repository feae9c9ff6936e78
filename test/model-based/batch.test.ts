import { describe, expect, it } from 'vitest'
import { createActor, type EventFromLogic, fromPromise, type SnapshotFrom, waitFor } from 'xstate'
import { InvalidCallsStatusError } from '../../src/errors/calls'
import { type BatchInput, type BatchOutput, batchMachine } from '../../src/machines/calls/batch'
import type { CallsStatus } from '../../src/machines/calls/types'
import { assertCoverage, createModel, replayPath } from '../../src/testing'

/**
 * A batch's life (src/machines/calls/batch.ts), the child the host's batches and the swap's approval and swap run
 * on: every order of the wallet's answers (the batch taken or declined; its status pending, confirmed, failed, or
 * not read) and of the time limits. Slots never settle on their own: each answer is an event of the path. The
 * invariant: the wallet is asked once, a batch is followed only by its id, and an end has its facts. (The SPEC §5
 * rule is its parents' guard, checked before it starts: calls.test.ts, swap.test.ts.) A second model starts from a
 * batch sent before (its id given: only followed, the wallet never asked).
 *
 * Trust: only the wallet's final word or the deadline ends a batch the wallet took. A failed status read or a
 * "confirmed" without receipts is read again; at the deadline the outcome is unknown, never "failed".
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
  { type: 'xstate.done.actor.callsStatus', output: { status: 'success', atomic: true, receipts: [] } },
  { type: 'xstate.error.actor.callsStatus', error: new Error('HTTP 503') },
] as unknown as Event[]

const serializeState = (s: Snapshot) =>
  JSON.stringify([
    s.value,
    s.context.id !== undefined,
    s.context.output?.status,
    s.context.output?.status === 'confirmed' ? undefined : s.context.output?.error.name,
    s.context.readProblem !== undefined,
  ])

const model = createModel(modelMachine, { input: INPUT, events, serializeState })
const resumed = createModel(modelMachine, { input: { ...INPUT, id: 'batch-0' }, events, serializeState })
// 10 before the trust fix; a failed read and a confirmation without receipts now lead back to `waiting` (with
// their problem kept) and the deadline to an unknown outcome: 11, and 8 from a batch sent before.
const PATHS = 11
const RESUMED_PATHS = 8

function invariant(s: Snapshot) {
  const output = s.context.output as BatchOutput | undefined
  if (s.matches('ended') !== (output !== undefined)) throw new Error('an end without its output')
  if (asked !== (resuming ? 0 : 1)) throw new Error(`the wallet asked ${asked} times`)
  if (s.matches('following') && !s.context.id) throw new Error('followed without its id')
  if (output?.status === 'confirmed' && output.result.receipts.length === 0)
    throw new Error('confirmed without its receipt')
  if (output?.status === 'failed' && !output.error.name) throw new Error('failed without its error')
  // A batch the wallet took ends failed only on the wallet's word (declined, or a failure status with receipts).
  if (output?.status === 'failed' && output.id !== undefined && output.error.name !== 'CallsFailedError')
    throw new Error(`a sent batch ended as ${output.error.name}, not on the wallet's word`)
  if (output?.status === 'unknown' && output.error.name !== 'CallsOutcomeUnknownError')
    throw new Error('an unknown outcome not said')
}
let resuming = false

describe('A batch, model-based', () => {
  it('has the expected number of covering paths (a change to the machine shows here)', () => {
    expect([model.paths.length, resumed.paths.length]).toEqual([PATHS, RESUMED_PATHS])
  })

  for (const path of model.paths)
    it(`replays ${path.description}`, () => {
      asked = 0
      resuming = false
      replayPath(model, path, { invariant })
    })
  for (const path of resumed.paths)
    it(`replays, from a batch sent before, ${path.description}`, () => {
      asked = 0
      resuming = true
      replayPath(resumed, path, { invariant })
    })

  it('reaches every state and takes every transition of the machine', () => {
    const invariantOf = (resume: boolean) => (s: Snapshot) => {
      resuming = resume
      invariant(s)
    }
    const results = [
      ...model.paths.map((path) => {
        asked = 0
        return replayPath(model, path, { invariant: invariantOf(false) })
      }),
      ...resumed.paths.map((path) => {
        asked = 0
        return replayPath(resumed, path, { invariant: invariantOf(true) })
      }),
    ]
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

describe('A batch whose status cannot be read (trust: a failed read is not a failed batch)', () => {
  const following = (statusRead: () => Promise<CallsStatus>, input: BatchInput = INPUT) => {
    let sends = 0
    const actor = createActor(
      batchMachine.provide({
        actors: {
          sendCalls: fromPromise(async () => {
            sends++
            return 'batch-1'
          }),
          callsStatus: fromPromise(statusRead),
        },
        delays: { callsStatusPoll: 1 },
      }),
      { input },
    ).start()
    return { actor, sends: () => sends }
  }

  it('a failed or malformed read is made again, and the batch ends on the wallet’s word', async () => {
    const answers: Array<() => CallsStatus> = [
      () => {
        throw new Error('fetch failed')
      },
      () => {
        throw new InvalidCallsStatusError({ details: 'status: Invalid type' })
      },
      () => ({ status: 'success', atomic: true, receipts: [receipt('success')] }),
    ]
    const { actor, sends } = following(async () => answers.shift()!())
    const done = await waitFor(actor, (s) => s.status === 'done')
    expect(answers).toEqual([])
    expect(sends()).toBe(1)
    expect(done.output).toMatchObject({ status: 'confirmed', id: 'batch-1' })
  })

  it('reads failing until the deadline: the outcome is unknown (it may still land), never "failed"', async () => {
    let reads = 0
    const { actor } = following(
      async () => {
        reads++
        throw new Error('HTTP 503')
      },
      { ...INPUT, deadlineMs: 40 },
    )
    const done = await waitFor(actor, (s) => s.status === 'done')
    expect(reads).toBeGreaterThan(1)
    expect(done.output).toMatchObject({
      status: 'unknown',
      id: 'batch-1',
      error: { name: 'CallsOutcomeUnknownError', details: expect.stringContaining('Batch batch-1: ') },
    })
    expect(done.output).toMatchObject({ error: { message: expect.stringContaining('outcome is unknown') } })
  })

  it('"confirmed" without a receipt is not done: read again until the receipt comes', async () => {
    const answers: CallsStatus[] = [
      { status: 'success', atomic: true, receipts: [] },
      { status: 'success', atomic: true, receipts: [receipt('success')] },
    ]
    const { actor } = following(async () => answers.shift()!)
    const done = await waitFor(actor, (s) => s.status === 'done')
    expect(answers).toEqual([])
    expect(done.output).toMatchObject({ status: 'confirmed', result: { receipts: [receipt('success')] } })
  })

  it('"confirmed" without a receipt until the deadline: unknown, and says why', async () => {
    const { actor } = following(async () => ({ status: 'success', atomic: true, receipts: [] }), {
      ...INPUT,
      deadlineMs: 30,
    })
    const done = await waitFor(actor, (s) => s.status === 'done')
    expect(done.output).toMatchObject({
      status: 'unknown',
      error: { name: 'CallsOutcomeUnknownError', details: 'Batch batch-1: confirmed without a receipt' },
    })
  })

  it('given a batch sent before, only its status is read: the wallet is not asked again', async () => {
    const { actor, sends } = following(
      async () => ({ status: 'success', atomic: true, receipts: [receipt('success')] }),
      { ...INPUT, id: 'batch-0' },
    )
    const done = await waitFor(actor, (s) => s.status === 'done')
    expect(sends()).toBe(0)
    expect(done.output).toMatchObject({ status: 'confirmed', id: 'batch-0' })
  })
})
