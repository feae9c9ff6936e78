import { WebSocket, WebSocketServer } from 'ws'
import { type SandboxService, startService } from '../shared/http.ts'
import { type AllowedOrigins, defaultAllowedOrigins, refuseForeignUpgrade } from '../shared/origins.ts'
import { VIEWER_HTML } from './viewer.ts'

/**
 * A local inspector server for `@statelyai/inspect`'s WebSocket inspector, on 127.0.0.1 only.
 *
 * The kit (with `<KitRoot inspect={createWebSocketInspector({ url }).inspect}>`) sends every actor, event and
 * snapshot record here; every other connected socket receives it, as with the package's own server. `GET /`
 * serves a live viewer (actors with their current state, the event log), so a QA engineer can watch the
 * machines with no internet; a machine with internet can open the hosted Stately inspector through the
 * package's bridge page pointing at the same socket.
 */
export interface InspectorServer extends SandboxService {
  /** `ws://127.0.0.1:PORT`: pass it to `createWebSocketInspector({ url })`. */
  url: string
  /** Records received so far (bounded), oldest first. */
  records(): unknown[]
}

/** Records replayed to a viewer that connects late. */
const BUFFER_SIZE = 20_000
/** A single record larger than this is dropped: the inspector never buffers unbounded input. */
const MAX_RECORD_BYTES = 512 * 1024

/**
 * Starts the inspector server. Its socket takes pages from `origins` (the demo's) and its own viewer page;
 * clients sending no Origin (Node) too. Any other page gets 403: inspection records carry every event and
 * snapshot of the kit, addresses and e-mails included.
 *
 * @example
 * const inspector = await startInspectorServer({ origins: new AllowedOrigins([demo.origin]) })
 * // kit: <KitRoot inspect={createWebSocketInspector({ url: inspector.url }).inspect}>
 */
export async function startInspectorServer(
  options: { port?: number; origins?: AllowedOrigins } = {},
): Promise<InspectorServer> {
  const buffer: string[] = []
  const origins = options.origins ?? defaultAllowedOrigins()
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_RECORD_BYTES })
  const service = await startService({
    name: 'inspector',
    port: options.port ?? 0,
    origins,
    handler(req) {
      if (req.method === 'GET' && req.url.pathname === '/') {
        return { headers: { 'Content-Type': 'text/html; charset=utf-8' }, body: VIEWER_HTML }
      }
      return undefined
    },
    onClose: () => {
      for (const client of wss.clients) client.terminate()
      wss.close()
    },
  })
  // The viewer page is served from the inspector's own origin and opens the socket from there.
  const allowed = {
    allows: (origin: string | undefined) => origin === service.origin || origins.allows(origin),
  }
  service.server.on('upgrade', (request, socket, head) => {
    socket.on('error', () => socket.destroy())
    if (refuseForeignUpgrade(request, socket, allowed)) return
    wss.handleUpgrade(request, socket, head, (ws) => wss.emit('connection', ws, request))
  })
  wss.on('connection', (ws) => {
    for (const record of buffer) ws.send(record)
    ws.on('message', (data) => {
      const text = data.toString()
      if (!isInspectionRecord(text)) return
      buffer.push(text)
      if (buffer.length > BUFFER_SIZE) buffer.shift()
      for (const client of wss.clients) {
        if (client !== ws && client.readyState === WebSocket.OPEN) client.send(text)
      }
    })
  })
  return {
    ...service,
    url: `ws://127.0.0.1:${service.port}`,
    records: () => buffer.map((text) => JSON.parse(text) as unknown),
  }
}

/** Only JSON objects with an `@xstate.*` type are relayed; anything else is dropped. */
function isInspectionRecord(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text)
    return (
      typeof value === 'object' &&
      value !== null &&
      'type' in value &&
      typeof value.type === 'string' &&
      (value.type.startsWith('@xstate.') || value.type.startsWith('@walletstate.'))
    )
  } catch {
    return false
  }
}
