import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { REQUEST_TTL_MS, SESSION_ANSWER_TIMEOUT_MS } from '../../constants'
import { RemoteError } from '../../errors/session'
import { HOUR, lastError, NOW, outcomes, request, session, start, sync, TOPIC } from './fakeClient'

/** The request machines, outgoing (app) and incoming (wallet), driven through the client with fake effects. */
beforeEach(() => {
  vi.useFakeTimers({ now: NOW })
})
afterEach(() => {
  vi.useRealTimers()
})

describe('requests, wallet side', () => {
  it('are handled one at a time: the queue is idle or active', async () => {
    const t = start('wallet')
    t.actor.send(sync({ sessions: [session()] }))
    expect(t.actor.getSnapshot().matches({ queue: 'idle' })).toBe(true)
    t.actor.send({ type: 'wc.sessionRequest', request: request(11) })
    t.actor.send({ type: 'wc.sessionRequest', request: request(12) })
    expect(t.actor.getSnapshot().matches({ queue: 'active' })).toBe(true)
    expect(t.child('request:11')?.getSnapshot().value).toEqual({ waiting: 'active' })
    expect(t.child('request:12')?.getSnapshot().value).toEqual({ waiting: 'queued' })

    t.actor.send({ type: 'request.respond', id: 12, response: { result: '0x' } })
    expect(lastError(t)?.message).toBe('Missing or invalid. Only the active request can be answered')
    t.actor.send({ type: 'request.respond', id: 11, response: { result: '0xsig' } })
    expect(t.of('respond')).toEqual([{ topic: TOPIC, id: 11, response: { result: '0xsig' } }])
    await t.answer('respond')
    expect(t.child('request:12')?.getSnapshot().value).toEqual({ waiting: 'active' })
    t.actor.send({
      type: 'request.respond',
      id: 12,
      response: { error: { code: 4001, message: 'User rejected the request.' } },
    })
    await t.answer('respond')
    expect(outcomes(t, 'request').map((o) => [o.key, o.outcome])).toEqual([
      ['11', 'fulfilled'],
      ['12', 'rejected'],
    ])
    expect(t.actor.getSnapshot().matches({ queue: 'idle' })).toBe(true)
    // Delivered again: refused as recently deleted, not queued twice.
    t.actor.send({ type: 'wc.sessionRequest', request: request(11) })
    expect(t.actor.getSnapshot().context.requests).toEqual({})
  })

  it('an invalid request is refused to the peer with the SPEC error, without blocking the queue', async () => {
    const t = start('wallet')
    t.actor.send(sync({ sessions: [session()] }))
    t.actor.send({
      type: 'wc.sessionRequest',
      request: request(21, { request: { method: 'eth_sendTransaction', params: [] } }),
    })
    t.actor.send({ type: 'wc.sessionRequest', request: request(22, { chainId: 'eip155:5' }) })
    t.actor.send({ type: 'wc.sessionRequest', request: request(23, { topic: 'e'.repeat(64) }) })
    // Refusals do not wait for the queue: each goes to the peer at once.
    expect(t.of('respond')).toEqual([
      {
        topic: TOPIC,
        id: 21,
        response: {
          error: {
            code: 3001,
            message: "Unauthorized method. The method is not approved for the account's chain",
          },
        },
      },
      {
        topic: TOPIC,
        id: 22,
        response: {
          error: { code: 5100, message: 'Unsupported chains. The chainId is not approved in the session' },
        },
      },
      {
        topic: 'e'.repeat(64),
        id: 23,
        response: { error: { code: 2, message: "session topic doesn't exist" } },
      },
    ])
    for (let i = 0; i < 3; i++) await t.answer('respond')
    expect(outcomes(t, 'request').map((o) => [o.key, o.outcome, o.error?.name])).toEqual([
      ['21', 'rejected', 'UnapprovedMethodError'],
      ['22', 'rejected', 'UnapprovedChainError'],
      ['23', 'rejected', 'SessionTopicNotFoundError'],
    ])
    expect(t.actor.getSnapshot().matches({ queue: 'idle' })).toBe(true)
  })

  it('a refusal that gets no answer ends rejected after SESSION_ANSWER_TIMEOUT_MS, the refusal kept', async () => {
    const t = start('wallet', { ttl: { requestMs: HOUR } })
    t.actor.send(sync({ sessions: [session()] }))
    t.actor.send({
      type: 'wc.sessionRequest',
      request: request(24, { chainId: 'eip155:5', expiry: NOW + HOUR }),
    })
    expect(t.of('respond')).toHaveLength(1)
    await vi.advanceTimersByTimeAsync(SESSION_ANSWER_TIMEOUT_MS - 1)
    expect(t.child('request:24')?.getSnapshot().value).toBe('refusing')
    await vi.advanceTimersByTimeAsync(1)
    expect(outcomes(t, 'request').map((o) => [o.key, o.outcome, o.error?.name])).toEqual([
      ['24', 'rejected', 'UnapprovedChainError'],
    ])
    expect(t.actor.getSnapshot().context.requests).toEqual({})
  })

  it('expires when unanswered: the peer is told, and the queue moves on', async () => {
    const t = start('wallet', { ttl: { requestMs: 2_000 } })
    t.actor.send(sync({ sessions: [session()] }))
    t.actor.send({ type: 'wc.sessionRequest', request: request(31) })
    t.actor.send({ type: 'wc.sessionRequest', request: request(32) })
    await vi.advanceTimersByTimeAsync(2_000)
    expect(outcomes(t, 'request').map((o) => [o.key, o.outcome])).toEqual([
      ['31', 'expired'],
      ['32', 'expired'],
    ])
    expect(t.of('library.expireRequest')).toEqual([
      { type: 'library.expireRequest', id: 31, topic: TOPIC },
      { type: 'library.expireRequest', id: 32, topic: TOPIC },
    ])
    expect(t.actor.getSnapshot().matches({ queue: 'idle' })).toBe(true)
  })

  it('are removed when their session ends', () => {
    const t = start('wallet')
    t.actor.send(sync({ sessions: [session()], requests: [request(41), request(42)] }))
    expect(t.actor.getSnapshot().context.activeRequest).toBe('41')
    t.actor.send({ type: 'wc.sessionDelete', topic: TOPIC, by: 'peer' })
    expect(outcomes(t, 'request').map((o) => [o.key, o.outcome])).toEqual([
      ['41', 'removed'],
      ['42', 'removed'],
    ])
    expect(t.actor.getSnapshot().context).toMatchObject({ requests: {}, queue: [], activeRequest: undefined })
  })
})

