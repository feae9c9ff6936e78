import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  AUTH_APPROVE_TIMEOUT_MS,
  AUTH_VERIFY_TIMEOUT_MS,
  PING_RESPONSE_DELAY_MS,
  SESSION_ANSWER_TIMEOUT_MS,
  SESSION_CONNECT_TIMEOUT_MS,
  SESSION_PAIR_TIMEOUT_MS,
} from '../constants'
import type { SignClientEvent } from './session'

import {
  ADDRESS,
  HOUR,
  lastError,
  metadata,
  NOW,
  namespaces,
  outcomes,
  proposal,
  session,
  start,
  sync,
  TOPIC,
} from './session/fakeClient'

beforeEach(() => {
  vi.useFakeTimers({ now: NOW })
})
afterEach(() => {
  vi.useRealTimers()
})

describe('proposals', () => {
  it('wallet: an invalid proposal is rejected to the peer with the SPEC error', async () => {
    const t = start('wallet')
    const bad = proposal({ requiredNamespaces: { eip155: { chains: ['mainnet'], methods: [], events: [] } } })
    t.actor.send({ type: 'wc.sessionPropose', proposal: bad })
    expect(t.of('reject')).toEqual([
      {
        id: 1,
        reason: { code: 5100, message: 'Unsupported chains. Chains must be written namespace:chainId' },
      },
    ])
    await t.answer('reject')
    expect(outcomes(t, 'proposal')).toEqual([
      expect.objectContaining({
        key: '1',
        outcome: 'rejected',
        reason: expect.objectContaining({ code: 5100 }),
      }),
    ])
    expect(t.actor.getSnapshot().context.proposals).toEqual({})
  })

  it('wallet: approve is checked first, then carried out; the proposal is approved', async () => {
    const t = start('wallet')
    t.actor.send({
      type: 'wc.sessionPropose',
      proposal: proposal({
        requiredNamespaces: { eip155: { chains: ['eip155:1'], methods: ['personal_sign'], events: [] } },
      }),
    })
    t.actor.send({
      type: 'proposal.approve',
      id: 1,
      namespaces: { eip155: { ...namespaces.eip155!, methods: [] } },
    })
    expect(lastError(t)?.name).toBe('NonConformingNamespacesError')
    expect(t.of('approve')).toEqual([])
    t.actor.send({ type: 'proposal.approve', id: 1, namespaces })
    expect(t.child(`proposal:1`)?.getSnapshot().value).toBe('approving')
    await t.answer('approve', { topic: TOPIC })
    expect(outcomes(t, 'proposal')).toEqual([expect.objectContaining({ key: '1', outcome: 'approved' })])
    t.actor.send({ type: 'proposal.approve', id: 1, namespaces })
    expect(lastError(t)).toMatchObject({
      name: 'RecentlyDeletedError',
      message: 'Record was recently deleted',
    })
  })

  it('wallet: a proposal left unanswered expires, and the library is told to forget it', async () => {
    const t = start('wallet', { ttl: { proposalMs: 1_000 } })
    t.actor.send({ type: 'wc.sessionPropose', proposal: proposal() })
    await vi.advanceTimersByTimeAsync(999)
    expect(t.child('proposal:1')?.getSnapshot().value).toBe('pending')
    await vi.advanceTimersByTimeAsync(1)
    expect(outcomes(t, 'proposal')).toEqual([expect.objectContaining({ outcome: 'expired' })])
    expect(t.of('library.expireProposal')).toEqual([{ type: 'library.expireProposal', id: 1 }])
    t.actor.send({ type: 'proposal.reject', id: 1, reason: { code: 5000, message: 'no' } })
    expect(lastError(t)?.message).toBe('Record was recently deleted')
  })

  it('app: connect is checked, proposes, and an unanswered proposal is renewed with a fresh URI', async () => {
    const t = start('app')
    t.actor.send({ type: 'session.connect', params: 'eip155:1' })
    expect(lastError(t)?.message).toBe('Missing or invalid. connect() params must be an object')
    t.actor.send({ type: 'session.connect', params: { pairingTopic: 'unknown' } })
    expect(lastError(t)?.message).toBe("pairing topic doesn't exist")

    const params = { optionalNamespaces: proposal().optionalNamespaces }
    t.actor.send({ type: 'session.connect', params })
    expect(t.actor.getSnapshot().hasTag('connecting')).toBe(true)
    t.actor.send({ type: 'wc.sessionPropose', proposal: proposal() })
    await t.answer('connect', { uri: 'wc:first', pairingTopic: proposal().pairingTopic })
    expect(t.actor.getSnapshot().context.pairingUri).toBe('wc:first')

    await vi.advanceTimersByTimeAsync(5 * 60_000)
    expect(outcomes(t, 'proposal')).toEqual([expect.objectContaining({ outcome: 'expired' })])
    expect(t.of('connect')).toEqual([{ params }, { params }])
    expect(t.actor.getSnapshot().hasTag('connecting')).toBe(true)
  })

  it('app: the peer approves or rejects, as reported by the client', () => {
    const t = start('app')
    t.actor.send({ type: 'wc.sessionPropose', proposal: proposal({ id: 1 }) })
    t.actor.send({ type: 'wc.sessionPropose', proposal: proposal({ id: 2 }) })
    t.actor.send({ type: 'wc.proposalApproved', id: 1 })
    t.actor.send({ type: 'wc.proposalRejected', id: 2, reason: { code: 5000, message: 'User rejected.' } })
    expect(outcomes(t, 'proposal')).toEqual([
      expect.objectContaining({ key: '1', outcome: 'approved' }),
      expect.objectContaining({
        key: '2',
        outcome: 'rejected',
        reason: { code: 5000, message: 'User rejected.' },
      }),
    ])
    // Delivered again (at least once): ignored.
    t.actor.send({ type: 'wc.sessionPropose', proposal: proposal({ id: 1 }) })
    expect(t.actor.getSnapshot().context.proposals).toEqual({})
  })
})

