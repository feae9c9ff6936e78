import {
  type ActorLogic,
  type AnyActorRef,
  type AnyEventObject,
  type AnyStateMachine,
  createActor,
  type InspectionEvent,
  SimulatedClock,
  type Snapshot,
} from 'xstate'
import { describeMachine } from './describe'
import type { ActorRecord, EventRecord, Json, Recording, SnapshotRecord } from './format'
import { type DecodeOptions, decode, encode } from './serialize'

/**
 * Replays a recording in Node, one machine at a time: each recorded actor of `machine` is started again in
 * isolation, every event it received is sent to it in the recorded order, and after each its state value is
 * compared with the recorded one. Its I/O slots (every actor it invokes or spawns, machines included, each
 * replayed on its own) are stand-ins answered from the recording: a slot started by the replay is matched to
 * the next recorded start of the same slot (its input must be the recorded one), and it answers (its output,
 * its error, the events it sent) when the recording says it did. Delays never fire on their own: a delayed
 * event is sent when the recording has it.
 *
 * @example
 * ```ts
 * import { readFileSync } from 'node:fs'
 * import { sendMachine } from 'walletstate/machines'
 * import { formatReplayResult, parseRecording, replayRecording } from 'walletstate/testing'
 *
 * const recording = parseRecording(readFileSync('session.json', 'utf8'))
 * const result = replayRecording(recording, { machine: sendMachine })
 * if (!result.ok) throw new Error(formatReplayResult(result))
 * ```
 */
export interface ReplayRecordingOptions {
  machine: AnyStateMachine
  /**
   * Implementations to use in the replay (e.g. a changed guard). Actors named here run for real instead of
   * being answered from the recording.
   */
  provide?: Parameters<AnyStateMachine['provide']>[0]
  /**
   * An error class by its recorded name, so a recorded error is `instanceof` its class again. Without it an
   * error comes back as an `Error` with the recorded fields (name, message, shortMessage, code, …).
   */
  errorClass?: DecodeOptions['errorClass']
}

export interface ReplayedActor {
  sessionId: string
  id: string
  systemId?: string
}

export type ReplayRecordingResult =
  | { ok: true; machine: string; actors: number; events: number }
  | {
      ok: false
      machine: string
      /** `divergence`: a state differs; `slot`: an I/O slot started or answered unlike the recording. */
      reason: 'divergence' | 'slot' | 'definition' | 'absent'
      message: string
      actor?: ReplayedActor
      /** 1-based index of the event among those the actor received (0: its initial state). */
      step?: number
      event?: Json
      expected?: Json
      actual?: Json
    }

export type ReplayFailure = Extract<ReplayRecordingResult, { ok: false }>

const REPLAY_DONE = 'walletstate.replay.done'
const REPLAY_ERROR = 'walletstate.replay.error'
const REPLAY_SEND = 'walletstate.replay.send'

type StandInSnapshot = Snapshot<unknown> & { input: unknown }

/**
 * The stand-in for every I/O slot and every actor outside the one replayed: it does nothing by itself; the
 * replay makes it finish, fail or send an event to its parent when the recording says the real one did.
 */
const standIn: ActorLogic<StandInSnapshot, AnyEventObject, unknown> = {
  transition(snapshot, event, scope) {
    if (snapshot.status !== 'active') return snapshot
    if (event.type === REPLAY_DONE) return { ...snapshot, status: 'done', output: event.output }
    if (event.type === REPLAY_ERROR) return { ...snapshot, status: 'error', error: event.error }
    if (event.type === REPLAY_SEND) {
      const parent = scope.self._parent
      const system = scope.system as unknown as {
        _relay?: (source: AnyActorRef, target: AnyActorRef, event: AnyEventObject) => void
      }
      if (parent && system._relay) system._relay(scope.self, parent, event.event as AnyEventObject)
      else parent?.send(event.event as AnyEventObject)
    }
    return snapshot
  },
  getInitialSnapshot: (_scope, input) => ({ status: 'active', output: undefined, error: undefined, input }),
  getPersistedSnapshot: (snapshot) => snapshot,
}

export function replayRecording(
  recording: Recording,
  options: ReplayRecordingOptions,
): ReplayRecordingResult {
  const description = describeMachine(options.machine)
  const machineId = description.id
  const recorded = recording.records.filter(
    (r): r is ActorRecord => r.type === '@xstate.actor' && r.machine?.id === machineId,
  )
  if (recorded.length === 0) {
    return {
      ok: false,
      machine: machineId,
      reason: 'absent',
      message: `The recording has no actor of machine "${machineId}".`,
    }
  }
  const other = recorded.find((r) => r.machine?.hash !== description.hash)
  if (other) {
    return {
      ok: false,
      machine: machineId,
      reason: 'definition',
      message: `The recording was made by another definition of machine "${machineId}" (recorded ${other.machine?.hash}, this one ${description.hash}): its states or transitions changed since. Record the session again.`,
      actor: summary(other),
    }
  }
  let events = 0
  for (const actor of recorded) {
    const outcome = replayActor(recording, actor, options)
    if (!outcome.ok) return outcome
    events += outcome.events
  }
  return { ok: true, machine: machineId, actors: recorded.length, events }
}

