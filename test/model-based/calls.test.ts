import { describe, expect, it } from 'vitest'
import { createActor, type EventFromLogic, fromPromise, type SnapshotFrom, waitFor } from 'xstate'
import {
  BATCHED_CALLS_RULE,
  CallsFailedError,
  callsErrorInfo,
  ShowCallsStatusUnsupportedError,
} from '../../src/errors/calls'
import { callsMachine } from '../../src/machines/calls'
import type { AtomicStatus, CallsRequest, CallsStatus } from '../../src/machines/calls/types'
import { assertCoverage, createModel, replayPath } from '../../src/testing'
import { replayAll } from './paths'

/**
 * Batched calls (src/machines/calls.ts): every order of the host's batches (valid, breaking SPEC §5), the
 * account, and the wallet's answers (its capabilities: atomic or not; the batch taken or declined; its status
 * pending, confirmed or failed). The slots never settle on their own: each answer is an event of the path. The
 * invariant holds what the host reads (src/react/calls.ts): no wallet is asked for a batch that breaks SPEC §5 or
 * without an account, a batch sent one call at a time was announced so, and an outcome has its facts.
 */
const never = <T>() => new Promise<T>(() => {})
let asked: string[] = []
const modelMachine = callsMachine.provide({
  actors: {
    capabilities: fromPromise(never<AtomicStatus>),
    sendCalls: fromPromise(never<string>),
    callsStatus: fromPromise(never<CallsStatus>),
    showCallsStatus: fromPromise(never<CallsStatus | null>),
  },
  actions: {
    tellSequential: () => {
      asked.push('sequential')
    },
  },
})
type Machine = typeof modelMachine
type Snapshot = SnapshotFrom<Machine>
type Event = EventFromLogic<Machine>

const ALICE = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const BOB = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' as const
const HASH = `0x${'ab'.repeat(32)}` as const
const VALID: CallsRequest = {
  calls: [
    { to: BOB, value: '0x1' as const },
    { to: BOB, data: '0xa9059cbb' as const },
  ],
}
const INVALID: CallsRequest = { calls: [{ to: BOB }, { to: 'bob.eth' as `0x${string}` }] }
const receipt = (status: 'success' | 'reverted') => ({ transactionHash: HASH, blockNumber: '16', status })

// The done and error events of invoked actors are machine-internal types, so they are cast as events.
const events = [
  { type: 'calls.send', id: 1, request: VALID },
  { type: 'calls.send', id: 2, request: INVALID },
  { type: 'calls.account', account: undefined },
  { type: 'calls.account', account: { address: ALICE, chainId: 31337 } },
  { type: 'xstate.done.actor.capabilities', output: 'supported' },
  { type: 'xstate.done.actor.capabilities', output: 'unsupported' },
  { type: 'xstate.error.actor.capabilities', error: new Error('invalid capabilities') },
  // The batch child (src/machines/calls/batch.ts, its own model in batch.test.ts): the wallet took the batch, and
  // how it ended.
  { type: 'batch.sent', id: 'batch-1' },
  {
    type: 'xstate.done.actor.batch',
    output: {
      status: 'failed',
      error: callsErrorInfo(Object.assign(new Error('User rejected'), { code: 4001 })),
    },
  },
  {
    type: 'xstate.done.actor.batch',
    output: {
      status: 'confirmed',
      id: 'batch-1',
      result: { status: 'success', atomic: false, receipts: [receipt('success'), receipt('success')] },
    },
  },
  {
    type: 'xstate.done.actor.batch',
    output: {
      status: 'failed',
      id: 'batch-1',
      result: { status: 'failure', atomic: false, receipts: [receipt('success'), receipt('reverted')] },
      error: callsErrorInfo(new CallsFailedError({ details: '1 of 2 calls reverted or were not sent' })),
    },
  },
  // wallet_showCallsStatus, beside any batch: asked, and the slot's answers (the wallet showed it; the status read
  // for the kit to show; the wallet without the method).
  { type: 'calls.showStatus', id: 3, batchId: 'batch-1' },
  { type: 'xstate.done.actor.showCallsStatus', output: null },
  {
    type: 'xstate.done.actor.showCallsStatus',
    output: { status: 'failure', atomic: true, receipts: [receipt('reverted')] },
  },
  {
    type: 'xstate.error.actor.showCallsStatus',
    error: new ShowCallsStatusUnsupportedError(),
  },
  // Its time limit (the machine raises it after `callsShowStatus`).
  { type: 'calls.showTimedOut' },
] as unknown as Event[]

