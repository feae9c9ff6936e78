import { readFileSync } from 'node:fs'
import { expect, it } from 'vitest'
import * as machines from '../../src/machines'
import { formatReplayResult, parseRecording, replayRecording } from '../../src/testing'

// Written by walletstate-replay from ./send-session.recording.json: replays the recorded session
// machine by machine and fails with the first divergence (the event and both state values).
const recording = parseRecording(
  readFileSync(new URL('./send-session.recording.json', import.meta.url), 'utf8'),
)

for (const machine of [
  machines.modalMachine,
  machines.toastMachine,
  machines.connectionMachine,
  machines.walletsMachine,
  machines.accountMachine,
  machines.sendMachine,
]) {
  it(`replays ${machine.id} as recorded`, () => {
    const result = replayRecording(recording, { machine })
    expect(result.ok, formatReplayResult(result)).toBe(true)
  })
}
