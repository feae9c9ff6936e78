import {
  type AnyActorScope,
  type AnyEventObject,
  type AnyMachineSnapshot,
  type AnyStateMachine,
  type AnyStateNode,
  type AnyTransitionDefinition,
  createActor,
  type EventFromLogic,
  fromTransition,
  type InputFrom,
  type InspectionEvent,
  SimulatedClock,
  type SnapshotFrom,
} from 'xstate'
import { getStateNodes } from 'xstate/graph'

/**
 * Model-based testing over the machine's own pure transitions: enumerate its paths, replay each in a fresh
 * actor, check invariants in every state, and prove that every state node and every transition of the machine
 * is reached by some path.
 *
 * The path set is a transition cover: the graph is explored breadth first (so each path is a shortest one),
 * and a path is kept when its last step takes a transition or enters a state node that no kept path has.
 * Delays are explored as events (`xstate.after.*`), one at a time, so every order of the timers is a path.
 * Replays send them the same way on a simulated clock that never runs; `delayOf` tells a UI replay how long
 * a step stands for.
 */
export interface ModelOptions<TMachine extends AnyStateMachine> {
  /**
   * Events with payloads the traversal may send. An event the current state handles but that is not listed
   * is sent bare (`{ type }`); delayed transitions are always explored.
   */
  events: readonly EventFromLogic<TMachine>[]
  input?: InputFrom<TMachine>
  /** State identity for the traversal; defaults to value + context. Abstract unbounded context here. */
  serializeState?: (snapshot: SnapshotFrom<TMachine>) => string
  /** Stop exploring past states for which this is true (they are still reached). */
  stopWhen?: (snapshot: SnapshotFrom<TMachine>) => boolean
  /** Fails the traversal when more than this many states would be explored. Default 50 000. */
  limit?: number
  /** Keep every state reached in `Model.reachable` (off by default: a big graph's snapshots take memory). */
  keepReachable?: boolean
}

export interface ModelStep {
  event: AnyEventObject
  /** The serialized state the graph expects after this step. */
  expected: string
}

export interface ModelPath {
  /** A readable name: the events in order. */
  description: string
  steps: ModelStep[]
}

export interface TransitionInfo {
  /** `sourceId on eventType #index`, stable for a given machine definition. */
  id: string
  definition: AnyTransitionDefinition
}

export interface Model<TMachine extends AnyStateMachine> {
  machine: TMachine
  paths: ModelPath[]
  /** Every state node of the machine (ids), except the root. */
  stateIds: string[]
  /** Every transition defined in the machine. */
  transitions: TransitionInfo[]
  serialize: (snapshot: SnapshotFrom<TMachine>) => string
  input: InputFrom<TMachine> | undefined
  /**
   * With `keepReachable`: every state the traversal reached, as the first snapshot found for each
   * serialization, in breadth-first order, for checking an invariant beyond the covering paths.
   */
  reachable?: SnapshotFrom<TMachine>[]
}

/** What one replayed path reached: the state nodes it entered and the transitions it took. */
export interface ReplayResult {
  stateIds: Set<string>
  transitions: Set<AnyTransitionDefinition>
}

/**
 * Builds the model: explores the machine and picks the covering paths.
 *
 * @example
 * ```ts
 * import { modalMachine } from 'walletstate/machines'
 * import { assertCoverage, createModel, replayPath } from 'walletstate/testing'
 *
 * const model = createModel(modalMachine, { events: [{ type: 'router.push', view: 'Networks' }] })
 * const results = model.paths.map((path) =>
 *   replayPath(model, path, {
 *     invariant: (s) => {
 *       if (s.context.viewData.length !== s.context.history.length) throw new Error('view data out of step')
 *     },
 *   }),
 * )
 * assertCoverage(model, results)
 * ```
 */
