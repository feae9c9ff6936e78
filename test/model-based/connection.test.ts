import { describe, expect, it } from 'vitest'
import { assign, createActor, type EventFromLogic, type InputFrom, setup } from 'xstate'
import { assertCoverage, createModel, describeEvent, type ModelPath, replayPath } from '../../src/testing'
import {
  connectionEvents,
  connectionInvariant,
  connectionModel,
  connectionModelMachine,
  serializeConnection,
} from './connection.model'
import { replayAll } from './paths'

type Event = EventFromLogic<typeof connectionModelMachine>

/** The machine's time limits, as the delayed events XState sends itself (the search below sends them too). */
const timeLimits = [
  'xstate.after.reconnectTimeout.connection.reconnecting',
  'xstate.after.connectTimeout.connection.connecting.requesting',
  'xstate.after.switchChainTimeout.connection.connected.switching',
  'xstate.after.disconnectTimeout.connection.disconnecting',
  'xstate.after.resumeLinkingTimeout.connection.resuming',
  'xstate.after.selectAccountTimeout.connection.connected.selectingAccount',
].map((type) => ({ type })) as unknown as Event[]

/**
 * Every state of the model's abstraction (see `serializeConnection`), each with the events that first reach
 * it: a breadth-first search over real actors, sending every listed event the state accepts.
 */
function reachable(input: InputFrom<typeof connectionModelMachine>): Map<string, Event[]> {
  const run = (events: Event[]) => {
    const actor = createActor(connectionModelMachine, { input }).start()
    for (const event of events) actor.send(event)
    const snapshot = actor.getSnapshot()
    actor.stop()
    return snapshot
  }
  const found = new Map<string, Event[]>([[serializeConnection(run([])), []]])
  const queue = [[] as Event[]]
  for (let events = queue.shift(); events; events = queue.shift()) {
    const snapshot = run(events)
    for (const event of [...connectionEvents, ...timeLimits].filter((e) => snapshot.can(e))) {
      const next = [...events, event]
      const key = serializeConnection(run(next))
      if (found.has(key)) continue
      found.set(key, next)
      queue.push(next)
    }
  }
  return found
}

/** A readable path name: answers are named by the wallet call, not spelled out. */
function short(path: ModelPath): string {
  if (path.steps.length === 0) return '(initial state)'
  return path.steps
    .map((step) => {
      const event = step.event as Event
      if (event.type === 'connection.connectors') return `connection.connectors(${event.connectors.length})`
      if (event.type === 'connection.changed')
        return `connection.changed(chain ${event.account.chainId}, …${event.account.address.slice(-4)})`
      const answer = /^xstate\.(done|error)\.actor\.\d+\.connection\.(.+)$/.exec(event.type)
      if (!answer) return describeEvent(event)
      const call = answer[2]!.split('.').at(-1)
      if (answer[1] === 'error') return `failure(${call})`
      const output = (event as { output?: { account?: unknown } }).output
      const detail = call === 'reconnecting' ? (output?.account ? ', account' : ', none') : ''
      return `answer(${call}${detail})`
    })
    .join(' → ')
}

describe('connection machine, model-based', () => {
  const reusing = connectionModel(true)
  const plain = connectionModel(false)

  it('has the expected number of covering paths (a change to the machine shows here)', () => {
    // +6 each: connected.selectingAccount (SPEC §3 allAccounts), its two answers (the account not shown yet, or
    // already shown by the connector's own change), its failure and time limit, and the wallet's own switch.
    // +1 each: a multichain pairing's side (`along`) the wallet did not approve, back to disconnected quietly.
    expect(reusing.paths.length).toBe(47)
    expect(plain.paths.length).toBe(46)
  })

  for (const [name, model] of [
    ['reusing pairings (Telegram, iOS Safari)', reusing],
    ['elsewhere', plain],
  ] as const) {
    describe(name, () => {
      for (const path of model.paths) {
        it(`replays ${short(path)}`, () => {
          replayPath(model, path, { invariant: connectionInvariant })
        })
      }
    })
  }

  it('the invariant holds in every reachable state, not only along the covering paths', () => {
    let states = 0
    for (const model of [reusing, plain]) {
      const reached = reachable(model.input!)
      for (const [key, events] of reached) {
        const actor = createActor(connectionModelMachine, { input: model.input! }).start()
        for (const event of events) actor.send(event)
        expect(serializeConnection(actor.getSnapshot())).toBe(key)
        expect(
          () => connectionInvariant(actor.getSnapshot()),
          `${key} after ${events.length} events`,
        ).not.toThrow()
        actor.stop()
      }
      states += reached.size
    }
    // +36: connected.selectingAccount, and its failure kept as the error in `connected`, under each reachable state.
    // +86: the states under a connect to a multichain pairing's side (its own target), in both models.
    expect(states).toBe(288)
  })

  it('only the reusing model goes straight from disconnected to pairing', () => {
    const straight = (path: ModelPath) =>
      path.steps.some(
        (step, i) =>
          step.event.type === 'connection.connect' &&
          step.expected.includes('"pairing"') &&
          path.steps[i - 1]?.expected.includes('"disconnected"'),
      )
    expect(reusing.paths.some(straight)).toBe(true)
    expect(plain.paths.some(straight)).toBe(false)
  })

  it('reaches every state and takes every transition of the machine, over both models (replayed here)', () => {
    const results = replayAll([reusing, plain], { invariant: connectionInvariant })
    expect(results).toHaveLength(47 + 46)
    assertCoverage(reusing, results)
  })
})

/**
 * The harness itself: a state's `onDone` listens for XState's own `xstate.done.state.*`, which no one may send;
 * it happens when the final state is reached. The model must not send it, must still count the `onDone`
 * transition (and an `always` one) as taken, and must cover the machine.
 */
describe('model harness: completion and eventless transitions', () => {
  const machine = setup({
    types: { context: {} as { sent: number }, events: {} as { type: 'fill' } | { type: 'submit' } },
    guards: { sentOnce: ({ context }) => context.sent > 0 },
  }).createMachine({
    id: 'form',
    context: { sent: 0 },
    initial: 'editing',
    states: {
      editing: {
        initial: 'empty',
        states: {
          empty: { on: { fill: 'filled' } },
          filled: { on: { submit: 'done' } },
          done: { type: 'final' },
        },
        onDone: { target: 'sent', actions: assign({ sent: ({ context }) => context.sent + 1 }) },
      },
      sent: { always: { guard: 'sentOnce', target: 'closed' } },
      closed: { type: 'final' },
    },
  })
  const model = createModel(machine, { events: [] })

  it('never sends xstate.done.state.*', () => {
    const sent = model.paths.flatMap((path) => path.steps.map((step) => step.event.type))
    expect(sent.filter((type) => type.startsWith('xstate.done.state.'))).toEqual([])
    expect(model.paths.map((path) => path.description)).toEqual(['fill', 'fill → submit'])
  })

  it('counts the onDone and always transitions it takes, and covers the machine', () => {
    const results = model.paths.map((path) => replayPath(model, path))
    assertCoverage(model, results)
    const last = results.at(-1)!
    expect([...last.stateIds]).toContain('form.closed')
    const taken = new Set(last.transitions)
    for (const id of ['form.editing on xstate.done.state.form.editing #0', 'form.sent always #0']) {
      const transition = model.transitions.find((t) => t.id === id)
      expect(transition, id).toBeDefined()
      expect(taken.has(transition!.definition), id).toBe(true)
    }
  })
})
