import { describe, expect, it } from 'vitest'
import { createActor, fromCallback } from 'xstate'
import {
  EMAIL_LOGIN_COOLDOWN_MS,
  FARCASTER_RELOAD_DELAY_MS,
  FRAME_LOAD_TIMEOUT_MS,
  FRAME_READY_DELAY_MS,
  FRAME_REQUEST_TIMEOUT_MS,
  FRAME_SIGN_OUT_TIMEOUT_MS,
} from '../constants'
import { ALERTS } from '../errors/base'
import { FakeFrame } from '../frame/fakeFrame'
import { frameMachine, frameRpc, selectCooldownSeconds, selectFrameStatus, selectFrameView } from './frame'
import { ALICE, ENDPOINT, flush, loginByEmail, ready, start } from './frame/harness'

describe('frameMachine: loading', () => {
  it('behavior: ready only after the frame announces itself and a further 500 ms', async () => {
    const h = start()
    expect(selectFrameStatus(h.snapshot())).toBe('loading')
    expect(h.snapshot().matches({ lifecycle: { active: 'loading' } })).toBe(true)
    await flush()
    expect(h.snapshot().matches({ lifecycle: { active: 'settling' } })).toBe(true)
    expect(h.context().frameVersion).toBe(1)
    h.clock.increment(FRAME_READY_DELAY_MS - 1)
    expect(h.snapshot().hasTag('loading')).toBe(true)
    expect(h.snapshot().can({ type: 'frame.connectEmail', email: ALICE })).toBe(false)
    h.clock.increment(1)
    expect(selectFrameStatus(h.snapshot())).toBe('ready')
    expect(h.auth()).toBe('idle')
    expect(h.snapshot().can({ type: 'frame.connectEmail', email: ALICE })).toBe(true)
  })

  it('behavior: no announcement within 20 s fails with the load error and the alert; retry opens a new frame', async () => {
    const frame = new FakeFrame()
    frame.announce = false
    const h = start({ frame })
    await flush()
    h.clock.increment(FRAME_LOAD_TIMEOUT_MS - 1)
    expect(selectFrameStatus(h.snapshot())).toBe('loading')
    h.clock.increment(1)
    expect(selectFrameStatus(h.snapshot())).toBe('failed')
    expect(h.error()).toBe('Unable to load email login dependency')
    expect(h.context().alert).toEqual(ALERTS.EMBEDDED_WALLET_LOAD_FAILED)
    expect(h.emitted).toContainEqual({
      type: 'embedded.failed',
      error: { name: 'FrameLoadError', message: 'Unable to load email login dependency' },
      alert: ALERTS.EMBEDDED_WALLET_LOAD_FAILED,
    })
    // The iframe is gone with the failed attempt.
    expect(frame.open).toBe(0)

    frame.announce = true
    h.send({ type: 'frame.retry' })
    expect(frame.opened).toBe(2)
    expect(h.context().error).toBeUndefined()
    expect(h.context().alert).toBeUndefined()
    await ready(h)
  })

  it('behavior: a frame refusing the origin fails with the invalid-app-configuration alert', async () => {
    const h = start()
    h.frame.send({ type: 'frame.originNotAllowed', payload: { origin: 'https://app.example' } })
    await flush()
    expect(selectFrameStatus(h.snapshot())).toBe('failed')
    expect(h.context().alert).toEqual(ALERTS.INVALID_APP_CONFIGURATION)
    expect(h.error()).toBe('Invalid App Configuration')
  })

  it('behavior: losing the frame while connected ends the session and aborts open requests', async () => {
    const h = start()
    await ready(h)
    await loginByEmail(h)
    const signing = frameRpc(h.actor, { method: 'personal_sign', params: ['0x68656c6c6f', '0x0'] })
    await flush()
    h.frame.send({ type: 'frame.originNotAllowed', payload: { origin: 'https://app.example' } })
    await expect(signing).rejects.toMatchObject({ shortMessage: 'Request was aborted', code: 4001 })
    expect(h.context().user).toBeUndefined()
    expect(h.context().rpc).toEqual([])
    expect(h.requests()).toEqual([])
    expect(h.emitted.map((e) => e.type)).toContain('embedded.disconnected')
    // The stored login is checked again when the frame comes back.
    expect(h.context().restoring).toBe(true)
  })

  it('parameters: the transport gets where the frame lives and what its address carries', () => {
    let input: unknown
    const machine = frameMachine.provide({
      actors: {
        transport: fromCallback(({ input: given }) => {
          input = given
        }),
      },
    })
    createActor(machine, {
      input: { endpoint: ENDPOINT, projectId: 'p1', chainId: 137, enableLogger: true, version: '9.9.9' },
    }).start()
    expect(input).toEqual({
      endpoint: ENDPOINT,
      projectId: 'p1',
      chainId: 137,
      version: '9.9.9',
      enableLogger: true,
    })
  })

  it('behavior: theme and app data are sent once the frame is ready, and a theme change later', async () => {
    const h = start({
      input: {
        theme: { themeMode: 'dark' },
        dappData: { projectId: 'p1', sdkVersion: '0.1.0' },
      },
    })
    h.send({ type: 'frame.syncTheme', theme: { themeMode: 'light' } })
    await ready(h)
    expect(h.frame.posted.map((p) => [p.request.type, p.request.payload])).toEqual([
      ['syncDappData', { projectId: 'p1', sdkVersion: '0.1.0' }],
      ['syncTheme', { themeMode: 'light' }],
    ])
    h.send({ type: 'frame.syncTheme', theme: { themeMode: 'dark' } })
    expect(h.posted().at(-1)).toBe('syncTheme')
    await flush()
    // No one waits for their replies.
    expect(h.requests()).toEqual([])
  })
})

