import { describe, expect, it } from 'vitest'
import {
  type AnyStateMachine,
  createMachine,
  type EventFromLogic,
  fromCallback,
  fromPromise,
  type InputFrom,
  type SnapshotFrom,
} from 'xstate'
import { RemoteError } from '../../src/errors/session'
import {
  authMachine,
  incomingRequestMachine,
  outgoingRequestMachine,
  proposalMachine,
  sessionClientMachine,
  sessionMachine,
} from '../../src/machines/session'
import type { Namespaces, ProposalInfo, RequestInfo, SessionInfo } from '../../src/session/types'
import { assertCoverage, createModel, type Model, type ReplayResult, replayPath } from '../../src/testing'

/**
 * The remote-session machines' paths (SPEC §4). Effects never settle on their own: each answer is an event of
 * the path (`xstate.done.actor.<id>` / `xstate.error.actor.<id>`), each expiry an `after` step, so every order of
 * answers, reports and timers is a path. Every state and transition of each machine is reached; the path
 * counts are asserted so a change to a machine shows here.
 */
const never = <T, I>() => fromPromise<T, I>(() => new Promise(() => {}))
const FAR = 8_000_000_000_000
const TOPIC = 'a'.repeat(64)
const metadata = { name: 'Peer', description: '', url: 'https://peer.example', icons: [] }
const namespaces: Namespaces = {
  eip155: {
    accounts: [`eip155:1:0x${'1'.repeat(40)}`],
    methods: ['personal_sign'],
    events: ['chainChanged'],
  },
}
const failure = new RemoteError('The relay is unreachable', { code: 5000 })
const refusal = { name: 'UnapprovedMethodError', message: 'Unauthorized method.', code: 3001 }

// A done or error event of an invoked actor is a machine-internal type: cast as an event of the machine.
const internal = <M extends AnyStateMachine>(events: object[]) => events as unknown as EventFromLogic<M>[]

interface Case<M extends AnyStateMachine> {
  name: string
  model: Model<M>
  paths: number
  invariant?: (snapshot: SnapshotFrom<M>) => void
}

function run<M extends AnyStateMachine>(title: string, cases: Case<M>[]) {
  const replay = (c: Case<M>, path: Case<M>['model']['paths'][number]): ReplayResult =>
    replayPath(c.model, path, c.invariant ? { invariant: c.invariant } : {})
  describe(title, () => {
    for (const c of cases) {
      describe(c.name, () => {
        it('has the expected number of covering paths', () => {
          expect(c.model.paths.length).toBe(c.paths)
        })
        for (const path of c.model.paths) {
          it(`replays ${path.description}`, () => {
            replay(c, path)
          })
        }
      })
    }
    // On its own: replays every path of every case here, whichever tests ran before.
    it('reaches every state and takes every transition of the machine', () => {
      const results = cases.flatMap((c) => c.model.paths.map((path) => replay(c, path)))
      assertCoverage(cases[0]!.model, results)
    })
  })
}

// ----------------------------------------------------------------------------------------------- proposal

const proposalUnderTest = proposalMachine.provide({ actors: { approve: never(), reject: never() } })
const proposal: ProposalInfo = {
  id: 1,
  pairingTopic: 'p'.repeat(64),
  expiry: FAR,
  proposer: { publicKey: 'd'.repeat(64), metadata },
  requiredNamespaces: {},
  optionalNamespaces: {},
  relays: [{ protocol: 'irn' }],
}
const proposalEvents = [
  { type: 'proposal.approve', id: 1, namespaces },
  { type: 'proposal.reject', id: 1, reason: { code: 5000, message: 'User rejected.' } },
  { type: 'wc.proposalApproved', id: 1 },
  { type: 'wc.proposalRejected', id: 1, reason: { code: 5000, message: 'User rejected.' } },
  { type: 'wc.proposalExpired', id: 1 },
  ...internal<typeof proposalUnderTest>([
    { type: 'xstate.done.actor.approve', output: { topic: TOPIC } },
    { type: 'xstate.error.actor.approve', error: failure },
    { type: 'xstate.done.actor.reject', output: undefined },
    { type: 'xstate.error.actor.reject', error: failure },
    { type: 'xstate.done.actor.refuse', output: undefined },
    { type: 'xstate.error.actor.refuse', error: failure },
  ]),
] as EventFromLogic<typeof proposalUnderTest>[]

