/**
 * The recording format: what `createRecorder()` streams and saves, what the local viewer draws and saves,
 * and what `replayRecording` reads. Plain JSON: every value that JSON cannot hold is tagged (see `Json` and
 * `encode`/`decode` in `./serialize`).
 */

export const RECORDING_FORMAT = 'walletstate-recording'
export const RECORDING_VERSION = 1

/**
 * A JSON value. Values JSON cannot hold are objects with one tag key:
 * `{ $bigint: '10' }`, `{ $undefined: true }`, `{ $date: ISO }`, `{ $error: { name, message, code?, … } }`,
 * `{ $actor: sessionId }` (an actor ref), `{ $function: name }`, `{ $logic: machineId | kind }` (actor logic),
 * `{ $number: 'NaN' }`, `{ $symbol }`, `{ $bytes: hex }`, `{ $map: [[k, v]] }`, `{ $set: [] }`,
 * `{ $circular: true }`, `{ $truncated: true }` (too deep, too long), `{ $redacted: rule }` (a secret removed).
 */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json }

/** What kind of actor logic: machines are replayed; every other kind is an I/O slot answered from the record. */
export type ActorKind = 'machine' | 'promise' | 'callback' | 'observable' | 'transition' | 'other'

/** A state node of a machine, for the diagram and for mapping a state value to the active nodes. */
export interface StateDescription {
  /** The node's id (`machineId.key.key`, or its own `id`). */
  id: string
  key: string
  /** The keys from the root to this node (the root's is `[]`): a state value's path. */
  path: string[]
  type: 'atomic' | 'compound' | 'parallel' | 'final' | 'history'
  /** The initial child's key (compound nodes). */
  initial?: string
  /** Invoked actors: their id and slot (src) name. */
  invoke: { id: string; src: string }[]
  transitions: TransitionDescription[]
  /** Children in definition order. */
  states: StateDescription[]
}

export interface TransitionDescription {
  /** The event type; delayed ones are `xstate.after.<delay>.<node id>`, eventless ones `''`. */
  event: string
  /** For delayed transitions: the delay's name or milliseconds. */
  delay?: string | number
  /** Target node ids; empty for a transition that stays (actions only). */
  targets: string[]
  /** The guard's name (`!name`, `a && b`, `a || b` for the combinators), if any. */
  guard?: string
  /** Named actions (`assign` and inline ones are omitted). */
  actions: string[]
  reenter: boolean
}

/** A machine's definition, sent once (per hash) before its first actor. */
export interface MachineDescription {
  /** The machine's id (its root key). */
  id: string
  /** A hash of the definition (states, transitions, guard and action names, invoke slots), not of the code. */
  hash: string
  root: StateDescription
}

interface RecordBase {
  /** The recorder that made it (a page may run several; a viewer may hear several pages). */
  rid: string
  /** Increasing from 1 within a recorder. */
  seq: number
}

/** The first record of every recorder. */
export interface RecordingHeader extends RecordBase {
  type: '@walletstate.recording'
  format: typeof RECORDING_FORMAT
  version: typeof RECORDING_VERSION
  startedAt: string
  /** Whether the secrets rules ran (see `./redact`). */
  redacted: boolean
}

export interface MachineRecord extends RecordBase {
  type: '@walletstate.machine'
  machine: MachineDescription
}

export interface ActorRecord extends RecordBase {
  type: '@xstate.actor'
  sessionId: string
  /** The actor's id within its parent (the invoke or spawn id). */
  id: string
  parentId?: string
  systemId?: string
  /** The slot name it was invoked or spawned by (a named implementation), if any. */
  src?: string
  kind: ActorKind
  /** For machines: which definition (see the `@walletstate.machine` record with that hash). */
  machine?: { id: string; hash: string }
  input?: Json
}

export interface EventRecord extends RecordBase {
  type: '@xstate.event'
  /** The actor that received it. */
  sessionId: string
  /** The actor that sent it; none for events from outside the actor system (the UI, a host). */
  sourceId?: string
  event: Json & { type: string }
}

export interface SnapshotRecord extends RecordBase {
  type: '@xstate.snapshot'
  sessionId: string
  /** The event after which this snapshot was taken (`xstate.init` for the first). */
  eventType: string
  status: 'active' | 'done' | 'error' | 'stopped'
  /** A machine's state value. */
  value?: Json
  output?: Json
  error?: Json
}

export type RecordEntry = RecordingHeader | MachineRecord | ActorRecord | EventRecord | SnapshotRecord

/** A saved session: the header's fields, then every record in order. */
export interface Recording {
  format: typeof RECORDING_FORMAT
  version: typeof RECORDING_VERSION
  startedAt: string
  redacted: boolean
  /** The recorder reached its limit and dropped later records. */
  truncated?: boolean
  records: RecordEntry[]
}

/**
 * The saved form of one recorder's records: its header's fields, then the records. What the recorder's
 * `recording()`, the viewer's "Save recording" and the tests that read the inspector's stream all build.
 * @internal
 */
export function recordingOf(
  header: Pick<RecordingHeader, 'startedAt' | 'redacted'> | undefined,
  records: RecordEntry[],
  truncated = false,
): Recording {
  return {
    format: RECORDING_FORMAT,
    version: RECORDING_VERSION,
    startedAt: header?.startedAt ?? '',
    redacted: header?.redacted ?? false,
    ...(truncated ? { truncated: true } : {}),
    records,
  }
}
