import { request } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { type InspectorServer, startInspectorServer } from '../inspector/server.ts'
import { type Relay, startRelay } from '../relay/relay.ts'
import { type SandboxService, startService } from './http.ts'
import { AllowedOrigins, isLoopbackHost, originsFromEnv } from './origins.ts'

/*
 * Which pages may read the sandbox: CORS only for configured origins, none at all on the fault switch and
 * other private paths (which refuse pages outright), and WebSocket upgrades checked against the same list.
 */

const DEMO = 'http://127.0.0.1:5173'
const FOREIGN = [
  'https://evil.example',
  'http://127.0.0.1.evil.example:5173',
  'null',
  'http://localhost:5173',
]

let origins: AllowedOrigins
let service: SandboxService
let inspector: InspectorServer
let relay: Relay

beforeAll(async () => {
  origins = new AllowedOrigins([DEMO])
  ;[service, inspector, relay] = await Promise.all([
    startService({
      name: 'probe',
      origins,
      privatePaths: ['/mailbox'],
      handler: (req) => ({ json: { path: req.url.pathname } }),
    }),
    startInspectorServer({ origins }),
    startRelay({ origins }),
  ])
})

afterAll(async () => {
  await Promise.all([service?.close(), inspector?.close(), relay?.close()])
})

const get = (path: string, headers: Record<string, string> = {}, init: RequestInit = {}) =>
  fetch(`${service.origin}${path}`, { ...init, headers })

describe('CORS', () => {
  it('echoes a configured origin, and an origin added later', async () => {
    const answer = await get('/anything', { origin: DEMO })
    expect(answer.status).toBe(200)
    expect(answer.headers.get('access-control-allow-origin')).toBe(DEMO)
    const later = 'http://127.0.0.1:6000'
    expect((await get('/anything', { origin: later })).headers.get('access-control-allow-origin')).toBeNull()
    origins.add(later)
    expect((await get('/anything', { origin: later })).headers.get('access-control-allow-origin')).toBe(later)
  })

  it.each(FOREIGN)('gives %s no CORS headers, and refuses its preflight', async (origin) => {
    const answer = await get('/anything', { origin })
    expect(answer.headers.get('access-control-allow-origin')).toBeNull()
    expect(answer.headers.get('access-control-allow-methods')).toBeNull()
    const preflight = await get(
      '/anything',
      { origin, 'access-control-request-method': 'POST' },
      { method: 'OPTIONS' },
    )
    expect(preflight.status).toBe(403)
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull()
  })

  it('answers Node (no Origin) without CORS headers', async () => {
    const answer = await get('/anything')
    expect(answer.status).toBe(200)
    expect(answer.headers.get('access-control-allow-origin')).toBeNull()
  })

  it('never allows a bare * or null to be configured, and reads more origins from the environment', () => {
    expect(() => new AllowedOrigins(['*'])).toThrow(/not an origin/)
    expect(() => new AllowedOrigins(['null'])).toThrow(/not an origin/)
    expect(originsFromEnv({ WALLETSTATE_ALLOWED_ORIGINS: 'http://a.test:1, https://b.test' })).toEqual([
      'http://a.test:1',
      'https://b.test',
    ])
    expect(() => originsFromEnv({ WALLETSTATE_ALLOWED_ORIGINS: 'javascript:alert(1)' })).toThrow(
      /not an origin/,
    )
  })
})

describe('private paths: /__fault and /mailbox', () => {
  it.each([DEMO, ...FOREIGN])('refuse a page on %s (403, no CORS), even a simple POST', async (origin) => {
    const fault = await get(
      '/__fault',
      { origin, 'content-type': 'text/plain' },
      { method: 'POST', body: JSON.stringify({ mode: 'fail' }) },
    )
    expect(fault.status).toBe(403)
    expect(fault.headers.get('access-control-allow-origin')).toBeNull()
    expect(service.fault.current.mode).toBe('off')
    const mailbox = await get('/mailbox?to=a@example.com', { origin })
    expect(mailbox.status).toBe(403)
    expect(mailbox.headers.get('access-control-allow-origin')).toBeNull()
    const preflight = await get(
      '/__fault',
      { origin, 'access-control-request-method': 'POST' },
      { method: 'OPTIONS' },
    )
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull()
  })

  it('still work from Node, and for the service own pages', async () => {
    const set = await get(
      '/__fault',
      {},
      { method: 'POST', body: JSON.stringify({ mode: 'fail', path: '/x' }) },
    )
    expect(set.status).toBe(200)
    expect(service.fault.current).toMatchObject({ mode: 'fail', path: '/x' })
    await get(
      '/__fault',
      { origin: service.origin },
      { method: 'POST', body: JSON.stringify({ mode: 'off' }) },
    )
    expect(service.fault.current.mode).toBe('off')
    expect((await get('/mailbox', {})).status).toBe(200)
    expect((await get('/mailboxes', { origin: DEMO })).headers.get('access-control-allow-origin')).toBe(DEMO)
  })
})

