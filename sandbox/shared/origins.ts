import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Duplex } from 'node:stream'
import { originMatches } from '../secure-site/shared.ts'

/**
 * Which page origins may read a sandbox service's answers (CORS) and open its WebSockets: the demo's and the
 * tests' pages. Entries are exact origins or `*` patterns (`http://127.0.0.1:*`: every port of the loopback
 * address; a `*` never spans a `:` or `/`). Origins added later (the demo, once its port is known) count at
 * once for every service holding the same list.
 *
 * @example
 * const origins = new AllowedOrigins(['http://localhost:5173'])
 * origins.add(demo.origin)
 * origins.allows('https://evil.example') // false
 */
export class AllowedOrigins {
  readonly #entries = new Set<string>()

  constructor(entries: Iterable<string> = []) {
    for (const entry of entries) this.add(entry)
  }

  /** Adds an exact origin or a `*` pattern (trailing slashes dropped). */
  add(entry: string): this {
    const trimmed = entry.trim().replace(/\/+$/, '')
    if (trimmed === '' || trimmed === '*' || trimmed === 'null') {
      // A bare `*` or `null` would hand the mailbox's neighbours to every page: never configurable here.
      throw new Error(`AllowedOrigins: "${entry}" is not an origin or an origin pattern`)
    }
    this.#entries.add(trimmed)
    return this
  }

  /** Whether a page on `origin` may read answers (an absent or `null` origin never may). */
  allows(origin: string | undefined): origin is string {
    if (origin === undefined || origin === '' || origin === 'null') return false
    for (const entry of this.#entries) if (originMatches(entry, origin)) return true
    return false
  }

  get entries(): string[] {
    return [...this.#entries]
  }
}

/** Ours: where the sandbox's pages live when nothing else is configured: any port of the loopback host. */
export const LOOPBACK_PAGE_ORIGINS = ['http://127.0.0.1:*', 'http://localhost:*'] as const

/** The environment variable with more allowed page origins, comma-separated (`npm start`, a host app). */
export const ALLOWED_ORIGINS_ENV = 'WALLETSTATE_ALLOWED_ORIGINS'

/** The origins from {@link ALLOWED_ORIGINS_ENV}; a malformed entry is an error, not silently dropped. */
export function originsFromEnv(env: NodeJS.ProcessEnv = process.env): string[] {
  const raw = env[ALLOWED_ORIGINS_ENV]
  if (raw === undefined || raw.trim() === '') return []
  return raw.split(',').map((entry) => {
    const value = entry.trim()
    if (!/^https?:\/\/[^/\s]+$/.test(value)) {
      throw new Error(`${ALLOWED_ORIGINS_ENV}: "${value}" is not an origin like http://127.0.0.1:5173`)
    }
    return value
  })
}

/** The list a service uses when it is given none: loopback pages only. */
export function defaultAllowedOrigins(): AllowedOrigins {
  return new AllowedOrigins(LOOPBACK_PAGE_ORIGINS)
}

/** The names a loopback service is reached by: its address, the machine's name, and IPv6's loopback. */
const LOOPBACK_HOST_NAMES = ['127.0.0.1', 'localhost', '[::1]'] as const

/**
 * Whether a request's `Host` header names this machine's loopback on `port` (`127.0.0.1:PORT`, `localhost:PORT`
 * or `[::1]:PORT`, in any case). Anything else, a missing header included, is a request meant for another host:
 * a DNS-rebinding page (`evil.example` resolved to 127.0.0.1 after the page loaded) reads the sandbox's answers
 * as same-origin ones, so its requests are refused before they reach a handler.
 *
 * @example
 * isLoopbackHost('127.0.0.1:8545', 8545) // true
 * isLoopbackHost('evil.example:8545', 8545) // false
 */
export function isLoopbackHost(host: string | undefined, port: number): boolean {
  if (host === undefined) return false
  const lower = host.toLowerCase()
  return LOOPBACK_HOST_NAMES.some((name) => lower === `${name}:${port}`)
}

/**
 * Refuses a request whose `Host` is not this machine's loopback on the port it arrived at (see
 * {@link isLoopbackHost}): 421 Misdirected Request (400 when there is no Host at all), a JSON error body.
 * Answers whether it refused. Every sandbox HTTP service runs it first (./http.ts), and every WebSocket
 * upgrade through {@link refuseForeignUpgrade}.
 */
export function refuseForeignHost(req: IncomingMessage, res: ServerResponse): boolean {
  const host = req.headers.host
  if (isLoopbackHost(host, req.socket.localPort ?? 0)) return false
  const status = host === undefined ? 400 : 421
  const error =
    host === undefined
      ? 'A Host header is required'
      : `This service does not answer for ${host.slice(0, 200)}`
  const body = JSON.stringify({ error, status })
  res.writeHead(status, { 'Content-Type': 'application/json', Connection: 'close' }).end(body)
  return true
}

/**
 * Refuses a WebSocket upgrade meant for another host (its `Host` is not this machine's loopback on the port it
 * arrived at: DNS rebinding, 421) or from a page whose origin is not allowed (403), and closes the socket.
 * Clients that send no Origin (Node, the kit's tests) are not pages and pass the origin check. Answers whether
 * it refused.
 *
 * @example
 * server.on('upgrade', (req, socket, head) => {
 *   if (refuseForeignUpgrade(req, socket, origins)) return
 *   wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req))
 * })
 */
export function refuseForeignUpgrade(
  req: IncomingMessage,
  socket: Duplex,
  origins: Pick<AllowedOrigins, 'allows'>,
): boolean {
  const host = req.headers.host
  if (!isLoopbackHost(host, req.socket.localPort ?? 0)) {
    const status = host === undefined ? '400 Bad Request' : '421 Misdirected Request'
    const error =
      host === undefined
        ? 'A Host header is required'
        : `This service does not answer for ${host.slice(0, 200)}`
    endSocket(socket, status, { error, status: Number.parseInt(status, 10) })
    return true
  }
  const origin = req.headers.origin
  if (origin === undefined || origins.allows(origin)) return false
  endSocket(socket, '403 Forbidden', { error: `Origin ${origin} may not open this socket`, status: 403 })
  return true
}

function endSocket(socket: Duplex, status: string, json: unknown): void {
  const body = JSON.stringify(json)
  socket.end(
    `HTTP/1.1 ${status}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  )
}
