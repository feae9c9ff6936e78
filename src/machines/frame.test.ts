import { describe, expect, it } from 'vitest'
import { type AnyActorRef, createActor, fromCallback, SimulatedClock } from 'xstate'
import { isSolanaAddress } from '../chains/solana/address'
import {
  EMAIL_LOGIN_COOLDOWN_MS,
  FARCASTER_RELOAD_DELAY_MS,
  FRAME_LOAD_TIMEOUT_MS,
  FRAME_READY_DELAY_MS,
  FRAME_REQUEST_TIMEOUT_MS,
  FRAME_SIGN_OUT_TIMEOUT_MS,
} from '../constants'
import { ALERTS } from '../errors/base'
import { FrameError } from '../errors/frame'
import {
  FAKE_FRAME_SOLANA_CHAIN_ID,
  FakeFrame,
  type FakeFrameAccount,
  FakeSocialPopup,
  solanaAddressOf,
} from '../frame/fakeFrame'
import {
  type FrameEmitted,
  type FrameInput,
  type FramePersistRequest,
  frameMachine,
  frameRpc,
  selectCooldownSeconds,
  selectFrameStatus,
  selectFrameView,
} from './frame'

const ENDPOINT = 'https://secure.example'
const ALICE = 'alice@example.com'

/** Lets the fake frame's answers (microtasks) reach the machine. */
const flush = async () => {
  for (let i = 0; i < 5; i++) await Promise.resolve()
}

/**
 * The real machine with the in-memory frame behind its transport, a stand-in popup, a persistence slot that
 * records, and a simulated clock: every timer of the machine moves only when the test says.
 */
function start(
  options: { accounts?: FakeFrameAccount[]; input?: Partial<FrameInput>; frame?: FakeFrame } = {},
) {
  const frame = options.frame ?? new FakeFrame(options.accounts ?? [{ email: ALICE, trustedDevice: true }])
  const popup = new FakeSocialPopup()
  const persisted: FramePersistRequest[] = []
  const emitted: FrameEmitted[] = []
  const clock = new SimulatedClock()
  const machine = frameMachine.provide({
    actors: {
      transport: frame.transport(),
      socialPopup: popup.logic(),
      persistence: fromCallback<FramePersistRequest>(({ receive }) => {
        receive((request) => persisted.push(request))
      }),
    },
  })
  const actor = createActor(machine, {
    clock,
    input: { endpoint: ENDPOINT, projectId: 'p1', chainId: 1, now: () => clock.now(), ...options.input },
  })
  actor.on('*', (event) => emitted.push(event))
  actor.start()
  const snapshot = () => actor.getSnapshot()
  return {
    actor,
    frame,
    popup,
    persisted,
    emitted,
    clock,
    snapshot,
    context: () => snapshot().context,
    send: actor.send.bind(actor),
    posted: () => frame.posted.map((p) => p.request.type),
    auth: () =>
      (snapshot().value as { lifecycle: { active: { ready: { auth: unknown } } } }).lifecycle.active.ready
        .auth,
    error: () => snapshot().context.error?.message,
    /** The request actors still waiting on the frame: the login step's one and every open RPC call. */
    requests: () =>
      Object.values(snapshot().children as Record<string, AnyActorRef | undefined>)
        .map((child) => child?.getSnapshot())
        .filter((child) => child?.status === 'active' && child.machine?.id === 'frameRequest')
        .map((child) => child!.context as { id: string; command: string; owner: string; timeoutMs?: number }),
  }
}
type Harness = ReturnType<typeof start>

async function ready(h: Harness) {
  await flush()
  h.clock.increment(FRAME_READY_DELAY_MS)
  await flush()
  expect(selectFrameStatus(h.snapshot())).toBe('ready')
}

