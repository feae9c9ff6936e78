import { randomBytes } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import * as v from 'valibot'
import { type RawData, type WebSocket, WebSocketServer } from 'ws'
import type { Fault, FaultSwitch } from '../shared/fault.ts'
import { startService } from '../shared/http.ts'
import { type AllowedOrigins, defaultAllowedOrigins, refuseForeignUpgrade } from '../shared/origins.ts'
import { VERIFY_CONTROL_PATH, VerifyService } from './verify.ts'

/*
 * A local WalletConnect v2 relay (notes/walletconnect-relay.md): JSON-RPC 2.0 over WebSocket on the same
 * 127.0.0.1 port as the shared sandbox HTTP service, so `GET /__health` and `POST /__fault` work there too.
 *
 * How the shared fault switch maps onto a relay (each mode counts against `times` as noted; `path` matches the
 * path the socket connected to, normally `/`):
 * - `drop`: when set, every open socket is terminated without a close frame (the client sees 1006 and
 *   reconnects); while it stays on, each new socket is accepted and terminated at once. One count per socket.
 * - `fail`: every JSON-RPC request is answered with a -32603 error instead of being carried out. One count per
 *   request; acks of relay pushes are not requests and are not counted.
 * - `stall`: every JSON-RPC request is read and ignored: never carried out, never answered. One count per
 *   request.
 * - `429`: the WebSocket upgrade is refused with HTTP 429 and `Retry-After`. One count per upgrade.
 * Plain HTTP requests to the origin (other than `/__health` and `/__fault`) get the shared HTTP behaviour.
 *
 * The log (`relay.log()`, or `GET /__log` from Node): every publish whose tag names a WalletConnect session method
 * (`wc_sessionExtend`, `wc_sessionPing`, …: the tags are plain in `irn_publish`, the payloads encrypted), so a test
 * can see a session being extended or pinged, and answered.
 */

/** Options of {@link startRelay}. */
export interface RelayOptions {
  /** Port on 127.0.0.1; 0 (the default) binds a free port. */
  port?: number
  /** How often every socket is pinged; clients under Node drop a socket after 35 s of silence. Default 20 s. */
  pingIntervalMs?: number
  /** Page origins that may open a socket (clients sending no Origin, as under Node, always may). Default: loopback pages. */
  origins?: AllowedOrigins
}

/** Counters a test or the orchestrator can read; all counts are since the relay started. */
export interface RelayStats {
  /** Sockets open now. */
  connections: number
  /** Sockets accepted since start (including ones the `drop` fault closed). */
  connectionsTotal: number
  /** (socket, topic) subscriptions held now. */
  subscriptions: number
  /** Unexpired stored messages and the topics and bytes they use (expired ones may linger until the sweep). */
  storedMessages: number
  storedTopics: number
  storedBytes: number
  /** Messages accepted by publish, batch publish, propose and approve. */
  published: number
  /** `irn_subscription` pushes sent, and acks received for them. */
  delivered: number
  acked: number
  /** JSON-RPC requests received, by method (unknown methods are counted under their name too). */
  requests: Record<string, number>
  /** JSON-RPC error answers sent (malformed frames, bad params, the `fail` fault). */
  errors: number
  /** Upgrades refused by the `429` fault. */
  upgradesRefused: number
}

/** One publish of a WalletConnect session method, known by its tag. */
export interface RelayLogEntry {
  /** Epoch ms. */
  at: number
  topic: string
  method: string
  kind: 'request' | 'response'
  tag: number
}

/** WalletConnect's publish tags of the session methods: the request's, and its response's one above. */
const SESSION_METHOD_TAGS: Record<number, string> = {
  1100: 'wc_sessionPropose',
  1102: 'wc_sessionSettle',
  1104: 'wc_sessionUpdate',
  1106: 'wc_sessionExtend',
  1108: 'wc_sessionRequest',
  1110: 'wc_sessionEvent',
  1112: 'wc_sessionDelete',
  1114: 'wc_sessionPing',
  1116: 'wc_sessionAuthenticate',
}
const LOG_MAX = 1_000