export function createModel<TMachine extends AnyStateMachine>(
  machine: TMachine,
  options: ModelOptions<TMachine>,
): Model<TMachine> {
  const serialize = (options.serializeState ?? defaultSerialize) as (s: SnapshotFrom<TMachine>) => string
  const listed = options.events as readonly AnyEventObject[]
  const eventsFor = (snapshot: AnyMachineSnapshot): AnyEventObject[] => {
    const own = new Set<string>()
    for (const node of snapshot._nodes) for (const type of node.ownEvents) own.add(type)
    // A state's `onDone` listens for `xstate.done.state.<id>`, which XState raises itself in the same
    // macrostep that reaches the final state, so the graph already follows it. Sending it would fake a
    // completion that never happened.
    const events = [...own]
      .filter((type) => type !== '*' && !isDoneStateEvent(type))
      .flatMap((type) => {
        const matching = listed.filter((event) => event.type === type)
        return matching.length > 0 ? matching : [{ type }]
      })
    // The wildcard (`'*'`) takes whatever no other transition does: the listed events no descriptor names.
    if (own.has('*'))
      events.push(...listed.filter((event) => ![...own].some((type) => matchesDescriptor(event.type, type))))
    return events
  }
  const stateNodes = getStateNodes(machine.root)
  const transitions = collectTransitions(machine.root, stateNodes)
  const model: Model<TMachine> = {
    machine,
    paths: [],
    stateIds: stateNodes.map((node) => node.id),
    transitions,
    serialize,
    input: options.input,
    ...(options.keepReachable ? { reachable: [] } : {}),
  }

  // Breadth first from the initial state, each state explored once (the first snapshot found for its
  // serialization), so the path kept to each state is a shortest one. Each step is computed by the machine's
  // own pure transition; the microsteps it takes (reported to the traversal's inspector) are what the step
  // covers. An edge's path is the path to its source plus the edge, and the path to every source is already
  // covered when the source is explored (it was kept, or added nothing), so a path adds coverage exactly when
  // its last step does: nothing is replayed to choose the paths.
  const scope = createTraversalScope()
  const anyMachine: AnyStateMachine = machine
  const initial = anyMachine.getInitialSnapshot(scope.actorScope, options.input) as AnyMachineSnapshot
  const coveredStates = new Set<string>()
  const coveredTransitions = new Set<AnyTransitionDefinition>()
  const record = (result: ReplayResult) => {
    for (const id of result.stateIds) coveredStates.add(id)
    for (const t of result.transitions) coveredTransitions.add(t)
  }
  // The start is replayed as a visitor would see it (an actor started with the input).
  record(runSteps(model, []).result)

  const limit = options.limit ?? 50_000
  const initialKey = serialize(initial as SnapshotFrom<TMachine>)
  const shortest = new Map<string, ModelStep[]>([[initialKey, []]])
  const queue: ({ key: string; snapshot: AnyMachineSnapshot } | undefined)[] = [
    { key: initialKey, snapshot: initial },
  ]
  for (let head = 0; head < queue.length; head++) {
    if (head >= limit)
      throw new Error(`Traversal limit exceeded: more than ${limit} states of "${machine.id}"`)
    const { key, snapshot } = queue[head]!
    // Explored states are let go (the queue would otherwise hold every snapshot to the end).
    queue[head] = undefined
    model.reachable?.push(snapshot as SnapshotFrom<TMachine>)
    if (options.stopWhen?.(snapshot as SnapshotFrom<TMachine>)) continue
    const prefix = shortest.get(key)!
    for (const event of distinctEvents(eventsFor(snapshot))) {
      const { next, result } = scope.step(anyMachine, snapshot, event)
      const nextKey = serialize(next as SnapshotFrom<TMachine>)
      const steps = [...prefix, { event, expected: nextKey }]
      if (!shortest.has(nextKey)) {
        shortest.set(nextKey, steps)
        queue.push({ key: nextKey, snapshot: next })
      }
      const addsCoverage =
        [...result.stateIds].some((id) => !coveredStates.has(id)) ||
        [...result.transitions].some((t) => !coveredTransitions.has(t))
      if (addsCoverage) {
        record(result)
        model.paths.push({ description: describe(steps), steps })
      }
    }
  }
  return model
}

/**
 * An actor scope for pure transitions (nothing runs: actions are not executed, children not started) whose
 * inspector collects the microsteps of one step: the state nodes each passes through and the transitions
 * taken, as a replay's inspector sees them.
 */