describe('frameMachine: requests', () => {
  it('behavior: every request has its own id, is posted to the exact frame origin and stays pending until its reply', async () => {
    const h = start()
    await ready(h)
    h.frame.silent.add('connectEmail')
    h.send({ type: 'frame.connectEmail', email: ALICE })
    expect(h.requests()).toEqual([
      { id: 'r1', command: 'connectEmail', owner: 'auth', timeoutMs: FRAME_REQUEST_TIMEOUT_MS },
    ])
    expect(h.frame.posted).toEqual([
      { request: { id: 'r1', type: 'connectEmail', payload: { email: ALICE } }, targetOrigin: ENDPOINT },
    ])
    h.frame.send({ id: 'r1', type: 'frame.reply', payload: { ok: true, result: { action: 'VERIFY_OTP' } } })
    await flush()
    expect(h.requests()).toEqual([])
    expect(h.auth()).toEqual({ email: 'otp' })
  })

  it('behavior: a request without an answer in 30 s fails with "Something went wrong"; its late answer changes nothing', async () => {
    const h = start()
    await ready(h)
    h.frame.silent.add('connectEmail')
    h.send({ type: 'frame.connectEmail', email: ALICE })
    h.clock.increment(FRAME_REQUEST_TIMEOUT_MS - 1)
    expect(h.auth()).toEqual({ email: 'submitting' })
    h.clock.increment(1)
    expect(h.auth()).toBe('idle')
    expect(h.error()).toBe('Something went wrong')
    expect(h.requests()).toEqual([])
    const before = h.snapshot()
    h.frame.send({ id: 'r1', type: 'frame.reply', payload: { ok: true, result: { action: 'VERIFY_OTP' } } })
    await flush()
    expect(h.snapshot()).toBe(before)
  })

  it('behavior: sign-out gives up after 3 s and signs out locally anyway', async () => {
    const h = start()
    await ready(h)
    await loginByEmail(h)
    h.frame.silent.add('signOut')
    h.send({ type: 'frame.signOut' })
    expect(h.auth()).toBe('signingOut')
    expect(h.requests()[0]).toMatchObject({ command: 'signOut', timeoutMs: FRAME_SIGN_OUT_TIMEOUT_MS })
    h.clock.increment(FRAME_SIGN_OUT_TIMEOUT_MS)
    expect(h.auth()).toBe('idle')
    expect(h.context().user).toBeUndefined()
    expect(h.error()).toBeUndefined()
    expect(h.persisted.at(-1)).toEqual({ type: 'persist.disconnected' })
    expect(h.emitted.at(-1)).toEqual({ type: 'embedded.disconnected' })
  })

  it('behavior: an error reply without a text reads "An error occurred"', async () => {
    const h = start()
    await ready(h)
    h.frame.silent.add('connectEmail')
    h.send({ type: 'frame.connectEmail', email: ALICE })
    h.frame.send({ id: 'r1', type: 'frame.reply', payload: { ok: false, error: { message: '' } } })
    await flush()
    expect(h.error()).toBe('An error occurred')
    h.clock.increment(FRAME_REQUEST_TIMEOUT_MS)
    expect(h.error()).toBe('An error occurred')
  })

  it('behavior: a reply of the wrong shape is an error, not a step forward', async () => {
    const h = start()
    await ready(h)
    h.frame.silent.add('connectEmail')
    h.send({ type: 'frame.connectEmail', email: ALICE })
    h.frame.send({ id: 'r1', type: 'frame.reply', payload: { ok: true, result: { action: 'LOGIN_NOW' } } })
    await flush()
    expect(h.auth()).toBe('idle')
    expect(h.context().error).toMatchObject({ name: 'FrameReplyError', message: 'An error occurred' })
  })
})