/** The log entry of a publish with this tag, if the tag names a session method. */
export function logEntryOf(topic: string, tag: number | undefined, at: number): RelayLogEntry | undefined {
  if (tag === undefined) return undefined
  const request = SESSION_METHOD_TAGS[tag]
  if (request) return { at, topic, method: request, kind: 'request', tag }
  const response = SESSION_METHOD_TAGS[tag - 1]
  return response ? { at, topic, method: response, kind: 'response', tag } : undefined
}

/** A running relay. */
export interface Relay {
  /** `ws://127.0.0.1:PORT`: the `relayUrl` for WalletConnect clients. */
  url: string
  /** `http://127.0.0.1:PORT`: `GET /__health`, `POST /__fault`, the Verify stand-in (`./verify.ts`). */
  origin: string
  port: number
  /** The random id `GET /__health` answers. */
  instance: string
  fault: FaultSwitch
  /** The Verify stand-in on the same origin (`POST /v1/attestation`, `GET /v1/attestation/{topic}`). */
  verify: VerifyService
  stats(): RelayStats
  /** The session methods published, oldest first (the last LOG_MAX). */
  log(): RelayLogEntry[]
  /** Closes every socket (close code 1001, then terminate) and the server. Safe to call twice. */
  close(): Promise<void>
}

/** Frames larger than this close the socket (ws answers 1009); WalletConnect messages are a few KB. */
const MAX_FRAME_BYTES = 1024 * 1024
/** The longest ttl stored; WalletConnect's longest (pairing) is 30 days. Longer ttls are clamped. */
const MAX_TTL_SECONDS = 30 * 24 * 60 * 60
/** Default ttl of the messages carried by wc_proposeSession / wc_approveSession when none is given. */
const DEFAULT_TTL_SECONDS = 300
const MAX_STORED_MESSAGES = 10_000
const MAX_STORED_BYTES = 32 * 1024 * 1024
const MAX_MESSAGES_PER_TOPIC = 500
const MAX_SUBSCRIPTIONS_PER_SOCKET = 2_000
const MAX_BATCH = 500
const FETCH_PAGE = 200
const MAX_PENDING_ACKS = 5_000
const SWEEP_INTERVAL_MS = 1_000
const DEFAULT_PING_INTERVAL_MS = 20_000
/** How long close() waits for clients to answer the close frame before terminating their sockets. */
const CLOSE_GRACE_MS = 250

const PARSE_ERROR = -32700
const INVALID_REQUEST = -32600
const METHOD_NOT_FOUND = -32601
const INVALID_PARAMS = -32602
const INTERNAL_ERROR = -32603
const LIMIT_REACHED = -32000

const Topic = v.pipe(v.string(), v.minLength(1), v.maxLength(256))
const Message = v.pipe(v.string(), v.minLength(1), v.maxLength(MAX_FRAME_BYTES))
const Ttl = v.pipe(v.number(), v.integer(), v.minValue(1))
const Tag = v.pipe(v.number(), v.integer())
const Topics = v.pipe(v.array(Topic), v.maxLength(MAX_BATCH))