const serializeState = (s: Snapshot) =>
  JSON.stringify([
    s.value,
    s.context.account !== undefined,
    s.context.calls?.phase,
    s.context.calls?.sequential,
    s.context.calls?.error?.name,
    s.context.refused !== undefined,
    s.context.shown?.phase,
  ])

const modelFor = (connected: boolean) =>
  createModel(modelMachine, {
    input: { account: connected ? { address: ALICE, chainId: 31337 } : undefined },
    events,
    serializeState,
  })
const connected = modelFor(true)
const disconnected = modelFor(false)
// 19 each before wallet_showCallsStatus; its phases (showing, shown, failed) beside every batch state, and its
// time limit: 26.
const CONNECTED_PATHS = 26
const DISCONNECTED_PATHS = 26

function invariant(s: Snapshot) {
  const { calls, refused } = s.context
  const sending = s.matches('checking') || s.matches('sending')
  if (sending !== (calls?.phase === 'sending'))
    throw new Error('a batch on its way outside the sending states')
  if (calls?.id === 2 && calls.phase !== 'failed') throw new Error('a batch breaking SPEC §5 went on')
  if (
    calls?.id === 2 &&
    calls.error?.message !== BATCHED_CALLS_RULE &&
    calls.error?.name !== 'CallsNotConnectedError'
  )
    throw new Error('a batch breaking SPEC §5 refused without the rule')
  if (calls?.batchId && calls.request !== VALID) throw new Error('a wallet got a batch that was not valid')
  if (s.matches('confirmed') && (calls?.phase !== 'succeeded' || calls.result?.receipts.length !== 2))
    throw new Error('confirmed without both receipts')
  if (s.matches('failed') && !calls?.error) throw new Error('failed without its error')
  if (refused && refused.error.name !== 'CallsBusyError') throw new Error('a busy refusal of another kind')
  if (calls?.sequential && calls.atomic !== 'unsupported')
    throw new Error('sequential, yet the wallet batches')
  const { shown } = s.context
  if (shown && !s.context.account && shown.phase !== 'failed')
    throw new Error('a status shown without an account')
  if (shown?.phase === 'failed' && !shown.error) throw new Error('a status not shown without its error')
}

describe('Batched calls, model-based', () => {
  it('has the expected number of covering paths (a change to the machine shows here)', () => {
    expect([connected.paths.length, disconnected.paths.length]).toEqual([CONNECTED_PATHS, DISCONNECTED_PATHS])
  })

  for (const [name, model] of [
    ['connected', connected],
    ['disconnected', disconnected],
  ] as const)
    for (const path of model.paths)
      it(`replays, ${name}, ${path.description}`, () => {
        asked = []
        replayPath(model, path, { invariant })
      })

  it('reaches every state and takes every transition of the machine', () => {
    assertCoverage(connected, replayAll([connected, disconnected], { invariant }))
  })
})

