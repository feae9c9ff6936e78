import type { IncomingMessage } from 'node:http'
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

/**
 * Refuses a WebSocket upgrade from a page whose origin is not allowed: answers 403 and closes the socket.
 * Clients that send no Origin (Node, the kit's tests) are not pages and pass. Answers whether it refused.
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
  const origin = req.headers.origin
  if (origin === undefined || origins.allows(origin)) return false
  const body = JSON.stringify({ error: `Origin ${origin} may not open this socket`, status: 403 })
  socket.end(
    `HTTP/1.1 403 Forbidden\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  )
  return true
}