const PublishParams = v.looseObject({
  topic: Topic,
  message: Message,
  ttl: Ttl,
  tag: v.optional(Tag),
  prompt: v.optional(v.boolean()),
})
const MethodParams = {
  irn_subscribe: v.looseObject({ topic: Topic }),
  irn_batchSubscribe: v.looseObject({ topics: Topics }),
  irn_unsubscribe: v.looseObject({ topic: Topic, id: v.optional(v.string()) }),
  irn_batchUnsubscribe: v.looseObject({
    subscriptions: v.pipe(
      v.array(v.looseObject({ topic: Topic, id: v.optional(v.string()) })),
      v.maxLength(MAX_BATCH),
    ),
  }),
  irn_publish: PublishParams,
  irn_batchPublish: v.looseObject({ messages: v.pipe(v.array(PublishParams), v.maxLength(MAX_BATCH)) }),
  irn_batchFetchMessages: v.looseObject({ topics: Topics }),
  wc_proposeSession: v.looseObject({
    pairingTopic: Topic,
    sessionProposal: Message,
    ttl: v.optional(Ttl),
    tag: v.optional(Tag),
  }),
  wc_approveSession: v.looseObject({
    pairingTopic: Topic,
    sessionTopic: Topic,
    sessionProposalResponse: Message,
    sessionSettlementRequest: Message,
    ttl: v.optional(Ttl),
  }),
} as const
type Method = keyof typeof MethodParams
/** A checked request: switching on `method` narrows `params`. */
type Call = { [M in Method]: { method: M; params: v.InferOutput<(typeof MethodParams)[M]> } }[Method]

const Request = v.object({
  jsonrpc: v.literal('2.0'),
  method: v.pipe(v.string(), v.maxLength(200)),
  params: v.optional(v.unknown()),
})
/** Clients ack pushes with `{id, jsonrpc, result: true}`; an error answer to a push is accepted the same way. */
const Response = v.object({
  jsonrpc: v.optional(v.literal('2.0')),
  id: v.union([v.number(), v.string(), v.null()]),
})
/** The payload of the `auth` JWT clients put in the query: `iss` is their did:key. */
const AuthPayload = v.looseObject({ iss: v.pipe(v.string(), v.minLength(1), v.maxLength(300)) })

interface Connection {
  serial: number
  ws: WebSocket
  /** The client's did:key from its auth JWT, else one per socket: the relay's notion of "the same client". */
  identity: string
  path: string
  /** topic → subscription id */
  topics: Map<string, string>
  alive: boolean
  /** push id → message, to mark it seen by this identity when the client acks it */
  pendingAcks: Map<number, StoredMessage>
}

interface StoredMessage {
  topic: string
  message: string
  publishedAt: number
  expiresAt: number
  tag: number | undefined
  bytes: number
  /** Identities that published or acked it: never pushed to them again (no echo, no redelivery). */
  seenBy: Set<string>
}

class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message)
  }
}

/**
 * Starts a WalletConnect v2 relay on 127.0.0.1 that real `@walletconnect/sign-client` clients pair through.
 * Stops with `close()`.
 *
 * @example
 * const relay = await startRelay()
 * const client = await SignClient.init({ projectId: 'local', relayUrl: relay.url, telemetryEnabled: false })
 */
