import {
  type AnyActorRef,
  type AnyStateMachine,
  fromCallback,
  fromObservable,
  fromPromise,
  fromTransition,
  type InspectionEvent,
} from 'xstate'
import { describeMachine } from './describe'
import {
  type ActorKind,
  type Json,
  RECORDING_FORMAT,
  RECORDING_VERSION,
  type RecordEntry,
  type Recording,
  type RecordingHeader,
  recordingOf,
} from './format'
import { createRedactor } from './redact'
import { type EncodeOptions, encode } from './serialize'

export interface RecorderOptions {
  /** Apply the secrets rules (`REDACTION_RULES`): on unless `false`. */
  redact?: boolean
  /** Called with each record as it is made (e.g. to stream it to the local inspector server). */
  onRecord?: (record: RecordEntry) => void
  /** At most this many records are kept (default 100 000); past it the recorder stops and says so. */
  limit?: number
}

export interface Recorder {
  /** Pass as `inspect` to `KitRoot` or `createActor`. */
  inspect: (event: InspectionEvent) => void
  /** This recorder's id (every record carries it). */
  rid: string
  /** The records so far, oldest first. */
  records(): RecordEntry[]
  /** The session so far as a saved recording (what "Save recording" downloads). */
  recording(): Recording
  /** Forgets the records (a new header starts the next ones). */
  clear(): void
}

/**
 * Records every actor, event and snapshot of the actor system it inspects, as JSON-safe records (see
 * `./format`), with secrets redacted by rule unless `redact: false`. Costs nothing until passed as `inspect`.
 *
 * @example
 * ```tsx
 * import { mainnet } from 'viem/chains'
 * import { createKitMachine } from 'walletstate'
 * import { ConnectButton, KitRoot } from 'walletstate/react'
 * import { createRecorder } from 'walletstate/testing'
 *
 * const kit = createKitMachine({ projectId: 'YOUR_PROJECT_ID', networks: [mainnet] })
 * const recorder = createRecorder()
 *
 * // "Report a problem" gets the same JSON as the viewer's "Save recording".
 * export const App = () => (
 *   <KitRoot machine={kit} inspect={recorder.inspect}>
 *     <ConnectButton />
 *     <button type="button" onClick={() => console.log(JSON.stringify(recorder.recording()))}>
 *       Report a problem
 *     </button>
 *   </KitRoot>
 * )
 * ```
 */
