import { describe, expect, it } from 'vitest'
import { activeStatePaths } from '../../../src/recording/describe.ts'
import type { MachineDescription, RecordEntry } from '../../../src/recording/format.ts'
import { recordFixture } from './fixture.ts'
import {
  activeLeaves,
  activeStates,
  actorTree,
  describeRecord,
  FrameCursor,
  formatValue,
  frameAt,
  parseMachine,
  RecordStore,
  recordingFileName,
  type Stream,
  streamRecording,
} from './model.ts'

/** The viewer's model over a real recording (`createRecorder` on a small machine, `./fixture`). */
async function fixtureStream(): Promise<{ store: RecordStore; stream: Stream; records: RecordEntry[] }> {
  const records = await recordFixture()
  const store = new RecordStore()
  for (const record of records) store.add(JSON.parse(JSON.stringify(record)))
  const stream = store.streams.get(records[0]!.rid)!
  return { store, stream, records }
}

const indexOf = (stream: Stream, find: (record: RecordEntry) => boolean) => stream.records.findIndex(find)

describe('the viewer model', () => {
  it('groups records by recorder, keeps the header and the machine, and skips a record seen again', async () => {
    const { store, stream, records } = await fixtureStream()
    expect(stream.header).toMatchObject({ format: 'walletstate-recording', version: 1, redacted: true })
    expect([...stream.machines.values()].map((machine) => machine.id)).toEqual(['demo'])
    expect(stream.records).toHaveLength(records.length)
    // A viewer reconnecting gets the server's buffer again: nothing doubles.
    for (const record of records) expect(store.add(record)).toBeUndefined()
    expect(stream.records).toHaveLength(records.length)
    // Another page is another recorder.
    store.add({ ...records[0], rid: 'other', seq: 1 })
    expect([...store.streams.keys()]).toEqual([records[0]!.rid, 'other'])
  })

  it('refuses what is not a record, and machine descriptions that are not ones', () => {
    const store = new RecordStore()
    for (const raw of [
      null,
      'text',
      { type: 'evil' },
      { type: '@xstate.event', rid: 'r', seq: 1, sessionId: 'x:0', event: 'start' },
      { type: '@xstate.snapshot', rid: 'r', seq: 2 },
      { type: '@walletstate.machine', rid: 'r', seq: 3, machine: { id: 'm', hash: 'h', root: { id: 'm' } } },
    ]) {
      expect(store.add(raw)).toBeUndefined()
    }
    expect(store.streams.size).toBe(0)
    const deep = (n: number): unknown =>
      n === 0
        ? { id: 'leaf', key: 'leaf', path: [], type: 'atomic', invoke: [], transitions: [], states: [] }
        : {
            id: `s${n}`,
            key: `s${n}`,
            path: [],
            type: 'compound',
            invoke: [],
            transitions: [],
            states: [deep(n - 1)],
          }
    expect(parseMachine({ id: 'm', hash: 'h', root: deep(10) })).toBeDefined()
    expect(parseMachine({ id: 'm', hash: 'h', root: deep(100) })).toBeUndefined()
  })

  it('rebuilds the actors as they were after any record (time travel)', async () => {
    const { stream } = await fixtureStream()
    const started = indexOf(
      stream,
      (r) => r.type === '@xstate.snapshot' && r.eventType === 'start' && r.value !== 'idle',
    )
    const sessionOf = (kind: string) =>
      stream.records.flatMap((r) => (r.type === '@xstate.actor' && r.kind === kind ? [r.sessionId] : []))[0]!
    const [demo, load] = [sessionOf('machine'), sessionOf('promise')]
    const before = frameAt(stream, started - 1)
    expect(before.actors.get(demo)?.value).toBe('idle')
    const after = frameAt(stream, started)
    expect(after.actors.get(demo)?.value).toEqual({ busy: { fetch: 'loading', timer: 'ticking' } })
    expect(formatValue(after.actors.get(demo)?.value)).toBe('busy.{ fetch.loading, timer.ticking }')
    // The invoked slot is the machine's child, named by its src; done once it answered.
    expect(actorTree(after).map(({ actor, depth }) => [actor.name, actor.kind, depth])).toEqual([
      ['demo', 'machine', 0],
      ['load', 'promise', 1],
    ])
    const end = frameAt(stream, stream.records.length - 1)
    expect(end.actors.get(load)).toMatchObject({ status: 'done', output: 42 })
    expect(end.actors.get(demo)).toMatchObject({
      status: 'stopped',
      value: { busy: { fetch: 'loaded', timer: 'rung' } },
    })
    // The cursor (the live view) answers the same frames going forward, and going back.
    const cursor = new FrameCursor()
    for (const index of [0, started - 1, started, stream.records.length - 1, started - 1]) {
      expect(structuredClone(cursor.at(stream, index))).toEqual(frameAt(stream, index))
    }
    expect(describeRecord(stream.records[started]!, after.actors)).toBe(
      'demo active: busy.{ fetch.loading, timer.ticking } after start',
    )
  })

  it('maps a state value to its active nodes by path (describe.ts), and says the innermost', async () => {
    const { stream } = await fixtureStream()
    const machine = [...stream.machines.values()][0] as MachineDescription
    for (const value of ['idle', { busy: { fetch: 'loaded', timer: 'ticking' } }] as const) {
      const active = activeStates(machine, value)
      expect(active.map((state) => state.path)).toEqual(activeStatePaths(machine, value))
    }
    expect(activeStates(machine, 'idle').map((state) => state.id)).toEqual(['demo', 'demo.idle'])
    const active = activeStates(machine, { busy: { fetch: 'loaded', timer: 'ticking' } })
    expect(activeLeaves(active).map((state) => state.id)).toEqual([
      'demo.busy.fetch.loaded',
      'demo.busy.timer.ticking',
    ])
  })

  it('saves the recorder as a recording, named by its start', async () => {
    const { stream, records } = await fixtureStream()
    const recording = streamRecording(stream)
    expect(recording).toMatchObject({
      format: 'walletstate-recording',
      version: 1,
      startedAt: stream.header!.startedAt,
      redacted: true,
    })
    expect(recording.records.map((r) => r.seq)).toEqual(records.map((r) => r.seq))
    expect(recordingFileName({ ...recording, startedAt: '2026-11-26T22:05:32.119Z' })).toBe(
      'walletstate-recording-2026-11-26T22-05-32.119Z.json',
    )
  })
})