const proposalModel = (input: InputFrom<typeof proposalUnderTest>) =>
  createModel(proposalUnderTest, { events: proposalEvents, input })

run('proposal machine, model-based', [
  {
    name: 'received or sent',
    model: proposalModel({ role: 'wallet', proposal }),
    paths: 12,
    invariant: (s) => {
      if (s.hasTag('busy') !== (s.matches('approving') || s.matches('rejecting') || s.matches('refusing')))
        throw new Error('busy tag out of step')
      if (s.matches('approved') && s.context.approval && !s.context.topic)
        throw new Error('approved without topic')
    },
  },
  {
    name: 'invalid, refused to the peer',
    model: proposalModel({ role: 'wallet', proposal, refusal }),
    paths: 3,
  },
])

// ------------------------------------------------------------------------------------------------ session

const sessionUnderTest = sessionMachine.provide({
  actors: {
    ping: fromCallback(() => () => {}),
    extend: never(),
    emit: never(),
    disconnect: never(),
  },
})
const sessionInfo = (acknowledged: boolean): SessionInfo => ({
  topic: TOPIC,
  expiry: FAR,
  acknowledged,
  relay: { protocol: 'irn' },
  controller: 'c'.repeat(64),
  self: { publicKey: 's'.repeat(64), metadata },
  peer: { publicKey: 'c'.repeat(64), metadata },
  namespaces,
  requiredNamespaces: {},
  optionalNamespaces: {},
})
const sessionEvents = [
  { type: 'wc.settleAcknowledged', topic: TOPIC },
  { type: 'wc.settleFailed', topic: TOPIC, reason: { code: 7000, message: 'Session settlement failed.' } },
  { type: 'wc.sessionDelete', topic: TOPIC, by: 'peer' },
  { type: 'wc.sessionDelete', topic: TOPIC, by: 'self' },
  { type: 'wc.sessionExpire', topic: TOPIC },
  { type: 'wc.sessionPing', topic: TOPIC },
  { type: 'session.ping', topic: TOPIC },
  { type: 'session.pong' },
  { type: 'session.pingFailed', error: refusal },
  { type: 'session.extend', topic: TOPIC },
  { type: 'session.extended', topic: TOPIC, expiry: FAR + 1 },
  { type: 'session.emit', topic: TOPIC, chainId: 'eip155:1', event: { name: 'chainChanged', data: 1 } },
  { type: 'session.disconnect', topic: TOPIC },
  ...internal<typeof sessionUnderTest>([
    { type: 'xstate.done.actor.extend', output: undefined },
    { type: 'xstate.error.actor.extend', error: failure },
    { type: 'xstate.done.actor.emit', output: undefined },
    { type: 'xstate.error.actor.emit', error: failure },
    { type: 'xstate.done.actor.disconnect', output: undefined },
    { type: 'xstate.error.actor.disconnect', error: failure },
  ]),
] as EventFromLogic<typeof sessionUnderTest>[]

/** Counters and the outbox's contents are the unit tests' business; here, whether anything is queued. */
const sessionState = (s: SnapshotFrom<typeof sessionUnderTest>) =>
  JSON.stringify({
    value: s.value,
    acknowledged: s.context.acknowledged,
    outbox: Math.min(s.context.outbox.length, 2),
  })

/**
 * `expiryCome`: the clock stands past the expiry when its delay ends (it expires); otherwise the expiry lies
 * beyond what one timer holds and the delay re-arms (issue 13 item 6).
 */