describe('frameMachine: e-mail login', () => {
  it('default: an invalid e-mail is refused before anything is sent', async () => {
    const h = start()
    await ready(h)
    h.send({ type: 'frame.connectEmail', email: 'not-an-email' })
    expect(h.error()).toBe('Invalid email')
    expect(h.auth()).toBe('idle')
    expect(h.frame.posted).toEqual([])
  })

  it('modal shake (SPEC §2): a refused code, malformed here or wrong by the frame, and a refused address are told', async () => {
    const h = start()
    await ready(h)
    const refusals = () => h.emitted.filter((e) => e.type === 'embedded.refused')
    h.send({ type: 'frame.connectEmail', email: 'not-an-email' })
    expect(refusals()).toEqual([{ type: 'embedded.refused', reason: 'email' }])
    h.send({ type: 'frame.connectEmail', email: ALICE })
    await flush()
    expect(h.auth()).toEqual({ email: 'otp' })
    h.send({ type: 'frame.submitOtp', otp: ' ' })
    expect(refusals()).toHaveLength(2)
    h.send({ type: 'frame.submitOtp', otp: '12' })
    await flush()
    expect(h.error()).toBe('Invalid one-time code')
    expect(refusals()).toEqual([
      { type: 'embedded.refused', reason: 'email' },
      { type: 'embedded.refused', reason: 'code' },
      { type: 'embedded.refused', reason: 'code' },
    ])
    // The right code is not a refusal.
    h.send({ type: 'frame.submitOtp', otp: h.frame.codeFor(ALICE)! })
    await flush()
    await flush()
    expect(h.auth()).toEqual({ connected: 'idle' })
    expect(refusals()).toHaveLength(3)
  })

  it('behavior: a new device is approved by e-mail first, a wrong code keeps its error for the retry, the right one connects', async () => {
    const h = start({ accounts: [] })
    await ready(h)
    h.send({ type: 'frame.connectEmail', email: `  ${ALICE} ` })
    await flush()
    expect(h.auth()).toEqual({ email: 'device' })
    expect(selectFrameView(h.snapshot())).toBe('EmailVerifyDevice')
    expect(h.context().email).toBe(ALICE)
    h.frame.approveDevice()
    await flush()
    expect(h.auth()).toEqual({ email: 'otp' })
    expect(selectFrameView(h.snapshot())).toBe('EmailVerifyOtp')

    h.send({ type: 'frame.submitOtp', otp: '   ' })
    expect(h.error()).toBe('Invalid code')
    expect(h.auth()).toEqual({ email: 'otp' })
    h.send({ type: 'frame.submitOtp', otp: '000000' })
    expect(h.snapshot().hasTag('busy')).toBe(true)
    await flush()
    expect(h.auth()).toEqual({ email: 'otp' })
    expect(h.error()).toBe('Invalid one-time code')

    const code = h.frame.codeFor(ALICE)!
    h.send({ type: 'frame.submitOtp', otp: code })
    expect(h.error()).toBeUndefined()
    await flush()
    await flush()
    expect(h.auth()).toEqual({ connected: 'idle' })
    expect(h.snapshot().hasTag('connected')).toBe(true)
    const user = h.frame.user()!
    expect(h.context().user).toEqual(user)
    expect(h.emitted).toContainEqual({
      type: 'embedded.connected',
      user,
      social: undefined,
      reconnected: false,
    })
    expect(h.persisted).toEqual([
      { type: 'persist.emailSent' },
      { type: 'persist.connected', email: ALICE, social: undefined },
    ])
    // Neither the codes nor the requests' payloads are kept in the snapshot.
    expect(JSON.stringify(h.context())).not.toContain(code)
  })

  it('behavior: CONNECT skips the code when the frame already holds the session', async () => {
    const h = start()
    h.frame.signIn(ALICE)
    await ready(h)
    h.send({ type: 'frame.connectEmail', email: ALICE })
    await flush()
    await flush()
    expect(h.auth()).toEqual({ connected: 'idle' })
    expect(h.posted()).toEqual(['connectEmail', 'getUser', 'initSmartAccount'])
  })

  it('behavior: a new login within 30 s is refused with the seconds left, rounded up', async () => {
    const h = start()
    await ready(h)
    h.send({ type: 'frame.connectEmail', email: ALICE })
    await flush()
    expect(h.snapshot().hasTag('coolingDown')).toBe(true)
    h.send({ type: 'frame.cancel' })
    expect(h.auth()).toBe('idle')

    h.clock.increment(12_400)
    expect(selectCooldownSeconds(h.snapshot(), h.clock.now())).toBe(18)
    h.send({ type: 'frame.connectEmail', email: ALICE })
    expect(h.error()).toBe('Please try again after 18 seconds')
    h.clock.increment(17_100)
    h.send({ type: 'frame.connectEmail', email: ALICE })
    expect(h.error()).toBe('Please try again after 1 seconds')
    expect(h.posted()).toEqual(['connectEmail'])
    h.clock.increment(500)
    expect(h.snapshot().hasTag('coolingDown')).toBe(false)
    h.send({ type: 'frame.connectEmail', email: ALICE })
    expect(h.auth()).toEqual({ email: 'submitting' })
    expect(h.error()).toBeUndefined()
  })

  it('behavior: resending the code obeys the same cooldown', async () => {
    const h = start()
    await ready(h)
    h.send({ type: 'frame.connectEmail', email: ALICE })
    await flush()
    h.clock.increment(5_000)
    h.send({ type: 'frame.resendCode' })
    expect(h.error()).toBe('Please try again after 25 seconds')
    expect(h.auth()).toEqual({ email: 'otp' })
    h.clock.increment(EMAIL_LOGIN_COOLDOWN_MS - 5_000)
    h.send({ type: 'frame.resendCode' })
    expect(h.auth()).toEqual({ email: 'resendingOtp' })
    await flush()
    expect(h.frame.mailbox).toHaveLength(2)
  })

  it('parameters: the cooldown left from a stored last login holds after a reload', async () => {
    const h = start({ input: { restored: { loggedIn: false, cooldownMs: 12_400 } } })
    await ready(h)
    h.send({ type: 'frame.connectEmail', email: ALICE })
    // 12.4 s were left at start, 0.5 s went by while the frame settled.
    expect(h.error()).toBe('Please try again after 12 seconds')
  })

  it('behavior: a stored login is checked once the frame is ready, and reconnects', async () => {
    const h = start({ input: { restored: { loggedIn: true, email: ALICE } } })
    h.frame.signIn(ALICE)
    await ready(h)
    await flush()
    expect(h.posted()).toEqual(['isConnected', 'getUser', 'initSmartAccount'])
    expect(h.auth()).toEqual({ connected: 'idle' })
    expect(h.emitted.find((e) => e.type === 'embedded.connected')).toMatchObject({ reconnected: true })
  })

  it('behavior: a stored login the frame no longer knows is forgotten', async () => {
    const h = start({ input: { restored: { loggedIn: true, email: ALICE } } })
    await ready(h)
    await flush()
    expect(h.auth()).toBe('idle')
    expect(h.context().email).toBeUndefined()
    expect(h.persisted).toEqual([{ type: 'persist.disconnected' }])
  })
})

