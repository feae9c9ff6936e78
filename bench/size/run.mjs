// Bundle-size benchmark: builds the demo host app and a kit-less baseline with the same Vite setup, loads
// each in real Chromium and reports the gzip bytes of JavaScript fetched before the first click, after
// clicking "Connect Wallet", and in the whole build. `npm run bench:size`. Exit 1 only on a real error.
// The demo is built against the package as hosts get it: the kit's imports resolve to the built `dist/` that
// `npm pack` ships (built first with vite.lib.config.ts), not to src/. `--from-source` measures src/ instead.
import { existsSync } from 'node:fs'
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises'
import { join, relative, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { CHROMIUM, CHROMIUM_ARGS, serve, trackNetwork } from '../shared.mjs'

const repo = fileURLToPath(new URL('../../', import.meta.url))
const outRoot = join(repo, 'bench/size/out')
const BUDGET_KIB = 60
const KIB = 1024
// Quiet period that counts as "network idle" (the same 500 ms Playwright uses for `networkidle`).
const IDLE_QUIET_MS = 500
const STEP_TIMEOUT_MS = 30_000

const FROM_SOURCE = process.argv.includes('--from-source')
/** The demo's imports of the kit (`../src`, `../src/react`) resolved to the packed package's entry points. */
const PACKAGE_ALIASES = [
  { find: /^\.\.\/src$/, replacement: join(repo, 'dist/index.js') },
  { find: /^\.\.\/src\/react$/, replacement: join(repo, 'dist/react.js') },
]

/** The two apps, built with the same bundler and plugins; only the kit differs. */
const APPS = [
  {
    name: 'demo',
    configFile: join(repo, 'demo/vite.config.ts'),
    waitForDialog: true,
    aliases: FROM_SOURCE ? [] : PACKAGE_ALIASES,
  },
  { name: 'baseline', configFile: join(repo, 'bench/size/baseline/vite.config.ts'), waitForDialog: false },
]

class BenchError extends Error {}

const gzipSize = (buf) => gzipSync(buf, { level: 9 }).length
const kib = (bytes) => `${(bytes / KIB).toFixed(1)} KiB`
const isJsFile = (path) => /\.m?js$/.test(path)
/**
 * Features whose code must load only when the visitor opens them (issue 16: the swap's views, machine, slots and
 * convert client). Each is found in the build by its chunks' names; the report says whether any was fetched
 * before the first click or on opening Connect.
 */
const ON_DEMAND_FEATURES = [
  { name: 'swap', chunk: /(^|\/)(Swap|SwapPreview|SwapSelectToken|swapShared|swap|convert)\d*-[\w-]+\.js$/ },
  // Solana's connection and adapter (@solana/web3.js, the wallet adapter): the demo as built here configures only
  // the EVM chain (no sandbox: no Solana network), so this is what a host with only EVM networks fetches of it.
  { name: 'solana', chunk: /(^|\/)(solana|solanaConnection|solanaSend|solanaSwap)\d*-[\w-]+\.js$/ },
  // Pay's view (issue 18, `features.pay` off by default): fetched only when the host opens a payment.
  { name: 'pay', chunk: /(^|\/)Pay\d*-[\w-]+\.js$/ },
  // Account names (issue 20): the registration views and their shared pieces, fetched when "Choose a name" is
  // pressed; the account's name for the host button comes with the modal while connected (AccountNameLabel).
  {
    name: 'names',
    chunk: /(^|\/)(RegisterAccountName\w*|namesShared|names|AccountNameLabel)\d*-[\w-]+\.js$/,
  },
]

function sum(list) {
  const files = [...list].sort((a, b) => a.path.localeCompare(b.path))
  return {
    files,
    raw: files.reduce((n, f) => n + f.raw, 0),
    gzip: files.reduce((n, f) => n + f.gzip, 0),
  }
}

async function buildApp(app, outDir) {
  const { build } = await import('vite')
  if (!existsSync(app.configFile)) throw new BenchError(`${app.name}: no Vite config at ${app.configFile}`)
  const started = Date.now()
  try {
    await build({
      configFile: app.configFile,
      mode: 'production',
      logLevel: 'warn',
      build: { outDir, emptyOutDir: true },
      ...(app.aliases?.length ? { resolve: { alias: app.aliases } } : {}),
    })
  } catch (err) {
    throw new BenchError(`build of ${app.name} (${relative(repo, app.configFile)}) failed:\n${errText(err)}`)
  }
  console.log(
    `built ${app.name} in ${((Date.now() - started) / 1000).toFixed(1)} s -> ${relative(repo, outDir)}`,
  )
}

/** The package's JavaScript as `npm pack` ships it (dist/, from vite.lib.config.ts). */
async function buildPackage() {
  const { build } = await import('vite')
  const started = Date.now()
  try {
    await build({ configFile: join(repo, 'vite.lib.config.ts'), mode: 'production', logLevel: 'warn' })
  } catch (err) {
    throw new BenchError(`the package build (vite.lib.config.ts) failed:\n${errText(err)}`)
  }
  for (const entry of ['dist/index.js', 'dist/react.js'])
    if (!existsSync(join(repo, entry))) throw new BenchError(`the package build did not write ${entry}`)
  console.log(
    `built the package (dist/) in ${((Date.now() - started) / 1000).toFixed(1)} s; the demo imports it`,
  )
}

async function listFiles(dir) {
  const out = []
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) out.push(...(await listFiles(path)))
    else out.push(path)
  }
  return out
}

