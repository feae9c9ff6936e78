// Peers benchmark: the same one-button host app built with Walletstate, AppKit, RainbowKit, ConnectKit and a
// wagmi-only baseline (apps/<kit>/), each a Vite production build served from 127.0.0.1, and measured in one
// run in Debian's Chromium: JavaScript before the first click, click -> Connect content visible, JS heap and
// DOM nodes with the modal open, script time while opening, off-machine requests before the click.
// `npm install && npm run bench` in bench/peers [-- --runs N --warmup N]. Exit 1 only on a real error.
import { existsSync, readFileSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { availableParallelism, cpus, loadavg } from 'node:os'
import { join, relative } from 'node:path'
import { parseArgs } from 'node:util'
import { gzipSync } from 'node:zlib'
import { CHROMIUM, CHROMIUM_ARGS, loadAndAim, serve, trackNetwork } from '../shared.mjs'
import { buildApp, here, repo } from './build.mjs'

const outRoot = join(here, 'out')
const BUTTON_NAME = 'Connect Wallet'
const DEFAULT_RUNS = 5
const DEFAULT_WARMUP = 1
// Quiet period that counts as "network idle" (the same 500 ms Playwright uses for `networkidle`).
const IDLE_QUIET_MS = 500
// Some kits retry blocked requests for a long time; past this the page counts as settled and a note says so.
const IDLE_CAP_MS = 15_000
// Pause before the click so the page's own after-load work is not timed.
const SETTLE_MS = 250
const STEP_TIMEOUT_MS = 30_000
const PROBE_TIMEOUT_MS = 15_000
// CPU profile sampling interval for the script-time figure (V8's default is 1000 us).
const PROFILE_INTERVAL_US = 250

/**
 * The kits, in print order. `content` locates the kit's Connect content (its wallet list or connect options):
 * each selector is looked up inside the previous match's shadow root when it has one, else inside the match.
 * `packages` are the versions reported (read from the app's node_modules).
 */
const ALL_KITS = [
  {
    id: 'walletstate',
    label: 'Walletstate',
    content: ['[data-view="Connect"] ul[aria-label="Wallets"]'],
    packages: ['react', 'wagmi', 'viem', '@tanstack/react-query'],
  },
  {
    id: 'appkit',
    label: 'AppKit',
    content: ['w3m-modal', 'w3m-router', 'w3m-connect-view', '[data-testid="w3m-connect-scroll-view"]'],
    packages: [
      '@reown/appkit',
      '@reown/appkit-adapter-wagmi',
      'react',
      'wagmi',
      'viem',
      '@tanstack/react-query',
    ],
  },
  {
    id: 'rainbowkit',
    label: 'RainbowKit',
    content: ['[data-rk] [role="dialog"] div:has(> div > button[data-testid^="rk-wallet-option-"])'],
    packages: ['@rainbow-me/rainbowkit', 'react', 'wagmi', 'viem', '@tanstack/react-query'],
  },
  {
    id: 'connectkit',
    label: 'ConnectKit',
    // ConnectKit has no test ids; its connector buttons are the ones holding a [data-shape] wallet logo.
    content: ['#__CONNECTKIT__ [role="dialog"] div:has(> button > [data-shape])'],
    packages: ['connectkit', 'react', 'wagmi', 'viem', '@tanstack/react-query'],
  },
  {
    id: 'baseline',
    label: 'wagmi only (baseline)',
    content: ['dialog[open] [data-peers-content]'],
    packages: ['react', 'wagmi', 'viem', '@tanstack/react-query'],
    baseline: true,
  },
]

/** Open/close cycles after the first open, for the retained-heap figure (issue 14: nothing kept after close). */
const CLOSE_CYCLES = 5

/** The figures, in print order; all are "lower is better". */
const FIGURES = [
  { key: 'jsGzip', label: 'JS before first click', unit: 'KiB gzip', fmt: (v) => (v / 1024).toFixed(1) },
  { key: 'openMs', label: 'click -> Connect content visible', unit: 'ms', fmt: (v) => v.toFixed(1) },
  { key: 'scriptMs', label: 'script time while opening', unit: 'ms', fmt: (v) => v.toFixed(1) },
  {
    key: 'heap',
    label: 'JS heap, modal open, after GC',
    unit: 'MiB',
    fmt: (v) => (v / 1024 / 1024).toFixed(2),
  },
  {
    key: 'heapCycled',
    label: `JS heap, ${CLOSE_CYCLES} more open/close, closed, after GC`,
    unit: 'MiB',
    fmt: (v) => (v / 1024 / 1024).toFixed(2),
  },
  { key: 'domNodes', label: 'DOM elements, modal open', unit: 'elements', fmt: (v) => String(Math.round(v)) },
  { key: 'foreign', label: 'off-machine requests before click', unit: 'requests', fmt: (v) => String(v) },
]

class BenchError extends Error {}

function errText(err) {
  return err instanceof Error ? err.message : String(err)
}

function parseCli() {
  const usage = 'usage: node run.mjs [--runs N] [--warmup N] [--no-build] [--kits a,b]'
  let values
  try {
    ;({ values } = parseArgs({
      options: {
        runs: { type: 'string', default: String(DEFAULT_RUNS) },
        warmup: { type: 'string', default: String(DEFAULT_WARMUP) },
        'no-build': { type: 'boolean', default: false },
        kits: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
    }))
  } catch (err) {
    throw new BenchError(`${errText(err)}\n${usage}`)
  }
  if (values.help) {
    console.log(
      `${usage}\n` +
        `  --runs N     measured page loads per kit; the table shows medians (default ${DEFAULT_RUNS})\n` +
        `  --warmup N   page loads per kit run first and discarded (default ${DEFAULT_WARMUP})\n` +
        '  --no-build   reuse the builds in out/build/ from an earlier run\n' +
        `  --kits a,b   only these kits (of ${ALL_KITS.map((k) => k.id).join(', ')}); the baseline always runs`,
    )
    process.exit(0)
  }
  const int = (name, min) => {
    const text = values[name]
    const n = Number(text)
    if (!/^\d+$/.test(text) || n < min || n > 1000) {
      throw new BenchError(`--${name} must be a whole number from ${min} to 1000, got "${text}"`)
    }
    return n
  }
  const kits = values.kits?.split(',').map((k) => k.trim())
  const unknown = kits?.filter((k) => !ALL_KITS.some((kit) => kit.id === k)) ?? []
  if (unknown.length) throw new BenchError(`--kits: unknown kit ${unknown.join(', ')}\n${usage}`)
  const picked = ALL_KITS.filter((k) => k.baseline || !kits || kits.includes(k.id))
  return { runs: int('runs', 1), warmup: int('warmup', 0), build: !values['no-build'], kits: picked }
}

const isLocalHost = (hostname) => hostname === '127.0.0.1' || hostname === 'localhost' || hostname === '[::1]'

/**
 * Runs in the page before the click. A capture-phase click listener on the button records the click's
 * timestamp and starts sampling every animation frame: the first frame in which the Connect content has a
 * non-empty box, passes checkVisibility() and has an effective opacity (its own times every flat-tree
 * ancestor's) of at least 0.99 ends the measurement, at that frame's time. `window.__peers.done` resolves
 * with the marks; `__peersVisible()` (a binding to Node) is called in that frame.
 */
function armProbe({ buttonName, content, timeoutMs, profiled }) {
  const button = [...document.querySelectorAll('button')].find((b) => b.textContent?.trim() === buttonName)
  if (!button) throw new Error(`no button named "${buttonName}" in the page`)

  const peersFind = () => {
    let root = document
    let el = null
    for (const selector of content) {
      el = root.querySelector(selector)
      if (!el) return null
      root = el.shadowRoot ?? el
    }
    return el
  }
  // Issue 14's "visible" (bench/shared.mjs visibilityState, installed by loadAndAim).
  const peersState = (el) => window.__benchVisibility(el)
  if (peersState(peersFind()) === 'visible')
    throw new Error('the Connect content is already visible before the click')

  const marks = { frames: 0 }
  // The CPU profile for the script time runs from here (before the click) to the visible frame; Node keeps
  // only its samples from the click on (profileTimes).
  if (profiled) console.profile('peers-open')
  window.__peers = {
    done: new Promise((resolveDone, rejectDone) => {
      const timer = setTimeout(() => {
        rejectDone(
          new Error(
            marks.click === undefined
              ? `the click never reached "${buttonName}" within ${timeoutMs} ms`
              : `the Connect content (${content.join(' >> ')}) was not visible within ${timeoutMs} ms of the click; last state: ${marks.lastState}`,
          ),
        )
      }, timeoutMs)
      const peersSample = (frameTime) => {
        marks.frames++
        const el = peersFind()
        const s = peersState(el)
        marks.lastState = s
        if (s === 'absent') marks.inDom = undefined
        else marks.inDom ??= frameTime
        if (s !== 'visible') {
          requestAnimationFrame(peersSample)
          return
        }
        marks.visibleFrame = frameTime
        marks.visibleCheckedAt = performance.now()
        if (profiled) console.profileEnd('peers-open')
        window.__peersVisible?.()
        clearTimeout(timer)
        resolveDone(marks)
      }
      button.addEventListener(
        'click',
        (e) => {
          marks.click = e.timeStamp
          requestAnimationFrame(peersSample)
        },
        { capture: true, once: true },
      )
    }),
  }
}

/** Elements in the document, open shadow roots included (AppKit's UI lives in them). */
function countElements() {
  let n = 0
  const walk = (root) => {
    for (const el of root.querySelectorAll('*')) {
      n++
      if (el.shadowRoot) walk(el.shadowRoot)
    }
  }
  walk(document)
  return n
}

/** Waits for every finite animation (shadow trees included) to finish, then two frames. */
async function animationsSettled() {
  const all = []
  const walk = (root) => {
    for (const el of root.querySelectorAll('*')) if (el.shadowRoot) walk(el.shadowRoot)
    all.push(...root.getAnimations())
  }
  walk(document)
  const finite = all.filter((a) => Number.isFinite(a.effect?.getComputedTiming().endTime ?? Number.NaN))
  await Promise.race([
    Promise.all(finite.map((a) => a.finished.catch(() => undefined))),
    new Promise((r) => setTimeout(r, 5_000)),
  ])
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))
  return finite.length
}

