/**
 * A machine description as a statechart drawing, with no DOM: the ELK graph (layered, the hierarchy laid out
 * as one), then the laid-out boxes, initial markers and transition arrows in absolute coordinates.
 */
import type { ELK, ElkExtendedEdge, ElkNode } from 'elkjs/lib/elk-api'
import type {
  MachineDescription,
  StateDescription,
  TransitionDescription,
} from '../../../src/recording/format.ts'

/** Measures a text's width in the font the SVG draws it with. */
export type MeasureText = (text: string, font: 'title' | 'small') => number

export const TITLE_HEIGHT = 22
export const LINE_HEIGHT = 15
export const PAD = 8
const INITIAL_SIZE = 10
/** Lines a state box lists at most (invokes, transitions that stay); more are counted. */
const MAX_LINES = 5

export interface DrawnState {
  id: string
  path: string[]
  type: StateDescription['type']
  title: string
  /** `invoke <slot>` and `<event> [guard]` of the transitions that stay in the state (the first few). */
  lines: string[]
  /** All of them (the box's tooltip). */
  allLines: string[]
  /** A region of a parallel state: drawn dashed. */
  region: boolean
  /** Has children: its title sits at the top of the box, its children below. */
  compound: boolean
  depth: number
  x: number
  y: number
  width: number
  height: number
}

export interface DrawnEdge {
  id: string
  /** The event type as recorded (the label may shorten it). */
  event: string
  source: string
  target: string
  points: { x: number; y: number }[]
  label?: { text: string; x: number; y: number; width: number; height: number }
}

export interface Drawing {
  machineId: string
  width: number
  height: number
  /** Parents before their children (draw order). */
  states: DrawnState[]
  initials: { x: number; y: number; size: number }[]
  edges: DrawnEdge[]
}

/** A transition's label: `event [guard]`; delayed ones `after <delay>`, eventless `always`, done/error named. */
export function transitionLabel(
  transition: TransitionDescription,
  source: StateDescription,
  byId: Map<string, StateDescription>,
): string {
  const { event } = transition
  let name = event
  const invoked = (prefix: string) => {
    const id = event.slice(prefix.length)
    return source.invoke.find((invoke) => invoke.id === id)?.src ?? id
  }
  if (transition.delay !== undefined) {
    name = `after ${typeof transition.delay === 'number' ? `${transition.delay}ms` : transition.delay}`
  } else if (event === '') name = 'always'
  else if (event.startsWith('xstate.done.actor.')) name = `done: ${invoked('xstate.done.actor.')}`
  else if (event.startsWith('xstate.error.actor.')) name = `error: ${invoked('xstate.error.actor.')}`
  else if (event.startsWith('xstate.done.state.')) {
    const id = event.slice('xstate.done.state.'.length)
    name = `done: ${byId.get(id)?.key ?? id}`
  }
  return transition.guard ? `${name} [${transition.guard}]` : name
}

const nodeId = (state: StateDescription) => `s:${state.id}`

/** Every state by id. */
export function statesById(root: StateDescription): Map<string, StateDescription> {
  const map = new Map<string, StateDescription>()
  const visit = (state: StateDescription) => {
    map.set(state.id, state)
    for (const child of state.states) visit(child)
  }
  visit(root)
  return map
}

interface Info {
  state: StateDescription
  title: string
  lines: string[]
  allLines: string[]
  region: boolean
  depth: number
}

