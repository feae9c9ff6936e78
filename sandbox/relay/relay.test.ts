import { randomBytes } from 'node:crypto'
import { SignClient } from '@walletconnect/sign-client'
import type { SessionTypes, SignClientTypes } from '@walletconnect/types'
import { type Hex, isHex, toHex, verifyMessage } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { logEntryOf, type Relay, startRelay } from './relay.ts'

type Client = InstanceType<typeof SignClient>

const NAMESPACE = {
  chains: ['eip155:1'],
  methods: ['personal_sign'],
  events: ['accountsChanged', 'chainChanged'],
}

// ---------- helpers ----------

const opened: Client[] = []
const sockets: WebSocket[] = []

async function makeClient(role: 'dapp' | 'wallet', relay: Relay): Promise<Client> {
  const client = await SignClient.init({
    projectId: 'walletstate-sandbox',
    relayUrl: relay.url,
    // Two clients in one process share a global Core unless their storage prefixes differ.
    customStoragePrefix: `relay-test-${role}-${randomBytes(6).toString('hex')}`,
    telemetryEnabled: false,
    logger: 'silent',
    metadata: { name: `Relay test ${role}`, description: role, url: 'http://127.0.0.1', icons: [] },
  })
  opened.push(client)
  return client
}

async function closeClient(client: Client): Promise<void> {
  client.core.heartbeat.stop()
  await client.core.relayer.transportClose()
}

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`Timed out after ${ms} ms: ${what}`)), ms)
    }),
  ])
}

function nextEvent<E extends SignClientTypes.Event>(
  client: Client,
  event: E,
): Promise<SignClientTypes.EventArguments[E]> {
  return new Promise((resolve) => client.once(event, resolve))
}