/**
 * JavaScript time in the last `windowMs` of a V8 CPU profile (it ends in the visible frame, so that is the
 * click -> visible window): every sample whose node is a JS function, each weighted by the time to the next
 * sample. Idle, "(program)" (the browser's own native work: style, layout, paint) and the garbage collector
 * are left out (GC is reported apart).
 */
function profileTimes(profile, windowMs) {
  const names = new Map(profile.nodes.map((n) => [n.id, n.callFrame.functionName]))
  const parents = new Map()
  for (const n of profile.nodes) for (const c of n.children ?? []) parents.set(c, n.id)
  // The probe's own checks (named peers*; they force style and layout) are not the kit's script.
  const inProbe = (id) => {
    for (let at = id; at !== undefined; at = parents.get(at))
      if (/^peers[A-Z]/.test(names.get(at))) return true
    return false
  }
  const { samples, timeDeltas } = profile
  const from = profile.endTime - windowMs * 1000
  let script = 0
  let gc = 0
  let probe = 0
  let at = profile.startTime
  for (let i = 0; i < samples.length; i++) {
    at += timeDeltas[i]
    const dt = i + 1 < samples.length ? timeDeltas[i + 1] : profile.endTime - at
    if (at < from) continue
    const name = names.get(samples[i])
    if (name === '(garbage collector)') gc += dt
    else if (inProbe(samples[i])) probe += dt
    else if (!['(idle)', '(program)', '(root)'].includes(name)) script += dt
  }
  return { scriptMs: script / 1000, gcMs: gc / 1000, probeMs: probe / 1000, profiledMs: windowMs }
}