const sessionModel = (acknowledged: boolean, expiryCome = true, role: 'app' | 'wallet' = 'app') =>
  createModel(sessionUnderTest, {
    events: sessionEvents,
    input: {
      role,
      session: sessionInfo(acknowledged),
      clock: expiryCome ? () => FAR + 2 : () => FAR - 2 ** 31,
    },
    serializeState: sessionState,
  })

run('session machine, model-based', [
  {
    name: 'settling first',
    model: sessionModel(false),
    paths: 42,
    invariant: (s) => {
      const busy =
        s.matches('deleting') ||
        s.matches({ active: { ping: 'pinging' } }) ||
        s.matches({ active: { ping: { unresponsive: 'retrying' } } }) ||
        s.matches({ active: { extend: 'extending' } })
      if (s.hasTag('busy') !== busy) throw new Error('busy tag out of step')
      // A ping or an extension the peer left unanswered: said as it is, the session kept.
      const unresponsive =
        s.matches({ active: { ping: 'unresponsive' } }) || s.matches({ active: { extend: 'failed' } })
      if (s.hasTag('unresponsive') !== unresponsive) throw new Error('unresponsive tag out of step')
      if (unresponsive && !s.context.error) throw new Error('unresponsive without the error that says why')
      if (s.matches('active') && !s.context.acknowledged) throw new Error('active before acknowledged')
    },
  },
  { name: 'acknowledged (restored)', model: sessionModel(true), paths: 35 },
  { name: 'acknowledged, expiry beyond one timer', model: sessionModel(true, false), paths: 34 },
  // The wallet's side keeps nothing alive itself: it neither extends nor pings on a timer (the app does).
  { name: 'wallet side, acknowledged', model: sessionModel(true, true, 'wallet'), paths: 32 },
])

// ------------------------------------------------------------------------------------------------ requests

const outgoingUnderTest = outgoingRequestMachine.provide({ actors: { sendRequest: never() } })
const request: RequestInfo = {
  id: 7,
  topic: TOPIC,
  chainId: 'eip155:1',
  request: { method: 'personal_sign', params: [] },
  expiry: FAR,
}
const outgoingEvents = [
  { type: 'wc.requestResult', id: 7, result: '0xsignature' },
  { type: 'wc.requestError', id: 7, error: refusal },
  { type: 'request.remove', id: 7 },
  ...internal<typeof outgoingUnderTest>([
    { type: 'xstate.done.actor.sendRequest', output: '0xsignature' },
    { type: 'xstate.error.actor.sendRequest', error: failure },
    { type: 'xstate.error.actor.sendRequest', error: new RemoteError('User disconnected.', { code: 6000 }) },
  ]),
] as EventFromLogic<typeof outgoingUnderTest>[]

run('outgoing request machine, model-based', [
  {
    name: 'sent by this machine',
    model: createModel(outgoingUnderTest, { events: outgoingEvents, input: { request, observed: false } }),
    paths: 5,
    invariant: (s) => {
      if (s.hasTag('pending') !== s.matches('awaiting')) throw new Error('pending tag out of step')
      if (s.matches('fulfilled') && s.context.result === undefined)
        throw new Error('fulfilled without a result')
    },
  },
  {
    name: 'sent by another user of the client',
    model: createModel(outgoingUnderTest, { events: outgoingEvents, input: { request, observed: true } }),
    paths: 4,
  },
])

const incomingUnderTest = incomingRequestMachine.provide({ actors: { respond: never() } })
const incomingEvents = [
  { type: 'request.activate', id: 7 },
  { type: 'request.respond', id: 7, response: { result: '0xsignature' } },
  {
    type: 'request.respond',
    id: 7,
    response: { error: { code: 4001, message: 'User rejected the request.' } },
  },
  { type: 'request.remove', id: 7 },
  { type: 'wc.requestExpired', id: 7 },
  ...internal<typeof incomingUnderTest>([
    { type: 'xstate.done.actor.respond', output: undefined },
    { type: 'xstate.error.actor.respond', error: failure },
  ]),
] as EventFromLogic<typeof incomingUnderTest>[]