/** The ELK graph of a machine (root box included), and what each node stands for. */
export function elkGraph(
  machine: MachineDescription,
  measure: MeasureText,
): { graph: ElkNode; infos: Map<string, Info>; events: Map<string, string> } {
  const byId = statesById(machine.root)
  const infos = new Map<string, Info>()
  const events = new Map<string, string>()
  const edges: ElkExtendedEdge[] = []
  const label = (text: string) => ({
    text,
    width: Math.ceil(measure(text, 'small')) + 4,
    height: LINE_HEIGHT,
  })

  const node = (state: StateDescription, depth: number, region: boolean): ElkNode => {
    const title = depth === 0 ? machine.id : state.type === 'history' ? `${state.key} (history)` : state.key
    const lines = state.invoke.map((invoke) => `invoke ${invoke.src}`)
    for (const transition of state.transitions) {
      const text = transitionLabel(transition, state, byId)
      const targets = transition.targets.filter((target) => byId.has(target))
      if (targets.length === 0) lines.push(text)
      for (const target of targets) {
        events.set(`e:${edges.length}`, transition.event)
        edges.push({
          id: `e:${edges.length}`,
          sources: [nodeId(state)],
          targets: [nodeId(byId.get(target)!)],
          labels: [{ id: `l:${edges.length}`, ...label(text) }],
        })
      }
    }
    const shown =
      lines.length > MAX_LINES
        ? [...lines.slice(0, MAX_LINES - 1), `+${lines.length - MAX_LINES + 1} more`]
        : lines
    infos.set(nodeId(state), { state, title, lines: shown, allLines: lines, region, depth })
    const textWidth = Math.max(measure(title, 'title'), ...shown.map((line) => measure(line, 'small')))
    const width = Math.ceil(textWidth) + 2 * PAD
    const height = TITLE_HEIGHT + shown.length * LINE_HEIGHT + (shown.length ? PAD / 2 : 0)
    const children = state.states.map((child) => node(child, depth + 1, state.type === 'parallel'))
    if (children.length === 0) return { id: nodeId(state), width: Math.max(width, 56), height }
    if (state.initial !== undefined && state.type !== 'parallel') {
      const initial = state.states.find((child) => child.key === state.initial)
      if (initial) {
        const id = `i:${state.id}`
        children.unshift({ id, width: INITIAL_SIZE, height: INITIAL_SIZE })
        edges.push({ id: `e:${edges.length}`, sources: [id], targets: [nodeId(initial)] })
      }
    }
    return {
      id: nodeId(state),
      children,
      layoutOptions: {
        'elk.padding': `[top=${height + PAD},left=${PAD * 1.5},bottom=${PAD * 1.5},right=${PAD * 1.5}]`,
        'elk.nodeSize.constraints': 'MINIMUM_SIZE',
        'elk.nodeSize.minimum': `(${width}, ${height + PAD})`,
      },
    }
  }

  const graph: ElkNode = {
    id: 'graph',
    layoutOptions: {
      'elk.algorithm': 'layered',
      'elk.hierarchyHandling': 'INCLUDE_CHILDREN',
      // Left to right: labels sit on horizontal segments, where they read best.
      'elk.direction': 'RIGHT',
      'elk.edgeRouting': 'ORTHOGONAL',
      'elk.layered.spacing.nodeNodeBetweenLayers': '36',
      'elk.spacing.nodeNode': '28',
      'elk.spacing.edgeLabel': '4',
      'elk.spacing.edgeNode': '14',
      'elk.spacing.edgeEdge': '10',
      'elk.edgeLabels.placement': 'CENTER',
      'elk.layered.nodePlacement.strategy': 'NETWORK_SIMPLEX',
      'elk.padding': '[top=8,left=8,bottom=8,right=8]',
    },
    children: [node(machine.root, 0, false)],
    edges,
  }
  return { graph, infos, events }
}

/** Lays a machine out with ELK and answers its drawing in absolute coordinates. */
export async function layoutMachine(
  elk: Pick<ELK, 'layout'>,
  machine: MachineDescription,
  measure: MeasureText,
): Promise<Drawing> {
  const { graph, infos, events } = elkGraph(machine, measure)
  const laid = await elk.layout(graph)
  const origin = new Map<string, { x: number; y: number }>([['graph', { x: 0, y: 0 }]])
  const states: DrawnState[] = []
  const initials: Drawing['initials'] = []
  const edges: DrawnEdge[] = []

  const visit = (parent: ElkNode, at: { x: number; y: number }) => {
    for (const child of parent.children ?? []) {
      const x = at.x + (child.x ?? 0)
      const y = at.y + (child.y ?? 0)
      origin.set(child.id, { x, y })
      const info = infos.get(child.id)
      if (info) {
        states.push({
          id: info.state.id,
          path: info.state.path,
          type: info.state.type,
          title: info.title,
          lines: info.lines,
          allLines: info.allLines,
          region: info.region,
          compound: info.state.states.length > 0,
          depth: info.depth,
          x,
          y,
          width: child.width ?? 0,
          height: child.height ?? 0,
        })
      } else {
        initials.push({ x, y, size: child.width ?? INITIAL_SIZE })
      }
      visit(child, { x, y })
    }
  }
  visit(laid, { x: 0, y: 0 })

  const collect = (container: ElkNode) => {
    for (const edge of container.edges ?? []) {
      const at = origin.get(edge.container ?? container.id) ?? { x: 0, y: 0 }
      const points: DrawnEdge['points'] = []
      for (const section of edge.sections ?? []) {
        for (const point of [section.startPoint, ...(section.bendPoints ?? []), section.endPoint]) {
          points.push({ x: at.x + point.x, y: at.y + point.y })
        }
      }
      const [label] = edge.labels ?? []
      const source = edge.sources[0] ?? ''
      const target = edge.targets[0] ?? ''
      edges.push({
        id: edge.id,
        event: events.get(edge.id) ?? '',
        source: infos.get(source)?.state.id ?? source,
        target: infos.get(target)?.state.id ?? target,
        points,
        ...(label?.text
          ? {
              label: {
                text: label.text,
                x: at.x + (label.x ?? 0),
                y: at.y + (label.y ?? 0),
                width: label.width ?? 0,
                height: label.height ?? 0,
              },
            }
          : {}),
      })
    }
    for (const child of container.children ?? []) collect(child)
  }
  collect(laid)
  return {
    machineId: machine.id,
    width: Math.ceil(laid.width ?? 0),
    height: Math.ceil(laid.height ?? 0),
    states,
    initials,
    edges,
  }
}
