/**
 * The viewer's model, with no DOM: the records received, grouped by recorder, validated (they come from a page
 * that could be hostile), and what the actors looked like after any one of them (time travel).
 */
import { activeStatePaths } from '../../../src/recording/describe.ts'
import {
  type ActorRecord,
  type EventRecord,
  type Json,
  type MachineDescription,
  RECORDING_FORMAT,
  RECORDING_VERSION,
  type RecordEntry,
  type Recording,
  type RecordingHeader,
  recordingOf,
  type SnapshotRecord,
  type StateDescription,
  type TransitionDescription,
} from '../../../src/recording/format.ts'

/** One recorder's records (one page of the viewer), in the order received. */
export interface Stream {
  rid: string
  header?: RecordingHeader
  records: RecordEntry[]
  /** The definitions its actors run, by hash. */
  machines: Map<string, MachineDescription>
  /** The highest `seq` taken: a record seen again (a viewer reconnecting gets the server's buffer) is skipped. */
  lastSeq: number
}

/** What the viewer knows of an actor after a given record. */
export interface ActorState {
  sessionId: string
  /** Its id within its parent (invoke or spawn id). */
  id: string
  /** What the list shows: the machine's id, else the slot (src), else the id. */
  name: string
  parentId?: string
  systemId?: string
  src?: string
  kind: string
  machine?: { id: string; hash: string }
  value?: Json
  status: string
  output?: Json
  error?: Json
  /** The type of the last event it received, if any. */
  lastEvent?: string
}

/** The actors as they were right after `records[index]`, in the order they started. */
export interface Frame {
  index: number
  actors: Map<string, ActorState>
}

/** Records kept per recorder; past it the oldest events and snapshots go (definitions and actors stay). */
export const MAX_RECORDS = 100_000
/** Machine descriptions larger than this (nodes) are refused: the viewer lays each out in the page. */
const MAX_STATES = 2_000
const MAX_DEPTH = 32

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
const optionalString = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined)
const isStringArray = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === 'string')

export class RecordStore {
  readonly streams = new Map<string, Stream>()
  /** Records without a recorder id (another inspector's) are numbered here. */
  #anonymousSeq = 0

  /** Takes one received record; answers its recorder's stream, or `undefined` when it was refused or seen. */
  add(raw: unknown): Stream | undefined {
    const record = parseRecord(raw)
    if (!record) return undefined
    if (record.rid === '') record.seq = ++this.#anonymousSeq
    let stream = this.streams.get(record.rid)
    if (!stream) {
      stream = { rid: record.rid, records: [], machines: new Map(), lastSeq: 0 }
      this.streams.set(record.rid, stream)
    }
    if (record.seq <= stream.lastSeq) return undefined
    stream.lastSeq = record.seq
    if (record.type === '@walletstate.recording') stream.header = record
    if (record.type === '@walletstate.machine') stream.machines.set(record.machine.hash, record.machine)
    stream.records.push(record)
    if (stream.records.length > MAX_RECORDS) trim(stream)
    return stream
  }
}

/** Drops the oldest tenth of the events and snapshots. */
function trim(stream: Stream): void {
  let drop = Math.ceil(MAX_RECORDS / 10)
  stream.records = stream.records.filter((record) => {
    if (drop > 0 && (record.type === '@xstate.event' || record.type === '@xstate.snapshot')) {
      drop -= 1
      return false
    }
    return true
  })
}

/** A received record in the recording format, or `undefined`; fields it does not need are kept as they came. */
export function parseRecord(raw: unknown): RecordEntry | undefined {
  if (!isObject(raw) || typeof raw.type !== 'string') return undefined
  const rid = typeof raw.rid === 'string' ? raw.rid : ''
  const seq = typeof raw.seq === 'number' && Number.isFinite(raw.seq) ? raw.seq : 0
  const base = { ...raw, rid, seq }
  switch (raw.type) {
    case '@walletstate.recording': {
      if (typeof raw.startedAt !== 'string') return undefined
      return {
        ...base,
        type: raw.type,
        format: RECORDING_FORMAT,
        version: RECORDING_VERSION,
        startedAt: raw.startedAt,
        redacted: raw.redacted === true,
      }
    }
    case '@walletstate.machine': {
      const machine = parseMachine(raw.machine)
      return machine ? { ...base, type: raw.type, machine } : undefined
    }
    case '@xstate.actor': {
      if (typeof raw.sessionId !== 'string') return undefined
      const machine =
        isObject(raw.machine) && typeof raw.machine.id === 'string' && typeof raw.machine.hash === 'string'
          ? { id: raw.machine.id, hash: raw.machine.hash }
          : undefined
      return {
        ...base,
        type: raw.type,
        sessionId: raw.sessionId,
        id: optionalString(raw.id) ?? optionalString(raw.name) ?? raw.sessionId,
        parentId: optionalString(raw.parentId),
        systemId: optionalString(raw.systemId),
        src: optionalString(raw.src),
        kind: (optionalString(raw.kind) ?? (machine ? 'machine' : 'other')) as ActorRecord['kind'],
        machine,
      }
    }
    case '@xstate.event': {
      if (typeof raw.sessionId !== 'string' || !isObject(raw.event) || typeof raw.event.type !== 'string') {
        return undefined
      }
      return {
        ...base,
        type: raw.type,
        sessionId: raw.sessionId,
        sourceId: optionalString(raw.sourceId),
        event: raw.event as EventRecord['event'],
      }
    }
    case '@xstate.snapshot': {
      if (typeof raw.sessionId !== 'string') return undefined
      // Another inspector's records (`@statelyai/inspect`) carry the whole snapshot: its value is read from it.
      const snapshot = isObject(raw.snapshot) ? raw.snapshot : undefined
      const value = 'value' in raw ? raw.value : snapshot?.value
      return {
        ...base,
        type: raw.type,
        sessionId: raw.sessionId,
        eventType: optionalString(raw.eventType) ?? (isObject(raw.event) ? String(raw.event.type) : ''),
        status: (optionalString(raw.status) ??
          optionalString(snapshot?.status) ??
          'active') as SnapshotRecord['status'],
        value: value as Json | undefined,
      }
    }
    default:
      return undefined
  }
}