run('incoming request machine, model-based', [
  {
    name: 'queued for the wallet',
    model: createModel(incomingUnderTest, { events: incomingEvents, input: { request } }),
    paths: 12,
    invariant: (s) => {
      if (s.hasTag('awaitingDecision') !== s.matches({ waiting: 'active' }))
        throw new Error('decision tag out of step')
      if (s.hasTag('queued') !== s.matches({ waiting: 'queued' })) throw new Error('queued tag out of step')
    },
  },
  {
    name: 'invalid, refused to the peer',
    model: createModel(incomingUnderTest, { events: incomingEvents, input: { request, refusal } }),
    paths: 3,
  },
])

// ------------------------------------------------------------------------------------------ one-click auth

const authUnderTest = authMachine.provide({
  actors: {
    authenticate: fromCallback(() => () => {}),
    verifyAuth: never(),
    approveAuth: never(),
    rejectAuth: never(),
  },
})
const cacao = {
  h: { t: 'caip122' },
  p: { domain: 'app.example', aud: 'https://app.example', nonce: 'n', iss: 'did:pkh:eip155:1:0x1', iat: '' },
  s: { t: 'eip191', s: '0x' },
}
const authEvents = [
  { type: 'auth.approve', id: 9, auths: [cacao] },
  { type: 'auth.reject', id: 9, reason: { code: 5000, message: 'User rejected.' } },
  { type: 'auth.uri', uri: 'wc:abc@2?symKey=1', pairingTopic: 'p'.repeat(64) },
  { type: 'auth.approved', session: sessionInfo(true) },
  {
    type: 'auth.failed',
    error: { name: 'SignatureVerificationError', message: 'Signature verification failed', code: 7000 },
  },
  ...internal<typeof authUnderTest>([
    { type: 'xstate.done.actor.verifyAuth', output: true },
    { type: 'xstate.done.actor.verifyAuth', output: false },
    { type: 'xstate.error.actor.verifyAuth', error: failure },
    { type: 'xstate.done.actor.approveAuth', output: { session: sessionInfo(true) } },
    { type: 'xstate.error.actor.approveAuth', error: failure },
    { type: 'xstate.done.actor.rejectAuth', output: undefined },
    { type: 'xstate.error.actor.rejectAuth', error: failure },
  ]),
] as EventFromLogic<typeof authUnderTest>[]

run('one-click auth machine, model-based', [
  {
    name: 'wallet: received',
    model: createModel(authUnderTest, {
      events: authEvents,
      input: {
        role: 'wallet',
        id: 9,
        expiry: FAR,
        request: {
          id: 9,
          pairingTopic: 'p'.repeat(64),
          expiry: FAR,
          requester: { publicKey: 'd'.repeat(64), metadata },
          payload: {
            chains: ['eip155:1'],
            domain: 'app.example',
            aud: 'https://app.example',
            nonce: 'n',
            iat: '',
          },
        },
      },
    }),
    paths: 16,
    invariant: (s) => {
      if (s.matches('approved') && !s.context.auths?.length) throw new Error('approved without signatures')
    },
  },
  {
    name: 'app: sent',
    model: createModel(authUnderTest, {
      events: authEvents,
      input: {
        role: 'app',
        id: 9,
        expiry: FAR,
        params: { chains: ['eip155:1'], uri: 'https://app.example', domain: 'app.example', nonce: 'n' },
      },
    }),
    paths: 4,
  },
])

// ------------------------------------------------------------------------------------------------- client

/**
 * The client machine keeps records and routes; its children are covered above. Here they are inert stand-ins,
 * so a path is exactly the client's events: a child's notice (`session.ended`, `request.settled`, ...) is an
 * event of the path like any report from the WalletConnect client.
 */