async function buildTotals(outDir) {
  const files = []
  for (const path of (await listFiles(outDir)).filter(isJsFile).sort()) {
    const body = await readFile(path)
    files.push({ path: relative(outDir, path).split(sep).join('/'), raw: body.length, gzip: gzipSize(body) })
  }
  return sum(files)
}

async function measureInBrowser(browser, app, url) {
  const context = await browser.newContext({ serviceWorkers: 'block' })
  const page = await context.newPage()
  const origin = new URL(url).origin
  const pageErrors = []
  const blocked = []
  const seen = new Set()
  const pendingBodies = { before: [], after: [] }
  let phase = 'before'

  page.on('pageerror', (err) => pageErrors.push(err.message))
  page.on('console', (msg) => {
    if (msg.type() === 'error') pageErrors.push(`console: ${msg.text()}`)
  })
  // Keep the run hermetic: only the app's own origin is reachable. Anything else is listed, not hidden.
  await page.route('**/*', (route) => {
    const req = route.request()
    if (new URL(req.url()).origin === origin) return route.continue()
    blocked.push({ phase, type: req.resourceType(), url: req.url() })
    return route.abort('blockedbyclient')
  })
  page.on('response', (response) => {
    const type = response.request().resourceType()
    const ct = response.headers()['content-type'] ?? ''
    if (type !== 'script' && !/javascript|ecmascript/.test(ct)) return
    if (!response.ok() || seen.has(response.url())) return
    seen.add(response.url())
    const at = phase
    pendingBodies[at].push(
      response.body().then((body) => ({
        path: new URL(response.url()).pathname.replace(/^\//, ''),
        raw: body.length,
        gzip: gzipSize(body),
      })),
    )
  })
  const waitForIdle = trackNetwork(page, {
    quietMs: IDLE_QUIET_MS,
    timeoutMs: STEP_TIMEOUT_MS,
    fail: (m) => new BenchError(m),
  })

  const fail = (what, err) =>
    new BenchError(
      `${app.name}: ${what}: ${errText(err)}${pageErrors.length ? `\npage errors:\n  ${pageErrors.join('\n  ')}` : ''}`,
    )
  try {
    try {
      await page.goto(url, { waitUntil: 'load', timeout: STEP_TIMEOUT_MS })
    } catch (err) {
      throw fail(`could not load ${url}`, err)
    }
    const button = page.getByRole('button', { name: 'Connect Wallet', exact: true })
    try {
      await button.waitFor({ state: 'visible', timeout: STEP_TIMEOUT_MS })
    } catch (err) {
      throw fail('no "Connect Wallet" button appeared', err)
    }
    await waitForIdle('after page load')
    const before = sum(await Promise.all(pendingBodies.before))

    phase = 'after'
    try {
      await button.click({ timeout: STEP_TIMEOUT_MS })
      if (app.waitForDialog) {
        await page.getByRole('dialog').first().waitFor({ state: 'visible', timeout: STEP_TIMEOUT_MS })
      }
    } catch (err) {
      throw fail(app.waitForDialog ? 'clicking "Connect Wallet" opened no dialog' : 'click failed', err)
    }
    await waitForIdle('after the click')
    const after = sum(await Promise.all(pendingBodies.after))
    return { before, after, blocked, pageErrors }
  } finally {
    await context.close()
  }
}

function errText(err) {
  if (err instanceof Error) return err.message
  return String(err)
}

function printPhase(label, totals) {
  console.log(
    `  ${label.padEnd(20)} ${String(totals.files.length).padStart(3)} files  raw ${String(totals.raw).padStart(9)} B (${kib(totals.raw).padStart(10)})  gzip ${String(totals.gzip).padStart(8)} B (${kib(totals.gzip).padStart(9)})`,
  )
  for (const f of totals.files) {
    console.log(`      ${f.path.padEnd(48)} raw ${kib(f.raw).padStart(10)}  gzip ${kib(f.gzip).padStart(9)}`)
  }
}

async function main() {
  if (!existsSync(CHROMIUM)) {
    console.error(
      `Chromium is not installed at ${CHROMIUM}. Install it with:\n  apt-get install -y chromium\n` +
        '(do not use `npx playwright install`; this benchmark drives the Debian build through playwright-core)',
    )
    process.exit(1)
  }
  const { chromium } = await import('playwright-core')

  if (!FROM_SOURCE) await buildPackage()
  const results = {}
  for (const app of APPS) {
    const outDir = join(outRoot, app.name)
    await buildApp(app, outDir)
    results[app.name] = { outDir, build: await buildTotals(outDir) }
  }

  let browser
  try {
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS })
  } catch (err) {
    throw new BenchError(`could not start Chromium (${CHROMIUM}): ${errText(err)}`)
  }
  const chromiumVersion = browser.version()
  try {
    for (const app of APPS) {
      const server = await serve(results[app.name].outDir)
      try {
        Object.assign(results[app.name], await measureInBrowser(browser, app, server.url))
      } finally {
        await server.close()
      }
    }
  } finally {
    await browser.close()
  }

  console.log(
    `\nJavaScript per app (gzip = node:zlib level 9 of each file's body, summed), Chromium ${chromiumVersion}`,
  )
  for (const app of APPS) {
    const r = results[app.name]
    console.log(`\n${app.name}`)
    printPhase('before first click', r.before)
    printPhase('after the click', r.after)
    printPhase('total in build', r.build)
    for (const b of r.blocked)
      console.log(`  note: blocked off-origin ${b.type} request ${b.phase} click: ${b.url}`)
    for (const e of r.pageErrors) console.log(`  note: page error: ${e}`)
  }

  const features = ON_DEMAND_FEATURES.map(({ name, chunk }) => {
    const demo = results.demo
    const inBuild = sum(demo.build.files.filter((f) => chunk.test(f.path)))
    const fetched = [...demo.before.files, ...demo.after.files].filter((f) => chunk.test(f.path))
    return {
      name,
      files: inBuild.files.map((f) => f.path),
      gzip: inBuild.gzip,
      fetchedBeforeOpening: fetched,
    }
  })
  console.log('\ncode loaded on demand (demo)')
  for (const f of features) {
    if (f.files.length === 0) {
      console.log(`  ${f.name}: no chunk of it found in the build (have its modules been renamed?)`)
      continue
    }
    console.log(
      `  ${f.name}: ${f.files.length} chunks, ${kib(f.gzip)} gzip in the build; fetched before the first click or on opening Connect: ${
        f.fetchedBeforeOpening.length === 0 ? 'none' : f.fetchedBeforeOpening.map((x) => x.path).join(', ')
      }`,
    )
  }

  const overhead = {
    raw: results.demo.before.raw - results.baseline.before.raw,
    gzip: results.demo.before.gzip - results.baseline.before.gzip,
  }
  const budget = BUDGET_KIB * KIB
  const within = overhead.gzip <= budget
  console.log(
    `\nkit overhead before first click (demo - baseline): ${overhead.gzip} B gzip (${kib(overhead.gzip)}), ${kib(overhead.raw)} raw; budget ${BUDGET_KIB} KiB gzip`,
  )
  console.log(
    within
      ? `VERDICT: within budget (${kib(overhead.gzip)} of ${BUDGET_KIB} KiB, ${kib(budget - overhead.gzip)} to spare)`
      : `VERDICT: OVER budget by ${kib(overhead.gzip - budget)} (${kib(overhead.gzip)} against ${BUDGET_KIB} KiB)`,
  )

  const strip = ({ outDir, ...rest }) => ({ outDir: relative(repo, outDir), ...rest })
  const report = {
    generatedAt: new Date().toISOString(),
    chromium: chromiumVersion,
    gzip: 'node:zlib gzipSync level 9 per file body, summed',
    budgetBytes: budget,
    apps: { demo: strip(results.demo), baseline: strip(results.baseline) },
    overheadBeforeFirstClick: overhead,
    withinBudget: within,
    onDemand: features,
  }
  await mkdir(outRoot, { recursive: true })
  await writeFile(join(outRoot, 'size.json'), `${JSON.stringify(report, null, 2)}\n`)
  console.log(`figures written to ${relative(repo, join(outRoot, 'size.json'))}`)
}

main().catch((err) => {
  console.error(err instanceof BenchError ? `bench:size failed: ${err.message}` : err)
  process.exit(1)
})