async function metric(cdp, name) {
  const { metrics } = await cdp.send('Performance.getMetrics')
  const m = metrics.find((x) => x.name === name)
  if (!m) throw new BenchError(`Performance.getMetrics has no ${name}`)
  return m.value
}

async function softIdle(waitForIdle, notes, kit, label) {
  try {
    await waitForIdle(label)
  } catch (err) {
    notes.add(
      `${kit.label}: ${errText(err).split(';')[0]} (capped at ${IDLE_CAP_MS / 1000} s, measured anyway)`,
    )
  }
}

/**
 * One fresh page load of one kit's app: every figure once, or with `profiled` only the script time (a CPU
 * profile over the click; its sampling would disturb the other figures, so it gets its own page load).
 */
async function sampleKit(browser, kit, url, notes, profiled) {
  const context = await browser.newContext({
    serviceWorkers: 'block',
    viewport: { width: 1280, height: 720 },
  })
  try {
    const page = await context.newPage()
    const cdp = await context.newCDPSession(page)
    await cdp.send('Performance.enable')
    const origin = new URL(url).origin
    const pageErrors = []
    let phase = 'before'
    const outside = { before: [], after: [] }
    const scripts = []

    page.on('pageerror', (err) => pageErrors.push(err.message))
    // Keep the run hermetic: only the app's own origin is reachable. Everything else is aborted and listed.
    const record = (type, target) => {
      const host = new URL(target).hostname
      outside[phase].push({ type, url: target, foreign: !isLocalHost(host) })
    }
    await page.route('**/*', (route) => {
      const req = route.request()
      if (new URL(req.url()).origin === origin) return route.continue()
      record(req.resourceType(), req.url())
      return route.abort('blockedbyclient')
    })
    await page.routeWebSocket(/.*/, (ws) => {
      record('websocket', ws.url())
      return ws.close()
    })
    page.on('response', (response) => {
      if (phase !== 'before' || new URL(response.url()).origin !== origin || !response.ok()) return
      const type = response.request().resourceType()
      const ct = response.headers()['content-type'] ?? ''
      if (type !== 'script' && !/javascript|ecmascript/.test(ct)) return
      scripts.push(
        response.body().then((b) => ({
          path: new URL(response.url()).pathname,
          raw: b.length,
          gzip: gzipSync(b, { level: 9 }).length,
        })),
      )
    })
    // Scripts the page asks its own origin for between the click and the visible frame: what the open waited for
    // (issue 14: none; the modal's shell and Connect are in the first-click code).
    let openPending = false
    const openScripts = []
    page.on('request', (request) => {
      if (!openPending || new URL(request.url()).origin !== origin || request.resourceType() !== 'script')
        return
      openScripts.push(new URL(request.url()).pathname)
    })
    // The probe calls this binding in the visible frame.
    let visibleSignal = () => {}
    const atVisible = new Promise((resolveAt) => {
      visibleSignal = () => {
        openPending = false
        resolveAt(metric(cdp, 'ScriptDuration'))
      }
    })
    const consoleProfile = new Promise((resolveProfile) => {
      cdp.on('Profiler.consoleProfileFinished', (e) => resolveProfile(e.profile))
    })
    await page.exposeFunction('__peersVisible', () => visibleSignal())
    const waitForIdle = trackNetwork(page, {
      quietMs: IDLE_QUIET_MS,
      timeoutMs: IDLE_CAP_MS,
      fail: (m) => new BenchError(m),
    })
    const fail = (what, err) =>
      new BenchError(
        `${kit.label}: ${what}: ${errText(err)}${pageErrors.length ? `\npage errors:\n  ${pageErrors.join('\n  ')}` : ''}`,
      )

    await loadAndAim(page, { url, name: BUTTON_NAME, timeoutMs: STEP_TIMEOUT_MS, fail })
    await softIdle(waitForIdle, notes, kit, 'after page load')
    await page.waitForTimeout(SETTLE_MS)
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))))
    const js = await Promise.all(scripts)
    const outsideBefore = [...outside.before]

    if (profiled) {
      await cdp.send('Profiler.enable')
      await cdp.send('Profiler.setSamplingInterval', { interval: PROFILE_INTERVAL_US })
    }
    await page.evaluate(armProbe, {
      buttonName: BUTTON_NAME,
      content: kit.content,
      timeoutMs: PROBE_TIMEOUT_MS,
      profiled,
    })
    const scriptBefore = await metric(cdp, 'ScriptDuration')
    phase = 'after'
    openPending = true
    // A real mouse click (CDP Input.dispatchMouseEvent press and release), as a user's.
    await page.mouse.down()
    await page.mouse.up()
    let marks
    try {
      marks = await page.evaluate(() => window.__peers.done)
    } catch (err) {
      throw fail(`clicking "${BUTTON_NAME}" did not show the Connect content`, err)
    }
    const scriptDurationMs = ((await atVisible) - scriptBefore) * 1000
    if (profiled) {
      const profile = await Promise.race([
        consoleProfile,
        new Promise((_, no) =>
          setTimeout(() => no(fail('CPU profile', 'no console profile arrived')), STEP_TIMEOUT_MS),
        ),
      ])
      return {
        ...profileTimes(profile, marks.visibleCheckedAt - marks.click),
        profiledOpenMs: marks.visibleFrame - marks.click,
      }
    }

    await softIdle(waitForIdle, notes, kit, 'after the click')
    const animations = await page.evaluate(animationsSettled)
    await page.waitForTimeout(SETTLE_MS)
    const domNodes = await page.evaluate(countElements)
    await cdp.send('HeapProfiler.collectGarbage')
    const heap = await metric(cdp, 'JSHeapUsedSize')
    // Retained after close: Escape closes the modal, the same click opens it again, CLOSE_CYCLES times; then
    // closed, after GC. What grows here is kept across opens (V8's own compiled code grows a little too).
    for (let cycle = 0; cycle < CLOSE_CYCLES; cycle++) {
      await page.keyboard.press('Escape')
      await page.waitForTimeout(SETTLE_MS)
      await page.mouse.down()
      await page.mouse.up()
      await page.waitForTimeout(SETTLE_MS * 2)
    }
    await page.keyboard.press('Escape')
    await page.waitForTimeout(SETTLE_MS)
    await cdp.send('HeapProfiler.collectGarbage')
    const heapCycled = await metric(cdp, 'JSHeapUsedSize')
    for (const e of pageErrors) notes.add(`${kit.label}: page error: ${e.slice(0, 200)}`)
    if (openScripts.length)
      notes.add(
        `${kit.label}: scripts fetched between the click and Connect visible: ${openScripts.join(', ')}`,
      )

    return {
      jsGzip: js.reduce((n, f) => n + f.gzip, 0),
      jsRaw: js.reduce((n, f) => n + f.raw, 0),
      jsFiles: js.map((f) => f.path).sort(),
      openMs: marks.visibleFrame - marks.click,
      inDomMs: marks.inDom === undefined ? null : marks.inDom - marks.click,
      framesSampled: marks.frames,
      scriptDurationMs,
      heap,
      heapCycled,
      domNodes,
      animations,
      foreign: outsideBefore.filter((r) => r.foreign).length,
      outsideBefore,
      outsideAfter: [...outside.after],
      scriptsBeforeVisible: openScripts,
    }
  } finally {
    await context.close()
  }
}