async function loginByEmail(h: Harness, email = ALICE) {
  h.send({ type: 'frame.connectEmail', email })
  await flush()
  expect(h.auth()).toEqual({ email: 'otp' })
  h.send({ type: 'frame.submitOtp', otp: h.frame.codeFor(email)! })
  await flush()
  await flush()
  expect(h.auth()).toEqual({ connected: 'idle' })
}

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

    h.send({ type: 'frame.submitOtp', otp: '12' })
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
    expect(h.posted()).toEqual(['connectEmail', 'getUser'])
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
    expect(h.posted()).toEqual(['isConnected', 'getUser'])
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

  it('behavior: Farcaster shows its URI, waits 100 ms, then waits on the visitor without a timeout', async () => {
    const h = start()
    await ready(h)
    h.send({ type: 'frame.connectFarcaster' })
    await flush()
    expect(h.auth()).toEqual({ farcaster: 'showingUri' })
    expect(h.context().farcasterUrl).toBe('https://farcaster.example/~/siwf?channel=abc')
    expect(selectFrameView(h.snapshot())).toBe('ConnectingFarcaster')
    h.clock.increment(FARCASTER_RELOAD_DELAY_MS - 1)
    expect(h.posted()).toEqual(['getFarcasterUri'])
    h.clock.increment(1)
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
})