export function createRecorder(options: RecorderOptions = {}): Recorder {
  const redact = options.redact !== false
  const limit = options.limit ?? 100_000
  const rid = randomId()
  let seq = 0
  let records: RecordEntry[] = []
  let header: RecordingHeader
  let truncated = false
  let encodeOptions: EncodeOptions = {}
  const described = new Set<string>()
  const machineOf = new WeakMap<AnyActorRef, boolean>()

  const add = (record: RecordEntry) => {
    if (records.length >= limit) {
      if (!truncated)
        console.warn(`[walletstate] createRecorder: ${limit} records kept; later ones are dropped.`)
      truncated = true
      return
    }
    records.push(record)
    options.onRecord?.(record)
  }
  const start = () => {
    seq = 0
    records = []
    truncated = false
    described.clear()
    const redactor = redact ? createRedactor() : undefined
    encodeOptions = redactor ? { string: redactor.string, property: redactor.property } : {}
    header = {
      type: '@walletstate.recording',
      rid,
      seq: ++seq,
      format: RECORDING_FORMAT,
      version: RECORDING_VERSION,
      startedAt: new Date().toISOString(),
      redacted: redact,
    }
    add(header)
  }
  const json = (value: unknown): Json => encode(value, encodeOptions)

  const inspect = (event: InspectionEvent) => {
    try {
      onInspection(event)
    } catch (error) {
      // A recorder must never break the kit it watches.
      console.warn('[walletstate] createRecorder could not record an event:', error)
    }
  }
  const onInspection = (event: InspectionEvent) => {
    const actor = event.actorRef as AnyActorRef & ActorInternals
    if (event.type === '@xstate.actor') {
      const logic = actor.logic
      const isMachine = isStateMachine(logic)
      machineOf.set(actor, isMachine)
      let machine: { id: string; hash: string } | undefined
      if (isMachine) {
        const description = describeMachine(logic)
        machine = { id: description.id, hash: description.hash }
        if (!described.has(description.hash)) {
          described.add(description.hash)
          add({ type: '@walletstate.machine', rid, seq: ++seq, machine: description })
        }
      }
      const src = typeof actor.src === 'string' ? actor.src : undefined
      const systemId = actor.options?.systemId
      const input = actor.options?.input
      add({
        type: '@xstate.actor',
        rid,
        seq: ++seq,
        sessionId: actor.sessionId,
        id: actor.id,
        ...(actor._parent ? { parentId: actor._parent.sessionId } : {}),
        ...(typeof systemId === 'string' ? { systemId } : {}),
        ...(src ? { src } : {}),
        kind: isMachine ? 'machine' : kindOf(logic),
        ...(machine ? { machine } : {}),
        ...(input === undefined ? {} : { input: json(input) }),
      })
      return
    }
    if (event.type === '@xstate.event') {
      const source = event.sourceRef
      add({
        type: '@xstate.event',
        rid,
        seq: ++seq,
        sessionId: actor.sessionId,
        ...(source ? { sourceId: source.sessionId } : {}),
        event: json(event.event) as Json & { type: string },
      })
      return
    }
    if (event.type === '@xstate.snapshot') {
      const snapshot = event.snapshot as {
        status: string
        value?: unknown
        output?: unknown
        error?: unknown
      }
      const status =
        (['active', 'done', 'error', 'stopped'] as const).find((s) => s === snapshot.status) ?? 'active'
      add({
        type: '@xstate.snapshot',
        rid,
        seq: ++seq,
        sessionId: actor.sessionId,
        eventType: String(event.event.type),
        status,
        ...(machineOf.get(actor) ? { value: json(snapshot.value) } : {}),
        ...(status === 'done' && snapshot.output !== undefined ? { output: json(snapshot.output) } : {}),
        ...(status === 'error' ? { error: json(snapshot.error) } : {}),
      })
    }
  }

  start()
  return {
    inspect,
    rid,
    records: () => [...records],
    recording: () => recordingOf(header, [...records], truncated),
    clear: start,
  }
}

interface ActorInternals {
  logic: unknown
  src: unknown
  _parent?: { sessionId: string }
  options?: { systemId?: unknown; input?: unknown }
}

export function isStateMachine(logic: unknown): logic is AnyStateMachine {
  return (
    typeof logic === 'object' &&
    logic !== null &&
    'root' in logic &&
    'implementations' in logic &&
    typeof (logic as { provide?: unknown }).provide === 'function'
  )
}

/**
 * XState's logic creators leave no tag; each creator's `transition` has the same source for all its logic,
 * so comparing with one of each tells the kind.
 */
function kindOf(logic: unknown): ActorKind {
  const transition = (logic as { transition?: unknown } | undefined)?.transition
  if (typeof transition !== 'function') return 'other'
  kinds ??= new Map<string, ActorKind>([
    [String(fromPromise(async () => undefined).transition), 'promise'],
    [String(fromCallback(() => undefined).transition), 'callback'],
    [String(fromObservable(() => ({ subscribe: () => ({ unsubscribe() {} }) })).transition), 'observable'],
    [String(fromTransition((s) => s, undefined).transition), 'transition'],
  ])
  return kinds.get(String(transition)) ?? 'other'
}

let kinds: Map<string, ActorKind> | undefined

function randomId(): string {
  const bytes = new Uint8Array(8)
  globalThis.crypto.getRandomValues(bytes)
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')
}