describe('Batched calls, with answering slots', () => {
  const run = (atomic: AtomicStatus, statuses: CallsStatus['status'][]) => {
    const sent: unknown[] = []
    const notices: string[] = []
    const actor = createActor(
      callsMachine.provide({
        actors: {
          capabilities: fromPromise(async () => atomic),
          sendCalls: fromPromise(async ({ input }) => {
            sent.push(input)
            return 'batch-1'
          }),
          callsStatus: fromPromise(async (): Promise<CallsStatus> => {
            const status = statuses.shift() ?? 'pending'
            return {
              status,
              atomic: atomic === 'supported',
              receipts: [receipt('success'), receipt('success')],
            }
          }),
        },
        delays: { callsStatusPoll: 0 },
      }),
      { input: { account: { address: ALICE, chainId: 31337 } } },
    ).start()
    actor.on('*', (notice) => notices.push(notice.type))
    return { actor, sent, notices }
  }

  it('a wallet without atomic batching: the visitor is told, the batch is followed until final', async () => {
    const { actor, sent, notices } = run('unsupported', ['pending', 'pending', 'success'])
    actor.send({ type: 'calls.send', id: 1, request: VALID })
    const done = await waitFor(actor, (s) => s.matches('confirmed') || s.matches('failed'))
    expect(done.value).toBe('confirmed')
    expect(done.context.calls).toMatchObject({ sequential: true, batchId: 'batch-1', phase: 'succeeded' })
    expect(notices).toEqual(['calls.sequential', 'calls.succeeded'])
    expect(sent).toEqual([{ calls: VALID.calls, chainId: 31337 }])
  })

  it('a wallet with atomic batching: no notice of separate prompts', async () => {
    const { actor, notices } = run('supported', ['success'])
    actor.send({ type: 'calls.send', id: 1, request: VALID })
    await waitFor(actor, (s) => s.matches('confirmed'))
    expect(notices).toEqual(['calls.succeeded'])
  })

  it('a batch breaking SPEC §5 is refused before any wallet is asked, with the rule', () => {
    const { actor, sent } = run('supported', [])
    actor.send({ type: 'calls.send', id: 2, request: INVALID })
    expect(actor.getSnapshot().value).toBe('failed')
    expect(actor.getSnapshot().context.calls?.error).toMatchObject({
      name: 'InvalidBatchedCallError',
      message: BATCHED_CALLS_RULE,
      details: "call 2: 'to' does not start with 0x",
    })
    expect(sent).toEqual([])
  })

  describe('wallet_showCallsStatus', () => {
    const show = (answer: () => Promise<CallsStatus | null>, account = true) => {
      const asked: unknown[] = []
      const notices: unknown[] = []
      const actor = createActor(
        callsMachine.provide({
          actors: {
            showCallsStatus: fromPromise(async ({ input }) => {
              asked.push(input)
              return answer()
            }),
          },
        }),
        { input: { account: account ? { address: ALICE, chainId: 31337 } : undefined } },
      ).start()
      actor.on('*', (notice) => notices.push(notice))
      actor.send({ type: 'calls.showStatus', id: 7, batchId: 'batch-1' })
      return { actor, asked, notices }
    }

    it('the status read for a wallet that does not show it (the embedded wallet): shown by the kit in words', async () => {
      const { actor, asked, notices } = show(async () => ({
        status: 'failure',
        atomic: true,
        receipts: [receipt('reverted')],
      }))
      const done = await waitFor(actor, (s) => s.context.shown?.phase !== 'showing')
      expect(done.context.shown).toEqual({ id: 7, batchId: 'batch-1', phase: 'shown' })
      expect(asked).toEqual([{ id: 'batch-1', chainId: 31337 }])
      expect(notices).toEqual([{ type: 'calls.status', status: 'reverted', receipts: 1 }])
      expect(done.value).toBe('idle')
    })

    it('a wallet that shows it itself: nothing for the kit to show', async () => {
      const { actor, notices } = show(async () => null)
      await waitFor(actor, (s) => s.context.shown?.phase === 'shown')
      expect(notices).toEqual([])
    })

    it('a wallet without the method, or a hostile answer: the host gets a clear error', async () => {
      const { actor, notices } = show(async () => {
        throw new ShowCallsStatusUnsupportedError()
      })
      const done = await waitFor(actor, (s) => s.context.shown?.phase === 'failed')
      expect(done.context.shown?.error).toMatchObject({
        name: 'ShowCallsStatusUnsupportedError',
        message: "The wallet cannot show a batch's status (no wallet_showCallsStatus)",
      })
      expect(notices).toEqual([])
    })

    it('a wallet that never answers: the host is told within the time limit', async () => {
      const actor = createActor(
        callsMachine.provide({
          actors: { showCallsStatus: fromPromise(never<CallsStatus | null>) },
          delays: { callsShowStatus: 0 },
        }),
        { input: { account: { address: ALICE, chainId: 31337 } } },
      ).start()
      actor.send({ type: 'calls.showStatus', id: 8, batchId: 'batch-1' })
      const done = await waitFor(actor, (s) => s.context.shown?.phase !== 'showing')
      expect(done.context.shown?.error).toMatchObject({
        name: 'CallsTimeoutError',
        details: 'wallet_showCallsStatus',
      })
      expect(done.children.showCallsStatus).toBeUndefined()
    })

    it('without an account: refused, no wallet asked', () => {
      const { actor, asked } = show(async () => null, false)
      expect(actor.getSnapshot().context.shown).toMatchObject({
        phase: 'failed',
        error: { name: 'CallsNotConnectedError' },
      })
      expect(asked).toEqual([])
    })
  })
})