describe('frameMachine: the connected account', () => {
  it('default: smart account on eip155, EOA on solana', () => {
    expect(start().context().accountType).toBe('smartAccount')
    expect(start({ input: { namespace: 'solana' } }).context().accountType).toBe('eoa')
  })

  it('behavior: switching the account type asks the frame, then takes its user', async () => {
    const h = start()
    await ready(h)
    await loginByEmail(h)
    const smart = h.context().user!.address
    h.send({ type: 'frame.setAccountType', accountType: 'eoa' })
    expect(h.snapshot().hasTag('busy')).toBe(true)
    await flush()
    await flush()
    expect(h.auth()).toEqual({ connected: 'idle' })
    expect(h.context().accountType).toBe('eoa')
    expect(h.context().user!.address).not.toBe(smart)
    expect(h.context().user!.address).toBe(h.context().user!.accounts.find((a) => a.type === 'eoa')!.address)
    expect(h.emitted.at(-1)).toMatchObject({ type: 'embedded.userUpdated' })
  })

  it("behavior: the frame refusing the smart account reads 'This application might not support Smart Accounts'", async () => {
    const h = start()
    await ready(h)
    await loginByEmail(h)
    h.send({ type: 'frame.setAccountType', accountType: 'eoa' })
    await flush()
    await flush()
    expect(h.context().accountType).toBe('eoa')
    // Back to the smart account: the frame refuses it.
    h.frame.silent.add('setPreferredAccount')
    h.send({ type: 'frame.setAccountType', accountType: 'smartAccount' })
    const asked = h.frame.posted.at(-1)!.request
    expect(asked).toMatchObject({ type: 'setPreferredAccount', payload: { type: 'smartAccount' } })
    h.frame.send({
      id: asked.id,
      type: 'frame.reply',
      payload: { ok: false, error: { message: 'Smart accounts are not enabled for this project' } },
    })
    await flush()
    expect(h.auth()).toEqual({ connected: 'idle' })
    expect(h.context().error).toEqual({
      name: 'SmartAccountUnsupportedError',
      message: 'This application might not support Smart Accounts',
    })
    expect(h.context().accountType).toBe('eoa')
  })

  it('behavior: switching to the smart account that times out, or to the EOA refused, keeps their own texts', async () => {
    const h = start()
    await ready(h)
    await loginByEmail(h)
    // From the smart account to the EOA: the frame's own words.
    h.frame.silent.add('setPreferredAccount')
    h.send({ type: 'frame.setAccountType', accountType: 'eoa' })
    const asked = h.frame.posted.at(-1)!.request
    h.frame.send({ id: asked.id, type: 'frame.reply', payload: { ok: false, error: { message: 'Busy' } } })
    await flush()
    expect(h.error()).toBe('Busy')
    // An EOA account whose switch to the smart account gets no answer: a timeout, not the SPEC's guess.
    h.frame.silent.delete('setPreferredAccount')
    h.send({ type: 'frame.setAccountType', accountType: 'eoa' })
    await flush()
    await flush()
    expect(h.context().accountType).toBe('eoa')
    h.frame.silent.add('setPreferredAccount')
    h.send({ type: 'frame.setAccountType', accountType: 'smartAccount' })
    h.clock.increment(FRAME_REQUEST_TIMEOUT_MS)
    await flush()
    expect(h.error()).toBe('Something went wrong')
  })

  it('behavior: switching network', async () => {
    const h = start()
    await ready(h)
    await loginByEmail(h)
    h.send({ type: 'frame.switchNetwork', chainId: 10 })
    await flush()
    await flush()
    expect(h.context().user!.chainId).toBe(10)
    expect(h.frame.posted.at(-2)!.request).toMatchObject({ type: 'switchNetwork', payload: { chainId: 10 } })
  })

  it('behavior: switching to Solana reads the base58 user; back on eip155 the EVM one (issue 17)', async () => {
    const h = start()
    await ready(h)
    await loginByEmail(h)
    const evm = h.context().user!
    h.send({ type: 'frame.switchNetwork', chainId: FAKE_FRAME_SOLANA_CHAIN_ID })
    expect(h.snapshot().hasTag('busy')).toBe(true)
    await flush()
    await flush()
    const user = h.context().user!
    expect(user).toEqual({
      email: ALICE,
      address: solanaAddressOf(ALICE),
      chainId: FAKE_FRAME_SOLANA_CHAIN_ID,
      accounts: [{ address: solanaAddressOf(ALICE), type: 'eoa' }],
      preferredAccountType: 'eoa',
    })
    expect(isSolanaAddress(user.address)).toBe(true)
    expect(h.context().accountType).toBe('eoa')
    expect(h.emitted.at(-1)).toEqual({ type: 'embedded.userUpdated', user })
    expect(h.snapshot().hasTag('busy')).toBe(false)
    expect(h.error()).toBeUndefined()

    h.send({ type: 'frame.switchNetwork', chainId: 1 })
    await flush()
    await flush()
    expect(h.context().user).toMatchObject({ address: evm.address, chainId: 1 })
  })

  it('behavior: a switchNetwork answer with an address of the wrong kind is refused; the user stays', async () => {
    const h = start()
    await ready(h)
    await loginByEmail(h)
    const before = h.context().user
    h.frame.silent.add('switchNetwork')
    h.send({ type: 'frame.switchNetwork', chainId: FAKE_FRAME_SOLANA_CHAIN_ID })
    const asked = h.frame.posted.at(-1)!.request
    // An EVM address for a Solana chain: not what the protocol allows.
    h.frame.send({
      id: asked.id,
      type: 'frame.reply',
      payload: { ok: true, result: { chainId: FAKE_FRAME_SOLANA_CHAIN_ID, address: before!.address } },
    })
    await flush()
    expect(h.error()).toBe('An error occurred')
    expect(h.context().user).toBe(before)
    expect(h.snapshot().hasTag('busy')).toBe(false)
  })

  it('behavior: updating the e-mail takes the current address code, then the new one', async () => {
    const h = start()
    await ready(h)
    await loginByEmail(h)
    h.clock.increment(EMAIL_LOGIN_COOLDOWN_MS)
    h.send({ type: 'frame.updateEmail', email: 'nope' })
    expect(h.error()).toBe('Invalid email')
    h.send({ type: 'frame.updateEmail', email: 'bob@example.com' })
    expect(selectFrameView(h.snapshot())).toBe('UpdateEmailWallet')
    await flush()
    expect(selectFrameView(h.snapshot())).toBe('UpdateEmailPrimaryOtp')
    h.send({ type: 'frame.submitOtp', otp: '999999' })
    await flush()
    expect(h.error()).toBe('Invalid one-time code')
    expect(selectFrameView(h.snapshot())).toBe('UpdateEmailPrimaryOtp')
    h.send({ type: 'frame.submitOtp', otp: h.frame.codeFor(ALICE)! })
    await flush()
    expect(selectFrameView(h.snapshot())).toBe('UpdateEmailSecondaryOtp')
    h.send({ type: 'frame.submitOtp', otp: h.frame.codeFor('bob@example.com')! })
    await flush()
    await flush()
    expect(h.auth()).toEqual({ connected: 'idle' })
    expect(h.context().user!.email).toBe('bob@example.com')
    expect(h.persisted).toContainEqual({ type: 'persist.email', email: 'bob@example.com' })
  })

  it('behavior: an update within the cooldown is refused', async () => {
    const h = start()
    await ready(h)
    await loginByEmail(h)
    h.send({ type: 'frame.updateEmail', email: 'bob@example.com' })
    expect(h.error()).toMatch(/^Please try again after \d+ seconds$/)
    expect(h.auth()).toEqual({ connected: 'idle' })
  })
})

