import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { type ActorRefFrom, type AnyActorRef, createActor, fromCallback, fromPromise } from 'xstate'
import { PING_RESPONSE_DELAY_MS, REQUEST_TTL_MS } from '../constants'
import { RemoteError } from '../errors/session'
import type { Namespaces, ProposalInfo, RequestInfo, SessionInfo } from '../session/types'
import {
  authMachine,
  incomingRequestMachine,
  outgoingRequestMachine,
  proposalMachine,
  type Role,
  type SessionClientInput,
  type SessionEvent,
  type SignClientCommand,
  type SignClientEvent,
  sessionClientMachine,
  sessionMachine,
} from './session'

/**
 * The session machines with fake WalletConnect effects: each slot records what it was asked and answers as a
 * client would. Time is faked, so expiries and the ping delay are exact.
 */
const NOW = Date.UTC(2026, 0, 1)
const HOUR = 3_600_000
const TOPIC = 'a'.repeat(64)
const ADDRESS = `0x${'1'.repeat(40)}`
const metadata = { name: 'Peer', description: '', url: 'https://peer.example', icons: [] }
const namespaces: Namespaces = {
  eip155: {
    accounts: [`eip155:1:${ADDRESS}`, `eip155:10:${ADDRESS}`],
    methods: ['personal_sign'],
    events: ['chainChanged', 'accountsChanged'],
  },
}

const session = (overrides: Partial<SessionInfo> = {}): SessionInfo => ({
  topic: TOPIC,
  expiry: NOW + HOUR,
  acknowledged: true,
  relay: { protocol: 'irn' },
  controller: 'c'.repeat(64),
  self: { publicKey: 's'.repeat(64), metadata },
  peer: { publicKey: 'c'.repeat(64), metadata },
  namespaces,
  requiredNamespaces: {},
  optionalNamespaces: {},
  ...overrides,
})

const proposal = (overrides: Partial<ProposalInfo> = {}): ProposalInfo => ({
  id: 1,
  pairingTopic: 'p'.repeat(64),
  expiry: NOW + 5 * 60_000,
  proposer: { publicKey: 'd'.repeat(64), metadata },
  requiredNamespaces: {},
  optionalNamespaces: {
    eip155: { chains: ['eip155:1'], methods: ['personal_sign'], events: ['chainChanged'] },
  },
  relays: [{ protocol: 'irn' }],
  ...overrides,
})

const request = (id: number, overrides: Partial<RequestInfo> = {}): RequestInfo => ({
  id,
  topic: TOPIC,
  chainId: 'eip155:1',
  request: { method: 'personal_sign', params: ['0x68656c6c6f', ADDRESS] },
  expiry: NOW + 5 * 60_000,
  ...overrides,
})

const sync = (parts: Partial<Extract<SignClientEvent, { type: 'wc.sync' }>>): SignClientEvent => ({
  type: 'wc.sync',
  pairings: {},
  proposals: [],
  sessions: [],
  requests: [],
  ...parts,
})

interface Call {
  slot: string
  input: unknown
}

/** A client whose every effect is recorded; answers come when the test says. */
function fakeClient() {
  const calls: Call[] = []
  const pending = new Map<string, { resolve: (value: unknown) => void; reject: (error: unknown) => void }[]>()
  const answered = <T, I>(slot: string) =>
    fromPromise<T, I>(
      ({ input }) =>
        new Promise<T>((resolve, reject) => {
          calls.push({ slot, input })
          pending.set(slot, [
            ...(pending.get(slot) ?? []),
            { resolve: resolve as (value: unknown) => void, reject },
          ])
        }),
    )
  const pingBack: { current?: (event: SessionEvent) => void } = {}
  const actors = {
    signClient: fromCallback<SignClientCommand, { role: Role }>(({ receive }) => {
      receive((command) => calls.push({ slot: command.type, input: command }))
      return () => {}
    }),
    connect: answered('connect'),
    pair: answered('pair'),
    proposal: proposalMachine.provide({
      actors: { approve: answered('approve'), reject: answered('reject') },
    }),
    session: sessionMachine.provide({
      actors: {
        ping: fromCallback<SessionEvent, { topic: string }>(({ sendBack, input }) => {
          calls.push({ slot: 'ping', input })
          pingBack.current = sendBack
          return () => {}
        }),
        extend: answered('extend'),
        emit: answered('emit'),
        disconnect: answered('disconnect'),
      },
    }),
    outgoingRequest: outgoingRequestMachine.provide({ actors: { sendRequest: answered('sendRequest') } }),
    incomingRequest: incomingRequestMachine.provide({ actors: { respond: answered('respond') } }),
    auth: authMachine.provide({
      actors: {
        authenticate: fromCallback(() => () => {}),
        verifyAuth: answered('verifyAuth'),
        approveAuth: answered('approveAuth'),
        rejectAuth: answered('rejectAuth'),
      },
    }),
  }
  return {
    calls,
    pingBack,
    of: (slot: string) => calls.filter((call) => call.slot === slot).map((call) => call.input),
    /** Settles the oldest unsettled call of a slot. */
    async answer(slot: string, value?: unknown) {
      pending.get(slot)!.shift()!.resolve(value)
      await flush()
    },
    async fail(slot: string, error: unknown) {
      pending.get(slot)!.shift()!.reject(error)
      await flush()
    },
    machine: sessionClientMachine.provide({ actors: actors as never }),
  }
}

const flush = () => vi.advanceTimersByTimeAsync(0)

function start(role: Role, input: Partial<SessionClientInput> = {}) {
  const client = fakeClient()
  const actor = createActor(client.machine as typeof sessionClientMachine, {
    input: { role, ...input },
  }).start()
  const child = <T extends AnyActorRef = AnyActorRef>(id: string) =>
    actor.getSnapshot().children[id] as T | undefined
  const sessionChild = () => child<ActorRefFrom<typeof sessionMachine>>(`session:${TOPIC}`)
  return { ...client, actor, child, sessionChild }
}

const lastError = (t: ReturnType<typeof start>) => t.actor.getSnapshot().context.lastError?.error
const outcomes = (t: ReturnType<typeof start>, kind: string) =>
  t.actor.getSnapshot().context.outcomes.filter((o) => o.kind === kind)

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
