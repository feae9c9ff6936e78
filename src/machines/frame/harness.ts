import { expect } from 'vitest'
import { type AnyActorRef, createActor, fromCallback, SimulatedClock } from 'xstate'
import { FRAME_READY_DELAY_MS } from '../../constants'
import { FakeFrame, type FakeFrameAccount, FakeSocialPopup } from '../../frame/fakeFrame'
import {
  type FrameEmitted,
  type FrameInput,
  type FramePersistRequest,
  frameMachine,
  selectFrameStatus,
} from '../frame'

/**
 * Test support for the frame machine's unit tests (`../frame*.test.ts`), not part of the library (nothing in
 * `src` imports it): the real machine with the in-memory frame behind its transport, and the steps the tests
 * share.
 */

export const ENDPOINT = 'https://secure.example'
export const ALICE = 'alice@example.com'

/** Lets the fake frame's answers (microtasks) reach the machine. */
export const flush = async () => {
  for (let i = 0; i < 5; i++) await Promise.resolve()
}

/**
 * The real machine with the in-memory frame behind its transport, a stand-in popup, a persistence slot that
 * records, and a simulated clock: every timer of the machine moves only when the test says.
 */
export function start(
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
export type Harness = ReturnType<typeof start>

export async function ready(h: Harness) {
  await flush()
  h.clock.increment(FRAME_READY_DELAY_MS)
  await flush()
  expect(selectFrameStatus(h.snapshot())).toBe('ready')
}

export async function loginByEmail(h: Harness, email = ALICE) {
  h.send({ type: 'frame.connectEmail', email })
  await flush()
  expect(h.auth()).toEqual({ email: 'otp' })
  h.send({ type: 'frame.submitOtp', otp: h.frame.codeFor(email)! })
  await flush()
  await flush()
  expect(h.auth()).toEqual({ connected: 'idle' })
}