describe('sessions', () => {
  const settle = {
    relay: { protocol: 'irn' },
    controller: { publicKey: 'c'.repeat(64), metadata },
    namespaces,
    expiry: Math.floor((NOW + HOUR) / 1000),
  }
  const settleEvent = (overrides: object = {}): SignClientEvent => ({
    type: 'wc.sessionSettle',
    topic: TOPIC,
    settle: { ...settle, ...overrides },
    self: { publicKey: '', metadata },
    peer: { publicKey: 'c'.repeat(64), metadata },
  })

  it('settles, then is acknowledged', () => {
    const t = start('app')
    t.actor.send(settleEvent())
    expect(t.sessionChild()?.getSnapshot().value).toBe('settling')
    t.actor.send({ type: 'wc.settleAcknowledged', topic: TOPIC })
    expect(t.sessionChild()?.getSnapshot().matches('active')).toBe(true)
    expect(t.actor.getSnapshot().context.sessions[TOPIC]?.chainId).toBe('eip155:1')
  })

  it('refuses a settlement without relay, controller key or namespaces, or already expired', () => {
    const t = start('app')
    t.actor.send(settleEvent({ controller: {} }))
    expect(lastError(t)?.message).toBe(
      "Missing or invalid. A settlement needs a relay, the controller's public key and namespaces",
    )
    t.actor.send(settleEvent({ expiry: Math.floor(NOW / 1000) - 1 }))
    expect(lastError(t)?.message).toBe('session settlement expired')
    expect(t.actor.getSnapshot().context.sessions).toEqual({})
  })

  it('expires at its expiry unless extended; extending resets it', async () => {
    const t = start('wallet', { ttl: { sessionMs: 10_000 } })
    t.actor.send(sync({ sessions: [session()] }))
    await vi.advanceTimersByTimeAsync(6_000)
    t.actor.send({ type: 'session.extend', topic: TOPIC })
    expect(t.of('extend')).toEqual([{ topic: TOPIC }])
    expect(t.actor.getSnapshot().context.sessions[TOPIC]?.expiry).toBe(NOW + 16_000)
    await t.answer('extend')
    await vi.advanceTimersByTimeAsync(9_999)
    expect(t.sessionChild()?.getSnapshot().matches('active')).toBe(true)
    // The peer extends too: reset again.
    t.actor.send({ type: 'wc.sessionExtend', topic: TOPIC })
    await vi.advanceTimersByTimeAsync(9_999)
    expect(t.sessionChild()?.getSnapshot().matches('active')).toBe(true)
    await vi.advanceTimersByTimeAsync(1)
    expect(outcomes(t, 'session')).toEqual([expect.objectContaining({ outcome: 'expired' })])
    expect(t.of('library.expireSession')).toEqual([{ type: 'library.expireSession', topic: TOPIC }])
  })

  it('pings: the answer is handled after the SPEC delay', async () => {
    const t = start('app')
    t.actor.send(sync({ sessions: [session()] }))
    t.actor.send({ type: 'session.ping', topic: TOPIC })
    expect(t.sessionChild()?.getSnapshot().value).toMatchObject({ active: { ping: 'pinging' } })
    t.pingBack.current!({ type: 'session.pong' })
    expect(t.sessionChild()?.getSnapshot().value).toMatchObject({ active: { ping: 'answered' } })
    await vi.advanceTimersByTimeAsync(PING_RESPONSE_DELAY_MS - 1)
    expect(t.sessionChild()?.getSnapshot().context.pongs).toBe(0)
    await vi.advanceTimersByTimeAsync(1)
    expect(t.sessionChild()?.getSnapshot()).toMatchObject({
      value: { active: { ping: 'idle' } },
      context: { pongs: 1 },
    })
    // The peer pings us: the library answered with success; counted.
    t.actor.send({ type: 'wc.sessionPing', topic: TOPIC })
    expect(t.sessionChild()?.getSnapshot().context.pingsAnswered).toBe(1)
  })

  it('discards out-of-order updates', () => {
    const t = start('app')
    t.actor.send(sync({ sessions: [session()] }))
    const newer = { eip155: { ...namespaces.eip155!, methods: ['personal_sign', 'eth_sendTransaction'] } }
    t.actor.send({ type: 'wc.sessionUpdate', topic: TOPIC, id: (NOW + 2_000) * 1000, namespaces: newer })
    t.actor.send({ type: 'wc.sessionUpdate', topic: TOPIC, id: (NOW + 1_000) * 1000, namespaces })
    expect(lastError(t)).toMatchObject({
      name: 'OutOfOrderUpdateError',
      message: 'Invalid update request. It is older than the last update',
    })
    expect(t.actor.getSnapshot().context.sessions[TOPIC]?.namespaces).toEqual(newer)
  })

  it('ends by delete from this side, by the peer, or by expiry; reuse is refused', async () => {
    const t = start('wallet')
    const ended: string[] = []
    t.actor.on('session.ended', (notice) => ended.push(notice.outcome))
    t.actor.send(sync({ sessions: [session(), session({ topic: 'b'.repeat(64) })] }))
    t.actor.send({ type: 'session.disconnect', topic: TOPIC })
    expect(t.sessionChild()?.getSnapshot().value).toBe('deleting')
    await t.answer('disconnect')
    t.actor.send({ type: 'wc.sessionDelete', topic: 'b'.repeat(64), by: 'peer' })
    expect(outcomes(t, 'session').map((o) => o.outcome)).toEqual(['deleted', 'peerDisconnected'])
    expect(ended).toEqual(['deleted', 'peerDisconnected'])
    t.actor.send({ type: 'session.extend', topic: TOPIC })
    expect(lastError(t)).toMatchObject({
      message: 'Record was recently deleted',
      details: `session: ${TOPIC}`,
    })
    t.actor.send({ type: 'session.ping', topic: 'c'.repeat(64) })
    expect(lastError(t)?.message).toBe("session topic doesn't exist")
  })

  it('emits only approved events, one at a time', async () => {
    const t = start('wallet')
    t.actor.send(sync({ sessions: [session()] }))
    t.actor.send({
      type: 'session.emit',
      topic: TOPIC,
      chainId: 'eip155:1',
      event: { name: 'balanceChanged', data: 1 },
    })
    expect(lastError(t)?.message).toBe('Unauthorized event. The event is not approved in the session')
    t.actor.send({
      type: 'session.emit',
      topic: TOPIC,
      chainId: 'eip155:1',
      event: { name: 'chainChanged', data: 10 },
    })
    t.actor.send({
      type: 'session.emit',
      topic: TOPIC,
      chainId: 'eip155:1',
      event: { name: 'accountsChanged', data: [] },
    })
    expect(t.of('emit')).toHaveLength(1)
    await t.answer('emit')
    expect(t.of('emit')).toHaveLength(2)
    await t.answer('emit')
    expect(t.sessionChild()?.getSnapshot().context.outbox).toEqual([])
  })
})

