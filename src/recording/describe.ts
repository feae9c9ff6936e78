import type { AnyStateMachine, AnyStateNode } from 'xstate'
import type { Json, MachineDescription, StateDescription, TransitionDescription } from './format'

/**
 * A machine's definition as plain data: what the viewer draws and what a recording's definition hash is
 * taken over. Only the shape is described (states, transitions, guard and action names, invoked slots); the
 * code behind the names is not, so `machine.provide(...)` keeps the hash and a changed statechart changes it.
 *
 * @example
 * ```ts
 * import { connectionMachine } from 'walletstate/machines'
 * import { activeStatePaths, describeMachine } from 'walletstate/testing'
 *
 * const description = describeMachine(connectionMachine)
 * const paths = activeStatePaths(description, { connected: 'idle' }) // [[], ['connected'], ['connected', 'idle']]
 * ```
 */
export function describeMachine(machine: AnyStateMachine): MachineDescription {
  const cached = descriptions.get(machine)
  if (cached) return cached
  const root = describeNode(machine.root)
  const description: MachineDescription = { id: machine.id, hash: hashText(JSON.stringify(root)), root }
  descriptions.set(machine, description)
  return description
}

const descriptions = new WeakMap<AnyStateMachine, MachineDescription>()

function describeNode(node: AnyStateNode): StateDescription {
  const delays = new Map<string, string | number>()
  for (const after of node.after)
    delays.set(after.eventType, typeof after.delay === 'function' ? 'expression' : after.delay)
  const transitions: TransitionDescription[] = []
  for (const [event, definitions] of node.transitions) {
    for (const definition of definitions)
      transitions.push(describeTransition(event, definition, delays.get(event)))
  }
  for (const definition of node.always ?? []) transitions.push(describeTransition('', definition, undefined))
  return {
    id: node.id,
    key: node.key,
    path: [...node.path],
    type: node.type,
    ...(node.initial?.target[0] ? { initial: node.initial.target[0].key } : {}),
    invoke: node.invoke.map((invoke) => ({ id: invoke.id, src: String(invoke.src) })),
    transitions,
    states: Object.values(node.states).map(describeNode),
  }
}

type TransitionLike = {
  target?: readonly AnyStateNode[] | undefined
  guard?: unknown
  actions: readonly unknown[]
  reenter?: boolean
}

function describeTransition(
  event: string,
  definition: TransitionLike,
  delay: string | number | undefined,
): TransitionDescription {
  const guard = definition.guard === undefined ? undefined : guardName(definition.guard)
  return {
    event,
    ...(delay === undefined ? {} : { delay }),
    targets: (definition.target ?? []).map((target) => target.id),
    ...(guard === undefined ? {} : { guard }),
    actions: definition.actions.flatMap((action) => {
      const name = actionName(action)
      return name ? [name] : []
    }),
    reenter: definition.reenter ?? false,
  }
}

/** `name`, `!name`, `(a && b)`, `(a || b)`, `in(#id)`; an inline function by its name or `inline`. */
export function guardName(guard: unknown): string {
  if (typeof guard === 'string') return guard
  if (typeof guard === 'function') {
    const combinator = guard as { name: string; guards?: unknown[]; stateValue?: unknown }
    const parts = combinator.guards?.map(guardName)
    if (parts && combinator.name === 'not') return `!${parts[0]}`
    if (parts && combinator.name === 'and') return `(${parts.join(' && ')})`
    if (parts && combinator.name === 'or') return `(${parts.join(' || ')})`
    if (combinator.name === 'stateIn') return `in(${String(combinator.stateValue ?? '')})`
    return combinator.name || 'inline'
  }
  if (guard && typeof guard === 'object' && 'type' in guard) return String((guard as { type: unknown }).type)
  return 'inline'
}

function actionName(action: unknown): string | undefined {
  if (typeof action === 'string') return action
  if (action && typeof action === 'object' && 'type' in action)
    return String((action as { type: unknown }).type)
  if (typeof action === 'function') {
    // assign/raise/sendTo/… are XState's built-ins; an anonymous inline action says nothing a reader can use.
    const name = (action as { type?: unknown; name: string }).type ?? action.name
    return typeof name === 'string' && name !== '' && !name.startsWith('xstate.') ? name : undefined
  }
  return undefined
}

/**
 * The active nodes' paths for a state value: the root (`[]`), every node on the value's paths, and for a
 * parallel node every region.
 */
export function activeStatePaths(description: MachineDescription, value: Json | undefined): string[][] {
  const out: string[][] = []
  const walk = (node: StateDescription, value: Json | undefined) => {
    out.push(node.path)
    if (node.type === 'parallel') {
      for (const child of node.states) {
        const childValue =
          value && typeof value === 'object' && !Array.isArray(value) ? value[child.key] : undefined
        walk(child, childValue)
      }
      return
    }
    if (typeof value === 'string') {
      const child = node.states.find((state) => state.key === value)
      if (child) walk(child, undefined)
      return
    }
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      for (const [key, childValue] of Object.entries(value)) {
        const child = node.states.find((state) => state.key === key)
        if (child) walk(child, childValue)
      }
    }
  }
  walk(description.root, value)
  return out
}

/**
 * A 64-bit FNV-1a hash of a string, as 16 hex digits: synchronous and the same in the browser and Node (the
 * recorder runs in the page; a definition hash needs no cryptographic strength, only to change with the
 * definition).
 */
export function hashText(text: string): string {
  let h1 = 0x811c9dc5
  let h2 = 0x01000193
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    h1 = Math.imul(h1 ^ c, 0x01000193) >>> 0
    h2 = Math.imul(h2 ^ c, 0x0100019d) >>> 0
  }
  return h1.toString(16).padStart(8, '0') + h2.toString(16).padStart(8, '0')
}