const STATE_TYPES = new Set(['atomic', 'compound', 'parallel', 'final', 'history'])

/** A machine description, checked field by field, or `undefined` (too large or not one). */
export function parseMachine(raw: unknown): MachineDescription | undefined {
  if (!isObject(raw) || typeof raw.id !== 'string' || typeof raw.hash !== 'string') return undefined
  let count = 0
  const state = (value: unknown, depth: number): StateDescription | undefined => {
    count += 1
    if (count > MAX_STATES || depth > MAX_DEPTH || !isObject(value)) return undefined
    const { id, key, path, type, initial, invoke, transitions, states } = value
    if (typeof id !== 'string' || typeof key !== 'string' || !isStringArray(path)) return undefined
    if (typeof type !== 'string' || !STATE_TYPES.has(type)) return undefined
    if (!Array.isArray(invoke) || !Array.isArray(transitions) || !Array.isArray(states)) return undefined
    const parsedInvoke: StateDescription['invoke'] = []
    for (const item of invoke) {
      if (!isObject(item) || typeof item.id !== 'string' || typeof item.src !== 'string') return undefined
      parsedInvoke.push({ id: item.id, src: item.src })
    }
    const parsedTransitions: TransitionDescription[] = []
    for (const item of transitions) {
      if (!isObject(item) || typeof item.event !== 'string' || !isStringArray(item.targets)) return undefined
      parsedTransitions.push({
        event: item.event,
        ...(typeof item.delay === 'string' || typeof item.delay === 'number' ? { delay: item.delay } : {}),
        targets: item.targets,
        ...(typeof item.guard === 'string' ? { guard: item.guard } : {}),
        actions: isStringArray(item.actions) ? item.actions : [],
        reenter: item.reenter === true,
      })
    }
    const children: StateDescription[] = []
    for (const child of states) {
      const parsed = state(child, depth + 1)
      if (!parsed) return undefined
      children.push(parsed)
    }
    return {
      id,
      key,
      path,
      type: type as StateDescription['type'],
      ...(typeof initial === 'string' ? { initial } : {}),
      invoke: parsedInvoke,
      transitions: parsedTransitions,
      states: children,
    }
  }
  const root = state(raw.root, 0)
  return root ? { id: raw.id, hash: raw.hash, root } : undefined
}

/** The actors right after `records[index]` (-1: before the first record). */
export function frameAt(stream: Stream, index: number): Frame {
  return advance({ index: -1, actors: new Map() }, stream.records, index)
}

/** Applies `records` after `frame.index` up to `index` to the frame (changing it) and answers it. */
function advance(frame: Frame, records: RecordEntry[], index: number): Frame {
  const { actors } = frame
  const last = Math.min(index, records.length - 1)
  for (let i = frame.index + 1; i <= last; i += 1) {
    const record = records[i]!
    if (record.type === '@xstate.actor') {
      actors.set(record.sessionId, {
        sessionId: record.sessionId,
        id: record.id,
        name: record.machine?.id ?? record.src ?? record.id,
        parentId: record.parentId,
        systemId: record.systemId,
        src: record.src,
        kind: record.kind,
        machine: record.machine,
        status: 'active',
      })
    } else if (record.type === '@xstate.snapshot') {
      const actor = actors.get(record.sessionId)
      if (!actor) continue
      if (record.value !== undefined) actor.value = record.value
      actor.status = record.status
      if (record.output !== undefined) actor.output = record.output
      if (record.error !== undefined) actor.error = record.error
    } else if (record.type === '@xstate.event') {
      const actor = actors.get(record.sessionId)
      if (actor) actor.lastEvent = record.event.type
    }
  }
  frame.index = Math.max(frame.index, last)
  return frame
}