describe('one-click auth', () => {
  const authRequest = {
    id: 61,
    pairingTopic: 'p'.repeat(64),
    expiry: NOW + HOUR,
    requester: { publicKey: 'd'.repeat(64), metadata },
    payload: { chains: ['eip155:1'], domain: 'app.example', aud: 'https://app.example', nonce: 'n', iat: '' },
  }
  const cacao = {
    h: { t: 'caip122' },
    p: {
      domain: 'app.example',
      aud: 'https://app.example',
      nonce: 'n',
      iss: `did:pkh:eip155:1:${ADDRESS}`,
      iat: '',
    },
    s: { t: 'eip191', s: '0x' },
  }

  it('app: the request is checked first', () => {
    const t = start('app')
    t.actor.send({
      type: 'session.authenticate',
      id: 1,
      params: { chains: ['eip155:1', 'cosmos:hub'], uri: 'https://a', domain: 'a', nonce: 'n' },
    })
    expect(lastError(t)?.message).toBe('Multi-namespace requests are not supported')
    t.actor.send({
      type: 'session.authenticate',
      id: 1,
      params: { chains: ['cosmos:hub'], uri: 'https://a', domain: 'a', nonce: 'n' },
    })
    expect(lastError(t)?.message).toBe('Only eip155 namespace is supported for authenticated sessions')
  })

  it('wallet: approved only after the signatures check out', async () => {
    const t = start('wallet')
    t.actor.send({ type: 'wc.sessionAuthenticate', request: authRequest })
    t.actor.send({ type: 'auth.approve', id: 62, auths: [cacao] })
    expect(lastError(t)?.message).toBe('Could not find pending auth request with id 62')
    t.actor.send({ type: 'auth.approve', id: 61, auths: [cacao] })
    expect(t.child('auth:61')?.getSnapshot().value).toBe('verifying')
    await t.answer('verifyAuth', true)
    expect(t.of('approveAuth')).toEqual([{ id: 61, auths: [cacao] }])
    await t.answer('approveAuth', { session: session() })
    expect(outcomes(t, 'auth')).toEqual([expect.objectContaining({ outcome: 'approved' })])
    expect(t.sessionChild()?.getSnapshot().matches('active')).toBe(true)
  })

  it("wallet: a signature that does not check out is refused to the peer: 'Signature verification failed'", async () => {
    const t = start('wallet')
    t.actor.send({ type: 'wc.sessionAuthenticate', request: authRequest })
    t.actor.send({ type: 'auth.approve', id: 61, auths: [cacao] })
    await t.answer('verifyAuth', false)
    expect(t.of('approveAuth')).toEqual([])
    expect(t.of('rejectAuth')).toEqual([
      { id: 61, reason: { code: 7000, message: 'Signature verification failed' } },
    ])
    await t.answer('rejectAuth')
    expect(outcomes(t, 'auth')).toEqual([
      expect.objectContaining({
        outcome: 'rejected',
        reason: { code: 7000, message: 'Signature verification failed' },
      }),
    ])
  })
})