async function waitFor(check: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`Timed out after ${ms} ms: ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

interface Paired {
  dapp: Client
  wallet: Client
  session: SessionTypes.Struct
  account: ReturnType<typeof privateKeyToAccount>
}

/** A wallet that approves every proposal and signs every personal_sign with a fresh key. */
async function pair(relay: Relay): Promise<Paired> {
  const account = privateKeyToAccount(generatePrivateKey())
  const dapp = await makeClient('dapp', relay)
  const wallet = await makeClient('wallet', relay)
  wallet.on('session_proposal', async ({ id }) => {
    const approved = await wallet.approve({
      id,
      namespaces: { eip155: { ...NAMESPACE, accounts: [`eip155:1:${account.address}`] } },
    })
    await approved.acknowledged()
  })
  wallet.on('session_request', async ({ id, topic, params }) => {
    const [message] = params.request.params as [Hex, string]
    const signature = await account.signMessage({ message: { raw: message } })
    await wallet.respond({ topic, response: { id, jsonrpc: '2.0', result: signature } })
  })
  const { uri, approval } = await within(
    dapp.connect({ optionalNamespaces: { eip155: NAMESPACE } }),
    5_000,
    'connect',
  )
  expect(uri).toMatch(/^wc:/)
  await within(wallet.pair({ uri: uri as string }), 5_000, 'pair')
  const session = await within(approval(), 5_000, 'approval')
  return { dapp, wallet, session, account }
}

async function signThrough({ dapp, session, account }: Paired, text: string): Promise<void> {
  const signature = await within(
    dapp.request<Hex>({
      topic: session.topic,
      chainId: 'eip155:1',
      request: { method: 'personal_sign', params: [toHex(text), account.address] },
    }),
    5_000,
    'personal_sign',
  )
  expect(isHex(signature)).toBe(true)
  expect(await verifyMessage({ address: account.address, message: text, signature })).toBe(true)
}

/** A raw WebSocket that queues every text frame it receives. */
interface Raw {
  ws: WebSocket
  frames: string[]
  next(ms?: number): Promise<string>
  call(frame: string, ms?: number): Promise<Record<string, unknown>>
  closed: Promise<number>
}

async function openRaw(relay: Relay): Promise<Raw> {
  const ws = new WebSocket(relay.url)
  sockets.push(ws)
  const frames: string[] = []
  const waiters: ((frame: string) => void)[] = []
  ws.on('message', (data) => {
    const text = String(data)
    const waiter = waiters.shift()
    if (waiter) waiter(text)
    else frames.push(text)
  })
  const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)))
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve())
    ws.once('error', reject)
  })
  const next = (ms = 2_000) => {
    const queued = frames.shift()
    if (queued !== undefined) return Promise.resolve(queued)
    let waiter: ((frame: string) => void) | undefined
    const frame = new Promise<string>((resolve) => {
      waiter = resolve
      waiters.push(resolve)
    })
    // A waiter that timed out must not swallow the next frame.
    return within(frame, ms, 'frame').catch((error: unknown) => {
      waiters.splice(waiters.indexOf(waiter as (frame: string) => void), 1)
      throw error
    })
  }
  return {
    ws,
    frames,
    next,
    async call(frame, ms) {
      ws.send(frame)
      return JSON.parse(await next(ms)) as Record<string, unknown>
    },
    closed,
  }
}

let rpcId = 1
function rpc(method: string, params: unknown): string {
  rpcId += 1
  return JSON.stringify({ id: rpcId, jsonrpc: '2.0', method, params })
}

function topic(): string {
  return randomBytes(32).toString('hex')
}

async function postFault(relay: Relay, fault: Record<string, unknown>): Promise<void> {
  const res = await fetch(`${relay.origin}/__fault`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(fault),
  })
  expect(res.status).toBe(200)
}

afterEach(async () => {
  await Promise.all(opened.splice(0).map(closeClient))
  for (const ws of sockets.splice(0)) ws.terminate()
})

// ---------- tests ----------

describe('relay with real sign-client clients', () => {
  let relay: Relay
  beforeAll(async () => {
    relay = await startRelay()
  })
  afterAll(async () => {
    await relay.close()
  })

  it('pairs, settles, carries a personal_sign and a disconnect', async () => {
    const health = (await (await fetch(`${relay.origin}/__health`)).json()) as { instance: string }
    expect(health.instance).toBe(relay.instance)

    const paired = await pair(relay)
    const { dapp, wallet, session, account } = paired
    expect(session.namespaces.eip155?.accounts).toEqual([`eip155:1:${account.address}`])
    await waitFor(() => wallet.session.getAll().length === 1, 2_000, 'wallet session settled')
    expect(wallet.session.get(session.topic).acknowledged).toBe(true)

    await signThrough(paired, 'Walletstate says hello')

    const deleted = nextEvent(wallet, 'session_delete')
    await dapp.disconnect({ topic: session.topic, reason: { code: 6000, message: 'User disconnected.' } })
    expect((await within(deleted, 5_000, 'session_delete')).topic).toBe(session.topic)

    const stats = relay.stats()
    expect(stats.requests.wc_proposeSession).toBeGreaterThanOrEqual(1)
    expect(stats.requests.wc_approveSession).toBeGreaterThanOrEqual(1)
    expect(stats.acked).toBeGreaterThan(0)
  })

  it('logs the session methods by their tags: an extension and a ping, each with its answer', async () => {
    const { dapp, session } = await pair(relay)
    const { acknowledged } = await dapp.extend({ topic: session.topic })
    await within(acknowledged(), 5_000, 'extend acknowledged')
    await within(dapp.ping({ topic: session.topic }), 5_000, 'ping')
    const mine = relay.log().filter((entry) => entry.topic === session.topic)
    expect(mine.map((entry) => `${entry.method} ${entry.kind}`)).toEqual(
      expect.arrayContaining([
        'wc_sessionExtend request',
        'wc_sessionExtend response',
        'wc_sessionPing request',
        'wc_sessionPing response',
      ]),
    )
    // From Node, the same log over HTTP.
    const { entries } = (await (await fetch(`${relay.origin}/__log`)).json()) as { entries: unknown[] }
    expect(entries).toEqual(expect.arrayContaining(mine))
    // Tags that name no session method are not logged.
    expect(logEntryOf(session.topic, 4000, 1)).toBeUndefined()
    expect(logEntryOf(session.topic, undefined, 1)).toBeUndefined()
  })

  it('rejects the dapp approval when the wallet rejects the proposal', async () => {
    const dapp = await makeClient('dapp', relay)
    const wallet = await makeClient('wallet', relay)
    wallet.on('session_proposal', ({ id }) => {
      void wallet.reject({ id, reason: { code: 5000, message: 'User rejected.' } })
    })
    const { uri, approval } = await dapp.connect({ optionalNamespaces: { eip155: NAMESPACE } })
    await wallet.pair({ uri: uri as string })
    await expect(within(approval(), 5_000, 'approval')).rejects.toMatchObject({ message: 'User rejected.' })
    expect(dapp.session.getAll()).toHaveLength(0)
  })
})

describe('relay protocol, raw frames', () => {
  let relay: Relay
  beforeAll(async () => {
    relay = await startRelay()
  })
  afterAll(async () => {
    await relay.close()
  })

  it('answers malformed frames with JSON-RPC errors and keeps serving', async () => {
    const raw = await openRaw(relay)
    const errorsBefore = relay.stats().errors

    expect(await raw.call('not json')).toMatchObject({ id: null, error: { code: -32700 } })
    expect(await raw.call('[1,2]')).toMatchObject({ id: null, error: { code: -32600 } })
    expect(await raw.call('"a string"')).toMatchObject({ id: null, error: { code: -32600 } })
    expect(await raw.call('{"jsonrpc":"2.0","id":"7","method":42}')).toMatchObject({
      id: '7',
      error: { code: -32600 },
    })
    expect(await raw.call('{"jsonrpc":"1.0","id":8,"method":"irn_subscribe"}')).toMatchObject({
      id: 8,
      error: { code: -32600 },
    })
    expect(await raw.call('{"jsonrpc":"2.0","id":{"x":1},"method":"irn_subscribe"}')).toMatchObject({
      id: null,
      error: { code: -32600 },
    })
    expect(await raw.call(rpc('irn_teleport', {}))).toMatchObject({ error: { code: -32601 } })
    expect(await raw.call(rpc('irn_subscribe', { topics: 'nope' }))).toMatchObject({
      error: { code: -32602 },
    })
    expect(await raw.call(rpc('irn_publish', { topic: topic(), message: 'x', ttl: 0 }))).toMatchObject({
      error: { code: -32602 },
    })
    raw.ws.send(Buffer.from([0xff, 0x00, 0x13]), { binary: true })
    expect(JSON.parse(await raw.next())).toMatchObject({ error: { code: -32700 } })
    expect(relay.stats().errors - errorsBefore).toBe(10)

    // 19-digit ids come back exactly as sent, as a number or as a string.
    const big = '1234567890123456789'
    raw.ws.send(`{"jsonrpc":"2.0","id":${big},"method":"irn_subscribe","params":{"topic":"${topic()}"}}`)
    const answer = await raw.next()
    expect(answer.startsWith(`{"id":${big},`)).toBe(true)
    expect(JSON.parse(answer).result).toMatch(/^[0-9a-f]{64}$/)
    expect(
      await raw.call(`{"jsonrpc":"2.0","id":"${big}","method":"irn_unsubscribe","params":{"topic":"x"}}`),
    ).toEqual({ id: big, jsonrpc: '2.0', result: true })

    // Still serving: a publish reaches the other subscriber only, never its publisher.
    const t = topic()
    const subscriber = await openRaw(relay)
    expect((await subscriber.call(rpc('irn_subscribe', { topic: t }))).result).toBeTruthy()
    expect(await raw.call(rpc('irn_subscribe', { topic: t }))).toHaveProperty('result')
    expect(
      await raw.call(rpc('irn_publish', { topic: t, message: 'hello', ttl: 60, tag: 1108 })),
    ).toMatchObject({
      result: true,
    })
    const push = JSON.parse(await subscriber.next()) as { id: number; method: string; params: unknown }
    expect(push).toMatchObject({
      jsonrpc: '2.0',
      method: 'irn_subscription',
      params: { data: { topic: t, message: 'hello', tag: 1108, attestation: '' } },
    })
    expect(Number.isSafeInteger(push.id)).toBe(true)
    subscriber.ws.send(JSON.stringify({ id: push.id, jsonrpc: '2.0', result: true }))
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(raw.frames).toEqual([])
    expect(subscriber.frames).toEqual([])
    const health = await fetch(`${relay.origin}/__health`)
    expect(health.status).toBe(200)
  })

  it('stores messages for a later subscriber and fetches them in batches', async () => {
    const t = topic()
    const publisher = await openRaw(relay)
    expect(
      await publisher.call(
        rpc('irn_batchPublish', {
          messages: [
            { topic: t, message: 'one', ttl: 60 },
            { topic: t, message: 'two', ttl: 60 },
          ],
        }),
      ),
    ).toMatchObject({ result: true })
    const late = await openRaw(relay)
    const ids = (await late.call(rpc('irn_batchSubscribe', { topics: [t] }))).result
    expect(ids).toHaveLength(1)
    const first = JSON.parse(await late.next()) as { params: { data: { message: string } } }
    const second = JSON.parse(await late.next()) as { params: { data: { message: string } } }
    expect([first.params.data.message, second.params.data.message]).toEqual(['one', 'two'])

    const fetcher = await openRaw(relay)
    expect(await fetcher.call(rpc('irn_batchFetchMessages', { topics: [t] }))).toMatchObject({
      result: {
        messages: [{ topic: t, message: 'one', attestation: '' }, { message: 'two' }],
        hasMore: false,
      },
    })
    expect(
      await fetcher.call(rpc('irn_batchUnsubscribe', { subscriptions: [{ topic: t, id: 'x' }] })),
    ).toMatchObject({ result: true })
  })

  it('expires stored messages after their ttl', async () => {
    const t = topic()
    const publisher = await openRaw(relay)
    expect(
      await publisher.call(rpc('irn_publish', { topic: t, message: 'short-lived', ttl: 1 })),
    ).toMatchObject({
      result: true,
    })
    const early = await openRaw(relay)
    await early.call(rpc('irn_subscribe', { topic: t }))
    expect(JSON.parse(await early.next())).toMatchObject({ params: { data: { message: 'short-lived' } } })

    await new Promise((resolve) => setTimeout(resolve, 1_100))
    const late = await openRaw(relay)
    await late.call(rpc('irn_subscribe', { topic: t }))
    await expect(late.next(200)).rejects.toThrow(/Timed out/)
    expect(await late.call(rpc('irn_batchFetchMessages', { topics: [t] }))).toMatchObject({
      result: { messages: [], hasMore: false },
    })
  })

  it('pings sockets and closes them with 1001 on shutdown', async () => {
    const own = await startRelay({ pingIntervalMs: 50 })
    const raw = await openRaw(own)
    await within(new Promise((resolve) => raw.ws.once('ping', resolve)), 1_000, 'ping')
    await own.close()
    expect(await raw.closed).toBe(1001)
    expect(own.stats().connections).toBe(0)
  })
})

describe('relay fault switch', () => {
  let relay: Relay
  beforeAll(async () => {
    relay = await startRelay()
  })
  afterEach(() => {
    relay.fault.set({ mode: 'off' })
  })
  afterAll(async () => {
    await relay.close()
  })

  it('drop closes open sockets and the clients reconnect with irn_batchSubscribe', async () => {
    const paired = await pair(relay)
    await waitFor(() => paired.wallet.session.getAll().length === 1, 2_000, 'wallet session settled')
    // Let the settle acknowledgement finish: a publish cut off mid-flight costs the client ~20 s.
    await new Promise((resolve) => setTimeout(resolve, 300))
    const before = relay.stats()
    expect(before.connections).toBe(2)

    await postFault(relay, { mode: 'drop', times: 2 })
    expect(relay.fault.current.mode).toBe('off')
    await waitFor(
      () => (relay.stats().requests.irn_batchSubscribe ?? 0) >= (before.requests.irn_batchSubscribe ?? 0) + 2,
      5_000,
      'both clients resubscribed',
    )
    expect(relay.stats().connectionsTotal).toBe(before.connectionsTotal + 2)
    await signThrough(paired, 'after the drop')
  })

  it('drop also closes new sockets, for `times` sockets', async () => {
    await postFault(relay, { mode: 'drop', times: 1 })
    const dropped = await openRaw(relay)
    expect(await within(dropped.closed, 1_000, 'dropped')).toBe(1006)
    const kept = await openRaw(relay)
    expect(await kept.call(rpc('irn_subscribe', { topic: topic() }))).toHaveProperty('result')
  })

  it('429 refuses the upgrade with Retry-After', async () => {
    await postFault(relay, { mode: '429', times: 1, retryAfterSeconds: 7 })
    const ws = new WebSocket(relay.url)
    sockets.push(ws)
    const refused = await within(
      new Promise<{ status: number | undefined; retryAfter: string | undefined }>((resolve) =>
        ws.once('unexpected-response', (_req, res) =>
          resolve({ status: res.statusCode, retryAfter: res.headers['retry-after'] }),
        ),
      ),
      1_000,
      'refusal',
    )
    ws.on('error', () => {})
    expect(refused).toEqual({ status: 429, retryAfter: '7' })
    expect(relay.stats().upgradesRefused).toBe(1)
    const raw = await openRaw(relay)
    expect(await raw.call(rpc('irn_subscribe', { topic: topic() }))).toHaveProperty('result')
  })

  it('fail answers requests with errors, stall never answers', async () => {
    const raw = await openRaw(relay)
    await postFault(relay, { mode: 'fail', times: 2 })
    expect(await raw.call(rpc('irn_subscribe', { topic: topic() }))).toMatchObject({
      error: { code: -32603 },
    })
    expect(await raw.call(rpc('irn_publish', { topic: topic(), message: 'm', ttl: 30 }))).toMatchObject({
      error: { code: -32603 },
    })
    expect(await raw.call(rpc('irn_subscribe', { topic: topic() }))).toHaveProperty('result')

    relay.fault.set({ mode: 'stall', times: 1 })
    await expect(raw.call(rpc('irn_subscribe', { topic: topic() }), 300)).rejects.toThrow(/Timed out/)
    const after = rpc('irn_subscribe', { topic: topic() })
    expect((await raw.call(after)).id).toBe(JSON.parse(after).id)
  })
})
