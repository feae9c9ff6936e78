import { Window } from 'happy-dom'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createActor, SimulatedClock } from 'xstate'
import { FRAME_READY_DELAY_MS } from '../constants'
import { type FrameEmitted, frameMachine, frameRpc } from '../machines/frame'
import type { FrameUser } from './protocol'
import { createFrameChannel, createFrameTransport, type DropReason, type FrameLog } from './transport'

/**
 * Throws malformed, foreign and forged messages at the transport and the machine and checks that each is
 * dropped and counted, and that nothing else moves: the snapshot (same object), nothing emitted, nothing
 * posted, no prototype touched. A seeded PRNG makes every run the same; set FUZZ_SEED to try another.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 0x5eed_f4a3)
const ROUNDS = 1_500

/** mulberry32: small, seeded, good enough to pick cases. */
function prng(seed: number) {
  let a = seed >>> 0
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
  }
  const int = (n: number) => Math.floor(next() * n)
  const pick = <T>(items: readonly T[]): T => items[int(items.length)]!
  return { next, int, pick }
}
type Rng = ReturnType<typeof prng>

const APP = 'https://app.example'
const FRAME = 'https://secure.example'
const ALICE = 'alice@example.com'
const ADDRESS = '0x00000000000000000000000000000000000a11ce'
const USER: FrameUser = {
  email: ALICE,
  address: ADDRESS,
  chainId: 1,
  accounts: [{ address: ADDRESS, type: 'smartAccount' }],
  preferredAccountType: 'smartAccount',
}
const quiet: FrameLog = () => {}

const NASTY_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf', '']
const NASTY_STRINGS = [
  '',
  ' ',
  'frame.reply ',
  'FRAME.REPLY',
  'frame.ready\u0000',
  '<script>alert(1)</script>',
  'r4\n',
  '../../r4',
  '\u202efrom-right',
  '🦊'.repeat(40),
]

/** Any JSON-ish value, nested, with the keys that break naive merges. */
function randomValue(rng: Rng, depth = 0): unknown {
  const kind = rng.int(depth > 3 ? 6 : 9)
  switch (kind) {
    case 0:
      return null
    case 1:
      return rng.next() < 0.5
    case 2:
      return rng.pick([
        0,
        -1,
        1.5,
        Number.MAX_SAFE_INTEGER,
        Number.NaN,
        Number.POSITIVE_INFINITY,
        4001,
        -32603,
      ])
    case 3:
      return rng.pick(NASTY_STRINGS)
    case 4:
      return 'x'.repeat(rng.int(200))
    case 5:
      return undefined
    case 6:
      return Array.from({ length: rng.int(4) }, () => randomValue(rng, depth + 1))
    default: {
      const object: Record<string, unknown> = {}
      for (let i = rng.int(5); i > 0; i--) {
        const key = rng.next() < 0.4 ? rng.pick(NASTY_KEYS) : rng.pick(['id', 'type', 'payload', 'ok', 'x'])
        Object.defineProperty(object, key, {
          value: randomValue(rng, depth + 1),
          enumerable: true,
          writable: true,
          configurable: true,
        })
      }
      return object
    }
  }
}

/** Messages of the right shape: what a forger would copy. Delivered from elsewhere, each must be dropped. */
const genuine = (pendingRead: string, approval: string) => [
  { type: 'frame.ready', payload: { version: 1 } },
  { type: 'frame.approvalSettled', payload: { requestId: approval, approved: true } },
  { type: 'frame.originNotAllowed', payload: { origin: APP } },
  { id: pendingRead, type: 'frame.reply', payload: { ok: true, result: '0x1' } },
  { id: pendingRead, type: 'frame.reply', payload: { ok: false, error: { message: 'stolen' } } },
]

