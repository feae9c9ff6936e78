// @vitest-environment happy-dom
import { act, cleanup, render, screen } from '@testing-library/react'
import { StrictMode, useState } from 'react'
import { afterEach, describe, expect, it } from 'vitest'
import {
  type ActorRefFrom,
  type AnyActorRef,
  assign,
  createActor,
  createMachine,
  type InspectionEvent,
  setup,
} from 'xstate'
import { useRootActor, useSelector } from './actor'

afterEach(cleanup)

const counter = setup({
  types: {
    context: {} as { count: number; other: number },
    events: {} as { type: 'inc' } | { type: 'other' },
  },
}).createMachine({
  context: { count: 0, other: 0 },
  on: {
    inc: { actions: assign({ count: ({ context }) => context.count + 1 }) },
    other: { actions: assign({ other: ({ context }) => context.other + 1 }) },
  },
})
type Counter = ActorRefFrom<typeof counter>

let renders = 0
function Count({ actor }: { actor: Counter }) {
  renders += 1
  const count = useSelector(actor, (s) => s.context.count)
  return <p>count {count}</p>
}

const pairs: (readonly number[])[] = []
function Pair({ actor }: { actor: Counter }) {
  // A new array every time, equal to the last by its first item.
  const pair = useSelector(
    actor,
    (s) => [s.context.count, s.context.other] as const,
    (a, b) => a[0] === b[0],
  )
  pairs.push(pair)
  return <p>{pair.join(',')}</p>
}

function NoActor() {
  const status = useSelector(undefined, (s) => (s === undefined ? 'none' : 'some'))
  return <p>{status}</p>
}

describe('useSelector', () => {
  it('renders the selected slice, and again only when that slice changes', () => {
    const actor = createActor(counter).start()
    render(<Count actor={actor} />)
    expect(screen.getByText('count 0')).toBeTruthy()
    const before = renders
    act(() => actor.send({ type: 'other' }))
    expect(renders).toBe(before)
    act(() => actor.send({ type: 'inc' }))
    expect(screen.getByText('count 1')).toBeTruthy()
    expect(renders).toBe(before + 1)
  })

  it('keeps the previous value while compare finds the new one equal', () => {
    const actor = createActor(counter).start()
    render(<Pair actor={actor} />)
    const first = pairs.at(-1)
    act(() => actor.send({ type: 'other' }))
    expect(screen.getByText('0,0')).toBeTruthy()
    expect(pairs.at(-1)).toBe(first)
    act(() => actor.send({ type: 'inc' }))
    expect(screen.getByText('1,1')).toBeTruthy()
  })

  it('selects from undefined while there is no actor (a capability not loaded yet)', () => {
    render(<NoActor />)
    expect(screen.getByText('none')).toBeTruthy()
  })
})

// XState runs no exit actions when an actor stops: its `status` says it stopped.
const started: string[] = []
const rootA = createMachine({ entry: () => started.push('a') })
const rootB = createMachine({ entry: () => started.push('b') })
const roots: AnyActorRef[] = []
let setRoot: (logic: typeof rootA) => void = () => {}

function Root() {
  const [logic, set] = useState(rootA)
  setRoot = set
  const actor = useRootActor(logic, {})
  if (!roots.includes(actor)) roots.push(actor)
  return null
}

const inspectedChild = createMachine({ id: 'child' })
const inspectedParent = setup({ actors: { child: inspectedChild } }).createMachine({
  id: 'parent',
  invoke: { src: 'child' },
})
const heard: { sessionId: string; parent?: string }[] = []
const hear = (event: InspectionEvent) => {
  if (event.type !== '@xstate.actor') return
  const ref = event.actorRef as AnyActorRef
  heard.push({ sessionId: ref.sessionId, ...(ref._parent ? { parent: ref._parent.sessionId } : {}) })
}

function Inspected() {
  const actor = useRootActor(inspectedParent, { inspect: hear })
  if (!roots.includes(actor)) roots.push(actor)
  return null
}

const statuses = () => roots.map((actor) => actor.getSnapshot().status)
const aTask = () => new Promise((resolve) => setTimeout(resolve, 5))

describe('useRootActor', () => {
  afterEach(() => {
    started.length = 0
    roots.length = 0
  })

  it('under strict mode starts one actor once and keeps it running through the remount', async () => {
    render(
      <StrictMode>
        <Root />
      </StrictMode>,
    )
    await aTask()
    // Strict mode renders twice: an actor may be created twice, but only one starts, and it keeps running.
    expect(started).toEqual(['a'])
    expect(statuses().filter((status) => status === 'active')).toHaveLength(1)
  })

  it('under strict mode an inspector hears only the actor that starts, with the children it runs', async () => {
    heard.length = 0
    render(
      <StrictMode>
        <Inspected />
      </StrictMode>,
    )
    await aTask()
    const running = roots.find((actor) => actor.getSnapshot().status === 'active')!
    // Strict mode created a second root actor (thrown away unstarted): the inspector never heard of it.
    expect(heard.filter((h) => h.parent === undefined).map((h) => h.sessionId)).toEqual([running.sessionId])
    expect(heard.filter((h) => h.parent !== undefined).map((h) => h.parent)).toEqual([running.sessionId])
  })

  it('stops the actor once the component unmounts', async () => {
    const { unmount } = render(<Root />)
    expect(statuses()).toEqual(['active'])
    unmount()
    await aTask()
    expect(statuses()).toEqual(['stopped'])
  })

  it('a new logic makes a new actor, and the old one stops', async () => {
    render(<Root />)
    act(() => setRoot(rootB))
    await aTask()
    expect(statuses()).toEqual(['stopped', 'active'])
    expect(started).toEqual(['a', 'b'])
  })
})