describe('roles', () => {
  it('refuses the other side’s commands', () => {
    const app = start('app')
    app.actor.send({ type: 'proposal.approve', id: 1, namespaces })
    expect(lastError(app)?.message).toBe('Missing or invalid. approve() is for the wallet side')
    const wallet = start('wallet')
    wallet.actor.send({ type: 'session.connect', params: {} })
    expect(lastError(wallet)?.message).toBe('Missing or invalid. connect() is for the app side')
    wallet.actor.send({ type: 'session.pair', uri: 'not a uri' })
    expect(lastError(wallet)?.message).toBe('Missing or invalid. pair() needs a WalletConnect v2 URI')
  })
})

describe('hostile keys and expiries (issue 13 item 6)', () => {
  it('topics and ids named like Object.prototype members are unknown records, not crashes', () => {
    const t = start('wallet')
    t.actor.send(sync({ sessions: [session()] }))
    for (const topic of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
      expect(() => t.actor.send({ type: 'session.ping', topic })).not.toThrow()
      expect(lastError(t)?.message).toBe("session topic doesn't exist")
      expect(() => t.actor.send({ type: 'session.extend', topic })).not.toThrow()
      expect(lastError(t)?.message).toBe("session topic doesn't exist")
    }
    expect(t.actor.getSnapshot().status).toBe('active')
    expect(Object.keys(t.actor.getSnapshot().context.sessions)).toEqual([TOPIC])
  })

  it('a proposal or session whose expiry is not a finite number is not kept as never-expiring', async () => {
    const t = start('wallet')
    t.actor.send({ type: 'wc.sessionPropose', proposal: proposal({ expiry: Number.POSITIVE_INFINITY }) })
    t.actor.send(sync({ sessions: [session({ expiry: Number.NaN })] }))
    const { proposals, sessions } = t.actor.getSnapshot().context
    for (const record of [...Object.values(proposals), ...Object.values(sessions)])
      expect(Number.isFinite(record.expiry)).toBe(true)
    await vi.advanceTimersByTimeAsync(1)
    expect(t.actor.getSnapshot().context.sessions[TOPIC]).toBeUndefined()
  })

  it('an expiry beyond what setTimeout can hold does not fire at once: the session stays active', async () => {
    const t = start('wallet')
    t.actor.send(sync({ sessions: [session({ expiry: NOW + 30 * 24 * HOUR })] }))
    await vi.advanceTimersByTimeAsync(1_000)
    expect(t.sessionChild()?.getSnapshot().matches('active')).toBe(true)
    expect(outcomes(t, 'session')).toEqual([])
  })
})