export async function startRelay(options: RelayOptions = {}): Promise<Relay> {
  const connections = new Set<Connection>()
  const subscribers = new Map<string, Set<Connection>>()
  /** topic → (message text → stored message), in publish order; the text key dedupes client retries. */
  const store = new Map<string, Map<string, StoredMessage>>()
  /** Every stored message in publish order, so eviction drops the oldest first. */
  const storeOrder = new Set<StoredMessage>()
  let storedBytes = 0
  let connectionSerial = 0
  // Relay-made ids stay below 2^53 and under 17 digits, which the clients' JSON parser keeps as numbers.
  let nextPushId = Date.now() * 1000
  const counters = {
    connectionsTotal: 0,
    published: 0,
    delivered: 0,
    acked: 0,
    errors: 0,
    upgradesRefused: 0,
  }
  const requestCounts = new Map<string, number>()
  const log: RelayLogEntry[] = []
  let closing: Promise<void> | undefined

  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES })
  const relayOrigins = options.origins ?? defaultAllowedOrigins()

  const verify = new VerifyService()
  const service = await startService({
    name: 'relay',
    port: options.port ?? 0,
    origins: relayOrigins,
    privatePaths: [VERIFY_CONTROL_PATH, '/__log'],
    handler: (req) => {
      const verified = verify.handle(req)
      if (verified) return verified
      if (req.url.pathname === '/__log' && req.method === 'GET') return { json: { entries: log } }
      if (req.url.pathname === '/' && req.method === 'GET') {
        return {
          json: {
            service: 'relay',
            protocol: 'WalletConnect v2 relay (JSON-RPC 2.0 over WebSocket)',
            websocket: `ws://127.0.0.1:${service.port}`,
            methods: Object.keys(MethodParams),
          },
        }
      }
      return undefined
    },
    onClose: () => shutDown(),
  })
  const { fault, server } = service

  // The shared switch has no change hook, and `drop` must hit the sockets already open when it is set.
  const setFault = fault.set.bind(fault)
  fault.set = (input: unknown): Fault => {
    const next = setFault(input)
    if (next.mode === 'drop') {
      for (const conn of [...connections]) {
        if (takeFault(['drop'], conn.path)) conn.ws.terminate()
      }
    }
    return next
  }

  /** Takes (counts) the current fault only when it is one of `modes`, so e.g. a `fail` never eats an upgrade. */
  function takeFault(modes: readonly Fault['mode'][], path: string): Fault | undefined {
    if (!modes.includes(fault.current.mode)) return undefined
    return fault.take(path)
  }

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy())
    if (refuseForeignUpgrade(req, socket, relayOrigins)) return
    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    if (closing) return refuseUpgrade(socket, 503, { 'Retry-After': '1' }, 'Relay is shutting down')
    const refused = takeFault(['429'], url.pathname)
    if (refused) {
      counters.upgradesRefused += 1
      const retryAfter = String(refused.retryAfterSeconds ?? 1)
      return refuseUpgrade(
        socket,
        429,
        { 'Retry-After': retryAfter },
        'Too many requests (sandbox fault switch)',
      )
    }
    wss.handleUpgrade(req, socket, head, (ws) => accept(ws, url))
  })

  function accept(ws: WebSocket, url: URL): void {
    counters.connectionsTotal += 1
    connectionSerial += 1
    const conn: Connection = {
      serial: connectionSerial,
      ws,
      identity: identityFrom(url) ?? `socket:${connectionSerial}`,
      path: url.pathname,
      topics: new Map(),
      alive: true,
      pendingAcks: new Map(),
    }
    connections.add(conn)
    ws.on('error', () => ws.terminate())
    ws.on('close', () => forget(conn))
    ws.on('pong', () => {
      conn.alive = true
    })
    ws.on('message', (data) => {
      conn.alive = true
      let answer: string | undefined
      try {
        answer = onFrame(conn, data)
      } catch (error) {
        // A bug here must cost one answer, never the relay.
        const message = error instanceof Error ? error.message : String(error)
        answer = errorAnswer('null', INTERNAL_ERROR, `Internal error: ${message}`)
      }
      if (answer !== undefined) send(conn, answer)
    })
    if (takeFault(['drop'], conn.path)) ws.terminate()
  }

  function forget(conn: Connection): void {
    connections.delete(conn)
    for (const topic of conn.topics.keys()) removeSubscriber(topic, conn)
    conn.topics.clear()
    conn.pendingAcks.clear()
  }

  /** Handles one frame and gives the answer to send, if any. */
  function onFrame(conn: Connection, data: RawData): string | undefined {
    const text = rawToText(data)
    let parsed: unknown
    try {
      parsed = JSON.parse(text)
    } catch {
      return errorAnswer('null', PARSE_ERROR, 'Parse error: the frame is not JSON')
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      const what = Array.isArray(parsed) ? 'batch arrays are not supported' : 'expected a JSON-RPC 2.0 object'
      return errorAnswer('null', INVALID_REQUEST, `Invalid request: ${what}`)
    }
    const idText = idTextOf(text, parsed)
    if (idText === false) {
      return errorAnswer('null', INVALID_REQUEST, 'Invalid request: id must be a string, number or null')
    }
    if (!('method' in parsed)) {
      if (('result' in parsed || 'error' in parsed) && v.is(Response, parsed)) {
        onAck(conn, parsed.id)
        return undefined
      }
      return errorAnswer(
        idText ?? 'null',
        INVALID_REQUEST,
        'Invalid request: expected a method, or a result/error',
      )
    }
    const request = v.safeParse(Request, parsed)
    if (!request.success) {
      return errorAnswer(idText ?? 'null', INVALID_REQUEST, `Invalid request: ${v.summarize(request.issues)}`)
    }
    const { method, params } = request.output
    requestCounts.set(method, (requestCounts.get(method) ?? 0) + 1)

    const applied = takeFault(['fail', 'stall'], conn.path)
    if (applied?.mode === 'stall') return undefined
    const outcome = perform(conn, method, params, applied?.mode === 'fail')
    // JSON-RPC notifications (no id) are carried out but never answered.
    if (idText === undefined) return undefined
    if ('error' in outcome) return errorAnswer(idText, outcome.error.code, outcome.error.message)
    return `{"id":${idText},"jsonrpc":"2.0","result":${JSON.stringify(outcome.result)}}`
  }

  function perform(
    conn: Connection,
    method: string,
    params: unknown,
    failing: boolean,
  ): { result: unknown } | { error: { code: number; message: string } } {
    if (failing) return { error: { code: INTERNAL_ERROR, message: 'Internal error (sandbox fault switch)' } }
    if (!isMethod(method))
      return { error: { code: METHOD_NOT_FOUND, message: `Method not found: ${method}` } }
    const checked = v.safeParse(MethodParams[method], params)
    if (!checked.success) {
      const message = `Invalid params for ${method}: ${v.summarize(checked.issues)}`
      return { error: { code: INVALID_PARAMS, message } }
    }
    try {
      // safeParse cannot tie its output to the literal method; the schema was picked by that same method.
      return { result: carryOut(conn, { method, params: checked.output } as Call) }
    } catch (error) {
      if (error instanceof RpcError) return { error: { code: error.code, message: error.message } }
      throw error
    }
  }

  function carryOut(conn: Connection, call: Call): unknown {
    switch (call.method) {
      case 'irn_subscribe':
        return subscribe(conn, [call.params.topic])[0]
      case 'irn_batchSubscribe':
        return subscribe(conn, call.params.topics)
      case 'irn_unsubscribe':
        unsubscribe(conn, call.params.topic)
        return true
      case 'irn_batchUnsubscribe':
        for (const s of call.params.subscriptions) unsubscribe(conn, s.topic)
        return true
      case 'irn_publish': {
        const { topic, message, ttl, tag } = call.params
        publish(conn, topic, message, ttl, tag)
        return true
      }
      case 'irn_batchPublish':
        for (const m of call.params.messages) publish(conn, m.topic, m.message, m.ttl, m.tag)
        return true
      case 'irn_batchFetchMessages':
        return fetchMessages(conn, call.params.topics)
      case 'wc_proposeSession': {
        // The dapp's subscribe + publish in one: the proposal waits in storage until the wallet subscribes.
        const p = call.params
        subscribe(conn, [p.pairingTopic])
        publish(conn, p.pairingTopic, p.sessionProposal, p.ttl ?? DEFAULT_TTL_SECONDS, p.tag)
        return true
      }
      case 'wc_approveSession': {
        // The wallet's subscribe to the session topic, plus the answer to the dapp and the settle request.
        const p = call.params
        const ttl = p.ttl ?? DEFAULT_TTL_SECONDS
        subscribe(conn, [p.sessionTopic])
        publish(conn, p.pairingTopic, p.sessionProposalResponse, ttl, undefined)
        publish(conn, p.sessionTopic, p.sessionSettlementRequest, ttl, undefined)
        return true
      }
    }
  }

  /** Subscribes to every topic (ids first, so a retry keeps its id), then flushes what is stored for them. */
  function subscribe(conn: Connection, topics: readonly string[]): string[] {
    const fresh = topics.filter((topic) => !conn.topics.has(topic))
    if (conn.topics.size + new Set(fresh).size > MAX_SUBSCRIPTIONS_PER_SOCKET) {
      throw new RpcError(
        LIMIT_REACHED,
        `Subscription limit reached (${MAX_SUBSCRIPTIONS_PER_SOCKET} per socket)`,
      )
    }
    const ids = topics.map((topic) => {
      let id = conn.topics.get(topic)
      if (id === undefined) {
        id = randomBytes(32).toString('hex')
        conn.topics.set(topic, id)
        let set = subscribers.get(topic)
        if (!set) {
          set = new Set()
          subscribers.set(topic, set)
        }
        set.add(conn)
      }
      return id
    })
    // After the answer is queued: the client records its subscription from the answer before messages arrive.
    queueMicrotask(() => {
      for (const topic of new Set(topics)) {
        for (const stored of liveMessages(topic)) pushTo(conn, stored)
      }
    })
    return ids
  }

  function unsubscribe(conn: Connection, topic: string): void {
    conn.topics.delete(topic)
    removeSubscriber(topic, conn)
  }

  function removeSubscriber(topic: string, conn: Connection): void {
    const set = subscribers.get(topic)
    if (!set) return
    set.delete(conn)
    if (set.size === 0) subscribers.delete(topic)
  }

  function publish(
    conn: Connection,
    topic: string,
    message: string,
    ttl: number,
    tag: number | undefined,
  ): void {
    counters.published += 1
    const byText = store.get(topic)
    const existing = byText?.get(message)
    // A client retrying a publish whose answer it missed: the first copy already went out.
    if (existing && existing.expiresAt > Date.now()) return
    if (existing) dropStored(existing)
    const now = Date.now()
    const entry = logEntryOf(topic, tag, now)
    if (entry) {
      log.push(entry)
      if (log.length > LOG_MAX) log.shift()
    }
    const stored: StoredMessage = {
      topic,
      message,
      publishedAt: now,
      expiresAt: now + Math.min(ttl, MAX_TTL_SECONDS) * 1000,
      tag,
      bytes: topic.length + message.length,
      seenBy: new Set([conn.identity]),
    }
    keep(stored)
    for (const subscriber of subscribers.get(topic) ?? []) pushTo(subscriber, stored)
  }

  function keep(stored: StoredMessage): void {
    let byText = store.get(stored.topic)
    if (!byText) {
      byText = new Map()
      store.set(stored.topic, byText)
    }
    byText.set(stored.message, stored)
    storeOrder.add(stored)
    storedBytes += stored.bytes
    if (byText.size > MAX_MESSAGES_PER_TOPIC) {
      const oldest = byText.values().next().value
      if (oldest) dropStored(oldest)
    }
    while (storeOrder.size > MAX_STORED_MESSAGES || storedBytes > MAX_STORED_BYTES) {
      const oldest = storeOrder.values().next().value
      if (!oldest) break
      dropStored(oldest)
    }
  }

  function dropStored(stored: StoredMessage): void {
    if (!storeOrder.delete(stored)) return
    storedBytes -= stored.bytes
    const byText = store.get(stored.topic)
    byText?.delete(stored.message)
    if (byText?.size === 0) store.delete(stored.topic)
  }

  function liveMessages(topic: string): StoredMessage[] {
    const now = Date.now()
    return [...(store.get(topic)?.values() ?? [])].filter((m) => m.expiresAt > now)
  }

  function sweep(): void {
    const now = Date.now()
    for (const stored of [...storeOrder]) if (stored.expiresAt <= now) dropStored(stored)
  }

  function pushTo(conn: Connection, stored: StoredMessage): void {
    if (stored.seenBy.has(conn.identity) || !conn.topics.has(stored.topic)) return
    if (conn.ws.readyState !== conn.ws.OPEN) return
    const pushId = nextPushId++
    conn.pendingAcks.set(pushId, stored)
    if (conn.pendingAcks.size > MAX_PENDING_ACKS) {
      const oldest = conn.pendingAcks.keys().next().value
      if (oldest !== undefined) conn.pendingAcks.delete(oldest)
    }
    const data: Record<string, unknown> = {
      topic: stored.topic,
      message: stored.message,
      publishedAt: stored.publishedAt,
      // Without the field, wallets ask the hosted Verify service about every message.
      attestation: '',
    }
    if (stored.tag !== undefined) data.tag = stored.tag
    const subscriptionId = conn.topics.get(stored.topic)
    const params = { id: subscriptionId, data }
    send(conn, JSON.stringify({ id: pushId, jsonrpc: '2.0', method: 'irn_subscription', params }))
    counters.delivered += 1
  }

  function onAck(conn: Connection, id: number | string | null): void {
    if (typeof id !== 'number') return
    const stored = conn.pendingAcks.get(id)
    if (!stored) return
    conn.pendingAcks.delete(id)
    stored.seenBy.add(conn.identity)
    counters.acked += 1
  }

  function fetchMessages(conn: Connection, topics: readonly string[]) {
    const messages: {
      topic: string
      message: string
      publishedAt: number
      attestation: string
      tag?: number
    }[] = []
    let hasMore = false
    for (const topic of new Set(topics)) {
      for (const stored of liveMessages(topic)) {
        if (stored.seenBy.has(conn.identity)) continue
        if (messages.length >= FETCH_PAGE) {
          hasMore = true
          break
        }
        // Handing it over in the answer is the delivery.
        stored.seenBy.add(conn.identity)
        const entry = { topic, message: stored.message, publishedAt: stored.publishedAt, attestation: '' }
        messages.push(stored.tag === undefined ? entry : { ...entry, tag: stored.tag })
      }
      if (hasMore) break
    }
    return { messages, hasMore }
  }

  function send(conn: Connection, text: string): void {
    if (conn.ws.readyState === conn.ws.OPEN) conn.ws.send(text)
  }

  function errorAnswer(idText: string, code: number, message: string): string {
    counters.errors += 1
    return `{"id":${idText},"jsonrpc":"2.0","error":${JSON.stringify({ code, message })}}`
  }

  const pingInterval = Math.max(10, options.pingIntervalMs ?? DEFAULT_PING_INTERVAL_MS)
  const pingTimer = setInterval(() => {
    for (const conn of connections) {
      // No pong (and no frame) since the last ping: the peer is gone without a FIN.
      if (!conn.alive) {
        conn.ws.terminate()
        continue
      }
      conn.alive = false
      conn.ws.ping()
    }
  }, pingInterval)
  pingTimer.unref()
  const sweepTimer = setInterval(sweep, SWEEP_INTERVAL_MS)
  sweepTimer.unref()

  function shutDown(): Promise<void> {
    closing ??= (async () => {
      clearInterval(pingTimer)
      clearInterval(sweepTimer)
      const open = [...connections]
      const closed = Promise.all(
        open.map(
          (conn) =>
            new Promise<void>((resolve) => {
              if (conn.ws.readyState === conn.ws.CLOSED) return resolve()
              conn.ws.once('close', () => resolve())
              // 1001 (going away), never 3000: clients treat 3000 as fatal and stop reconnecting.
              conn.ws.close(1001, 'Relay shutting down')
            }),
        ),
      )
      let timer: NodeJS.Timeout | undefined
      await Promise.race([
        closed,
        new Promise<void>((resolve) => (timer = setTimeout(resolve, CLOSE_GRACE_MS))),
      ])
      clearTimeout(timer)
      for (const conn of open) conn.ws.terminate()
      await new Promise<void>((resolve) => wss.close(() => resolve()))
      store.clear()
      storeOrder.clear()
      storedBytes = 0
    })()
    return closing
  }

  return {
    url: `ws://127.0.0.1:${service.port}`,
    origin: service.origin,
    port: service.port,
    instance: service.instance,
    fault,
    verify,
    stats() {
      const now = Date.now()
      let storedMessages = 0
      for (const stored of storeOrder) if (stored.expiresAt > now) storedMessages += 1
      let subscriptions = 0
      for (const conn of connections) subscriptions += conn.topics.size
      return {
        connections: connections.size,
        connectionsTotal: counters.connectionsTotal,
        subscriptions,
        storedMessages,
        storedTopics: store.size,
        storedBytes,
        published: counters.published,
        delivered: counters.delivered,
        acked: counters.acked,
        requests: Object.fromEntries(requestCounts),
        errors: counters.errors,
        upgradesRefused: counters.upgradesRefused,
      }
    },
    log: () => [...log],
    close: () => service.close(),
  }
}