describe('frameMachine: RPC requests', () => {
  it('behavior: read-only calls are answered; signing shows the frame until the visitor decides', async () => {
    const h = start()
    await ready(h)
    await loginByEmail(h)
    await expect(frameRpc(h.actor, { method: 'eth_chainId' })).resolves.toBe('0x1')

    const signature = frameRpc(h.actor, { method: 'personal_sign', params: ['0x68656c6c6f', '0x0'] })
    const id = h.context().rpc[0]!.id
    expect(h.context().rpc).toEqual([
      { id, method: 'personal_sign', ref: expect.any(String), actor: expect.anything(), approved: false },
    ])
    expect(h.requests()).toEqual([{ id, command: 'rpcRequest', owner: 'rpc', timeoutMs: undefined }])
    await flush()
    expect(h.snapshot().hasTag('showFrame')).toBe(true)
    expect(selectFrameView(h.snapshot())).toBe('ApproveTransaction')
    expect(h.context().approval).toEqual({ requestId: id, method: 'personal_sign' })
    const container = { getBoundingClientRect: () => ({}) } as unknown as Element
    h.send({ type: 'frame.showIn', container })
    expect(h.frame.shownIn).toBe(container)

    h.frame.approve(id)
    await expect(signature).resolves.toMatch(/^0x5{130}$/)
    expect(h.snapshot().hasTag('showFrame')).toBe(false)
    expect(h.frame.shownIn).toBeUndefined()
    expect(h.emitted.filter((e) => e.type.startsWith('embedded.approval')).map((e) => e.type)).toEqual([
      'embedded.approvalNeeded',
      'embedded.approvalSettled',
    ])
  })

  it('behavior: a declined signature rejects with "Signature declined" (4001)', async () => {
    const h = start()
    await ready(h)
    await loginByEmail(h)
    const signature = frameRpc(h.actor, { method: 'eth_signTypedData_v4', params: [] })
    await flush()
    h.frame.decline(h.frame.held[0]!)
    const error = await signature.catch((e: unknown) => e)
    expect(error).toBeInstanceOf(FrameError)
    expect(error).toMatchObject({ shortMessage: 'Signature declined', code: 4001 })
  })

  it('behavior: rejecting open requests aborts the signing ones; read-only ones go on', async () => {
    const h = start()
    await ready(h)
    await loginByEmail(h)
    h.frame.silent.add('rpcRequest')
    const signing = frameRpc(h.actor, { method: 'eth_sendTransaction', params: [{}] })
    const reading = frameRpc(h.actor, { method: 'eth_getBalance', params: ['0x0', 'latest'] })
    h.send({ type: 'frame.rejectRpcRequests' })
    expect(h.context().rpc.map((r) => r.method)).toEqual(['eth_getBalance'])
    expect(h.requests().map((r) => r.command)).toEqual(['rpcRequest'])
    expect(h.posted().at(-1)).toBe('rejectRpcRequests')
    await expect(signing).rejects.toMatchObject({ shortMessage: 'Request was aborted' })
    const balance = h.frame.posted.find(
      (p) => p.request.type === 'rpcRequest' && JSON.stringify(p.request).includes('eth_getBalance'),
    )!
    h.frame.send({ id: balance.request.id, type: 'frame.reply', payload: { ok: true, result: '0x10' } })
    await expect(reading).resolves.toBe('0x10')
  })

  it("behavior: an approved transaction is not cancelled by rejectRpcRequests; it ends with the frame's answer (issue 13)", async () => {
    const h = start()
    await ready(h)
    await loginByEmail(h)
    const sending = frameRpc(h.actor, { method: 'eth_sendTransaction', params: [{}] })
    const id = h.context().rpc[0]!.id
    await flush()
    expect(selectFrameView(h.snapshot())).toBe('ApproveTransaction')
    // The visitor approves; the transaction is on its way when the modal is closed (Back, Escape, close).
    h.frame.approve(id, { later: true })
    await flush()
    expect(h.context().rpc).toMatchObject([{ id, approved: true }])
    expect(selectFrameView(h.snapshot())).toBeUndefined()
    h.send({ type: 'frame.rejectRpcRequests' })
    expect(h.context().rpc.map((r) => r.id)).toEqual([id])
    const hash = `0x${'a'.repeat(64)}`
    h.frame.finish(id, hash)
    await expect(sending).resolves.toBe(hash)
    expect(h.context().rpc).toEqual([])
  })

  it("behavior: the request on the approval screen is the frame's to answer on rejectRpcRequests (aborted, or its result when Approve crossed the cancel)", async () => {
    const h = start()
    await ready(h)
    await loginByEmail(h)
    // Closed while shown: the screen closes, and the frame answers 'Request was aborted'.
    const first = frameRpc(h.actor, { method: 'eth_sendTransaction', params: [{}] })
    const firstId = h.context().rpc[0]!.id
    await flush()
    expect(h.context().approval?.requestId).toBe(firstId)
    h.send({ type: 'frame.rejectRpcRequests' })
    expect(selectFrameView(h.snapshot())).toBeUndefined()
    await expect(first).rejects.toMatchObject({ shortMessage: 'Request was aborted' })

    // The visitor's Approve crossed the kit's cancel: the frame had already approved, and answers the hash.
    h.frame.silent.add('rejectRpcRequests')
    const second = frameRpc(h.actor, { method: 'eth_sendTransaction', params: [{}] })
    const secondId = h.context().rpc[0]!.id
    await flush()
    expect(h.context().approval?.requestId).toBe(secondId)
    h.send({ type: 'frame.rejectRpcRequests' })
    h.frame.approve(secondId)
    await expect(second).resolves.toMatch(/^0x5+$/)
    expect(h.context().rpc).toEqual([])
  })

  it('behavior: a method the frame refuses (4200) is reported to the kit for the RPC-method-not-allowed alert', async () => {
    const h = start()
    await ready(h)
    await loginByEmail(h)
    const refused: string[] = []
    h.actor.on('embedded.rpcNotAllowed', (event) => refused.push(event.method))
    await expect(frameRpc(h.actor, { method: 'eth_sign', params: [] })).rejects.toMatchObject({
      shortMessage: 'Requested RPC call is not allowed',
    })
    await expect(frameRpc(h.actor, { method: 'eth_chainId' })).resolves.toBe('0x1')
    expect(refused).toEqual(['eth_sign'])
  })

  it('behavior: signing out aborts every open request', async () => {
    const h = start()
    await ready(h)
    await loginByEmail(h)
    h.frame.silent.add('rpcRequest')
    const reading = frameRpc(h.actor, { method: 'eth_getBalance', params: [] })
    h.send({ type: 'frame.signOut' })
    await expect(reading).rejects.toMatchObject({ shortMessage: 'Request was aborted' })
  })

  it('behavior: requests while signed out, or of no method, are refused without reaching the frame', async () => {
    const h = start()
    await expect(frameRpc(h.actor, { method: 'eth_accounts' })).rejects.toMatchObject({
      shortMessage: 'Action not allowed',
    })
    await ready(h)
    await expect(frameRpc(h.actor, { method: 'eth_accounts' })).rejects.toMatchObject({
      shortMessage: 'Action not allowed',
    })
    await loginByEmail(h)
    await expect(frameRpc(h.actor, { method: '' })).rejects.toMatchObject({
      shortMessage: 'Requested RPC call is not allowed',
    })
    expect(h.posted()).not.toContain('rpcRequest')
  })

  it('behavior: the frame cannot show itself for a request the kit did not send', async () => {
    const h = start()
    await ready(h)
    await loginByEmail(h)
    h.frame.send({ type: 'frame.approvalNeeded', payload: { requestId: 'r99', method: 'personal_sign' } })
    await flush()
    expect(h.snapshot().hasTag('showFrame')).toBe(false)
  })
})
