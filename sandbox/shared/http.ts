import { randomUUID } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import * as v from 'valibot'
import { FaultSchema, FaultSwitch } from './fault.ts'
import { type AllowedOrigins, defaultAllowedOrigins, refuseForeignHost } from './origins.ts'

/** A request as a sandbox handler sees it: the parsed URL and, for bodies, the raw text. */
export interface SandboxRequest {
  method: string
  url: URL
  headers: IncomingMessage['headers']
  body: string
  raw: IncomingMessage
}

/** What a handler answers. `undefined` means 404. */
export interface SandboxResponse {
  status?: number
  headers?: Record<string, string>
  json?: unknown
  body?: string | Uint8Array
}

export type SandboxHandler = (
  req: SandboxRequest,
  res: ServerResponse,
) => Promise<SandboxResponse | undefined | 'handled'> | SandboxResponse | undefined | 'handled'

export interface SandboxService {
  name: string
  /** `http://127.0.0.1:PORT` */
  origin: string
  port: number
  /** A random id `GET /__health` answers, so a starter can check the server answering is the one it started. */
  instance: string
  fault: FaultSwitch
  server: Server
  close(): Promise<void>
}

export interface ServiceOptions {
  name: string
  /** 0 (the default) binds a free port. */
  port?: number
  handler: SandboxHandler
  /** Called before the server closes (e.g. to close WebSocket clients). */
  onClose?: () => Promise<void> | void
  /** Page origins whose requests get CORS headers (the demo's, the tests'). Default: loopback pages. */
  origins?: AllowedOrigins
  /**
   * Path prefixes only Node (tests, scripts) and the service's own pages may use, beside `/__fault`: no CORS
   * headers, and a request from another page's origin is refused with 403 (e.g. the secure site's `/mailbox`).
   */
  privatePaths?: readonly string[]
  /** Request headers allowed cross-origin (CORS), beside `content-type`, e.g. web3.js' `solana-client`. */
  allowHeaders?: readonly string[]
}

/** Always private: the fault switch is for tests, never for pages. */
const PRIVATE_PATHS = ['/__fault'] as const