describe('requests, app side', () => {
  it("without a session: 'Please call connect() before request()'", () => {
    const t = start('app')
    t.actor.send({ type: 'request.send', id: 1, request: { method: 'eth_accounts' } })
    expect(lastError(t)).toMatchObject({ message: 'Please call connect() before request()', code: 4900 })
  })

  it('answers the locally handled eip155 methods without a round trip', () => {
    const t = start('app', { rpcMap: { 'eip155:10': 'http://127.0.0.1:9545' } })
    t.actor.send(sync({ sessions: [session()] }))
    t.actor.send({ type: 'request.send', id: 1, request: { method: 'eth_chainId' } })
    t.actor.send({
      type: 'request.send',
      id: 2,
      request: { method: 'wallet_switchEthereumChain', params: [{ chainId: '0xa' }] },
    })
    t.actor.send({ type: 'request.send', id: 3, request: { method: 'eth_chainId' } })
    t.actor.send({
      type: 'request.send',
      id: 4,
      request: { method: 'wallet_switchEthereumChain', params: [{ chainId: '0x1' }] },
    })
    expect(lastError(t)?.message).toBe('No RPC url provided for chainId')
    t.actor.send({
      type: 'request.send',
      id: 5,
      request: { method: 'wallet_switchEthereumChain', params: [{ chainId: '0x89' }] },
    })
    expect(lastError(t)?.message).toBe('Failed to switch to chain')
    t.actor.send({
      type: 'request.send',
      id: 6,
      request: { method: 'wallet_getCallsStatus', params: ['0x1'] },
    })
    expect(lastError(t)?.message).toBe('Fetching call status not approved by the wallet')
    expect(outcomes(t, 'request')).toEqual([
      { kind: 'request', key: '1', outcome: 'fulfilled', local: true, result: '0x1' },
      { kind: 'request', key: '2', outcome: 'fulfilled', local: true, result: null },
      { kind: 'request', key: '3', outcome: 'fulfilled', local: true, result: '0xa' },
    ])
    expect(t.of('sendRequest')).toEqual([])
  })

  it('checks a request before sending it, then follows it to its outcome', async () => {
    const t = start('app', { ttl: { requestMs: 60_000 } })
    t.actor.send(sync({ sessions: [session()] }))
    t.actor.send({ type: 'request.send', id: 1, request: { method: 'eth_sendTransaction', params: [] } })
    expect(lastError(t)?.name).toBe('UnapprovedMethodError')
    t.actor.send({ type: 'request.send', id: 1, chainId: 'eip155:5', request: { method: 'personal_sign' } })
    expect(lastError(t)?.name).toBe('UnapprovedChainError')
    t.actor.send({ type: 'request.send', id: 1, request: { method: 'personal_sign' }, expiry: 30 })
    expect(lastError(t)?.name).toBe('InvalidRequestExpiryError')

    t.actor.send({ type: 'request.send', id: 1, request: { method: 'personal_sign', params: ['0x'] } })
    t.actor.send({ type: 'request.send', id: 2, request: { method: 'personal_sign', params: ['0x'] } })
    t.actor.send({ type: 'request.send', id: 3, request: { method: 'personal_sign', params: ['0x'] } })
    expect(t.of('sendRequest')).toHaveLength(3)
    expect(t.child('request:1')?.getSnapshot().value).toEqual({ awaiting: 'sending' })
    await t.answer('sendRequest', '0xsignature')
    expect(outcomes(t, 'request')).toEqual([
      expect.objectContaining({ key: '1', outcome: 'fulfilled', result: '0xsignature' }),
    ])
    await t.fail('sendRequest', { code: 4001, message: 'User rejected the request.' })
    await vi.advanceTimersByTimeAsync(60_000)
    expect(outcomes(t, 'request').map((o) => [o.key, o.outcome, o.error?.code])).toEqual([
      ['1', 'fulfilled', undefined],
      ['2', 'rejected', 4001],
      ['3', 'expired', 6],
    ])
  })

  it('plans a request once, at one clock reading: its check and its expiry agree at an expiry edge', () => {
    // The injected clock reads just before the session's expiry, then at it for every later reading.
    const expiry = NOW + HOUR
    const readings: number[] = []
    const clock = () => {
      const now = readings.length === 0 ? expiry - 1 : expiry
      readings.push(now)
      return now
    }
    const t = start('app', { clock })
    t.actor.send(sync({ sessions: [session({ expiry })] }))
    readings.length = 0
    t.actor.send({ type: 'request.send', id: 1, request: { method: 'personal_sign', params: ['0x'] } })
    // Planned before the expiry, so sent, with its lifetime counted from that same reading.
    expect(lastError(t)).toBeUndefined()
    expect(t.of('sendRequest')).toEqual([
      expect.objectContaining({ id: 1, expiry: expiry - 1 + REQUEST_TTL_MS }),
    ])
    expect(readings[0]).toBe(expiry - 1)
    // The next request reads the clock at the expiry: the session has expired.
    t.actor.send({ type: 'request.send', id: 2, request: { method: 'personal_sign', params: ['0x'] } })
    expect(lastError(t)).toMatchObject({ name: 'SessionExpiredError' })
    expect(t.actor.getSnapshot().context.plan).toBeUndefined()
  })

  it('follows requests someone else sent on the client; the wallet error arrives mapped', () => {
    const t = start('app')
    t.actor.send(sync({ sessions: [session()] }))
    t.actor.send({ type: 'wc.requestSent', request: { ...request(51), expiry: undefined } })
    expect(t.child('request:51')?.getSnapshot().value).toEqual({ awaiting: 'pending' })
    expect(t.of('sendRequest')).toEqual([])
    const error = { name: 'RemoteError', message: 'User rejected the request.', code: 4001 }
    t.actor.send({ type: 'wc.requestError', id: 51, error })
    expect(outcomes(t, 'request')).toEqual([
      expect.objectContaining({ key: '51', outcome: 'rejected', error }),
    ])
  })

  it('a request the library drops because the peer ended the session is removed, not refused', async () => {
    const t = start('app')
    t.actor.send(sync({ sessions: [session()] }))
    t.actor.send({ type: 'request.send', id: 1, request: { method: 'personal_sign' } })
    await t.fail('sendRequest', new RemoteError('User disconnected.', { code: 6000 }))
    expect(outcomes(t, 'request')).toEqual([
      expect.objectContaining({
        outcome: 'removed',
        error: expect.objectContaining({ name: 'SessionEndedError' }),
      }),
    ])
  })
})