/**
 * Frames of one stream, computed forward from the last one asked for while the steps only go forward (the live
 * view), from the start otherwise. The frame answered is the cursor's own: read it before the next call.
 */
export class FrameCursor {
  #records: RecordEntry[] | undefined
  #frame: Frame | undefined

  at(stream: Stream, index: number): Frame {
    if (this.#records !== stream.records || !this.#frame || index < this.#frame.index) {
      this.#records = stream.records
      this.#frame = { index: -1, actors: new Map() }
    }
    return advance(this.#frame, stream.records, index)
  }
}

/** The actors as a tree (by `parentId`), depth first, in start order; an actor whose parent is unknown is a root. */
export function actorTree(frame: Frame): { actor: ActorState; depth: number }[] {
  const children = new Map<string | undefined, ActorState[]>()
  for (const actor of frame.actors.values()) {
    const parent =
      actor.parentId !== undefined && frame.actors.has(actor.parentId) ? actor.parentId : undefined
    const list = children.get(parent) ?? []
    list.push(actor)
    children.set(parent, list)
  }
  const out: { actor: ActorState; depth: number }[] = []
  const seen = new Set<string>()
  const visit = (parent: string | undefined, depth: number) => {
    for (const actor of children.get(parent) ?? []) {
      if (seen.has(actor.sessionId)) continue
      seen.add(actor.sessionId)
      out.push({ actor, depth })
      visit(actor.sessionId, depth + 1)
    }
  }
  visit(undefined, 0)
  return out
}

/**
 * The state nodes a state value makes active, root first: `{ a: 'b' }` → the root, `a`, `a.b`; every region of
 * a parallel node (`activeStatePaths`, as the recording's replay reads values).
 */
export function activeStates(machine: MachineDescription, value: Json | undefined): StateDescription[] {
  const byPath = new Map<string, StateDescription>()
  const visit = (state: StateDescription) => {
    byPath.set(pathKey(state.path), state)
    for (const child of state.states) visit(child)
  }
  visit(machine.root)
  return activeStatePaths(machine, value).flatMap((path) => {
    const state = byPath.get(pathKey(path))
    return state ? [state] : []
  })
}

/** The innermost active nodes (what "active: …" says). */
export function activeLeaves(active: StateDescription[]): StateDescription[] {
  const ids = new Set(active.map((node) => node.id))
  return active.filter((node) => !node.states.some((child) => ids.has(child.id)))
}

/** A path as a map key. */
export const pathKey = (path: readonly string[]): string => JSON.stringify(path)

/** A state value in one line: `connected.idle`, `{ a.x, b.y }` for parallel regions. */
export function formatValue(value: Json | undefined): string {
  if (value === undefined) return ''
  if (typeof value === 'string') return value
  if (isObject(value)) {
    const parts = Object.entries(value).map(([key, child]) => {
      const rest = formatValue(child as Json)
      return rest ? `${key}.${rest}` : key
    })
    return parts.length === 1 ? parts[0]! : `{ ${parts.join(', ')} }`
  }
  return JSON.stringify(value)
}

/** One line describing a record, for the step display and the event log. */
export function describeRecord(record: RecordEntry, actors: Map<string, ActorState>): string {
  const name = (sessionId: string | undefined) => {
    if (sessionId === undefined) return 'outside'
    const actor = actors.get(sessionId)
    return actor ? actor.name : sessionId
  }
  switch (record.type) {
    case '@walletstate.recording':
      return `recording started ${record.startedAt}${record.redacted ? ' (redacted)' : ''}`
    case '@walletstate.machine':
      return `machine ${record.machine.id} (${record.machine.hash})`
    case '@xstate.actor':
      return `actor ${name(record.sessionId)} started${record.parentId ? ` by ${name(record.parentId)}` : ''}`
    case '@xstate.event':
      return `event ${record.event.type} → ${name(record.sessionId)}${record.sourceId ? ` from ${name(record.sourceId)}` : ''}`
    case '@xstate.snapshot': {
      const value = formatValue(record.value)
      return `${name(record.sessionId)} ${record.status}${value ? `: ${value}` : ''} after ${record.eventType}`
    }
  }
}

/** The saved file: the header's fields and every record of the recorder. */
export function streamRecording(stream: Stream): Recording {
  return recordingOf(stream.header, stream.records)
}

/** `walletstate-recording-<startedAt>.json`, with the characters file systems refuse (`:`) made dashes. */
export function recordingFileName(recording: Recording): string {
  const stamp = recording.startedAt.replace(/[^0-9A-Za-z.-]+/g, '-') || 'unknown'
  return `walletstate-recording-${stamp}.json`
}
