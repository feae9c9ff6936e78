// Shared by the benchmark scripts: Debian's Chromium and its flags on this machine, and a plain static server.
import { readFile, stat } from 'node:fs/promises'
import { createServer } from 'node:http'
import { extname, resolve, sep } from 'node:path'

export { CHROMIUM, CHROMIUM_ARGS } from '../scripts/chromium.mjs'

export const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.wasm': 'application/wasm',
  '.woff2': 'font/woff2',
}

function errText(err) {
  return err instanceof Error ? err.message : String(err)
}

// Plain static server: no compression, no caching tricks; the benchmark gzips bodies itself.
export function serve(dir) {
  const root = resolve(dir)
  const server = createServer(async (req, res) => {
    try {
      const pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)
      const path = resolve(root, `.${pathname.endsWith('/') ? `${pathname}index.html` : pathname}`)
      if (path !== root && !path.startsWith(root + sep)) {
        res.writeHead(403).end('forbidden')
        return
      }
      const info = await stat(path).catch(() => null)
      if (!info?.isFile()) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('not found')
        return
      }
      const body = await readFile(path)
      res.writeHead(200, {
        'content-type': MIME[extname(path)] ?? 'application/octet-stream',
        'content-length': body.length,
        'cache-control': 'no-store',
      })
      res.end(req.method === 'HEAD' ? undefined : body)
    } catch (err) {
      res.writeHead(500, { 'content-type': 'text/plain' }).end(errText(err))
    }
  })
  return new Promise((ok, fail) => {
    server.once('error', fail)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address()
      ok({ url: `http://127.0.0.1:${port}/`, close: () => new Promise((done) => server.close(() => done())) })
    })
  })
}

/** Counts in-flight requests so "network idle" can be awaited at any time, not only after navigation. */
export function trackNetwork(page, { quietMs, timeoutMs, fail }) {
  const inflight = new Set()
  let lastChange = Date.now()
  const change = () => {
    lastChange = Date.now()
  }
  page.on('request', (r) => {
    inflight.add(r)
    change()
  })
  const done = (r) => {
    inflight.delete(r)
    change()
  }
  page.on('requestfinished', done)
  page.on('requestfailed', done)
  return async function waitForIdle(label) {
    const deadline = Date.now() + timeoutMs
    while (Date.now() < deadline) {
      if (inflight.size === 0 && Date.now() - lastChange >= quietMs) return
      await new Promise((r) => setTimeout(r, 50))
    }
    const pending = [...inflight].map((r) => r.url()).join(', ')
    throw fail(`network never went idle ${label} within ${timeoutMs} ms; pending: ${pending}`)
  }
}