/** From the frame window and origin, but broken: never a reply or event the kit may act on. */
function malformed(rng: Rng, pendingRead: string, approval: string): unknown {
  const huge = 'A'.repeat(1_048_576)
  const cases: (() => unknown)[] = [
    () => randomValue(rng),
    () => ({ id: pendingRead, type: 'frame.reply' }),
    () => ({ id: pendingRead, type: 'frame.reply', payload: { ok: 'true', result: 1 } }),
    () => ({
      id: pendingRead,
      type: 'frame.reply',
      payload: { ok: false, error: { message: 'x'.repeat(501) } },
    }),
    () => ({
      id: pendingRead,
      type: 'frame.reply',
      payload: { ok: false, error: { message: 'x', code: 1.5 } },
    }),
    () => ({ id: Number(pendingRead.slice(1)), type: 'frame.reply', payload: { ok: true } }),
    () => ({ id: [pendingRead], type: 'frame.reply', payload: { ok: true } }),
    () => ({ id: { toString: () => pendingRead }, type: 'frame.reply', payload: { ok: true } }),
    () => ({ id: `${pendingRead} `, type: 'frame.reply', payload: { ok: true } }),
    () => ({ id: 'r'.repeat(65), type: 'frame.reply', payload: { ok: true } }),
    () => ({
      id: rng.pick(['r99', 'r0', 'R4', '__proto__', 'constructor']),
      type: 'frame.reply',
      payload: { ok: true },
    }),
    () => ({ id: pendingRead, type: huge, payload: { ok: true } }),
    () => ({ id: pendingRead, type: 'frame.reply', payload: { ok: false, error: { message: huge } } }),
    () => JSON.parse(`{"__proto__":{"ok":true,"polluted":1},"id":"${pendingRead}","type":"frame.reply"}`),
    () => JSON.parse('{"type":"frame.ready","payload":{"__proto__":{"version":1}}}'),
    () =>
      JSON.parse(`{"type":"frame.approvalSettled","payload":{"requestId":"${approval}","approved":"yes"}}`),
    () => ({ type: 'frame.approvalNeeded', payload: { requestId: 4, method: 'personal_sign' } }),
    () => ({ type: 'frame.originNotAllowed', payload: { origin: 42 } }),
    () => ({ type: 'frame.ready', payload: { version: '1' } }),
    () => ({
      type: rng.pick(['frame.reload', 'frame.socialResult', 'frame.rpc', 'frame.retry']),
      payload: {},
    }),
    () => `{"type":"frame.ready","payload":{"version":1}}`,
    () => [{ type: 'frame.ready', payload: { version: 1 } }],
    () => {
      let nested: unknown = { type: 'frame.ready', payload: { version: 1 } }
      for (let i = 0; i < 10_000; i++) nested = [nested]
      return nested
    },
    () =>
      Object.defineProperty({}, 'type', {
        enumerable: true,
        get() {
          throw new Error('a getter that throws')
        },
      }),
    () => {
      const { proxy, revoke } = Proxy.revocable({ type: 'frame.ready', payload: { version: 1 } }, {})
      revoke()
      return proxy
    },
  ]
  return rng.pick(cases)()
}

function page() {
  const win: Window = new Window({
    url: `${APP}/`,
    settings: {
      enableIframePageLoading: true,
      fetch: {
        interceptor: {
          beforeAsyncRequest: async (): Promise<InstanceType<Window['Response']>> =>
            new win.Response('<html></html>', { headers: { 'content-type': 'text/html' } }),
        },
      },
    },
  })
  const document = win.document as unknown as Document
  const transport = createFrameTransport({ document, log: quiet })
  const clock = new SimulatedClock()
  const actor = createActor(frameMachine.provide({ actors: { transport: transport.logic } }), {
    clock,
    input: { endpoint: FRAME, projectId: 'p1', chainId: 1 },
  })
  const emitted: FrameEmitted[] = []
  actor.on('*', (event) => emitted.push(event))
  actor.start()
  const iframe = document.querySelector('iframe')!
  const frameWindow = iframe.contentWindow!
  const posted = vi.spyOn(frameWindow, 'postMessage')
  const deliver = (data: unknown, origin = FRAME, source: unknown = frameWindow) => {
    win.dispatchEvent(new win.MessageEvent('message', { data, origin, source: source as never }))
  }
  /** The id of the last request of `type` posted to the frame. */
  const lastId = (type: string) => {
    const call = posted.mock.calls.filter(([message]) => (message as { type: string }).type === type).at(-1)
    return (call?.[0] as { id: string } | undefined)?.id
  }
  return { win, document, transport, clock, actor, emitted, iframe, frameWindow, posted, deliver, lastId }
}