describe('frameMachine: the clock', () => {
  it('parameters: the cooldown is kept on the injected clock (`input.now`), not the actor system', async () => {
    let time = 1_000_000
    const h = start({ input: { now: () => time } })
    await ready(h)
    h.frame.silent.add('connectOtp')
    h.send({ type: 'frame.connectEmail', email: ALICE })
    await flush()
    expect(h.context().cooldownUntil).toBe(1_000_000 + EMAIL_LOGIN_COOLDOWN_MS)
    time += 12_000
    expect(selectCooldownSeconds(h.snapshot(), time)).toBe(18)
    h.send({ type: 'frame.cancel' })
    h.send({ type: 'frame.connectEmail', email: ALICE })
    expect(h.error()).toBe('Please try again after 18 seconds')
  })

  it('default: a stored cooldown counts from `Date.now` without a clock given', () => {
    const before = Date.now()
    const actor = createActor(frameMachine, {
      input: {
        endpoint: ENDPOINT,
        projectId: 'p1',
        chainId: 1,
        restored: { loggedIn: false, cooldownMs: 5_000 },
      },
    }).start()
    const until = actor.getSnapshot().context.cooldownUntil!
    actor.stop()
    expect(until).toBeGreaterThanOrEqual(before + 5_000)
    expect(until).toBeLessThanOrEqual(Date.now() + 5_000)
  })
})

