import { describe, expect, it } from 'vitest'
import { assign, setup } from 'xstate'
import { RecordingFormatError } from '../errors/recording'
import { lookup, recordSession } from './fixtures'
import { parseRecording } from './parse'
import { formatReplayResult, replayRecording } from './replay'

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