/** Connected, with a signing request shown in the frame and a read-only request open: plenty to disturb. */
async function busyPage() {
  const p = page()
  p.deliver({ type: 'frame.ready', payload: { version: 1 } })
  p.clock.increment(FRAME_READY_DELAY_MS)
  p.actor.send({ type: 'frame.connectEmail', email: ALICE })
  p.deliver({
    id: p.lastId('connectEmail'),
    type: 'frame.reply',
    payload: { ok: true, result: { action: 'CONNECT' } },
  })
  p.deliver({ id: p.lastId('getUser'), type: 'frame.reply', payload: { ok: true, result: USER } })
  expect(p.actor.getSnapshot().hasTag('connected')).toBe(true)
  const signing = frameRpc(p.actor, { method: 'personal_sign', params: ['0x00', ADDRESS] })
  const approval = p.lastId('rpcRequest')!
  const reading = frameRpc(p.actor, { method: 'eth_getBalance', params: [ADDRESS, 'latest'] })
  const pendingRead = p.lastId('rpcRequest')!
  p.deliver({ type: 'frame.approvalNeeded', payload: { requestId: approval, method: 'personal_sign' } })
  expect(p.actor.getSnapshot().hasTag('showFrame')).toBe(true)
  await Promise.resolve()
  return { ...p, signing, reading, approval, pendingRead }
}

