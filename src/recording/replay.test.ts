import { describe, expect, it } from 'vitest'
import { assign, createActor, fromPromise, setup } from 'xstate'
import { RecordingFormatError } from '../errors/recording'
import { parseRecording } from './parse'
import { createRecorder } from './recorder'
import { formatReplayResult, replayRecording } from './replay'

const lookup = setup({
  types: {
    context: {} as { query: string; result: string | undefined; tries: number },
    events: {} as { type: 'type'; query: string } | { type: 'submit' } | { type: 'retry' },
  },
  actors: {
    search: fromPromise<string, { query: string }>(async ({ input }) => `found ${input.query}`),
  },
  actions: {
    keepQuery: assign({ query: ({ event }) => (event.type === 'type' ? event.query : '') }),
  },
  guards: {
    queryValid: ({ context }) => context.query.length >= 3,
  },
  delays: { settle: 300 },
}).createMachine({
  id: 'lookup',
  context: { query: '', result: undefined, tries: 0 },
  initial: 'editing',
  states: {
    editing: {
      on: {
        type: { actions: 'keepQuery' },
        submit: { guard: 'queryValid', target: 'searching' },
      },
    },
    searching: {
      invoke: {
        src: 'search',
        input: ({ context }) => ({ query: context.query }),
        onDone: { target: 'settling', actions: assign({ result: ({ event }) => event.output }) },
        onError: 'failed',
      },
    },
    settling: { after: { settle: 'found' } },
    found: {},
    failed: { on: { retry: 'searching' } },
  },
})

async function recordSession(machine = lookup) {
  const recorder = createRecorder()
  const actor = createActor(machine, { inspect: recorder.inspect }).start()
  actor.send({ type: 'type', query: 'ab' })
  actor.send({ type: 'submit' })
  actor.send({ type: 'type', query: 'abc' })
  actor.send({ type: 'submit' })
  await new Promise((resolve) => setTimeout(resolve, 350))
  expect(actor.getSnapshot().value).toBe('found')
  actor.stop()
  return JSON.parse(JSON.stringify(recorder.recording()))
}

describe('replayRecording', () => {
  it('replays a recorded session: slots answered from the recording, delays as recorded, no divergence', async () => {
    const recording = await recordSession()
    const result = replayRecording(recording, { machine: lookup })
    expect(formatReplayResult(result)).toContain('no divergence')
    expect(result).toMatchObject({ ok: true, machine: 'lookup', actors: 1, events: 6 })
  })

  it('a changed guard reports the first divergence: the step, the event and both state values', async () => {
    const recording = await recordSession()
    const result = replayRecording(recording, {
      machine: lookup,
      provide: {
        guards: { queryValid: ({ context }: { context: { query: string } }) => context.query.length >= 2 },
      },
    })
    expect(result).toMatchObject({
      ok: false,
      reason: 'divergence',
      step: 2,
      event: { type: 'submit' },
      expected: 'editing',
      actual: 'searching',
    })
    expect(formatReplayResult(result)).toMatch(
      /After step 2 \(submit\)[\s\S]*expected: "editing"[\s\S]*actual:\s+"searching"/,
    )
  })

  it('a slot started with another input than recorded is a divergence of that slot', async () => {
    const recording = await recordSession()
    const upper = assign({
      query: ({ event }: { event: { type: string; query?: string } }) => (event.query ?? '').toUpperCase(),
    })
    const result = replayRecording(recording, { machine: lookup, provide: { actions: { keepQuery: upper } } })
    expect(result).toMatchObject({
      ok: false,
      reason: 'slot',
      step: 4,
      event: { type: 'submit' },
      expected: { query: 'abc' },
      actual: { query: 'ABC' },
    })
    expect(result.ok || result.message).toBe(
      'Slot "search" was started with another input than in the recording.',
    )
  })

  it('a recording of another definition says so', async () => {
    const recording = await recordSession()
    const other = setup({}).createMachine({ id: 'lookup', initial: 'a', states: { a: {} } })
    const result = replayRecording(recording, { machine: other })
    expect(result).toMatchObject({ ok: false, reason: 'definition' })
    expect(result.ok || result.message).toMatch(/another definition of machine "lookup"/)
  })
})

describe('parseRecording', () => {
  it('reads a saved recording, and says what is wrong with anything else', async () => {
    const recording = await recordSession()
    expect(parseRecording(JSON.stringify(recording)).records).toHaveLength(recording.records.length)
    expect(() => parseRecording('{')).toThrow('The recording is not JSON')
    expect(() => parseRecording({ records: [] })).toThrow('Not a walletstate recording')
    expect(() => parseRecording({ ...recording, version: 9 })).toThrow('version 9; this kit reads version 1')
    const broken = {
      ...recording,
      records: [...recording.records, { type: '@xstate.event', rid: 'x', seq: 1 }],
    }
    expect(() => parseRecording(broken)).toThrow(/malformed record at records\.\d+/)
    expect(() => parseRecording(broken)).toThrow(RecordingFormatError)
  })
})