const inert = <M extends AnyStateMachine>(id: string) => createMachine({ id }) as unknown as M
const clientUnderTest = sessionClientMachine.provide({
  actors: {
    signClient: fromCallback(() => () => {}),
    connect: never(),
    pair: never(),
    proposal: inert<typeof proposalMachine>('proposal'),
    session: inert<typeof sessionMachine>('session'),
    outgoingRequest: inert<typeof outgoingRequestMachine>('outgoingRequest'),
    incomingRequest: inert<typeof incomingRequestMachine>('incomingRequest'),
    auth: inert<typeof authMachine>('auth'),
  },
})
type ClientEvent = EventFromLogic<typeof clientUnderTest>
type ClientSnapshot = SnapshotFrom<typeof clientUnderTest>

const PAIRING = 'f'.repeat(64)
const OLD_PAIRING = '9'.repeat(64)
const SOLANA = 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp'
/** What the proposal and the settled session require, and namespaces that do not satisfy it. */
const required = { eip155: { chains: ['eip155:1'], methods: ['personal_sign'], events: ['chainChanged'] } }
const elsewhere = {
  eip155: {
    accounts: [`eip155:5:0x${'1'.repeat(40)}`],
    methods: ['personal_sign'],
    events: ['chainChanged'],
  },
}
/** Requests must expire within the library's limits (a week); a path replays well within the hour. */
const SOON = Date.now() + 3_600_000
const settle = {
  relay: { protocol: 'irn' },
  controller: { publicKey: 'c'.repeat(64), metadata },
  namespaces,
  expiry: FAR / 1000,
}
const received = (id: number, method = 'personal_sign') => ({
  id,
  topic: TOPIC,
  chainId: 'eip155:1',
  request: { method, params: [] },
  expiry: SOON,
})
const authRequest = {
  id: 31,
  pairingTopic: PAIRING,
  expiry: FAR,
  requester: { publicKey: 'd'.repeat(64), metadata },
  payload: { chains: ['eip155:1'], domain: 'app.example', aud: 'https://app.example', nonce: 'n', iat: '' },
}

