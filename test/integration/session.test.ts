import { randomBytes } from 'node:crypto'
import { SignClient } from '@walletconnect/sign-client'
import { type Hex, isHex, toHex, verifyMessage } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import {
  type Actor,
  type ActorRefFrom,
  type AnyActorRef,
  createActor,
  type SnapshotFrom,
  waitFor,
} from 'xstate'
import { type Relay, startRelay } from '../../sandbox/relay/relay.ts'
import { connectThrough, nextRequestId, requestThrough } from '../../src/actors/session'
import { PING_RESPONSE_DELAY_MS } from '../../src/constants'
import { toSessionError } from '../../src/errors/session'
import { createSessionClientMachine } from '../../src/kit/sessionClient'
import type {
  authMachine,
  Role,
  SessionClientInput,
  SessionTtls,
  sessionMachine,
} from '../../src/machines/session'

/**
 * The session machines over two real WalletConnect clients, an app and a wallet, paired through the sandbox
 * relay on loopback. Lifetimes are shortened with the machines' `ttl` input where a test needs expiry.
 */
type Client = InstanceType<typeof SignClient>
type Machine = ReturnType<typeof createSessionClientMachine>
type Snapshot = SnapshotFrom<Machine>

interface Side {
  client: Client
  actor: Actor<Machine>
}

const CHAIN = 'eip155:1'
const NAMESPACE = { chains: [CHAIN], methods: ['personal_sign'], events: ['accountsChanged', 'chainChanged'] }

let relay: Relay
const opened: Side[] = []

async function makeSide(
  role: Role,
  options: { ttl?: SessionTtls; input?: Partial<SessionClientInput> } = {},
) {
  const client = await SignClient.init({
    projectId: 'walletstate-sandbox',
    relayUrl: relay.url,
    customStoragePrefix: `session-test-${role}-${randomBytes(6).toString('hex')}`,
    telemetryEnabled: false,
    logger: 'silent',
    metadata: { name: `Session test ${role}`, description: role, url: 'http://127.0.0.1', icons: [] },
  })
  const actor = createActor(createSessionClientMachine(client), {
    input: { role, ...(options.ttl ? { ttl: options.ttl } : {}), ...options.input },
  }).start()
  const side = { client, actor }
  opened.push(side)
  return side
}

async function closeSide({ client, actor }: Side): Promise<void> {
  actor.stop()
  client.core.heartbeat.stop()
  await client.core.relayer.transportClose()
}

/** Polls the side's snapshot (children change without a new client snapshot, so subscribing is not enough). */
async function until(side: Side, check: (snapshot: Snapshot) => boolean, what: string, timeout = 5_000) {
  await eventually(() => check(side.actor.getSnapshot()), what, timeout)
  return side.actor.getSnapshot()
}

