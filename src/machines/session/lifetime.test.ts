import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  PING_RESPONSE_DELAY_MS,
  SESSION_EXTEND_MARGIN_MS,
  SESSION_PEER_ANSWER_TIMEOUT_MS,
  SESSION_PING_INTERVAL_MS,
  SESSION_TTL_MS,
} from '../../constants'
import { HOUR, NOW, session, start, sync, TOPIC } from './fakeClient'
import { extendAt } from './shared'

/** Sessions that last (SPEC §4 "Extending a session resets its expiry", §7 wc_sessionExtend, wc_sessionPing). */

beforeEach(() => {
  vi.useFakeTimers({ now: NOW })
})
afterEach(() => {
  vi.useRealTimers()
})

const DAY = 24 * HOUR

describe('extendAt: when a session is extended', () => {
  it('the margin before a long session expires', () => {
    expect(extendAt(NOW, NOW + 7 * DAY, SESSION_EXTEND_MARGIN_MS)).toBe(NOW + 6 * DAY)
    expect(extendAt(NOW, NOW + 2 * DAY, DAY)).toBe(NOW + DAY)
  })

  it('halfway through what remains of a session shorter than twice the margin', () => {
    expect(extendAt(NOW, NOW + 30_000, SESSION_EXTEND_MARGIN_MS)).toBe(NOW + 15_000)
    expect(extendAt(NOW, NOW + DAY, SESSION_EXTEND_MARGIN_MS)).toBe(NOW + DAY / 2)
  })

  it('at once (never in the past) for a session already expired', () => {
    expect(extendAt(NOW, NOW - 5_000, DAY)).toBe(NOW - 5_000)
    expect(extendAt(NOW, NOW, DAY)).toBe(NOW)
  })
})

describe('the app keeps its sessions alive', () => {
  it('extends a short session the wallet granted before it expires, and plans the next from the new expiry', async () => {
    const t = start('app')
    t.actor.send(sync({ sessions: [session({ expiry: NOW + 30_000 })] }))
    await vi.advanceTimersByTimeAsync(14_999)
    expect(t.of('extend')).toEqual([])
    await vi.advanceTimersByTimeAsync(1)
    expect(t.of('extend')).toEqual([{ topic: TOPIC }])
    // Like the library, the expiry is reset at once: the full lifetime from now.
    expect(t.actor.getSnapshot().context.sessions[TOPIC]?.expiry).toBe(NOW + 15_000 + SESSION_TTL_MS)
    await t.answer('extend')
    // Past the expiry the wallet first set: still active.
    await vi.advanceTimersByTimeAsync(20_000)
    expect(t.sessionChild()?.getSnapshot().matches('active')).toBe(true)
    expect(t.sessionChild()?.getSnapshot().context.extendAt).toBe(
      NOW + 15_000 + SESSION_TTL_MS - SESSION_EXTEND_MARGIN_MS,
    )
    expect(t.of('extend')).toHaveLength(1)
  })

  it('a wallet does not extend on its own (the app keeps the session alive)', async () => {
    const t = start('wallet')
    t.actor.send(sync({ sessions: [session({ expiry: NOW + 30_000 })] }))
    await vi.advanceTimersByTimeAsync(29_999)
    expect(t.of('extend')).toEqual([])
    expect(t.of('ping')).toEqual([])
  })

  it('an extension the wallet does not acknowledge in time is a clear state; a later pong extends again', async () => {
    const t = start('app')
    t.actor.send(sync({ sessions: [session({ expiry: NOW + 30_000 })] }))
    await vi.advanceTimersByTimeAsync(15_000)
    expect(t.sessionChild()?.getSnapshot().hasTag('unresponsive')).toBe(false)
    await vi.advanceTimersByTimeAsync(SESSION_PEER_ANSWER_TIMEOUT_MS)
    const snapshot = t.sessionChild()!.getSnapshot()
    expect(snapshot.value).toMatchObject({ active: { extend: 'failed' } })
    expect(snapshot.hasTag('unresponsive')).toBe(true)
    expect(snapshot.context.error).toMatchObject({ name: 'PeerNotAnsweringError' })
    t.actor.send({ type: 'session.ping', topic: TOPIC })
    t.pingBack.current!({ type: 'session.pong' })
    expect(t.of('extend')).toHaveLength(2)
    expect(t.sessionChild()?.getSnapshot().value).toMatchObject({ active: { extend: 'extending' } })
  })

  it('an extension the wallet refuses is the same clear state, not a disconnect', async () => {
    const t = start('app')
    t.actor.send(sync({ sessions: [session({ expiry: NOW + 30_000 })] }))
    await vi.advanceTimersByTimeAsync(15_000)
    await t.fail('extend', new Error('no'))
    expect(t.sessionChild()?.getSnapshot().value).toMatchObject({ active: { extend: 'failed' } })
    expect(t.sessionChild()?.getSnapshot().hasTag('unresponsive')).toBe(true)
    t.actor.send({ type: 'session.extend', topic: TOPIC })
    expect(t.of('extend')).toHaveLength(2)
  })
})