/** Opens a socket with an Origin header (or none); answers 'open' or the HTTP status of the refusal. */
function connect(url: string, origin?: string, host?: string): Promise<'open' | number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, {
      ...(origin === undefined ? {} : { origin }),
      ...(host === undefined ? {} : { headers: { host } }),
    })
    socket.once('open', () => {
      socket.close()
      resolve('open')
    })
    socket.once('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0)
      socket.terminate()
    })
    socket.once('error', (error) => reject(error))
  })
}

describe('WebSocket upgrades', () => {
  it.each(FOREIGN)('the inspector refuses a page on %s with 403', async (origin) => {
    expect(await connect(inspector.url, origin)).toBe(403)
  })

  it('the inspector takes the demo, its own viewer page and Node', async () => {
    expect(await connect(inspector.url, DEMO)).toBe('open')
    expect(await connect(inspector.url, inspector.origin)).toBe('open')
    expect(await connect(inspector.url)).toBe('open')
  })

  it.each(FOREIGN)('the relay refuses a page on %s with 403', async (origin) => {
    expect(await connect(relay.url, origin)).toBe(403)
  })

  it('the relay takes the demo and Node', async () => {
    expect(await connect(relay.url, DEMO)).toBe('open')
    expect(await connect(relay.url)).toBe('open')
  })
})

/** A GET to 127.0.0.1:`port` with exactly this Host header (none when `undefined`); answers the status. */
function withHost(port: number, host: string | undefined, path = '/anything'): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, setHost: false, headers: host === undefined ? {} : { host } },
      (res) => {
        res.resume()
        resolve(res.statusCode ?? 0)
      },
    )
    req.once('error', reject)
    req.end()
  })
}

/**
 * DNS rebinding: a page on `evil.example` whose name is made to resolve to 127.0.0.1 reaches a sandbox port as
 * its own origin, so CORS never applies. Its requests carry `Host: evil.example:PORT`: every service refuses
 * them before any handler, the health check and the fault switch included, and every WebSocket upgrade too.
 * (Guards refuseForeignHost in shared/http.ts and the Host check in refuseForeignUpgrade.)
 */
describe('Host header (DNS rebinding)', () => {
  const foreignHosts = (port: number) => [
    `evil.example:${port}`,
    `127.0.0.1.evil.example:${port}`,
    `localhost.:${port}`,
    `127.0.0.1:${port + 1}`,
    '127.0.0.1',
    `10.0.0.1:${port}`,
    `127.0.0.1:${port}@evil.example`,
  ]

  it('answers only loopback names on its own port', () => {
    expect(isLoopbackHost('127.0.0.1:5173', 5173)).toBe(true)
    expect(isLoopbackHost('LOCALHOST:5173', 5173)).toBe(true)
    expect(isLoopbackHost('[::1]:5173', 5173)).toBe(true)
    expect(isLoopbackHost(undefined, 5173)).toBe(false)
    for (const host of foreignHosts(5173)) expect(isLoopbackHost(host, 5173), host).toBe(false)
  })

  it('a service refuses a request for another host with 421, and one without Host with 400', async () => {
    for (const host of foreignHosts(service.port)) {
      expect(await withHost(service.port, host), host).toBe(421)
      expect(await withHost(service.port, host, '/__health'), host).toBe(421)
    }
    expect(await withHost(service.port, undefined)).toBe(400)
    for (const host of [`127.0.0.1:${service.port}`, `localhost:${service.port}`, `[::1]:${service.port}`]) {
      expect(await withHost(service.port, host), host).toBe(200)
    }
  })

  it('the relay and the inspector refuse a request and a socket for another host with 421', async () => {
    for (const sandbox of [relay, inspector]) {
      const port = Number(new URL(sandbox.url).port)
      expect(await withHost(port, `evil.example:${port}`)).toBe(421)
      expect(await connect(sandbox.url, undefined, `evil.example:${port}`)).toBe(421)
      expect(await connect(sandbox.url, DEMO, `evil.example:${port}`)).toBe(421)
      expect(await connect(sandbox.url, undefined, `localhost:${port}`)).toBe('open')
    }
  })
})
