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

/**
 * Issue 14's "visible", the one definition every benchmark uses: the element is connected, has a non-empty box,
 * passes `checkVisibility()`, and its effective opacity (its own times every flat-tree ancestor's, through
 * slots and shadow roots) is at least 0.99, so content fading in from 0 is not visible yet. Runs in the page
 * (see {@link installVisibility}); self-contained for that reason. Answers why not, or `'visible'`.
 */
export function visibilityState(el) {
  if (!el?.isConnected) return 'absent'
  const box = el.getBoundingClientRect()
  if (box.width <= 0 || box.height <= 0) return 'empty box'
  if (!el.checkVisibility({ visibilityProperty: true, contentVisibilityAuto: true })) return 'hidden'
  const parent = (node) => node.assignedSlot ?? node.parentElement ?? node.getRootNode().host ?? null
  let opacity = 1
  for (let node = el; node; node = parent(node)) opacity *= Number(getComputedStyle(node).opacity)
  return opacity < 0.99 ? 'faded' : 'visible'
}

/** Defines {@link visibilityState} as `window.__benchVisibility` in the page's current document. */
export async function installVisibility(page) {
  await page.evaluate(`window.__benchVisibility = ${visibilityState.toString()}`)
}

/**
 * Loads `url` and aims the mouse at the button named `name` once it passes `page.click`'s actionability checks
 * (visible, stable, enabled, receives events), without clicking; then installs {@link visibilityState}.
 * Answers the button's centre. `fail(what, err)` builds the benchmark's own error.
 */
export async function loadAndAim(page, { url, name, timeoutMs, fail }) {
  try {
    await page.goto(url, { waitUntil: 'load', timeout: timeoutMs })
  } catch (err) {
    throw fail(`could not load ${url}`, err)
  }
  const button = page.getByRole('button', { name, exact: true })
  try {
    await button.waitFor({ state: 'visible', timeout: timeoutMs })
    await button.click({ trial: true, timeout: timeoutMs })
  } catch (err) {
    throw fail(`no clickable "${name}" button appeared`, err)
  }
  const box = await button.boundingBox()
  if (!box) throw fail(`"${name}" has no box`, 'boundingBox() returned null')
  const point = { x: box.x + box.width / 2, y: box.y + box.height / 2 }
  await page.mouse.move(point.x, point.y)
  await installVisibility(page)
  return point
}