function createTraversalScope() {
  const self = createActor(fromTransition((state: undefined) => state, undefined))
  let current: ReplayResult | undefined
  self.system.inspect((event: InspectionEvent) => {
    if (current === undefined || event.type !== '@xstate.microstep' || event.actorRef !== self) return
    for (const t of event._transitions) current.transitions.add(t)
    for (const node of (event.snapshot as AnyMachineSnapshot)._nodes ?? [])
      if (node.parent !== undefined) current.stateIds.add(node.id)
  })
  const actorScope = {
    self,
    id: '',
    sessionId: self.sessionId,
    logger: () => {},
    defer: () => {},
    system: self.system,
    stopChild: () => {},
    emit: () => {},
    actionExecutor: () => {},
  } as unknown as AnyActorScope
  return {
    actorScope,
    step(machine: AnyStateMachine, snapshot: AnyMachineSnapshot, event: AnyEventObject) {
      const result: ReplayResult = { stateIds: new Set(), transitions: new Set() }
      current = result
      try {
        const next = machine.transition(snapshot, event, actorScope) as AnyMachineSnapshot
        return { next, result }
      } finally {
        current = undefined
      }
    },
  }
}

/** The events in order, each once (an event listed twice is one edge). */
function distinctEvents(events: AnyEventObject[]): AnyEventObject[] {
  const seen = new Map<string, AnyEventObject>()
  for (const event of events) {
    const key = JSON.stringify(event)
    if (!seen.has(key)) seen.set(key, event)
  }
  return [...seen.values()]
}

export interface ReplayOptions<TMachine extends AnyStateMachine> {
  /** Checked after the start and after every step; throw to fail. */
  invariant?: (snapshot: SnapshotFrom<TMachine>) => void
}

/**
 * Replays one path in a fresh actor with a simulated clock, checking that every step reaches the state the
 * graph expects and that the invariant holds everywhere. Returns what the path covered.
 */
export function replayPath<TMachine extends AnyStateMachine>(
  model: Model<TMachine>,
  path: ModelPath,
  options: ReplayOptions<TMachine> = {},
): ReplayResult {
  const { result, error } = runSteps(model, path.steps, options.invariant)
  if (error) throw error
  return result
}

/**
 * Fails, naming them, when some state node or transition of the machine is reached by none of the results.
 */
export function assertCoverage<TMachine extends AnyStateMachine>(
  model: Model<TMachine>,
  results: ReplayResult[],
) {
  const states = new Set<string>()
  const taken = new Set<AnyTransitionDefinition>()
  for (const r of results) {
    for (const s of r.stateIds) states.add(s)
    for (const t of r.transitions) taken.add(t)
  }
  const missingStates = model.stateIds.filter((id) => !states.has(id))
  const missingTransitions = model.transitions.filter((t) => !taken.has(t.definition)).map((t) => t.id)
  if (missingStates.length > 0 || missingTransitions.length > 0) {
    throw new Error(
      [
        `Model of "${model.machine.id}" does not cover the machine:`,
        ...missingStates.map((id) => `  state never reached: ${id}`),
        ...missingTransitions.map((id) => `  transition never taken: ${id}`),
      ].join('\n'),
    )
  }
}

/**
 * The time a delayed event stands for, from `xstate.after.<delay>.<stateId>`: a named delay of the machine
 * or a number of milliseconds.
 */
export function delayOf(
  machine: AnyStateMachine,
  event: AnyEventObject,
  snapshot?: AnyMachineSnapshot,
): number {
  const rest = event.type.slice('xstate.after.'.length)
  const name = rest.slice(0, rest.indexOf('.'))
  const asNumber = Number(name)
  if (name !== '' && Number.isFinite(asNumber)) return asNumber
  const delays = (machine.implementations.delays ?? {}) as Record<
    string,
    number | ((args: { context: unknown; event: AnyEventObject }) => number)
  >
  const delay = delays[name]
  if (typeof delay === 'number') return delay
  if (typeof delay === 'function') return delay({ context: snapshot?.context, event })
  throw new Error(`Unknown delay "${name}" in ${event.type}`)
}