/** Every event the client handles, each with payloads that take its transitions (none goes bare). */
const clientEvents = [
  {
    type: 'wc.sync',
    pairings: {},
    proposals: [],
    sessions: [{ ...sessionInfo(true), requiredNamespaces: required }],
    requests: [],
  },
  { type: 'wc.pairings', pairings: { [PAIRING]: { expiry: FAR }, [OLD_PAIRING]: { expiry: 1 } } },
  {
    type: 'wc.sessionPropose',
    proposal: { ...proposal, pairingTopic: PAIRING, requiredNamespaces: required },
  },
  { type: 'wc.sessionPropose', proposal: { ...proposal, id: 2, pairingTopic: PAIRING, expiry: 1 } },
  // Wallet: proposals that break a connect rule, rejected to the peer.
  {
    type: 'wc.sessionPropose',
    proposal: {
      ...proposal,
      id: 3,
      requiredNamespaces: { eip155: { chains: ['1'], methods: [], events: [] } },
    },
  },
  { type: 'wc.sessionPropose', proposal: { ...proposal, id: 4, sessionProperties: { a: null } } },
  { type: 'wc.sessionPropose', proposal: { ...proposal, id: 5, scopedProperties: { solana: { a: 1 } } } },
  { type: 'wc.proposalApproved', id: 1 },
  { type: 'wc.proposalRejected', id: 1, reason: { code: 5000, message: 'User rejected.' } },
  { type: 'wc.proposalExpired', id: 1 },
  {
    type: 'wc.sessionSettle',
    topic: TOPIC,
    settle,
    self: { publicKey: '', metadata },
    peer: settle.controller,
    requiredNamespaces: required,
  },
  {
    type: 'wc.sessionSettle',
    topic: 'c'.repeat(64),
    settle: { ...settle, expiry: 1 },
    self: { publicKey: '', metadata },
    peer: settle.controller,
  },
  {
    type: 'wc.sessionSettle',
    topic: 'b'.repeat(64),
    settle: { ...settle, relay: undefined },
    self: { publicKey: '', metadata },
    peer: settle.controller,
  },
  { type: 'wc.settleAcknowledged', topic: TOPIC, session: sessionInfo(true) },
  { type: 'wc.settleFailed', topic: TOPIC },
  { type: 'wc.sessionDelete', topic: TOPIC, by: 'peer' },
  { type: 'wc.sessionExpire', topic: TOPIC },
  { type: 'wc.sessionPing', topic: TOPIC },
  { type: 'wc.sessionExtend', topic: TOPIC },
  { type: 'wc.sessionUpdate', topic: TOPIC, id: 1_800_000_000_000_000, namespaces },
  { type: 'wc.sessionUpdate', topic: TOPIC, id: 1_700_000_000_000_000, namespaces },
  { type: 'wc.sessionUpdate', topic: '', id: 1_800_000_000_000_000, namespaces },
  { type: 'wc.sessionUpdate', topic: TOPIC, id: 1_900_000_000_000_000, namespaces: {} },
  { type: 'wc.sessionUpdate', topic: TOPIC, id: 1_900_000_000_000_000, namespaces: elsewhere },
  { type: 'wc.sessionEvent', topic: TOPIC, chainId: 'eip155:1', event: { name: 'chainChanged', data: 1 } },
  { type: 'wc.requestSent', request: received(21) },
  { type: 'wc.requestResult', id: 21, result: '0x' },
  { type: 'wc.requestError', id: 21, error: refusal },
  { type: 'wc.sessionRequest', request: received(11) },
  // Wallet: requests that break a request rule, refused to the peer.
  { type: 'wc.sessionRequest', request: { ...received(19), id: 1.5 } },
  { type: 'wc.sessionRequest', request: { ...received(12), topic: '' } },
  { type: 'wc.sessionRequest', request: { ...received(13), chainId: 'eip155:5' } },
  { type: 'wc.sessionRequest', request: { ...received(14), request: { method: '' } } },
  { type: 'wc.sessionRequest', request: received(15, 'eth_sendTransaction') },
  { type: 'wc.sessionRequest', request: { ...received(16), expiry: 'soon' } },
  { type: 'wc.sessionRequest', request: { ...received(17), expiry: 1 } },
  { type: 'wc.sessionRequest', request: { ...received(18), expiry: FAR } },
  { type: 'wc.requestExpired', id: 11 },
  { type: 'wc.sessionAuthenticate', request: authRequest },
  { type: 'session.connect', params: 'eip155:1' },
  { type: 'session.connect', params: {} },
  { type: 'session.connect', params: { pairingTopic: '' } },
  { type: 'session.connect', params: { pairingTopic: TOPIC } },
  { type: 'session.connect', params: { pairingTopic: OLD_PAIRING } },
  {
    type: 'session.connect',
    params: { requiredNamespaces: { eip155: { chains: ['1'], methods: [], events: [] } } },
  },
  { type: 'session.connect', params: { sessionProperties: { caip154: null } } },
  { type: 'session.connect', params: { scopedProperties: { solana: { a: 1 } } } },
  { type: 'session.pair', uri: 'not a uri' },
  { type: 'session.pair', uri: `wc:${PAIRING}@2?relay-protocol=irn&symKey=${'1'.repeat(64)}` },
  {
    type: 'session.authenticate',
    id: 41,
    params: { chains: ['eip155:1'], uri: 'https://a', domain: 'a', nonce: 'n' },
  },
  { type: 'session.authenticate', id: 42, params: { chains: [], uri: 'https://a', domain: 'a', nonce: 'n' } },
  {
    type: 'session.authenticate',
    id: 43,
    params: { chains: ['mainnet'], uri: 'https://a', domain: 'a', nonce: 'n' },
  },
  {
    type: 'session.authenticate',
    id: 44,
    params: { chains: ['eip155:1', SOLANA], uri: 'https://a', domain: 'a', nonce: 'n' },
  },
  {
    type: 'session.authenticate',
    id: 45,
    params: { chains: [SOLANA], uri: 'https://a', domain: 'a', nonce: 'n' },
  },
  { type: 'proposal.approve', id: 1, namespaces },
  { type: 'proposal.approve', id: '1' as unknown as number, namespaces },
  { type: 'proposal.approve', id: 2, namespaces },
  { type: 'proposal.approve', id: 1, namespaces: {} },
  { type: 'proposal.approve', id: 1, namespaces: elsewhere },
  { type: 'proposal.approve', id: 1, namespaces, sessionProperties: { a: null } },
  { type: 'proposal.approve', id: 1, namespaces, scopedProperties: { solana: { a: 1 } } },
  { type: 'proposal.reject', id: 1, reason: { code: 5000, message: 'User rejected.' } },
  {
    type: 'proposal.reject',
    id: '1' as unknown as number,
    reason: { code: 5000, message: 'User rejected.' },
  },
  { type: 'proposal.reject', id: 2, reason: { code: 5000, message: 'User rejected.' } },
  { type: 'proposal.reject', id: 1, reason: {} as { code: number; message: string } },
  { type: 'auth.approve', id: 31, auths: [] },
  { type: 'auth.reject', id: 31, reason: { code: 5000, message: 'User rejected.' } },
  { type: 'auth.reject', id: 31, reason: {} as { code: number; message: string } },
  { type: 'request.send', id: 51, request: { method: 'eth_chainId' } },
  { type: 'request.send', id: 52, request: { method: 'personal_sign', params: [] } },
  { type: 'request.send', id: 53, request: { method: 'eth_sendTransaction', params: [] } },
  { type: 'request.send', id: 1.5, request: { method: 'personal_sign', params: [] } },
  { type: 'request.send', id: 54, topic: '', request: { method: 'personal_sign', params: [] } },
  { type: 'request.send', id: 55, topic: TOPIC, request: { method: 'personal_sign', params: [] } },
  { type: 'request.send', id: 56, topic: 'nope', request: { method: 'personal_sign', params: [] } },
  {
    type: 'request.send',
    id: 57,
    request: { method: 'wallet_switchEthereumChain', params: [{ chainId: '0x5' }] },
  },
  { type: 'request.send', id: 58, chainId: 'eip155:5', request: { method: 'personal_sign', params: [] } },
  { type: 'request.send', id: 59, request: { method: '' } },
  { type: 'request.send', id: 60, request: { method: 'personal_sign', params: [] }, expiry: 1 },
  { type: 'request.respond', id: 11, response: { result: '0x' } },
  { type: 'request.respond', id: '11' as unknown as number, response: { result: '0x' } },
  { type: 'request.respond', id: 11, response: {} as { result: unknown } },
  // An id deleted a moment ago (whichever record it named), answered again.
  ...[1, 2, 21, 31].map((id) => ({ type: 'request.respond', id, response: { result: '0x' } })),
  { type: 'session.ping', topic: TOPIC },
  { type: 'session.ping', topic: '' },
  { type: 'session.extend', topic: TOPIC },
  { type: 'session.extend', topic: '' },
  { type: 'session.emit', topic: TOPIC, chainId: 'eip155:1', event: { name: 'chainChanged', data: 1 } },
  { type: 'session.emit', topic: '', chainId: 'eip155:1', event: { name: 'chainChanged', data: 1 } },
  { type: 'session.emit', topic: TOPIC, chainId: 'eip155:5', event: { name: 'chainChanged', data: 1 } },
  { type: 'session.emit', topic: TOPIC, chainId: 'eip155:1', event: {} as { name: string; data: unknown } },
  { type: 'session.emit', topic: TOPIC, chainId: 'eip155:1', event: { name: 'balanceChanged', data: 1 } },
  { type: 'session.disconnect', topic: TOPIC },
  { type: 'session.disconnect', topic: '' },
  { type: 'proposal.settled', id: 1, outcome: 'expired' },
  { type: 'proposal.settled', id: 1, outcome: 'approved' },
  { type: 'auth.settled', id: 41, outcome: 'approved', session: sessionInfo(true), pairingTopic: PAIRING },
  { type: 'auth.settled', id: 31, outcome: 'rejected' },
  { type: 'session.ended', topic: TOPIC, outcome: 'peerDisconnected' },
  { type: 'session.expiryChanged', topic: TOPIC, expiry: FAR + 1 },
  // The session's expiry moved into the past: the next command on it finds it expired.
  { type: 'session.expiryChanged', topic: TOPIC, expiry: 1 },
  {
    type: 'request.settled',
    id: 52,
    topic: TOPIC,
    outcome: 'fulfilled',
    request: { method: 'personal_sign' },
    result: '0x',
  },
  { type: 'request.settled', id: 21, topic: TOPIC, outcome: 'removed', request: { method: 'personal_sign' } },
  { type: 'request.settled', id: 11, topic: TOPIC, outcome: 'expired', request: { method: 'personal_sign' } },
  ...internal<typeof clientUnderTest>([
    { type: 'xstate.done.actor.connect', output: { uri: `wc:${PAIRING}@2?symKey=1`, pairingTopic: PAIRING } },
    { type: 'xstate.error.actor.connect', error: failure },
    { type: 'xstate.done.actor.pair', output: undefined },
    { type: 'xstate.error.actor.pair', error: failure },
  ]),
] as ClientEvent[]