function isMethod(method: string): method is Method {
  return Object.hasOwn(MethodParams, method)
}

function rawToText(data: RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8')
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8')
  return Buffer.from(data).toString('utf8')
}

/** The client's did:key from the `auth` JWT in the query; unverified, as it only tells clients apart. */
function identityFrom(url: URL): string | undefined {
  const auth = url.searchParams.get('auth')
  const payload = auth?.split('.')[1]
  if (!payload || payload.length > 4096) return undefined
  try {
    const parsed = v.safeParse(AuthPayload, JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')))
    return parsed.success ? parsed.output.iss : undefined
  } catch {
    return undefined
  }
}

function refuseUpgrade(
  socket: Duplex,
  status: number,
  headers: Record<string, string>,
  message: string,
): void {
  const body = JSON.stringify({ error: message, status })
  const reason = status === 429 ? 'Too Many Requests' : 'Service Unavailable'
  const lines = [
    `HTTP/1.1 ${status} ${reason}`,
    'Content-Type: application/json',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Access-Control-Expose-Headers: Retry-After',
    'Connection: close',
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ]
  socket.end(`${lines.join('\r\n')}\r\n\r\n${body}`)
}

/**
 * The id of a parsed request as JSON text to echo: `undefined` when absent, `false` when not a JSON-RPC id.
 * Numbers are copied from the frame's own text: client ids have 19 digits and a JS number would round them.
 */
function idTextOf(text: string, parsed: object): string | undefined | false {
  if (!('id' in parsed)) return undefined
  const id = parsed.id
  if (id === null) return 'null'
  if (typeof id === 'string') return JSON.stringify(id)
  if (typeof id !== 'number') return false
  return rawTopLevelValue(text, 'id') ?? false
}

/** The raw text of a top-level member's value (the last one, as JSON.parse keeps); `text` is valid JSON. */
function rawTopLevelValue(text: string, key: string): string | undefined {
  let i = skipSpace(text, 0)
  if (text[i] !== '{') return undefined
  i += 1
  let found: string | undefined
  while (i < text.length) {
    i = skipSpace(text, i)
    if (text[i] !== '"') return found
    const keyEnd = endOfString(text, i)
    const name: unknown = JSON.parse(text.slice(i, keyEnd))
    i = skipSpace(text, keyEnd) + 1 // past ':'
    i = skipSpace(text, i)
    const valueEnd = endOfValue(text, i)
    if (name === key) found = text.slice(i, valueEnd)
    i = skipSpace(text, valueEnd)
    if (text[i] !== ',') return found
    i += 1
  }
  return found
}

function skipSpace(text: string, from: number): number {
  let i = from
  while (i < text.length && ' \t\n\r'.includes(text[i] as string)) i += 1
  return i
}

function endOfString(text: string, start: number): number {
  let i = start + 1
  while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1
  return i + 1
}

function endOfValue(text: string, start: number): number {
  const first = text[start]
  if (first === '"') return endOfString(text, start)
  if (first === '{' || first === '[') {
    let depth = 0
    let i = start
    while (i < text.length) {
      const c = text[i]
      if (c === '"') {
        i = endOfString(text, i)
        continue
      }
      if (c === '{' || c === '[') depth += 1
      if (c === '}' || c === ']') {
        depth -= 1
        if (depth === 0) return i + 1
      }
      i += 1
    }
    return i
  }
  let i = start
  while (i < text.length && !',}] \t\n\r'.includes(text[i] as string)) i += 1
  return i
}
