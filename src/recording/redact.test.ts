import { describe, expect, it } from 'vitest'
import { createActor, setup } from 'xstate'
import { createRecorder } from './recorder'

const login = setup({
  types: {
    events: {} as
      | { type: 'submitEmail'; email: string }
      | { type: 'submitOtp'; otp: string }
      | { type: 'connected'; session: { accessToken: string; email: string; address: string } }
      | { type: 'failed'; error: { code: number; message: string } }
      | { type: 'pair'; uri: string },
  },
}).createMachine({ id: 'login', on: { submitEmail: {}, submitOtp: {}, connected: {}, failed: {}, pair: {} } })

const URI = `wc:${'a'.repeat(64)}@2?relay-protocol=irn&symKey=${'b'.repeat(64)}`
const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2lnbmF0dXJl'

function session(redact?: boolean) {
  const recorder = createRecorder(redact === undefined ? {} : { redact })
  const actor = createActor(login, { inspect: recorder.inspect }).start()
  actor.send({ type: 'submitEmail', email: 'Alice.Smith+kit@example.com' })
  actor.send({ type: 'submitOtp', otp: '493817' })
  actor.send({
    type: 'connected',
    session: {
      accessToken: JWT,
      email: 'alice.smith+kit@example.com',
      address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    },
  })
  actor.send({ type: 'failed', error: { code: 4001, message: `Bearer ${JWT} refused for bob@example.org` } })
  actor.send({ type: 'pair', uri: URI })
  return JSON.stringify(recorder.recording())
}

describe('the secrets rules', () => {
  it('remove e-mails, one-time codes, tokens and pairing keys, keeping their shape', () => {
    const text = session()
    for (const secret of ['alice', 'Alice', 'bob@example.org', '493817', JWT, 'b'.repeat(64)])
      expect(text).not.toContain(secret)
    // One address is one stand-in (case aside), so equal e-mails stay equal; a code keeps its length.
    expect(text.match(/user1@redacted\.invalid/g)).toHaveLength(2)
    expect(text).toContain('user2@redacted.invalid')
    expect(text).toContain('"otp":"000000"')
    expect(text).toContain('"accessToken":{"$redacted":"token"}')
    expect(text).toContain('Bearer [redacted jwt] refused')
    // What is not secret stays: an address, an error code, the pairing topic.
    expect(text).toContain('0x70997970C51812dc3A010C7d01b50e0d17dc79C8')
    expect(text).toContain('"code":4001')
    expect(text).toContain(`wc:${'a'.repeat(64)}@2`)
    expect(JSON.parse(text).redacted).toBe(true)
  })

  it('are off with redact: false', () => {
    const text = session(false)
    for (const secret of ['Alice.Smith+kit@example.com', '493817', JWT]) expect(text).toContain(secret)
    expect(JSON.parse(text).redacted).toBe(false)
  })
})
