import ELK from 'elkjs/lib/elk.bundled.js'
import { describe, expect, it } from 'vitest'
import { connectionMachine } from '../../../src/machines/connection.ts'
import { modalMachine } from '../../../src/machines/modal.ts'
import { describeMachine } from '../../../src/recording/describe.ts'
import type { StateDescription } from '../../../src/recording/format.ts'
import { fixtureMachine } from './fixture.ts'
import { type Drawing, layoutMachine, statesById, transitionLabel } from './graph.ts'

/** Text widths as a monospace estimate (the page measures its real font). */
const measure = (text: string, font: 'title' | 'small') => text.length * (font === 'title' ? 8 : 6.5)
const elk = new ELK()

type Box = { x: number; y: number; width: number; height: number }
const inside = (inner: Box, outer: Box) =>
  inner.x >= outer.x - 0.5 &&
  inner.y >= outer.y - 0.5 &&
  inner.x + inner.width <= outer.x + outer.width + 0.5 &&
  inner.y + inner.height <= outer.y + outer.height + 0.5
const overlap = (a: Box, b: Box) =>
  a.x < b.x + b.width - 0.5 &&
  b.x < a.x + a.width - 0.5 &&
  a.y < b.y + b.height - 0.5 &&
  b.y < a.y + a.height - 0.5
const onBorder = (point: { x: number; y: number }, box: Box) =>
  inside({ ...point, width: 0, height: 0 }, box) &&
  Math.min(
    Math.abs(point.x - box.x),
    Math.abs(point.x - box.x - box.width),
    Math.abs(point.y - box.y),
    Math.abs(point.y - box.y - box.height),
  ) < 1

/** What every drawing must hold: children inside parents, siblings apart, arrows from box to box. */
function expectWellFormed(drawing: Drawing) {
  const byId = new Map(drawing.states.map((state) => [state.id, state]))
  for (const state of drawing.states) {
    const parent = drawing.states.find(
      (other) =>
        other.path.length === state.path.length - 1 && state.path.join('.').startsWith(other.path.join('.')),
    )
    if (state.depth > 0) expect(parent && inside(state, parent), `${state.id} inside its parent`).toBe(true)
    const siblings = drawing.states.filter(
      (other) =>
        other !== state &&
        other.depth === state.depth &&
        other.path.slice(0, -1).join('.') === state.path.slice(0, -1).join('.'),
    )
    for (const sibling of siblings) expect(overlap(state, sibling), `${state.id} / ${sibling.id}`).toBe(false)
    expect(inside(state, { x: 0, y: 0, width: drawing.width, height: drawing.height })).toBe(true)
  }
  for (const edge of drawing.edges) {
    const source = byId.get(edge.source)
    const target = byId.get(edge.target)
    expect(target, `${edge.id} has a state as target`).toBeDefined()
    expect(edge.points.length).toBeGreaterThanOrEqual(2)
    if (source)
      expect(onBorder(edge.points[0]!, source), `${edge.label?.text} leaves ${source.id}`).toBe(true)
    expect(onBorder(edge.points.at(-1)!, target!), `${edge.label?.text} reaches ${edge.target}`).toBe(true)
    // A label never covers a state without children.
    for (const state of drawing.states) {
      if (edge.label && !state.compound)
        expect(overlap(edge.label, state), `${edge.label.text} on ${state.id}`).toBe(false)
    }
  }
}

describe('the statechart drawing (elkjs, layered, the hierarchy as one graph)', () => {
  it('draws nested and parallel states, initial markers and labelled transitions', async () => {
    const description = describeMachine(fixtureMachine)
    const drawing = await layoutMachine(elk, description, measure)
    expect(drawing.states.map((state) => state.id)).toEqual([
      'demo',
      'demo.idle',
      'demo.busy',
      'demo.busy.fetch',
      'demo.busy.fetch.loading',
      'demo.busy.fetch.loaded',
      'demo.busy.timer',
      'demo.busy.timer.ticking',
      'demo.busy.timer.rung',
    ])
    expect(drawing.states.filter((state) => state.region).map((state) => state.title)).toEqual([
      'fetch',
      'timer',
    ])
    expect(drawing.states.find((state) => state.id === 'demo.busy.fetch.loading')?.lines).toEqual([
      'invoke load',
    ])
    expect(
      drawing.edges.filter((edge) => edge.label).map((edge) => [edge.source, edge.label!.text, edge.target]),
    ).toEqual(
      expect.arrayContaining([
        ['demo.idle', 'start [allowed]', 'demo.busy'],
        ['demo.busy.fetch.loading', 'done: load', 'demo.busy.fetch.loaded'],
        ['demo.busy.timer.ticking', 'after wait', 'demo.busy.timer.rung'],
      ]),
    )
    // The root, fetch and timer start somewhere; the parallel node has no initial child.
    expect(drawing.initials).toHaveLength(3)
    expectWellFormed(drawing)
  })

  it("lays out the kit's connection and modal machines without overlaps", async () => {
    for (const machine of [connectionMachine, modalMachine]) {
      const drawing = await layoutMachine(elk, describeMachine(machine), measure)
      expect(drawing.states.length).toBeGreaterThan(8)
      expectWellFormed(drawing)
    }
  })

  it('labels delays, eventless, error and done-state transitions', () => {
    const source: StateDescription = {
      id: 'm.a',
      key: 'a',
      path: ['a'],
      type: 'compound',
      invoke: [{ id: 'inv', src: 'fetchThing' }],
      transitions: [],
      states: [
        {
          id: 'm.a.end',
          key: 'end',
          path: ['a', 'end'],
          type: 'final',
          invoke: [],
          transitions: [],
          states: [],
        },
      ],
    }
    const byId = statesById(source)
    const label = (event: string, extra: object = {}) =>
      transitionLabel({ event, targets: [], actions: [], reenter: false, ...extra }, source, byId)
    expect(label('xstate.after.500.m.a', { delay: 500 })).toBe('after 500ms')
    expect(label('', { guard: 'ready' })).toBe('always [ready]')
    expect(label('xstate.error.actor.inv')).toBe('error: fetchThing')
    expect(label('xstate.done.state.m.a.end')).toBe('done: end')
    expect(label('xstate.done.actor.unknown')).toBe('done: unknown')
    expect(label('send', { guard: '!(a && b)' })).toBe('send [!(a && b)]')
  })
})