describe('the app pings a silent wallet', () => {
  it('after the interval without word from the peer; a pong resets the wait', async () => {
    const t = start('app', { pingIntervalMs: 10_000 })
    t.actor.send(sync({ sessions: [session()] }))
    await vi.advanceTimersByTimeAsync(9_999)
    expect(t.of('ping')).toEqual([])
    await vi.advanceTimersByTimeAsync(1)
    expect(t.of('ping')).toEqual([{ topic: TOPIC }])
    t.pingBack.current!({ type: 'session.pong' })
    await vi.advanceTimersByTimeAsync(PING_RESPONSE_DELAY_MS)
    expect(t.sessionChild()?.getSnapshot().value).toMatchObject({ active: { ping: 'idle' } })
    // The peer pings us in between: it is not silent, the wait starts again.
    await vi.advanceTimersByTimeAsync(9_000)
    t.actor.send({ type: 'wc.sessionPing', topic: TOPIC })
    await vi.advanceTimersByTimeAsync(9_999)
    expect(t.of('ping')).toHaveLength(1)
    await vi.advanceTimersByTimeAsync(1)
    expect(t.of('ping')).toHaveLength(2)
  })

  it('the default interval is SESSION_PING_INTERVAL_MS', async () => {
    const t = start('app')
    t.actor.send(sync({ sessions: [session({ expiry: NOW + 7 * DAY })] }))
    await vi.advanceTimersByTimeAsync(SESSION_PING_INTERVAL_MS - 1)
    expect(t.of('ping')).toEqual([])
    await vi.advanceTimersByTimeAsync(1)
    expect(t.of('ping')).toHaveLength(1)
  })

  it('a ping left unanswered is `unresponsive` (the session kept); the peer is asked again, and a pong ends it', async () => {
    const t = start('app', { pingIntervalMs: 10_000 })
    const ended: string[] = []
    t.actor.on('session.ended', (notice) => ended.push(notice.outcome))
    t.actor.send(sync({ sessions: [session()] }))
    await vi.advanceTimersByTimeAsync(10_000)
    await vi.advanceTimersByTimeAsync(SESSION_PEER_ANSWER_TIMEOUT_MS - 1)
    expect(t.sessionChild()?.getSnapshot().hasTag('unresponsive')).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    let snapshot = t.sessionChild()!.getSnapshot()
    expect(snapshot.value).toMatchObject({ active: { ping: { unresponsive: 'waiting' } } })
    expect(snapshot.context.error).toMatchObject({
      name: 'PeerNotAnsweringError',
      message: 'Expired. The wallet did not answer the session ping in time',
    })
    expect(ended).toEqual([])
    // Asked again after the interval; a failure keeps it unresponsive.
    await vi.advanceTimersByTimeAsync(10_000)
    expect(t.of('ping')).toHaveLength(2)
    expect(t.sessionChild()?.getSnapshot().hasTag('unresponsive')).toBe(true)
    t.pingBack.current!({
      type: 'session.pingFailed',
      error: { name: 'RemoteError', message: 'x', code: 5000 },
    })
    expect(t.sessionChild()?.getSnapshot().value).toMatchObject({
      active: { ping: { unresponsive: 'waiting' } },
    })
    // The visitor's retry: at once; the peer answers.
    t.actor.send({ type: 'session.ping', topic: TOPIC })
    expect(t.of('ping')).toHaveLength(3)
    t.pingBack.current!({ type: 'session.pong' })
    await vi.advanceTimersByTimeAsync(PING_RESPONSE_DELAY_MS)
    snapshot = t.sessionChild()!.getSnapshot()
    expect(snapshot.hasTag('unresponsive')).toBe(false)
    expect(snapshot.context.error).toBeUndefined()
    expect(snapshot.matches('active')).toBe(true)
  })
})