async function eventually(check: () => boolean, what: string, timeout = 5_000): Promise<void> {
  const deadline = Date.now() + timeout
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

/** A session child of a side's client machine (`session:<topic>`). */
function sessionActor(side: Side, topic: string): ActorRefFrom<typeof sessionMachine> | undefined {
  return side.actor.getSnapshot().children[`session:${topic}`] as
    | ActorRefFrom<typeof sessionMachine>
    | undefined
}

/** The state value of a child (`session:<topic>`, `proposal:<id>`, `request:<id>`), or 'gone'. */
function childState(side: Side, id: string): unknown {
  const child = side.actor.getSnapshot().children[id] as AnyActorRef | undefined
  return child ? child.getSnapshot().value : 'gone'
}

const outcome = (side: Side, kind: string, key: string) =>
  side.actor.getSnapshot().context.outcomes.find((o) => o.kind === kind && o.key === key)

interface Paired {
  app: Side
  wallet: Side
  topic: string
  account: ReturnType<typeof privateKeyToAccount>
}

/** Proposes from the app, pairs the wallet, approves through the wallet's machine. */
async function pair(
  ttl: { app?: SessionTtls; wallet?: SessionTtls } = {},
  appInput: Partial<SessionClientInput> = {},
): Promise<Paired> {
  const account = privateKeyToAccount(generatePrivateKey())
  const app = await makeSide('app', { ...(ttl.app ? { ttl: ttl.app } : {}), input: appInput })
  const wallet = await makeSide('wallet', ttl.wallet ? { ttl: ttl.wallet } : {})
  const { uri } = await connectThrough(app.actor, { optionalNamespaces: { eip155: NAMESPACE } })
  wallet.actor.send({ type: 'session.pair', uri })
  const proposed = await until(wallet, (s) => Object.keys(s.context.proposals).length === 1, 'the proposal')
  const id = Number(Object.keys(proposed.context.proposals)[0])
  wallet.actor.send({
    type: 'proposal.approve',
    id,
    namespaces: { eip155: { ...NAMESPACE, accounts: [`${CHAIN}:${account.address}`] } },
  })
  const settled = await until(app, (s) => Object.keys(s.context.sessions).length === 1, 'the app session')
  const topic = Object.keys(settled.context.sessions)[0]!
  await until(wallet, () => isActive(wallet, topic), 'the wallet session to be acknowledged')
  await until(app, () => isActive(app, topic), 'the app session to be active')
  return { app, wallet, topic, account }
}

function isActive(side: Side, topic: string): boolean {
  const value = childState(side, `session:${topic}`)
  return typeof value === 'object' && value !== null && 'active' in value
}

beforeAll(async () => {
  relay = await startRelay()
})

afterEach(async () => {
  await Promise.all(opened.splice(0).map(closeSide))
})

afterAll(async () => {
  await relay.close()
})

describe('session machines over two real clients', () => {
  it('approves: the proposal is approved on both sides and the session settles and is acknowledged', async () => {
    const { app, wallet, topic } = await pair()
    expect(app.actor.getSnapshot().context.proposals).toEqual({})
    expect(app.actor.getSnapshot().context.outcomes.filter((o) => o.kind === 'proposal')).toEqual([
      expect.objectContaining({ outcome: 'approved' }),
    ])
    expect(wallet.actor.getSnapshot().context.outcomes.filter((o) => o.kind === 'proposal')).toEqual([
      expect.objectContaining({ outcome: 'approved' }),
    ])
    expect(wallet.client.session.get(topic).acknowledged).toBe(true)
    expect(app.actor.getSnapshot().context.sessions[topic]?.chainId).toBe(CHAIN)
  })

  it('fulfils and rejects requests one at a time, through the wallet queue', async () => {
    const { app, wallet, account } = await pair()
    const first = requestThrough(app.actor, {
      request: { method: 'personal_sign', params: [toHex('one'), account.address] },
    })
    const second = requestThrough(app.actor, {
      request: { method: 'personal_sign', params: [toHex('two'), account.address] },
    })
    const active = await until(wallet, (s) => s.context.activeRequest !== undefined, 'the first request')
    const firstId = Number(active.context.activeRequest)
    expect(wallet.actor.getSnapshot().matches({ queue: 'active' })).toBe(true)
    const signature = await account.signMessage({ message: 'one' })
    wallet.actor.send({ type: 'request.respond', id: firstId, response: { result: signature } })
    await expect(first).resolves.toBe(signature)
    expect(
      await verifyMessage({ address: account.address, message: 'one', signature: signature as Hex }),
    ).toBe(true)

    const next = await until(
      wallet,
      (s) => s.context.activeRequest !== undefined && s.context.activeRequest !== String(firstId),
      'the second request',
    )
    wallet.actor.send({
      type: 'request.respond',
      id: Number(next.context.activeRequest),
      response: { error: { code: 4001, message: 'User rejected the request.' } },
    })
    await expect(second).rejects.toMatchObject({ code: 4001, shortMessage: 'User rejected the request.' })
    await until(wallet, (s) => s.matches({ queue: 'idle' }), 'the queue to be idle')
    expect(isHex(signature)).toBe(true)
  })

  it('rejects: the wallet refuses with a reason the app receives; a reason without a code is refused first', async () => {
    const app = await makeSide('app')
    const wallet = await makeSide('wallet')
    const { uri } = await connectThrough(app.actor, { optionalNamespaces: { eip155: NAMESPACE } })
    wallet.actor.send({ type: 'session.pair', uri })
    const proposed = await until(wallet, (s) => Object.keys(s.context.proposals).length === 1, 'the proposal')
    const id = Number(Object.keys(proposed.context.proposals)[0])

    wallet.actor.send({ type: 'proposal.reject', id, reason: { message: 'no code' } as never })
    expect(wallet.actor.getSnapshot().context.lastError?.error.message).toBe(
      'Missing or invalid. A rejection reason needs a code and a message',
    )
    expect(childState(wallet, `proposal:${id}`)).toBe('pending')

    wallet.actor.send({ type: 'proposal.reject', id, reason: { code: 5000, message: 'User rejected.' } })
    await until(
      app,
      (s) => s.context.outcomes.some((o) => o.kind === 'proposal'),
      'the app to hear the rejection',
    )
    expect(outcome(app, 'proposal', String(id))).toMatchObject({
      outcome: 'rejected',
      reason: { code: 5000, message: 'User rejected.' },
    })
    expect(outcome(wallet, 'proposal', String(id))).toMatchObject({ outcome: 'rejected' })
    expect(app.client.session.getAll()).toHaveLength(0)
  })

  it('expires an unanswered proposal and offers a fresh URI; the library forgets the old one', async () => {
    const app = await makeSide('app', { ttl: { proposalMs: 600 } })
    const { uri } = await connectThrough(app.actor, { optionalNamespaces: { eip155: NAMESPACE } })
    const [first] = Object.keys(app.actor.getSnapshot().context.proposals)
    expect(first).toBeDefined()
    const renewed = await until(
      app,
      (s) => s.context.pairingUri !== undefined && s.context.pairingUri !== uri && !s.hasTag('connecting'),
      'a fresh pairing URI',
    )
    expect(outcome(app, 'proposal', first!)).toMatchObject({ outcome: 'expired' })
    expect(app.client.proposal.keys).not.toContain(Number(first))
    expect(Object.keys(renewed.context.proposals)).toHaveLength(1)
    expect(Object.keys(renewed.context.proposals)[0]).not.toBe(first)
  })

  it('expires a proposal the wallet left unanswered; approving it afterwards is refused', async () => {
    const app = await makeSide('app', { input: { renewExpiredProposals: false } })
    const wallet = await makeSide('wallet', { ttl: { proposalMs: 500 } })
    const { uri } = await connectThrough(app.actor, { optionalNamespaces: { eip155: NAMESPACE } })
    wallet.actor.send({ type: 'session.pair', uri })
    const proposed = await until(wallet, (s) => Object.keys(s.context.proposals).length === 1, 'the proposal')
    const id = Number(Object.keys(proposed.context.proposals)[0])
    await until(wallet, () => outcome(wallet, 'proposal', String(id))?.outcome === 'expired', 'the expiry')
    expect(wallet.client.proposal.keys).not.toContain(id)
    wallet.actor.send({
      type: 'proposal.approve',
      id,
      namespaces: { eip155: { ...NAMESPACE, accounts: [`${CHAIN}:0x${'1'.repeat(40)}`] } },
    })
    expect(wallet.actor.getSnapshot().context.lastError?.error).toMatchObject({
      name: 'RecentlyDeletedError',
      message: 'Record was recently deleted',
    })
  })

  it('expires a request the wallet does not answer: the app first, then the wallet, which tells the app', async () => {
    const { app, wallet, topic, account } = await pair({
      app: { requestMs: 700 },
      wallet: { requestMs: 1_500 },
    })
    const answers = recordAnswers(app.client)
    const started = Date.now()
    const pending = requestThrough(app.actor, {
      request: { method: 'personal_sign', params: [toHex('late'), account.address] },
    })
    await expect(pending).rejects.toMatchObject({
      name: 'RequestExpiredError',
      shortMessage: 'request expired',
    })
    expect(Date.now() - started).toBeGreaterThanOrEqual(650)
    expect(app.actor.getSnapshot().context.requests).toEqual({})

    const active = wallet.actor.getSnapshot().context.activeRequest
    expect(active).toBeDefined()
    await until(wallet, (s) => s.matches({ queue: 'idle' }), 'the wallet request to expire')
    expect(outcome(wallet, 'request', active!)).toMatchObject({ outcome: 'expired' })
    // The wallet answered the app's request with the error (SPEC §8: invalid requests send the error to the peer).
    const answer = await answers.next(Number(active))
    expect(answer.topic).toBe(topic)
    expect(toSessionError(answer.error)).toMatchObject({ name: 'RequestExpiredError' })
  })

  it('pings: the peer answers with success, handled after the SPEC delay', async () => {
    const { app, wallet, topic } = await pair()
    const states: { ping: string; at: number }[] = []
    const child = sessionActor(app, topic)!
    const subscription = child.subscribe((snapshot) => {
      const ping = snapshot.matches('active')
        ? (snapshot.value as { active: { ping: string } }).active.ping
        : ''
      if (states.at(-1)?.ping !== ping) states.push({ ping, at: Date.now() })
    })
    app.actor.send({ type: 'session.ping', topic })
    await waitFor(child, (snapshot) => snapshot.context.pongs === 1, { timeout: 3_000 })
    subscription.unsubscribe()
    expect(states.map((s) => s.ping)).toEqual(['pinging', 'answered', 'idle'])
    const answered = states[1]!.at
    expect(states[2]!.at - answered).toBeGreaterThanOrEqual(PING_RESPONSE_DELAY_MS - 5)
    expect(sessionActor(wallet, topic)!.getSnapshot().context.pingsAnswered).toBe(1)
  })

  it('extends: the expiry is reset on both sides; without an extension the session expires on both', async () => {
    const ttl = { sessionMs: 1_500 }
    // The app's own keep-alive (it extends before the expiry) is off here: the extension is the wallet's, once.
    const { app, wallet, topic } = await pair({ app: ttl, wallet: ttl }, { keepAlive: false })
    const before = app.actor.getSnapshot().context.sessions[topic]!.expiry
    await new Promise((resolve) => setTimeout(resolve, 700))
    wallet.actor.send({ type: 'session.extend', topic })
    await until(
      app,
      (s) => (s.context.sessions[topic]?.expiry ?? 0) > before + 500,
      'the app to see the extension',
    )
    expect(wallet.actor.getSnapshot().context.sessions[topic]!.expiry).toBeGreaterThan(before + 500)
    // Past the first expiry, alive thanks to the extension.
    await new Promise((resolve) => setTimeout(resolve, 1_000))
    expect(isActive(app, topic)).toBe(true)
    expect(isActive(wallet, topic)).toBe(true)

    await until(app, () => outcome(app, 'session', topic)?.outcome === 'expired', 'the app session to expire')
    await until(
      wallet,
      () => outcome(wallet, 'session', topic)?.outcome === 'expired',
      'the wallet session to expire',
    )
    await until(app, () => !app.client.session.keys.includes(topic), 'the app library to forget it')
    expect(wallet.client.session.keys).not.toContain(topic)

    // Reusing the expired topic is refused, by the machine and (mapped) by the library.
    app.actor.send({ type: 'request.send', id: nextRequestId(), topic, request: { method: 'personal_sign' } })
    expect(app.actor.getSnapshot().context.lastError?.error.message).toBe('Record was recently deleted')
    await expect(
      app.client.request({ topic, chainId: CHAIN, request: { method: 'personal_sign', params: [] } }),
    ).rejects.toSatisfy((error: unknown) => toSessionError(error).name === 'RecentlyDeletedError')
  })

  it('the app keeps its session alive: it extends before each expiry, and the wallet hears every extension', async () => {
    const ttl = { sessionMs: 1_500 }
    const { app, wallet, topic } = await pair({ app: ttl, wallet: ttl })
    const extensions: number[] = []
    wallet.client.on('session_extend', ({ topic: extended }) => {
      if (extended === topic) extensions.push(Date.now())
    })
    const start = Date.now()
    // Three lifetimes later, both sides still hold it, extended again and again.
    await eventually(() => extensions.length >= 3, 'three extensions heard by the wallet', 5_000)
    expect(isActive(app, topic)).toBe(true)
    expect(isActive(wallet, topic)).toBe(true)
    expect(outcome(app, 'session', topic)).toBeUndefined()
    // Each extension came before the expiry it pushed back (halfway through a session shorter than the margin).
    expect(extensions[0]! - start).toBeLessThan(ttl.sessionMs)
    expect(app.actor.getSnapshot().context.sessions[topic]!.expiry).toBeGreaterThan(Date.now())
  })

  it('deletes from the app: the wallet sees the peer disconnect; the topic cannot be reused', async () => {
    const { app, wallet, topic } = await pair()
    app.actor.send({ type: 'session.disconnect', topic })
    await until(app, () => outcome(app, 'session', topic)?.outcome === 'deleted', 'the app to delete')
    await until(
      wallet,
      () => outcome(wallet, 'session', topic)?.outcome === 'peerDisconnected',
      'the wallet to hear',
    )
    expect(childState(app, `session:${topic}`)).toBe('gone')
    app.actor.send({ type: 'session.ping', topic })
    expect(app.actor.getSnapshot().context.lastError?.error).toMatchObject({
      name: 'RecentlyDeletedError',
      message: 'Record was recently deleted',
      details: `session: ${topic}`,
    })
  })

  it('deletes from the wallet: within a second the app is disconnected and its pending request removed', async () => {
    const { app, wallet, topic, account } = await pair()
    const pending = requestThrough(app.actor, {
      request: { method: 'personal_sign', params: [toHex('pending'), account.address] },
    })
    await until(wallet, (s) => s.context.activeRequest !== undefined, 'the request to reach the wallet')
    const started = Date.now()
    wallet.actor.send({ type: 'session.disconnect', topic })
    await expect(pending).rejects.toMatchObject({ name: 'SessionEndedError' })
    await until(
      app,
      () => outcome(app, 'session', topic)?.outcome === 'peerDisconnected',
      'the app to hear',
      1_000,
    )
    expect(Date.now() - started).toBeLessThan(1_000)
    expect(app.actor.getSnapshot().context.requests).toEqual({})
    expect(app.actor.getSnapshot().context.outcomes.filter((o) => o.kind === 'request')).toEqual([
      expect.objectContaining({ outcome: 'removed' }),
    ])
    expect(outcome(wallet, 'session', topic)).toMatchObject({ outcome: 'deleted' })
    expect(wallet.actor.getSnapshot().context.requests).toEqual({})
    expect(wallet.actor.getSnapshot().matches({ queue: 'idle' })).toBe(true)
  })

  it('follows what another user of the client does (the kit path): connect, request and disconnect', async () => {
    const account = privateKeyToAccount(generatePrivateKey())
    const app = await makeSide('app')
    const wallet = await makeSide('wallet')
    // The kit's EthereumProvider calls the client itself; the machine only watches.
    const { uri, approval } = await app.client.connect({ optionalNamespaces: { eip155: NAMESPACE } })
    await until(app, (s) => Object.keys(s.context.proposals).length === 1, 'the observed proposal')
    wallet.actor.send({ type: 'session.pair', uri: uri! })
    const proposed = await until(wallet, (s) => Object.keys(s.context.proposals).length === 1, 'the proposal')
    wallet.actor.send({
      type: 'proposal.approve',
      id: Number(Object.keys(proposed.context.proposals)[0]),
      namespaces: { eip155: { ...NAMESPACE, accounts: [`${CHAIN}:${account.address}`] } },
    })
    const session = await approval()
    await until(app, () => isActive(app, session.topic), 'the observed session')

    const answer = app.client.request<string>({
      topic: session.topic,
      chainId: CHAIN,
      request: { method: 'personal_sign', params: [toHex('observed'), account.address] },
    })
    const seen = await until(app, (s) => Object.keys(s.context.requests).length === 1, 'the observed request')
    const id = Object.keys(seen.context.requests)[0]!
    expect(childState(app, `request:${id}`)).toEqual({ awaiting: 'pending' })
    const active = await until(wallet, (s) => s.context.activeRequest !== undefined, 'the wallet request')
    wallet.actor.send({
      type: 'request.respond',
      id: Number(active.context.activeRequest),
      response: { result: await account.signMessage({ message: 'observed' }) },
    })
    await answer
    await until(app, () => outcome(app, 'request', id)?.outcome === 'fulfilled', 'the observed answer')

    await app.client.disconnect({
      topic: session.topic,
      reason: { code: 6000, message: 'User disconnected.' },
    })
    await until(
      app,
      () => outcome(app, 'session', session.topic)?.outcome === 'deleted',
      'the observed delete',
    )
    await until(
      wallet,
      () => outcome(wallet, 'session', session.topic)?.outcome === 'peerDisconnected',
      'the wallet',
    )
  })

  it('refuses an invalid request from a non-conforming peer and sends it the SPEC error', async () => {
    const { app, wallet, topic } = await pair()
    const answers = recordAnswers(app.client)
    // A peer whose SDK skips the request rule: an expiry 30 days out, beyond what the library allows.
    const engine = app.client.engine as unknown as {
      sendRequest(args: {
        topic: string
        method: string
        params: unknown
        throwOnFailedPublish: boolean
      }): Promise<number>
    }
    const id = await engine.sendRequest({
      topic,
      method: 'wc_sessionRequest',
      params: {
        chainId: CHAIN,
        request: {
          method: 'personal_sign',
          params: [],
          expiryTimestamp: Math.floor(Date.now() / 1000) + 30 * 86_400,
        },
      },
      throwOnFailedPublish: true,
    })
    const answer = await answers.next(id)
    expect(toSessionError(answer.error)).toMatchObject({
      name: 'InvalidRequestExpiryError',
      shortMessage: 'Missing or invalid. Request expiry must be a number of seconds from 300 to 604800',
    })
    expect(outcome(wallet, 'request', String(id))).toMatchObject({
      outcome: 'rejected',
      error: { name: 'InvalidRequestExpiryError' },
    })
    expect(wallet.actor.getSnapshot().matches({ queue: 'idle' })).toBe(true)
  })

  it('emits an approved event to the app; an event not approved is refused', async () => {
    const { app, wallet, topic } = await pair()
    wallet.actor.send({
      type: 'session.emit',
      topic,
      chainId: CHAIN,
      event: { name: 'balanceChanged', data: 1 },
    })
    expect(wallet.actor.getSnapshot().context.lastError?.error).toMatchObject({
      name: 'UnapprovedEventError',
      message: 'Unauthorized event. The event is not approved in the session',
    })
    const events: string[] = []
    app.client.on('session_event', ({ params }) => events.push(params.event.name))
    wallet.actor.send({
      type: 'session.emit',
      topic,
      chainId: CHAIN,
      event: { name: 'chainChanged', data: 1 },
    })
    await eventually(() => events.length === 1, 'the event')
    expect(events).toEqual(['chainChanged'])
  })

  describe('one-click auth', () => {
    const AUTH = {
      chains: [CHAIN],
      domain: '127.0.0.1',
      uri: 'http://127.0.0.1/login',
      nonce: 'n0nce-for-test',
      statement: 'Sign in to the session test',
      methods: ['personal_sign'],
    }

    type Account = ReturnType<typeof privateKeyToAccount>

    async function authenticate(sign: (account: Account, message: string) => Promise<Hex>) {
      const account = privateKeyToAccount(generatePrivateKey())
      const app = await makeSide('app')
      const wallet = await makeSide('wallet')
      const id = nextRequestId()
      app.actor.send({ type: 'session.authenticate', id, params: AUTH })
      const auth = () => app.actor.getSnapshot().children[`auth:${id}`] as ActorRefFrom<typeof authMachine>
      await eventually(() => auth().getSnapshot().context.uri !== undefined, 'the auth URI')
      wallet.actor.send({ type: 'session.pair', uri: auth().getSnapshot().context.uri! })
      const asked = await until(wallet, (s) => Object.keys(s.context.auths).length === 1, 'the auth request')
      const requestId = Number(Object.keys(asked.context.auths)[0])
      const request = (
        wallet.actor.getSnapshot().children[`auth:${requestId}`] as ActorRefFrom<typeof authMachine>
      ).getSnapshot().context.request!
      const iss = `did:pkh:${CHAIN}:${account.address}`
      const { chains: _, type: __, ...payload } = request.payload
      const p = { ...payload, iss }
      const message = wallet.client.formatAuthMessage({ request: p, iss })
      const cacao = { h: { t: 'caip122' }, p, s: { t: 'eip191', s: await sign(account, message) } }
      wallet.actor.send({ type: 'auth.approve', id: requestId, auths: [cacao] })
      return { app, wallet, id, requestId, account }
    }

    it('approves after the signatures check out: both sides hold the session', async () => {
      const { app, wallet, id, requestId, account } = await authenticate((signer, message) =>
        signer.signMessage({ message }),
      )
      await until(app, () => outcome(app, 'auth', String(id))?.outcome === 'approved', 'the app approval')
      expect(outcome(wallet, 'auth', String(requestId))).toMatchObject({ outcome: 'approved' })
      const topic = Object.keys(app.actor.getSnapshot().context.sessions)[0]!
      expect(isActive(app, topic)).toBe(true)
      await until(wallet, () => isActive(wallet, topic), 'the wallet session')
      expect(app.actor.getSnapshot().context.sessions[topic]!.namespaces.eip155!.accounts).toEqual([
        `${CHAIN}:${account.address}`,
      ])
      // The fallback proposal sent with the auth request was answered by the auth approval.
      expect(app.actor.getSnapshot().context.proposals).toEqual({})
    })

    it("rejects a signature that does not check out, and the app hears 'Signature verification failed'", async () => {
      const forger = privateKeyToAccount(generatePrivateKey())
      const { app, wallet, id, requestId } = await authenticate((_, message) =>
        forger.signMessage({ message }),
      )
      await until(app, () => outcome(app, 'auth', String(id)) !== undefined, 'the app to hear')
      expect(outcome(app, 'auth', String(id))).toMatchObject({
        outcome: 'rejected',
        reason: { code: 7000, message: 'Signature verification failed' },
      })
      expect(outcome(wallet, 'auth', String(requestId))).toMatchObject({
        outcome: 'rejected',
        reason: { code: 7000, message: 'Signature verification failed' },
      })
      expect(app.client.session.getAll()).toHaveLength(0)
      wallet.actor.send({ type: 'auth.approve', id: requestId, auths: [] })
      expect(wallet.actor.getSnapshot().context.lastError?.error.message).toBe(
        `Could not find pending auth request with id ${requestId}`,
      )
    })
  })
})

/** Answers the app's client receives (its history resolves each response, then drops the record). */
function recordAnswers(client: Client) {
  const seen = new Map<number, { topic: string; result?: unknown; error?: unknown }>()
  client.core.history.on('history_updated', (record: { id: number; topic: string; response?: object }) => {
    if (record.response) seen.set(record.id, { topic: record.topic, ...record.response })
  })
  return {
    async next(id: number) {
      const deadline = Date.now() + 5_000
      while (Date.now() < deadline) {
        const answer = seen.get(id)
        if (answer) return answer
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
      throw new Error(`No answer to request ${id}`)
    },
  }
}