function median(values) {
  const s = values.filter((v) => typeof v === 'number' && Number.isFinite(v)).sort((a, b) => a - b)
  if (s.length === 0) return null
  const mid = s.length >> 1
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2
}

function versionsOf(kit) {
  const out = {}
  for (const name of kit.packages) {
    const file = join(here, 'apps', kit.id, 'node_modules', name, 'package.json')
    out[name] = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')).version : null
  }
  if (kit.id === 'walletstate')
    out.walletstate = `${JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')).version} (the repo's package build)`
  return out
}

function ratio(value, base, fmt) {
  if (value === null || base === null) return '-'
  // Nothing to divide by: say how much more than zero.
  if (base === 0) return value === 0 ? '1.00x' : `+${fmt(value)}`
  return `${(value / base).toFixed(2)}x`
}

function printTable(summary) {
  const peers = KITS.filter((k) => !k.baseline)
  const baseline = KITS.find((k) => k.baseline)
  const head = ['figure (median)', 'kit', 'value', 'unit', 'vs best kit', 'vs baseline']
  const rows = []
  for (const f of FIGURES) {
    const values = peers.map((k) => summary[k.id][f.key]).filter((v) => v !== null)
    const best = values.length ? Math.min(...values) : null
    const base = summary[baseline.id][f.key]
    for (const k of KITS) {
      const v = summary[k.id][f.key]
      rows.push([
        k === KITS[0] ? f.label : '',
        k.label,
        v === null ? '-' : f.fmt(v),
        f.unit,
        k.baseline ? '' : ratio(v, best, f.fmt),
        k.baseline ? '' : ratio(v, base, f.fmt),
      ])
    }
  }
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)))
  const right = new Set([2, 4, 5])
  const line = (cells) =>
    cells.map((c, i) => (right.has(i) ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join('  ')
  console.log(line(head))
  console.log(widths.map((w) => '-'.repeat(w)).join('  '))
  rows.forEach((r, i) => {
    if (i > 0 && r[0]) console.log('')
    console.log(line(r))
  })
}

/** The kits of this run, in print order (`--kits` picks some; all by default). */
let KITS = ALL_KITS

async function main() {
  const cli = parseCli()
  const { runs, warmup, build } = cli
  KITS = cli.kits
  if (!existsSync(CHROMIUM)) {
    throw new BenchError(
      `Chromium is not installed at ${CHROMIUM} (apt-get install -y chromium; never \`npx playwright install\`)`,
    )
  }
  const { chromium } = await import('playwright-core')

  const builds = {}
  for (const kit of KITS) {
    builds[kit.id] = join(outRoot, 'build', kit.id)
    if (!build) {
      if (!existsSync(join(builds[kit.id], 'index.html')))
        throw new BenchError(`--no-build: no build in ${relative(here, builds[kit.id])}`)
      continue
    }
    const started = Date.now()
    try {
      await buildApp(kit.id, builds[kit.id])
    } catch (err) {
      throw new BenchError(`build of apps/${kit.id} failed:\n${errText(err)}`)
    }
    console.log(
      `built ${kit.label} in ${((Date.now() - started) / 1000).toFixed(1)} s -> ${relative(here, builds[kit.id])}`,
    )
  }

  const servers = {}
  const notes = new Set()
  // Ctrl-C or a kill: close the browser and the servers before leaving (Playwright's own handlers are off).
  let browserRef
  const onSignal = (signal) => {
    console.error(`bench:peers: ${signal}, closing Chromium and the servers`)
    Promise.allSettled([browserRef?.close(), ...Object.values(servers).map((s) => s.close())]).finally(() =>
      process.exit(130),
    )
  }
  process.once('SIGINT', onSignal)
  process.once('SIGTERM', onSignal)
  process.once('SIGHUP', onSignal)
  const samples = Object.fromEntries(KITS.map((k) => [k.id, []]))
  let browser
  let chromiumVersion
  const loadBefore = loadavg()
  try {
    for (const kit of KITS) servers[kit.id] = await serve(builds[kit.id])
    try {
      browser = await chromium.launch({
        executablePath: CHROMIUM,
        headless: true,
        args: CHROMIUM_ARGS,
        handleSIGINT: false,
        handleSIGTERM: false,
        handleSIGHUP: false,
      })
      browserRef = browser
    } catch (err) {
      throw new BenchError(`could not start Chromium (${CHROMIUM}): ${errText(err)}`)
    }
    chromiumVersion = browser.version()
    for (let i = 0; i < warmup + runs; i++) {
      // Rotate the order each round so no kit always runs first (or right after the heaviest one).
      const order = KITS.map((_, j) => KITS[(i + j) % KITS.length])
      const measured = i >= warmup
      const line = []
      for (const kit of order) {
        const s = {
          ...(await sampleKit(browser, kit, servers[kit.id].url, notes, false)),
          ...(await sampleKit(browser, kit, servers[kit.id].url, notes, true)),
        }
        if (measured) samples[kit.id].push(s)
        line.push(`${kit.id} ${s.openMs.toFixed(1)} ms`)
      }
      console.log(
        `${measured ? `run ${i - warmup + 1}/${runs}` : `warm-up ${i + 1}/${warmup} (discarded)`}: ${line.join(', ')}`,
      )
    }
  } finally {
    await browser?.close()
    await Promise.all(Object.values(servers).map((s) => s.close()))
  }
  const loadAfter = loadavg()

  const summary = {}
  for (const kit of KITS) {
    summary[kit.id] = Object.fromEntries(
      [
        ...FIGURES.map((f) => f.key),
        'jsRaw',
        'inDomMs',
        'gcMs',
        'probeMs',
        'profiledMs',
        'profiledOpenMs',
        'scriptDurationMs',
      ].map((key) => [key, median(samples[kit.id].map((s) => s[key]))]),
    )
  }
  const cpuModel = cpus()[0]?.model ?? 'unknown CPU'
  console.log(
    `\nMedians of ${runs} page loads per kit (${warmup} warm-up discarded), Chromium ${chromiumVersion} headless, ` +
      `Node ${process.version}, ${availableParallelism()} CPUs (${cpuModel}), load average ${loadBefore[0].toFixed(2)} before / ${loadAfter[0].toFixed(2)} after.`,
  )
  console.log(
    'vs best kit: value / the lowest of the four kits; vs baseline: value / the wagmi-only app ("+N" where that is 0). Lower is better.\n',
  )
  printTable(summary)
  const versions = Object.fromEntries(KITS.map((k) => [k.id, versionsOf(k)]))
  console.log('')
  for (const kit of KITS) {
    const v = Object.entries(versions[kit.id])
      .map(([n, ver]) => `${n} ${ver}`)
      .join(', ')
    console.log(`${kit.label}: ${v}`)
  }
  for (const kit of KITS) {
    const hosts = new Set(
      samples[kit.id].flatMap((s) =>
        s.outsideBefore.filter((r) => r.foreign).map((r) => new URL(r.url).host),
      ),
    )
    if (hosts.size) console.log(`${kit.label}: blocked before the click, to ${[...hosts].sort().join(', ')}`)
  }
  for (const n of notes) console.log(`note: ${n}`)

  const report = {
    generatedAt: new Date().toISOString(),
    machine: {
      cpus: availableParallelism(),
      cpuModel,
      node: process.version,
      chromium: chromiumVersion,
      chromiumArgs: CHROMIUM_ARGS,
      loadAverage: { before: loadBefore, after: loadAfter },
    },
    runs,
    warmup,
    method: {
      jsGzip:
        'bytes: every JavaScript response from the app origin before the click, each body gzipped with node:zlib level 9, summed',
      openMs:
        'ms: click event timeStamp (capture-phase listener) to the time of the first requestAnimationFrame in which the Connect content has a non-empty box, passes checkVisibility() and has effective opacity >= 0.99',
      scriptMs: `ms: JavaScript samples (not idle, program or GC) in a V8 CPU profile (${PROFILE_INTERVAL_US} us sampling) that the page starts with console.profile() before the click and ends with console.profileEnd() in the visible frame, counting only samples from the click event's timeStamp on and leaving out the probe's own checks (probeMs); a second page load of its own, so the profiler does not disturb the other figures (profiledOpenMs: the open time in that load)`,
      scriptDurationMs:
        'ms: CDP Performance.getMetrics ScriptDuration over the same window; a cross-check only: it leaves out microtasks (promise callbacks, Lit updates)',
      heap: 'bytes: CDP Performance.getMetrics JSHeapUsedSize after HeapProfiler.collectGarbage, modal open and settled',
      heapCycled: `bytes: JSHeapUsedSize after GC, after ${CLOSE_CYCLES} more open/close cycles (Escape, the same click), modal closed`,
      domNodes:
        "elements: document.querySelectorAll('*') plus every open shadow root's, modal open and settled",
      foreign:
        'requests (HTTP and WebSocket) to hosts other than 127.0.0.1/localhost before the click, all blocked',
    },
    content: Object.fromEntries(KITS.map((k) => [k.id, k.content])),
    versions,
    summary,
    samples,
    notes: [...notes],
  }
  await mkdir(outRoot, { recursive: true })
  const file = join(outRoot, 'peers.json')
  await writeFile(file, `${JSON.stringify(report, null, 2)}\n`)
  console.log(`figures written to ${relative(repo, file)}`)
}

main().catch((err) => {
  console.error(err instanceof BenchError ? `bench:peers failed: ${err.message}` : err)
  process.exitCode = 1
})