/**
 * Issue 13, no dead end: each step that waits on the relay has a named time limit (src/constants.ts). The fake
 * client below never answers; without the limit each of these states waits forever.
 */
describe('time limits: no step waits on the relay forever (issue 13)', () => {
  const authRequest = {
    id: 71,
    pairingTopic: 'p'.repeat(64),
    expiry: NOW + HOUR,
    requester: { publicKey: 'd'.repeat(64), metadata },
    payload: { chains: ['eip155:1'], domain: 'app.example', aud: 'https://app.example', nonce: 'n', iat: '' },
  }
  const cacao = {
    h: { t: 'caip122' },
    p: {
      domain: 'app.example',
      aud: 'https://app.example',
      nonce: 'n',
      iss: `did:pkh:eip155:1:${ADDRESS}`,
      iat: '',
    },
    s: { t: 'eip191', s: '0x' },
  }
  const PAIR_URI = `wc:${'f'.repeat(64)}@2?relay-protocol=irn&symKey=${'1'.repeat(64)}`

  it('app: connect() gives up after SESSION_CONNECT_TIMEOUT_MS with a RelayTimeoutError; connect may be asked again', async () => {
    const t = start('app')
    const params = { optionalNamespaces: proposal().optionalNamespaces }
    t.actor.send({ type: 'session.connect', params })
    await vi.advanceTimersByTimeAsync(SESSION_CONNECT_TIMEOUT_MS - 1)
    expect(t.actor.getSnapshot().hasTag('connecting')).toBe(true)
    expect(lastError(t)).toBeUndefined()
    await vi.advanceTimersByTimeAsync(1)
    expect(t.actor.getSnapshot().hasTag('connecting')).toBe(false)
    expect(t.actor.getSnapshot().context.lastError).toEqual({
      command: 'session.connect',
      error: {
        name: 'RelayTimeoutError',
        message: 'Expired. connect() got no answer from the relay in time',
        code: 6,
        details: `No answer after ${SESSION_CONNECT_TIMEOUT_MS / 1000} s`,
      },
    })
    t.actor.send({ type: 'session.connect', params })
    expect(t.actor.getSnapshot().hasTag('connecting')).toBe(true)
    expect(t.of('connect')).toEqual([{ params }, { params }])
    // The late answer of the abandoned call is not followed.
    await t.answer('connect', { uri: 'wc:late', pairingTopic: proposal().pairingTopic })
    expect(t.actor.getSnapshot().context.pairingUri).toBeUndefined()
    expect(t.actor.getSnapshot().hasTag('connecting')).toBe(true)
  })

  it('wallet: pair() gives up after SESSION_PAIR_TIMEOUT_MS with a RelayTimeoutError; pair may be asked again', async () => {
    const t = start('wallet')
    t.actor.send({ type: 'session.pair', uri: PAIR_URI })
    await vi.advanceTimersByTimeAsync(SESSION_PAIR_TIMEOUT_MS - 1)
    expect(t.actor.getSnapshot().hasTag('pairing')).toBe(true)
    await vi.advanceTimersByTimeAsync(1)
    expect(t.actor.getSnapshot().hasTag('pairing')).toBe(false)
    expect(t.actor.getSnapshot().context.lastError).toMatchObject({
      command: 'session.pair',
      error: { name: 'RelayTimeoutError', message: 'Expired. pair() got no answer from the relay in time' },
    })
    t.actor.send({ type: 'session.pair', uri: PAIR_URI })
    expect(t.actor.getSnapshot().hasTag('pairing')).toBe(true)
    expect(lastError(t)).toBeUndefined()
  })

  it('wallet: a refused proposal whose rejection gets no answer ends rejected after SESSION_ANSWER_TIMEOUT_MS, its reason kept', async () => {
    const t = start('wallet', { ttl: { proposalMs: HOUR } })
    const bad = proposal({
      expiry: NOW + HOUR,
      requiredNamespaces: { eip155: { chains: ['mainnet'], methods: [], events: [] } },
    })
    t.actor.send({ type: 'wc.sessionPropose', proposal: bad })
    await vi.advanceTimersByTimeAsync(SESSION_ANSWER_TIMEOUT_MS - 1)
    expect(t.child('proposal:1')?.getSnapshot().value).toBe('refusing')
    await vi.advanceTimersByTimeAsync(1)
    expect(outcomes(t, 'proposal')).toEqual([
      expect.objectContaining({
        key: '1',
        outcome: 'rejected',
        reason: expect.objectContaining({ code: 5100 }),
      }),
    ])
  })

  it('wallet: signature checks that do not finish in AUTH_VERIFY_TIMEOUT_MS approve nothing: refused to the peer', async () => {
    const t = start('wallet')
    t.actor.send({ type: 'wc.sessionAuthenticate', request: authRequest })
    t.actor.send({ type: 'auth.approve', id: 71, auths: [cacao] })
    await vi.advanceTimersByTimeAsync(AUTH_VERIFY_TIMEOUT_MS - 1)
    expect(t.child('auth:71')?.getSnapshot().value).toBe('verifying')
    await vi.advanceTimersByTimeAsync(1)
    const child = t.child('auth:71')?.getSnapshot()
    expect(child?.value).toBe('refusingSignature')
    expect(child?.context.error).toMatchObject({ name: 'SignatureVerificationTimeoutError', code: 7000 })
    expect(t.of('approveAuth')).toEqual([])
    // The peer is told the SPEC §8 text.
    expect(t.of('rejectAuth')).toEqual([
      { id: 71, reason: { code: 7000, message: 'Signature verification failed' } },
    ])
    // A late "valid" from the abandoned check approves nothing.
    await t.answer('verifyAuth', true)
    expect(t.of('approveAuth')).toEqual([])
  })

  it('wallet: a refusal of the signatures that gets no answer ends rejected after SESSION_ANSWER_TIMEOUT_MS', async () => {
    const t = start('wallet')
    t.actor.send({ type: 'wc.sessionAuthenticate', request: authRequest })
    t.actor.send({ type: 'auth.approve', id: 71, auths: [cacao] })
    await t.answer('verifyAuth', false)
    await vi.advanceTimersByTimeAsync(SESSION_ANSWER_TIMEOUT_MS - 1)
    expect(t.child('auth:71')?.getSnapshot().value).toBe('refusingSignature')
    await vi.advanceTimersByTimeAsync(1)
    expect(outcomes(t, 'auth')).toEqual([
      expect.objectContaining({
        outcome: 'rejected',
        reason: { code: 7000, message: 'Signature verification failed' },
      }),
    ])
  })

  it('wallet: an approval that gets no answer ends rejected after AUTH_APPROVE_TIMEOUT_MS with a RelayTimeoutError', async () => {
    const t = start('wallet')
    t.actor.send({ type: 'wc.sessionAuthenticate', request: authRequest })
    t.actor.send({ type: 'auth.approve', id: 71, auths: [cacao] })
    await t.answer('verifyAuth', true)
    await vi.advanceTimersByTimeAsync(AUTH_APPROVE_TIMEOUT_MS - 1)
    const approving = t.child('auth:71')
    expect(approving?.getSnapshot().value).toBe('approving')
    await vi.advanceTimersByTimeAsync(1)
    expect(approving?.getSnapshot().value).toBe('rejected')
    expect(approving?.getSnapshot().context.error).toMatchObject({
      name: 'RelayTimeoutError',
      message: 'Expired. Approving the auth request got no answer from the relay in time',
    })
    expect(outcomes(t, 'auth')).toEqual([expect.objectContaining({ key: '71', outcome: 'rejected' })])
    expect(t.sessionChild()).toBeUndefined()
  })

  it('wallet: a rejection that gets no answer goes back to pending after SESSION_ANSWER_TIMEOUT_MS, to be rejected again', async () => {
    const t = start('wallet')
    const reason = { code: 5000, message: 'User rejected.' }
    t.actor.send({ type: 'wc.sessionAuthenticate', request: authRequest })
    t.actor.send({ type: 'auth.reject', id: 71, reason })
    await vi.advanceTimersByTimeAsync(SESSION_ANSWER_TIMEOUT_MS - 1)
    expect(t.child('auth:71')?.getSnapshot().value).toBe('rejecting')
    await vi.advanceTimersByTimeAsync(1)
    const snapshot = t.child('auth:71')?.getSnapshot()
    expect(snapshot?.value).toBe('pending')
    expect(snapshot?.context.error).toMatchObject({
      name: 'RelayTimeoutError',
      message: 'Expired. Rejecting the auth request got no answer from the relay in time',
    })
    t.actor.send({ type: 'auth.reject', id: 71, reason })
    expect(t.of('rejectAuth')).toEqual([
      { id: 71, reason },
      { id: 71, reason },
    ])
    await t.answer('rejectAuth')
    await t.answer('rejectAuth')
    expect(outcomes(t, 'auth')).toEqual([expect.objectContaining({ outcome: 'rejected', reason })])
  })
})
