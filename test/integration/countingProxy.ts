import { createServer, request as httpRequest } from 'node:http'
import type { AddressInfo } from 'node:net'

/** A pass-through proxy on 127.0.0.1 (port 0) that records the requests reaching it. */
export interface CountingProxy {
  origin: string
  /** The request paths seen, in order (CORS preflights are not counted). */
  seen: string[]
  close(): Promise<void>
}

/**
 * Starts a proxy to `target` (an origin, or a function giving it at request time: a service that starts later),
 * which stands for one URL the kit is given and counts the calls the kit makes to it.
 */
export function startCountingProxy(target: string | (() => string)): Promise<CountingProxy> {
  const server = createServer()
  const upstreamOf = typeof target === 'string' ? () => target : target
  const proxy: CountingProxy = {
    origin: '',
    seen: [],
    close: () => {
      server.closeAllConnections()
      return new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
  server.on('request', (req, res) => {
    if (req.method !== 'OPTIONS') proxy.seen.push(req.url ?? '/')
    const upstream = upstreamOf()
    const forwarded = httpRequest(
      new URL(req.url ?? '/', upstream),
      { method: req.method, headers: { ...req.headers, host: new URL(upstream).host } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(res)
      },
    )
    forwarded.on('error', () => {
      if (!res.headersSent) res.writeHead(502).end()
    })
    req.pipe(forwarded)
  })
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      proxy.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
      resolve(proxy)
    }),
  )
}