export const isDelayEvent = (event: AnyEventObject): boolean => event.type.startsWith('xstate.after.')

const isDoneStateEvent = (type: string): boolean => type.startsWith('xstate.done.state.')

function runSteps<TMachine extends AnyStateMachine>(
  model: Model<TMachine>,
  steps: ModelStep[],
  invariant?: (snapshot: SnapshotFrom<TMachine>) => void,
): { result: ReplayResult; error: Error | undefined } {
  const result: ReplayResult = { stateIds: new Set(), transitions: new Set() }
  const clock = new SimulatedClock()
  const actor = createActor(model.machine, {
    clock,
    ...(model.input === undefined ? {} : { input: model.input }),
    inspect: (event: InspectionEvent) => {
      // Only the machine under test, not actors it spawns.
      if (event.actorRef.sessionId !== event.rootId) return
      // Microsteps too, not only the settled snapshot: a state left in the same macrostep it was entered
      // (by `always`, or a final state whose `onDone` fires at once) is still reached.
      if (event.type === '@xstate.microstep')
        for (const t of event._transitions) {
          result.transitions.add(t)
          // A state left by a transition was reached (an initial state left by \`always\` at start is in no
          // snapshot).
          if (t.source !== model.machine.root) result.stateIds.add(t.source.id)
        }
      if (event.type === '@xstate.microstep' || event.type === '@xstate.snapshot') {
        const snap = event.snapshot as AnyMachineSnapshot
        for (const node of snap._nodes ?? []) if (node !== model.machine.root) result.stateIds.add(node.id)
      }
    },
  })
  let error: Error | undefined
  try {
    actor.start()
    invariant?.(actor.getSnapshot())
    steps.forEach((step, index) => {
      // A delayed transition's event is sent as the graph sent it; the simulated clock never runs, so no
      // timer fires on its own and the replay is exactly the path (timings are unit-tested separately).
      actor.send(step.event as EventFromLogic<TMachine>)
      const snapshot = actor.getSnapshot() as SnapshotFrom<TMachine>
      const actual = model.serialize(snapshot)
      if (actual !== step.expected) {
        throw new Error(
          `Step ${index + 1} (${step.event.type}) of "${describe(steps)}" reached\n  ${actual}\nbut the model expects\n  ${step.expected}`,
        )
      }
      invariant?.(snapshot)
    })
  } catch (e) {
    error = e instanceof Error ? e : new Error(String(e))
  } finally {
    actor.stop()
  }
  return { result, error }
}

function collectTransitions(root: AnyStateNode, nodes: AnyStateNode[]): TransitionInfo[] {
  const out: TransitionInfo[] = []
  for (const node of [root, ...nodes]) {
    for (const [eventType, definitions] of node.transitions) {
      definitions.forEach((definition, index) => {
        out.push({ id: `${node.id} on ${eventType} #${index}`, definition })
      })
    }
    node.always?.forEach((definition, index) => {
      out.push({ id: `${node.id} always #${index}`, definition })
    })
  }
  return out
}

function defaultSerialize(snapshot: AnyMachineSnapshot): string {
  return JSON.stringify({ value: snapshot.value, context: snapshot.context })
}

/** `modal.open → router.push(Networks) → after(viewTransition)` */
export function describe(steps: ModelStep[]): string {
  if (steps.length === 0) return '(initial state)'
  return steps.map((step) => describeEvent(step.event)).join(' → ')
}

export function describeEvent(event: AnyEventObject): string {
  if (isDelayEvent(event)) return `after(${event.type.slice('xstate.after.'.length).split('.')[0]})`
  const { type, ...payload } = event
  const values = Object.values(payload).map((value) =>
    typeof value === 'string' ? value : JSON.stringify(value),
  )
  return values.length > 0 ? `${type}(${values.join(', ')})` : type
}

/** Whether an event type matches a transition's descriptor (`a.b`, `a.*`; the bare `*` is left to the caller). */
function matchesDescriptor(type: string, descriptor: string): boolean {
  if (descriptor === '*') return false
  if (descriptor.endsWith('.*')) return type.startsWith(descriptor.slice(0, -1))
  return type === descriptor
}