/** What a client state is, for the traversal: its regions and how many records of each kind it holds. */
/** What the rules read besides the counts: known pairings, a deleted record, an update applied, an expiry past. */
const ruleFlags = (s: ClientSnapshot) => {
  const { sessions, pairings, recentlyDeleted } = s.context
  return {
    pairings: Object.keys(pairings).length > 0,
    deleted: recentlyDeleted.entries.length > 0,
    updated: Object.values(sessions).some((session) => session.lastUpdateId !== undefined),
    stale: Object.values(sessions).some((session) => session.expiry <= Date.now()),
  }
}

const clientState = (s: ClientSnapshot) => {
  const { proposals, sessions, requests, auths, queue, connectParams, pairingUri } = s.context
  return JSON.stringify({
    value: s.value,
    ...ruleFlags(s),
    connected: connectParams !== undefined,
    uri: pairingUri !== undefined,
    proposals: Object.keys(proposals).length,
    sessions: Object.keys(sessions).length,
    requests: Object.keys(requests).length,
    auths: Object.keys(auths).length,
    queue: queue.length,
  })
}
const recordCount = (s: ClientSnapshot) =>
  Object.keys(s.context.proposals).length +
  Object.keys(s.context.sessions).length +
  Object.keys(s.context.requests).length +
  Object.keys(s.context.auths).length