/** Whether `path` is `prefix` or below it (`/mailbox`, `/mailbox/`, not `/mailboxes`). */
const under = (path: string, prefix: string) =>
  path === prefix || path.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`)

/** Bodies larger than this are refused with 413: the sandbox never buffers unbounded input. */
const MAX_BODY_BYTES = 1_000_000

/** A JSON error body in the one shape every sandbox service uses. */
export function errorJson(
  status: number,
  message: string,
  extra: Record<string, unknown> = {},
): SandboxResponse {
  return { status, json: { error: message, status, ...extra } }
}

/**
 * Starts one sandbox HTTP service on 127.0.0.1 with the shared behaviour: requests for any host but this
 * machine's loopback on the service's port refused (421, DNS rebinding), CORS for the allowed page origins
 * only (`origins`), the fault switch (`POST /__fault`, Node only: no CORS, 403 from pages), `GET /__health`,
 * bounded bodies and JSON answers.
 *
 * @example
 * const svc = await startService({ name: 'api', handler: (req) => ({ json: { ok: true } }) })
 * await fetch(`${svc.origin}/__health`)
 */
export async function startService(options: ServiceOptions): Promise<SandboxService> {
  const fault = new FaultSwitch()
  const instance = randomUUID()
  const sockets = new Set<Socket>()
  const origins = options.origins ?? defaultAllowedOrigins()
  const privatePaths = [...PRIVATE_PATHS, ...(options.privatePaths ?? [])]
  let ownOrigin = ''

  const server = createServer((raw, res) => {
    void handle(raw, res)
  })
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })

  async function handle(raw: IncomingMessage, res: ServerResponse): Promise<void> {
    // DNS rebinding: a request for another host name is refused before anything else, the health check too.
    if (refuseForeignHost(raw, res)) return
    const url = new URL(raw.url ?? '/', 'http://127.0.0.1')
    const origin = typeof raw.headers.origin === 'string' ? raw.headers.origin : undefined
    res.setHeader('Vary', 'Origin')
    if (privatePaths.some((prefix) => under(url.pathname, prefix))) {
      // Browsers send Origin on every cross-origin fetch and on form posts, so a page elsewhere is refused here
      // even for a "simple" POST, which CORS alone would let through unread.
      if (origin !== undefined && origin !== ownOrigin) {
        return send(res, errorJson(403, `${url.pathname} is not open to pages on other origins`))
      }
    } else if (origins.allows(origin)) {
      res.setHeader('Access-Control-Allow-Origin', origin)
      res.setHeader('Access-Control-Allow-Methods', 'GET,POST,OPTIONS')
      res.setHeader(
        'Access-Control-Allow-Headers',
        ['content-type', ...(options.allowHeaders ?? [])].join(', '),
      )
      res.setHeader('Access-Control-Expose-Headers', 'Retry-After')
    }
    if (raw.method === 'OPTIONS') {
      res.writeHead(res.hasHeader('Access-Control-Allow-Origin') ? 204 : 403).end()
      return
    }
    try {
      const body = await readBody(raw)
      if (url.pathname === '/__health') {
        return send(res, { json: { service: options.name, instance } })
      }
      if (url.pathname === '/__fault' && raw.method === 'POST') {
        let parsed: unknown
        try {
          parsed = JSON.parse(body)
        } catch {
          return send(res, errorJson(400, 'Fault body must be JSON'))
        }
        const result = v.safeParse(FaultSchema, parsed)
        if (!result.success) return send(res, errorJson(400, `Invalid fault: ${v.summarize(result.issues)}`))
        return send(res, { json: { service: options.name, fault: fault.set(result.output) } })
      }
      // A hostile fault is the routes' to apply (they answer hostile content, not an error).
      const applied = fault.current.mode === 'hostile' ? undefined : fault.take(url.pathname)
      if (applied) {
        if (applied.mode === 'stall') return // never answered; the socket is destroyed on close
        if (applied.mode === 'drop') {
          raw.socket.destroy()
          return
        }
        if (applied.mode === '429') {
          return send(res, {
            ...errorJson(429, 'Too many requests (sandbox fault switch)'),
            headers: { 'Retry-After': String(applied.retryAfterSeconds ?? 1) },
          })
        }
        return send(res, errorJson(500, 'Internal error (sandbox fault switch)'))
      }
      const answer = await options.handler(
        { method: raw.method ?? 'GET', url, headers: raw.headers, body, raw },
        res,
      )
      if (answer === 'handled') return
      if (answer === undefined) return send(res, errorJson(404, `No such path: ${url.pathname}`))
      return send(res, answer)
    } catch (error) {
      if (error instanceof BodyTooLarge) return send(res, errorJson(413, 'Body too large'))
      const message = error instanceof Error ? error.message : String(error)
      return send(res, errorJson(500, `Sandbox error: ${message}`))
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve())
  })
  const port = (server.address() as AddressInfo).port
  ownOrigin = `http://127.0.0.1:${port}`

  return {
    name: options.name,
    origin: `http://127.0.0.1:${port}`,
    port,
    instance,
    fault,
    server,
    async close() {
      await options.onClose?.()
      for (const socket of sockets) socket.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

class BodyTooLarge extends Error {}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    req.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > MAX_BODY_BYTES) {
        reject(new BodyTooLarge())
        req.destroy()
        return
      }
      chunks.push(chunk)
    })
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    req.on('error', reject)
  })
}

function send(res: ServerResponse, answer: SandboxResponse): void {
  if (res.headersSent) return
  const headers: Record<string, string> = { ...answer.headers }
  let body: string | Uint8Array = ''
  if (answer.json !== undefined) {
    headers['Content-Type'] ??= 'application/json'
    body = JSON.stringify(answer.json)
  } else if (answer.body !== undefined) {
    body = answer.body
  }
  res.writeHead(answer.status ?? 200, headers)
  res.end(body)
}

/** Reads a JSON body, answering `undefined` when it is not JSON. */
export function parseJson(body: string): unknown {
  try {
    return JSON.parse(body)
  } catch {
    return undefined
  }
}