describe('fuzz: messages at the transport and the machine', () => {
  let close: (() => Promise<void>) | undefined
  afterEach(async () => {
    await close?.()
    close = undefined
  })

  it(`behavior: ${ROUNDS} malformed, foreign and forged messages are dropped and change nothing (seed ${SEED})`, async () => {
    const p = await busyPage()
    close = async () => {
      p.actor.stop()
      await p.win.happyDOM.close()
    }
    const other = p.document.createElement('iframe')
    other.src = FRAME
    p.document.body.appendChild(other)
    const before = p.actor.getSnapshot()
    const json = JSON.stringify({ value: before.value, context: before.context })
    const postedBefore = p.posted.mock.calls.length
    const emittedBefore = p.emitted.length
    const { accepted } = p.transport.stats
    const dropped = { ...p.transport.stats.reasons }
    const expected: Record<DropReason, number> = { ...dropped }
    const rng = prng(SEED)
    const origins = [
      APP,
      'https://evil.example',
      'http://secure.example',
      'https://secure.example:444',
      'https://sub.secure.example',
      'https://secure.example.evil.example',
      `${FRAME}/`,
      'null',
      '',
    ]
    const sources = [p.win, null, other.contentWindow, {}, { postMessage() {} }, p.iframe]

    for (let round = 0; round < ROUNDS; round++) {
      const where = `round ${round}, seed ${SEED}`
      const kind = rng.int(3)
      if (kind === 0) {
        p.deliver(rng.pick(genuine(p.pendingRead, p.approval)), rng.pick(origins))
        expected.origin += 1
      } else if (kind === 1) {
        p.deliver(rng.pick(genuine(p.pendingRead, p.approval)), FRAME, rng.pick(sources))
        expected.source += 1
      } else {
        p.deliver(malformed(rng, p.pendingRead, p.approval))
      }
      expect(p.actor.getSnapshot(), where).toBe(before)
      expect(p.transport.stats.accepted, where).toBe(accepted)
      if (kind !== 2) expect(p.transport.stats.reasons, where).toEqual(expected)
      else {
        expected.shape = p.transport.stats.reasons.shape
        expected.unknownType = p.transport.stats.reasons.unknownType
        expected.unknownId = p.transport.stats.reasons.unknownId
        expect(p.transport.stats.reasons, where).toEqual(expected)
      }
    }

    expect(p.transport.stats.dropped).toBe(ROUNDS + Object.values(dropped).reduce((a, b) => a + b, 0))
    expect(JSON.stringify({ value: before.value, context: before.context })).toBe(json)
    expect(p.posted.mock.calls.length).toBe(postedBefore)
    expect(p.emitted.length).toBe(emittedBefore)
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    expect(({} as Record<string, unknown>).ok).toBeUndefined()
    expect(p.document.querySelectorAll('iframe[data-walletstate-frame]')).toHaveLength(1)

    // The real frame still gets through: the read-only request, then the visitor's approval.
    p.deliver({ id: p.pendingRead, type: 'frame.reply', payload: { ok: true, result: '0x10' } })
    await expect(p.reading).resolves.toBe('0x10')
    p.deliver({ type: 'frame.approvalSettled', payload: { requestId: p.approval, approved: true } })
    p.deliver({ id: p.approval, type: 'frame.reply', payload: { ok: true, result: `0x${'5'.repeat(130)}` } })
    await expect(p.signing).resolves.toMatch(/^0x5+$/)
    expect(p.actor.getSnapshot().hasTag('showFrame')).toBe(false)
  })

  it('behavior: well-formed events for what the kit never asked are ignored by the machine itself', async () => {
    const p = await busyPage()
    close = async () => {
      p.actor.stop()
      await p.win.happyDOM.close()
    }
    const before = p.actor.getSnapshot()
    const rng = prng(SEED ^ 0xa5a5)
    const unknownIds = ['r0', 'r99', 'r1', 'r2', '__proto__', 'constructor', `${p.pendingRead}0`]
    for (let round = 0; round < 500; round++) {
      const id = rng.pick(unknownIds)
      const event = rng.pick([
        { type: 'frame.reply', id, payload: { ok: true, result: randomValue(rng) } },
        { type: 'frame.reply', id, payload: { ok: false, error: { message: 'nope' } } },
        { type: 'frame.rpcSettled', id, reply: { ok: true, result: randomValue(rng) } },
        { type: 'frame.approvalSettled', payload: { requestId: id, approved: rng.next() < 0.5 } },
        { type: 'frame.approvalNeeded', payload: { requestId: id, method: 'personal_sign' } },
        { type: 'frame.ready', payload: { version: rng.int(3) } },
      ] as const)
      p.actor.send(event)
      expect(p.actor.getSnapshot(), `round ${round}: ${JSON.stringify(event)}`).toBe(before)
    }
  })

  /*
   * The channel's own checks, one at a time. Random data from the frame is never a message the kit knows, so it
   * proves only the shape check; the origin and source checks are proved with messages the channel DOES take
   * from the frame (each one is first shown to pass from there), delivered from another origin or window. A
   * channel without its origin or source check, or one that drops everything, fails here.
   */
  it(`behavior: the channel alone takes genuine messages only from the frame, and drops ${ROUNDS * 10} others`, () => {
    const rng = prng(SEED ^ 0x5a5a)
    const source = { frame: true }
    const channel = createFrameChannel({
      target: { postMessage() {} },
      targetOrigin: FRAME,
      source,
      log: quiet,
    })
    channel.post({ id: 'r1', type: 'isConnected', payload: {} })
    const events = genuine('r1', 'r2').filter((message) => message.type !== 'frame.reply')
    const otherOrigins = [
      APP,
      'null',
      'https://secure.example:1',
      'http://secure.example',
      `${FRAME}.evil.example`,
    ]
    const otherSources = [null, {}, globalThis, { frame: true }]
    const expected = { ...channel.stats.reasons }
    let accepted = 0
    for (let round = 0; round < ROUNDS * 10; round++) {
      const where = `round ${round}, seed ${SEED}`
      const kind = rng.int(4)
      if (kind === 0) {
        // Random data from the frame itself: never a reply or event the kit knows.
        const data = randomValue(rng)
        expect(
          channel.receive({ origin: FRAME, source, data }),
          `${where}: ${JSON.stringify(data)}`,
        ).toBeUndefined()
        continue
      }
      const message = rng.pick(events)
      if (kind === 1) {
        // The same message from the frame is taken: what follows is dropped for where it comes from alone.
        expect(channel.receive({ origin: FRAME, source, data: message }), where).toEqual(message)
        accepted += 1
      } else if (kind === 2) {
        expect(
          channel.receive({ origin: rng.pick(otherOrigins), source, data: message }),
          where,
        ).toBeUndefined()
        expected.origin += 1
      } else {
        const other = rng.pick(otherSources)
        expect(channel.receive({ origin: FRAME, source: other, data: message }), where).toBeUndefined()
        expected.source += 1
      }
      expect(channel.stats.reasons.origin, where).toBe(expected.origin)
      expect(channel.stats.reasons.source, where).toBe(expected.source)
    }
    expect(accepted).toBeGreaterThan(ROUNDS)
    expect(channel.stats.accepted).toBe(accepted)
    // The reply to the open request: not from another origin or window, then from the frame, once.
    const reply = { id: 'r1', type: 'frame.reply', payload: { ok: true, result: { isConnected: true } } }
    expect(channel.receive({ origin: APP, source, data: reply })).toBeUndefined()
    expect(channel.receive({ origin: FRAME, source: {}, data: reply })).toBeUndefined()
    expect(channel.receive({ origin: FRAME, source, data: reply })).toEqual(reply)
    expect(channel.receive({ origin: FRAME, source, data: reply })).toBeUndefined()
  })
})
