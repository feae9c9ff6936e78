import { describe, expect, it } from 'vitest'
import { assign, createMachine, setup } from 'xstate'
import { assertCoverage, createModel, type ReplayResult, replayPath } from './model'

/**
 * A door: opened and closed, locked only when closed (with the key), and an alarm that goes off after a delay
 * while it is open. `always` passes through `checking` in the same macrostep, and `raise` makes a microstep.
 */
const door = setup({
  types: {
    context: {} as { opened: number },
    events: {} as { type: 'open' } | { type: 'close' } | { type: 'lock'; key: string } | { type: 'unlock' },
  },
  guards: { rightKey: ({ event }) => event.type === 'lock' && event.key === 'k1' },
  delays: { alarm: 1000 },
}).createMachine({
  id: 'door',
  context: { opened: 0 },
  initial: 'closed',
  states: {
    closed: {
      on: {
        open: { target: 'checking', actions: assign({ opened: ({ context }) => context.opened + 1 }) },
        lock: { guard: 'rightKey', target: 'locked' },
      },
    },
    checking: { always: 'open' },
    open: {
      on: { close: 'closed' },
      after: { alarm: 'ringing' },
    },
    ringing: { on: { close: 'closed' } },
    locked: { on: { unlock: 'closed' } },
  },
})

const doorModel = () =>
  createModel(door, {
    events: [{ type: 'lock', key: 'k1' }],
    keepReachable: true,
    // How often the door was opened is no part of its state.
    serializeState: (snapshot) => JSON.stringify(snapshot.value),
  })

const replayAll = (model: ReturnType<typeof doorModel>): ReplayResult[] =>
  model.paths.map((path) => replayPath(model, path))

describe('createModel', () => {
  it('keeps a shortest path for each edge that reaches something new, and they cover the machine', () => {
    const model = doorModel()
    expect(model.paths.map((path) => path.description)).toEqual([
      'open',
      'lock(k1)',
      'open → close',
      'open → after(alarm)',
      'lock(k1) → unlock',
      'open → after(alarm) → close',
    ])
    // Each path's last step reaches the serialized state the replay checks.
    expect(model.paths[0]!.steps).toEqual([{ event: { type: 'open' }, expected: '"open"' }])
    assertCoverage(model, replayAll(model))
  })

  it('lists every state it reached, once per serialization, when asked', () => {
    expect(createModel(door, { events: [], serializeState: (s) => JSON.stringify(s.value) }).reachable).toBe(
      undefined,
    )
    expect(doorModel().reachable?.map((snapshot) => snapshot.value)).toEqual([
      'closed',
      'open',
      'locked',
      'ringing',
    ])
  })

  it('counts a transient state and the `always` transition out of it as covered', () => {
    const [result] = replayAll(doorModel())
    expect(result!.stateIds.has('door.checking')).toBe(true)
    expect([...result!.transitions].some((t) => t.source.id === 'door.checking')).toBe(true)
  })

  it('stops exploring past `stopWhen` states, and fails past the limit', () => {
    const stopped = createModel(door, {
      events: [{ type: 'lock', key: 'k1' }],
      serializeState: (snapshot) => JSON.stringify(snapshot.value),
      stopWhen: (snapshot) => snapshot.matches('open'),
    })
    expect(stopped.paths.map((path) => path.description)).toEqual(['open', 'lock(k1)', 'lock(k1) → unlock'])
    // The context counts openings: without an abstraction every opening is a new state.
    expect(() => createModel(door, { events: [{ type: 'lock', key: 'k1' }], limit: 100 })).toThrow(
      /Traversal limit exceeded/,
    )
  })
})

describe('assertCoverage', () => {
  it('fails, naming them, for a state node never reached and a transition never taken', () => {
    // The only key the model sends is the wrong one: `locked`, its transition in and its way out are missed.
    const model = createModel(door, {
      events: [{ type: 'lock', key: 'wrong' }],
      serializeState: (snapshot) => JSON.stringify(snapshot.value),
    })
    expect(model.paths.map((path) => path.description)).not.toContain('lock(wrong)')
    expect(() => assertCoverage(model, replayAll(model))).toThrow(
      [
        'Model of "door" does not cover the machine:',
        '  state never reached: door.locked',
        '  transition never taken: door.closed on lock #0',
        '  transition never taken: door.locked on unlock #0',
      ].join('\n'),
    )
  })

  it('fails for an unreachable state, and when a path is left out', () => {
    const island = createMachine({
      id: 'island',
      initial: 'a',
      states: { a: { on: { go: 'b' } }, b: {}, c: { on: { back: 'a' } } },
    })
    const model = createModel(island, { events: [] })
    expect(model.paths.map((path) => path.description)).toEqual(['go'])
    expect(() => assertCoverage(model, replayAll(model as never))).toThrow(
      /state never reached: island\.c\n {2}transition never taken: island\.c on back #0$/,
    )
    // Without the path to `b`, only the start is reached.
    const start = replayPath(model, { description: '(initial state)', steps: [] })
    expect(() => assertCoverage(model, [start])).toThrow(/state never reached: island\.b/)
  })
})