const clientModel = (role: 'app' | 'wallet') =>
  createModel(clientUnderTest, {
    events: clientEvents,
    input: { role, rpcMap: { 'eip155:1': 'http://127.0.0.1:8545' } },
    serializeState: clientState,
    // Coverage needs at most three records at once, and each rule one flag of `ruleFlags` at a time; past that
    // the states only repeat.
    stopWhen: (s) => recordCount(s) >= 3 || Object.values(ruleFlags(s)).filter(Boolean).length >= 2,
  })

function clientInvariant(s: ClientSnapshot): void {
  const { queue, activeRequest, requests, role } = s.context
  if (queue.some((id) => !requests[id])) throw new Error('a queued request without a record')
  if (s.matches({ queue: 'active' }) !== queue.length > 0) throw new Error('queue state out of step')
  if (activeRequest !== undefined && activeRequest !== queue[0])
    throw new Error('the active request is not the first')
  if (role === 'app' && queue.length > 0) throw new Error('an app with a queue')
  for (const id of Object.keys(s.children)) {
    const [kind, key] = id.split(':') as [string, string]
    const records: Record<string, object> = {
      proposal: s.context.proposals,
      session: s.context.sessions,
      request: requests,
      auth: s.context.auths,
    }
    if (kind in records && !(key in records[kind]!)) throw new Error(`child ${id} without a record`)
  }
}

run('session client machine, model-based', [
  { name: 'app', model: clientModel('app'), paths: 95, invariant: clientInvariant },
  { name: 'wallet', model: clientModel('wallet'), paths: 114, invariant: clientInvariant },
])