function replayActor(
  recording: Recording,
  target: ActorRecord,
  options: ReplayRecordingOptions,
): ReplayFailure | { ok: true; events: number } {
  const machineId = options.machine.id
  const actors = recording.records.filter((r): r is ActorRecord => r.type === '@xstate.actor')
  const children = actors.filter((r) => r.parentId === target.sessionId)
  // An actor ref in an input or an event (a transport, a reply-to) comes back as a stand-in of its own.
  const refs = new Map<string, AnyActorRef>()
  let holderRef: AnyActorRef | undefined
  const decodeOptions: DecodeOptions = {
    logic: () => standIn,
    actor: (sessionId) => {
      let ref = refs.get(sessionId)
      if (!ref) {
        ref = createActor(standIn, holderRef ? { parent: holderRef } : {}).start()
        refs.set(sessionId, ref)
      }
      return ref
    },
    ...(options.errorClass ? { errorClass: options.errorClass } : {}),
  }
  const real = new Set(Object.keys(options.provide?.actors ?? {}))
  const provided = options.provide ? options.machine.provide(options.provide) : options.machine
  const slots = Object.fromEntries(
    Object.keys(provided.implementations.actors)
      .filter((name) => !real.has(name))
      .map((name) => [name, standIn]),
  )
  const logic = provided.provide({ actors: slots })

  // Which recorded child each child the replay starts stands for, and the first slot mismatch.
  const started = new Map<string, AnyActorRef>()
  const claimed = new Set<string>()
  let slotFailure: Omit<ReplayFailure, 'ok' | 'machine' | 'reason'> | undefined
  const onChild = (
    child: AnyActorRef & { src?: unknown; options?: { systemId?: string; input?: unknown } },
  ) => {
    const src = typeof child.src === 'string' ? child.src : undefined
    const systemId = child.options?.systemId
    const match = children.find(
      (r) =>
        !claimed.has(r.sessionId) &&
        (src !== undefined
          ? r.src === src
          : systemId !== undefined
            ? r.systemId === systemId
            : r.id === child.id),
    )
    const name = src ?? systemId ?? child.id
    if (!match) {
      slotFailure ??= {
        message: `The replay started slot "${name}", which the recording never started there.`,
        actor: summary(target),
      }
      return
    }
    claimed.add(match.sessionId)
    started.set(match.sessionId, child)
    if (real.has(name)) return
    const actual = comparable(encode(child.options?.input))
    const expected = comparable(match.input ?? { $undefined: true })
    if (JSON.stringify(actual) !== JSON.stringify(expected)) {
      slotFailure ??= {
        message: `Slot "${name}" was started with another input than in the recording.`,
        actor: summary(target),
        expected,
        actual,
      }
    }
  }

  const clock = new SimulatedClock()
  let liveLogic: unknown
  const inspect = (event: InspectionEvent) => {
    if (event.type !== '@xstate.actor') return
    const ref = event.actorRef as AnyActorRef & { _parent?: AnyActorRef & { logic?: unknown } }
    if (ref._parent && ref._parent.logic === liveLogic) onChild(ref)
  }
  liveLogic = logic
  // A stand-in parent (the recorded actor's parent, if any, gets what it sends up), and stand-ins for the
  // other actors of the recorded system that the machine may address by system id.
  const holder = createActor(standIn, { clock, inspect })
  holder.start()
  holderRef = holder
  const childIds = new Set(children.map((c) => c.sessionId))
  for (const other of actors) {
    if (!other.systemId || other.sessionId === target.sessionId || childIds.has(other.sessionId)) continue
    if (holder.system.get(other.systemId)) continue
    createActor(standIn, { parent: holder, systemId: other.systemId }).start()
  }
  const input = target.input === undefined ? undefined : decode(target.input, decodeOptions)
  const live = createActor(logic, {
    parent: holder,
    id: target.id,
    ...(target.systemId ? { systemId: target.systemId } : {}),
    ...(input === undefined ? {} : { input }),
  })

  const received = recording.records.filter(
    (r): r is EventRecord => r.type === '@xstate.event' && r.sessionId === target.sessionId,
  )
  const snapshots = recording.records.filter(
    (r): r is SnapshotRecord => r.type === '@xstate.snapshot' && r.sessionId === target.sessionId,
  )
  // An actor takes its events in the order they reach it (its mailbox), and leaves one snapshot for each; an
  // event sent to it while it is busy (a child answering at once) is recorded before the snapshot of the one it
  // is busy with. So the n-th snapshot is the n-th event's, whatever records come between.
  const snapshotOf = (index: number): SnapshotRecord | undefined => {
    const snapshot = snapshots[index]
    return snapshot && snapshot.eventType === received[index]?.event.type ? snapshot : undefined
  }
  const fail = (
    reason: ReplayFailure['reason'],
    details: Omit<ReplayFailure, 'ok' | 'machine' | 'reason'>,
  ): ReplayFailure => ({ ok: false, machine: machineId, reason, ...details })

  let step = 0
  try {
    live.start()
    for (let i = 0; i < received.length; i++) {
      const record = received[i]!
      const type = record.event.type
      if (type !== 'xstate.init') {
        step += 1
        const source =
          record.sourceId !== undefined && childIds.has(record.sourceId) ? record.sourceId : undefined
        if (source !== undefined) {
          const child = started.get(source)
          if (!child) {
            const slot = children.find((c) => c.sessionId === source)
            return fail('slot', {
              message: `At step ${step} (${type}) the recording has slot "${slot?.src ?? slot?.id}" answering, but the replay never started it.`,
              actor: summary(target),
              step,
              event: record.event,
            })
          }
          const event = record.event as { [key: string]: Json }
          if (hasStopped(child)) {
            // The replayed machine already stopped it (it acted on the child's last message first), as the
            // recorded one had: its answer still reaches the machine, as it did then.
            live.send(decode(record.event, decodeOptions) as AnyEventObject)
          } else if (type.startsWith('xstate.done.actor.')) {
            child.send({ type: REPLAY_DONE, output: decode(event.output, decodeOptions) })
          } else if (type.startsWith('xstate.error.actor.')) {
            child.send({ type: REPLAY_ERROR, error: decode(event.error, decodeOptions) })
          } else {
            child.send({ type: REPLAY_SEND, event: decode(record.event, decodeOptions) })
          }
        } else {
          live.send(decode(record.event, decodeOptions) as AnyEventObject)
        }
      }
      const expected = snapshotOf(i)
      if (!expected) {
        if (slotFailure) return fail('slot', { ...slotFailure, step, event: record.event })
        continue
      }
      const snapshot = live.getSnapshot()
      const actual = comparable(encode(snapshot.value))
      const wanted = comparable(expected.value ?? null)
      if (JSON.stringify(actual) !== JSON.stringify(wanted) || snapshot.status !== expected.status) {
        return fail('divergence', {
          message:
            step === 0
              ? `The initial state differs from the recording's.`
              : `After step ${step} (${type}) the state differs from the recording's.`,
          actor: summary(target),
          step,
          event: record.event,
          expected: expected.status === snapshot.status ? wanted : { status: expected.status, value: wanted },
          actual: expected.status === snapshot.status ? actual : { status: snapshot.status, value: actual },
        })
      }
      // The state is as recorded, but a slot was started unlike the recording (another slot, another input).
      if (slotFailure) return fail('slot', { ...slotFailure, step, event: record.event })
    }
  } catch (error) {
    return fail('divergence', {
      message: `At step ${step} the replay threw: ${error instanceof Error ? error.message : String(error)}`,
      actor: summary(target),
      step,
    })
  } finally {
    // The replayed actor is the stand-in parent's child: stopping the root stops the whole system.
    holder.stop()
  }
  return { ok: true, events: step }
}

