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

/**
 * The leaks of issue 33 point 7: secrets that reached a "redacted" recording in clear because the rules looked
 * only at raw text (`SYM_KEY`, `EMAIL` in redact.ts) and only at a 4-10 digit `code` property.
 */
describe('secrets written URL-encoded, in query strings and under symKey / code', () => {
  const links = setup({
    types: {
      events: {} as
        | { type: 'connection.wcLinking'; name: string; href: string }
        | { type: 'keys'; pairing: { topic: string; symKey: string; bytes: { symKey: Uint8Array } } }
        | { type: 'frame.socialUri'; uri: string }
        | { type: 'frame.socialCallback'; uri: string }
        | { type: 'oauth'; code: string; state: string; error: { code: string } }
        | { type: 'mail'; link: string }
        | { type: 'failed'; message: string },
    },
  }).createMachine({
    id: 'links',
    on: {
      'connection.wcLinking': {},
      keys: {},
      'frame.socialUri': {},
      'frame.socialCallback': {},
      oauth: {},
      mail: {},
      failed: {},
    },
  })
  const TOPIC = 'c'.repeat(64)
  const KEY = `${'7f3a9e'.repeat(10)}d00d`
  const PAIRING = `wc:${TOPIC}@2?expiryTimestamp=1767225600&relay-protocol=irn&symKey=${KEY}`
  const DEEP_LINK = `https://wallet.example/wc?uri=${encodeURIComponent(PAIRING)}`
  const OAUTH_CODE = '4/0AeanS0b-Kq9xZ_Tw8pLmN'
  const OAUTH_STATE = 'Hk3uYq8_Zp2vLm9NwT4sRr'
  const ONE_TIME = 'Vd9fQ2mX7pLk3sTz8wYb1nCe'
  const EMAIL = 'carol.jones@mail.example'
  const RELAY_KEY = 'e9'.repeat(32)
  const RELAY_CODE = 'q7Rt2Lm9Xw'
  /** The shape a blanked value keeps: digits 0, letters x, the rest as it was. */
  const shape = (value: string) => value.replace(/[0-9]/g, '0').replace(/[A-Za-z]/g, 'x')

  function record(redact = true) {
    const recorder = createRecorder({ redact })
    const actor = createActor(links, { inspect: recorder.inspect }).start()
    // The mobile deep link of `connectionCalls.ts`: the pairing URI, symKey included, URL-encoded.
    actor.send({ type: 'connection.wcLinking', name: 'Phone Wallet', href: DEEP_LINK })
    actor.send({
      type: 'keys',
      pairing: { topic: TOPIC, symKey: KEY, bytes: { symKey: Uint8Array.from([1, 2, 3, 4]) } },
    })
    // A social login: the provider's URL carries the state; its callback the code and state (or, on the
    // sandbox's secure site, its one-time token), and twice encoded inside a `next` parameter.
    actor.send({ type: 'frame.socialUri', uri: `https://id.example/social/google?state=${OAUTH_STATE}&x=1` })
    actor.send({
      type: 'frame.socialCallback',
      uri: `https://app.example/done?code=${encodeURIComponent(OAUTH_CODE)}&state=${OAUTH_STATE}&walletstate_social=${ONE_TIME}&next=${encodeURIComponent(encodeURIComponent(`/a?id_token=${ONE_TIME}x`))}`,
    })
    actor.send({ type: 'oauth', code: OAUTH_CODE, state: 'connected', error: { code: 'SESSION_EXPIRED' } })
    actor.send({
      type: 'mail',
      link: `https://mail.example/compose?to=${encodeURIComponent(EMAIL)}&cc=${encodeURIComponent(encodeURIComponent(EMAIL))}`,
    })
    // JSON text inside a string: a relay payload quoted in an error message.
    actor.send({
      type: 'failed',
      message: `Relay refused ${JSON.stringify({ params: { symKey: RELAY_KEY, code: RELAY_CODE, error: { code: 'EMBEDDED_WALLET_LOAD_FAILED' } } })}`,
    })
    return JSON.stringify(recorder.recording())
  }

  /** Not in the text, raw, URL-encoded once or twice. */
  const expectAbsent = (text: string, secret: string) => {
    expect(text).not.toContain(secret)
    expect(text).not.toContain(encodeURIComponent(secret))
    expect(text).not.toContain(encodeURIComponent(encodeURIComponent(secret)))
  }

  it('a mobile deep link holds no pairing key (URL-encoded `symKey%3D…`)', () => {
    const text = record()
    expect(text).toContain('symKey%3D') // the key's place is still there, blanked
    expectAbsent(text, KEY)
  })

  it('a symKey property is blanked, as a string and as bytes', () => {
    const text = record()
    expect(text).not.toContain(`"symKey":"${KEY}"`)
    expect(text).not.toContain('"$bytes":"01020304"')
  })

  it("the social login's URLs hold no OAuth code or state, nor the secure site's one-time token", () => {
    const text = record()
    for (const secret of [OAUTH_CODE, OAUTH_STATE, ONE_TIME]) expectAbsent(text, secret)
  })

  it('a URL-encoded e-mail (`carol.jones%40mail.example`) is replaced', () => {
    expectAbsent(record(), EMAIL)
  })

  it('JSON text inside a string holds no symKey or code; an alert name stays', () => {
    const text = record()
    expectAbsent(text, RELAY_KEY)
    expectAbsent(text, RELAY_CODE)
    expect(text).toContain(`\\"symKey\\":\\"${'0'.repeat(64)}\\"`)
    expect(text).toContain('EMBEDDED_WALLET_LOAD_FAILED')
  })

  it('keeps the shapes: the deep link still holds a pairing URI with a 64-hex key, an e-mail stays an e-mail', () => {
    const recording = JSON.parse(record())
    const events = recording.records.flatMap((r: { type: string; event?: { type: string } }) =>
      r.type === '@xstate.event' && r.event ? [r.event] : [],
    )
    const linking = events.find((e: { type: string }) => e.type === 'connection.wcLinking')
    const uri = new URL(linking.href).searchParams.get('uri')!
    // Only the key is blanked: same topic, same parameters, a key of the same length and alphabet.
    expect(uri).toBe(PAIRING.replace(KEY, '0'.repeat(64)))
    expect(events.find((e: { type: string }) => e.type === 'keys').pairing).toEqual({
      topic: TOPIC,
      symKey: '0'.repeat(64),
      bytes: { symKey: { $bytes: '00000000' } },
    })
    const callback = new URL(events.find((e: { type: string }) => e.type === 'frame.socialCallback').uri)
    expect(callback.searchParams.get('code')).toBe(shape(OAUTH_CODE))
    expect(callback.searchParams.get('state')).toBe(shape(OAUTH_STATE))
    expect(callback.searchParams.get('walletstate_social')).toMatch(/^[0x]{24}$/)
    expect(decodeURIComponent(callback.searchParams.get('next')!)).toMatch(/^\/a\?id_token=[0x]{25}$/)
    // A `code` property of any shape is blanked; an alert's code name and a `state` property stay.
    const oauth = events.find((e: { type: string }) => e.type === 'oauth')
    expect(oauth.code).toBe(shape(OAUTH_CODE))
    expect(oauth.state).toBe('connected')
    expect(oauth.error.code).toBe('SESSION_EXPIRED')
    // The e-mail's stand-in, encoded as the original was (once, then twice).
    const mail = new URL(events.find((e: { type: string }) => e.type === 'mail').link)
    expect(mail.searchParams.get('to')).toBe('user1@redacted.invalid')
    expect(mail.searchParams.get('cc')).toBe(encodeURIComponent('user1@redacted.invalid'))
  })

  it('are all kept with redact: false', () => {
    const text = record(false)
    for (const secret of [encodeURIComponent(PAIRING), OAUTH_STATE, ONE_TIME, encodeURIComponent(EMAIL)])
      expect(text).toContain(secret)
  })
})