describe('frameMachine: social and Farcaster', () => {
  it('behavior: the popup opens at once, goes to the redirect URI, and its result connects', async () => {
    const h = start()
    await ready(h)
    h.send({ type: 'frame.connectSocial', provider: 'google' })
    expect(h.popup.started).toEqual([{ provider: 'google', endpoint: ENDPOINT }])
    expect(selectFrameView(h.snapshot())).toBe('ConnectingSocial')
    await flush()
    expect(h.auth()).toEqual({ social: 'awaitingCallback' })
    expect(h.popup.navigatedTo).toEqual(['https://id.example/authorize?provider=google'])
    expect(h.context().socialUri).toBe('https://id.example/authorize?provider=google')
    h.popup.finish()
    expect(h.auth()).toEqual({ social: 'connecting' })
    await flush()
    await flush()
    expect(h.auth()).toEqual({ connected: 'idle' })
    expect(h.popup.open).toBe(false)
    expect(h.persisted.at(-1)).toEqual({ type: 'persist.connected', email: undefined, social: 'google' })
    expect(h.context().socialUri).toBeUndefined()
  })

  it("SPEC §2 toasts, loading: a social or Farcaster login done, the account's data is said to load before it connects", async () => {
    const loadingThenConnected = (h: ReturnType<typeof start>) =>
      h.emitted
        .filter((e) => e.type.startsWith('toast.') || e.type === 'embedded.connected')
        .map((e) => ('message' in e ? `${e.type}:${e.message}` : e.type))
    const social = start()
    await ready(social)
    social.send({ type: 'frame.connectSocial', provider: 'google' })
    await flush()
    expect(loadingThenConnected(social)).toEqual([])
    social.popup.finish()
    await flush()
    await flush()
    expect(social.auth()).toEqual({ connected: 'idle' })
    expect(loadingThenConnected(social)).toEqual([
      'toast.show:Loading user data',
      'embedded.connected',
      'toast.hide:Loading user data',
    ])
    const farcaster = start()
    await ready(farcaster)
    farcaster.send({ type: 'frame.connectFarcaster' })
    await flush()
    farcaster.frame.approveFarcaster()
    await flush()
    await flush()
    expect(loadingThenConnected(farcaster)).toEqual([
      'toast.show:Loading user data',
      'embedded.connected',
      'toast.hide:Loading user data',
    ])
  })

  it('behavior: closing the popup cancels quietly; a blocked one says why', async () => {
    const h = start()
    await ready(h)
    h.send({ type: 'frame.connectSocial', provider: 'github' })
    await flush()
    h.popup.close()
    expect(h.auth()).toBe('idle')
    expect(h.error()).toBeUndefined()
    h.popup.blocked = true
    h.send({ type: 'frame.connectSocial', provider: 'github' })
    expect(h.auth()).toBe('idle')
    expect(h.error()).toBe('A problem occurred while trying initialize authentication')
  })

  it('behavior: Farcaster shows its URI and waits on the visitor at once, without a timeout', async () => {
    const h = start()
    await ready(h)
    h.send({ type: 'frame.connectFarcaster' })
    await flush()
    expect(h.auth()).toEqual({ farcaster: 'connecting' })
    expect(h.context().farcasterUrl).toBe('https://farcaster.example/~/siwf?channel=abc')
    expect(selectFrameView(h.snapshot())).toBe('ConnectingFarcaster')
    expect(h.posted()).toEqual(['getFarcasterUri', 'connectFarcaster'])
    expect(h.requests()).toEqual([
      { id: 'r2', command: 'connectFarcaster', owner: 'auth', timeoutMs: undefined },
    ])
    h.clock.increment(10 * FRAME_REQUEST_TIMEOUT_MS)
    expect(h.auth()).toEqual({ farcaster: 'connecting' })
    h.frame.approveFarcaster()
    await flush()
    await flush()
    expect(h.auth()).toEqual({ connected: 'idle' })
    expect(h.context().social).toBe('farcaster')
  })

  it('SPEC §9 Farcaster reload delay 100 ms: a Farcaster login left has the frame reloaded 100 ms later', async () => {
    const h = start()
    await ready(h)
    h.send({ type: 'frame.connectFarcaster' })
    await flush()
    expect(h.auth()).toEqual({ farcaster: 'connecting' })
    h.send({ type: 'frame.cancel' })
    expect(selectFrameView(h.snapshot())).toBeUndefined()
    h.clock.increment(FARCASTER_RELOAD_DELAY_MS - 1)
    expect(h.posted()).toEqual(['getFarcasterUri', 'connectFarcaster'])
    h.clock.increment(1)
    expect(h.posted()).toEqual(['getFarcasterUri', 'connectFarcaster', 'reload'])
    // The frame reloads and announces itself again: after its ready wait, logins go on as before.
    await flush()
    await flush()
    expect(selectFrameStatus(h.snapshot())).toBe('loading')
    h.clock.increment(FRAME_READY_DELAY_MS)
    expect(selectFrameStatus(h.snapshot())).toBe('ready')
    expect(h.auth()).toBe('idle')
  })
})
