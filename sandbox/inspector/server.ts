import { WebSocket, WebSocketServer } from 'ws'
import { type SandboxResponse, type SandboxService, startService } from '../shared/http.ts'
import { type AllowedOrigins, defaultAllowedOrigins, refuseForeignUpgrade } from '../shared/origins.ts'
import { elkScript, viewerScript } from './viewer/assets.ts'
import { VIEWER_CSS, VIEWER_HTML } from './viewer/page.ts'

/**
 * The local inspector server, on 127.0.0.1 only: a relay for inspection records and the viewer page.
 *
 * A page streams records over its WebSocket: the kit's `createRecorder({ onRecord })` (the recording format,
 * `src/recording/format.ts`), or any `@statelyai/inspect` WebSocket inspector. Every other connected socket
 * receives each record, as with the package's own server, and a socket that connects late first gets the
 * records buffered so far. `GET /` serves the viewer: each machine's statechart with its active states, the
 * actors, the event log, time travel and "Save recording", with no internet.
 */
export interface InspectorServer extends SandboxService {
  /** `ws://127.0.0.1:PORT`: the demo's `?inspect=` (or `createWebSocketInspector({ url })`). */
  url: string
  /** Records received so far (bounded), oldest first. */
  records(): unknown[]
}

/** A single record larger than this is dropped: the inspector never buffers unbounded input. */
const MAX_RECORD_BYTES = 512 * 1024
/** Bytes of records kept for viewers that connect late; past it the oldest events and snapshots go. */
const BUFFER_BYTES = 32 * 1024 * 1024
/**
 * Records a late viewer needs to make sense of the rest (recording headers, machine descriptions, actors) are
 * kept before any other, up to this many.
 */
const MAX_PINNED = 5_000

interface Buffered {
  text: string
  pinned: boolean
}

/**
 * Starts the inspector server. Its socket takes pages from `origins` (the demo's) and its own viewer page;
 * clients sending no Origin (Node) too. Any other page gets 403: inspection records carry every event and
 * snapshot of the kit, addresses included.
 *
 * @example
 * const inspector = await startInspectorServer({ origins: new AllowedOrigins([demo.origin]) })
 * // demo: `?inspect=${inspector.url}`; viewer: `${inspector.origin}/`
 */
export async function startInspectorServer(
  options: {
    port?: number
    origins?: AllowedOrigins
    /** Bytes of records kept for late viewers (default 32 MiB). */
    bufferBytes?: number
  } = {},
): Promise<InspectorServer> {
  const budget = options.bufferBytes ?? BUFFER_BYTES
  let buffer: Buffered[] = []
  let bytes = 0
  let pinned = 0
  const origins = options.origins ?? defaultAllowedOrigins()
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_RECORD_BYTES })
  let csp = ''
  const script = (body: string): SandboxResponse => ({
    headers: {
      'Content-Type': 'text/javascript; charset=utf-8',
      'Cache-Control': 'no-cache',
      'X-Content-Type-Options': 'nosniff',
    },
    body,
  })
  const service = await startService({
    name: 'inspector',
    port: options.port ?? 0,
    origins,
    async handler(req): Promise<SandboxResponse | undefined> {
      if (req.method !== 'GET') return undefined
      switch (req.url.pathname) {
        case '/':
          return {
            headers: {
              'Content-Type': 'text/html; charset=utf-8',
              'Content-Security-Policy': csp,
              'X-Content-Type-Options': 'nosniff',
              'Referrer-Policy': 'no-referrer',
              'Cache-Control': 'no-cache',
            },
            body: VIEWER_HTML,
          }
        case '/viewer.css':
          return {
            headers: { 'Content-Type': 'text/css; charset=utf-8', 'X-Content-Type-Options': 'nosniff' },
            body: VIEWER_CSS,
          }
        case '/viewer.js':
          return script(await viewerScript())
        case '/elk.js':
          return script(await elkScript())
        case '/favicon.ico':
          return { status: 204 }
        default:
          return undefined
      }
    },
    onClose: () => {
      for (const client of wss.clients) client.terminate()
      wss.close()
    },
  })
  // Scripts and styles from this server only (no inline ones), the socket to this server only, nothing else.
  csp = [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    `connect-src ws://127.0.0.1:${service.port} ws://localhost:${service.port}`,
    "img-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ')
  // The viewer page is served from the inspector's own origin and opens the socket from there.
  const allowed = {
    allows: (origin: string | undefined) => origin === service.origin || origins.allows(origin),
  }
  service.server.on('upgrade', (request, socket, head) => {
    socket.on('error', () => socket.destroy())
    if (refuseForeignUpgrade(request, socket, allowed)) return
    wss.handleUpgrade(request, socket, head, (ws) => wss.emit('connection', ws, request))
  })
  const keep = (text: string, type: string) => {
    const pin =
      pinned < MAX_PINNED &&
      (type === '@walletstate.recording' || type === '@walletstate.machine' || type === '@xstate.actor')
    if (pin) pinned += 1
    buffer.push({ text, pinned: pin })
    bytes += text.length
    if (bytes <= budget) return
    // The oldest unpinned records go, a batch at a time.
    const kept: Buffered[] = []
    for (const entry of buffer) {
      if (bytes > budget * 0.9 && !entry.pinned) bytes -= entry.text.length
      else kept.push(entry)
    }
    buffer = kept
  }
  wss.on('connection', (ws) => {
    for (const { text } of buffer) ws.send(text)
    ws.on('message', (data) => {
      const text = data.toString()
      const type = inspectionType(text)
      if (type === undefined) return
      keep(text, type)
      for (const client of wss.clients) {
        if (client !== ws && client.readyState === WebSocket.OPEN) client.send(text)
      }
    })
  })
  return {
    ...service,
    url: `ws://127.0.0.1:${service.port}`,
    records: () => buffer.map(({ text }) => JSON.parse(text) as unknown),
  }
}

/**
 * The type of a JSON object whose type is `@xstate.*` (any inspector's records) or `@walletstate.*` (the
 * recorder's header and machine descriptions); `undefined` for anything else, which is dropped.
 */
function inspectionType(text: string): string | undefined {
  try {
    const value: unknown = JSON.parse(text)
    if (typeof value !== 'object' || value === null || !('type' in value)) return undefined
    const { type } = value
    if (typeof type !== 'string') return undefined
    return type.startsWith('@xstate.') || type.startsWith('@walletstate.') ? type : undefined
  } catch {
    return undefined
  }
}