/** Whether an actor was stopped (its parent left the state that ran it); its snapshot does not say so. */
function hasStopped(ref: AnyActorRef): boolean {
  const internals = ref as AnyActorRef & { _processingStatus?: number }
  return ref.getSnapshot().status !== 'active' || internals._processingStatus === STOPPED
}

/** XState's `ProcessingStatus.Stopped`. */
const STOPPED = 2

function summary(record: ActorRecord): ReplayedActor {
  return {
    sessionId: record.sessionId,
    id: record.id,
    ...(record.systemId ? { systemId: record.systemId } : {}),
  }
}

/** Actor refs differ from run to run (session ids): compared as refs, not by id. */
function comparable(json: Json): Json {
  if (Array.isArray(json)) return json.map(comparable)
  if (json && typeof json === 'object') {
    if ('$actor' in json && Object.keys(json).length === 1) return { $actor: '*' }
    const out: { [key: string]: Json } = {}
    for (const [k, v] of Object.entries(json)) out[k] = comparable(v)
    return out
  }
  return json
}

/**
 * One line for a passing replay; for a failing one the message, the actor, the event and both values.
 *
 * @example
 * ```ts
 * import { readFileSync } from 'node:fs'
 * import { sendMachine } from 'walletstate/machines'
 * import { formatReplayResult, parseRecording, replayRecording } from 'walletstate/testing'
 *
 * const recording = parseRecording(readFileSync('session.json', 'utf8'))
 * console.log(formatReplayResult(replayRecording(recording, { machine: sendMachine })))
 * ```
 */
export function formatReplayResult(result: ReplayRecordingResult): string {
  if (result.ok) {
    return `✓ ${result.machine}: ${result.actors} actor${result.actors === 1 ? '' : 's'}, ${result.events} events replayed, no divergence`
  }
  const lines = [`✗ ${result.machine}: ${result.message}`]
  if (result.actor)
    lines.push(
      `  actor:    ${result.actor.systemId ?? result.actor.id} (${result.actor.sessionId} in the recording)`,
    )
  if (result.event !== undefined) lines.push(`  event:    ${JSON.stringify(result.event)}`)
  if (result.expected !== undefined) lines.push(`  expected: ${JSON.stringify(result.expected)}`)
  if (result.actual !== undefined) lines.push(`  actual:   ${JSON.stringify(result.actual)}`)
  return lines.join('\n')
}
