// The packed kit (./pack.ts) in a Next.js App Router host, as the README's Next.js Quick start sets it up: a
// throwaway app outside the repo with Next.js 16, React 19, wagmi 3, viem and react-query installs the tarball,
// `next build` prerenders a server page that renders the kit's button, `next start` serves it, and in Chromium the
// server's HTML hydrates with nothing in the console, Connect opens and the injected dev wallet connects against
// the sandbox (its chain, services and dev wallet, as the e2e tier's test/e2e/ssr.test.ts uses them).
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, normalize } from 'node:path'
import type { Browser, ConsoleMessage } from 'playwright-core'
import { getAddress } from 'viem'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { SANDBOX_CHAIN_ID } from '../../sandbox/chain/chain.ts'
import { rpcEndpoint } from '../../sandbox/chain/rpc.ts'
import { type Sandbox, startSandbox } from '../../sandbox/index.ts'
import { hostButton, launchBrowser, truncated, walletPrompt } from '../e2e/support.ts'
import {
  hostEnv,
  installed,
  installPacked,
  own,
  ownBadEngines,
  ownInstallScripts,
  ownScriptLines,
  reportNodeModulesSize,
  runAsync,
} from './host.ts'
import { nextQuickStart, QUICK_START_CHAIN_IMPORT, QUICK_START_KIT } from './nextQuickStart.ts'
import type { ConsumerPack } from './pack.ts'

/** The Next.js the host installs (from the npm registry once, then from the npm cache). */
const NEXT_VERSION = '16.4.6'

const { tarball }: ConsumerPack = inject('consumerPack')
const work = mkdtempSync(join(tmpdir(), 'walletstate-next-'))
const host = join(work, 'host')
const nextEnv = () => hostEnv({ NEXT_TELEMETRY_DISABLED: '1' })

let installLog = ''
let buildLog = ''
let sandboxStart: Promise<Sandbox> | undefined
let sandbox: Sandbox
let server: ChildProcess | undefined
let url = ''
let browser: Browser | undefined

function writeHost() {
  mkdirSync(join(host, 'app/server-entries'), { recursive: true })
  const pin = (names: string[]) => Object.fromEntries(names.map((name) => [name, installed(name)]))
  writeFileSync(
    join(host, 'package.json'),
    JSON.stringify(
      {
        name: 'walletstate-next-host',
        private: true,
        dependencies: {
          next: NEXT_VERSION,
          ...pin(['react', 'react-dom', 'wagmi', 'viem', '@tanstack/react-query']),
        },
        devDependencies: pin(['typescript', '@types/react', '@types/react-dom', '@types/node']),
      },
      null,
      2,
    ),
  )
  // What `create-next-app` writes, so `next build` leaves it as it is.
  writeFileSync(
    join(host, 'tsconfig.json'),
    JSON.stringify(
      {
        compilerOptions: {
          target: 'ES2017',
          lib: ['dom', 'dom.iterable', 'esnext'],
          allowJs: true,
          skipLibCheck: true,
          strict: true,
          noEmit: true,
          esModuleInterop: true,
          module: 'esnext',
          moduleResolution: 'bundler',
          resolveJsonModule: true,
          isolatedModules: true,
          jsx: 'react-jsx',
          incremental: true,
          plugins: [{ name: 'next' }],
        },
        include: ['next-env.d.ts', '**/*.ts', '**/*.tsx', '.next/types/**/*.ts', '.next/dev/types/**/*.ts'],
        exclude: ['node_modules'],
      },
      null,
      2,
    ),
  )
}

/** The Quick start's files, the kit pointed at the sandbox; and a route that uses the server entries. */
function writeApp(sandbox: Sandbox) {
  const quickStart = nextQuickStart()
  expect(Object.keys(quickStart).sort()).toEqual(['app/layout.tsx', 'app/providers.tsx'])
  const providers = quickStart['app/providers.tsx']!
  expect(providers).toContain(QUICK_START_CHAIN_IMPORT)
  expect(providers).toContain(QUICK_START_KIT)
  const config = {
    projectId: sandbox.projectId,
    endpoints: sandbox.endpoints,
  }
  const chain = {
    id: SANDBOX_CHAIN_ID,
    name: 'Walletstate Sandbox',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcEndpoint(sandbox.rpc.origin, sandbox.projectId)] } },
    testnet: true,
  }
  const files: Record<string, string> = {
    ...quickStart,
    'app/providers.tsx': providers
      .replace(QUICK_START_CHAIN_IMPORT, '')
      .replace(
        QUICK_START_KIT,
        `const kit = createKitMachine({ ...${JSON.stringify(config)}, networks: [${JSON.stringify(chain)}] })`,
      ),
    // Not in the Quick start: the host's own page, an icon, as `create-next-app` gives a host (else Chromium's request for /favicon.ico
    // is a 404 in the console), and the kit's other entries in a route handler, which runs as a server component
    // does.
    'app/page.tsx': `export default function Home() {
  return (
    <main>
      <h1>My app</h1>
    </main>
  )
}
`,
    'app/icon.svg':
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><circle cx="8" cy="8" r="8"/></svg>\n',
    'app/server-entries/route.ts': `import { VIEW_NAMES } from 'walletstate'
import { modalMachine } from 'walletstate/machines'
import { createSiwe } from 'walletstate/siwx'

export const dynamic = 'force-dynamic'

export function GET() {
  return Response.json({ views: VIEW_NAMES, modal: modalMachine.id, createSiwe: typeof createSiwe })
}
`,
  }
  for (const [path, text] of Object.entries(files)) writeFileSync(join(host, path), text)
}

/** `next start` on a free port; resolves with the URL it prints, once it is ready. */
function startNext(): Promise<string> {
  const child = spawn(
    join(host, 'node_modules/.bin/next'),
    ['start', '--port', '0', '--hostname', '127.0.0.1'],
    {
      cwd: host,
      env: nextEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  server = child
  let output = ''
  return new Promise((ready, fail) => {
    const timer = setTimeout(() => fail(new Error(`next start did not get ready:\n${output}`)), 60_000)
    const read = (chunk: Buffer) => {
      output += chunk.toString()
      const local = /Local:\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1]
      if (local && /Ready in/.test(output)) {
        clearTimeout(timer)
        ready(`${local}/`)
      }
    }
    child.stdout?.on('data', read)
    child.stderr?.on('data', read)
    child.on('error', (error) => {
      clearTimeout(timer)
      fail(error)
    })
    child.on('exit', (code) => {
      clearTimeout(timer)
      fail(new Error(`next start exited (${code}):\n${output}`))
    })
  })
}

function stopNext(): Promise<void> {
  const child = server
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  return new Promise((done) => {
    child.once('exit', () => done())
    child.kill('SIGTERM')
  })
}

/** The file's static imports of the package's own files (`./chunks/x.js`), as paths under dist/. */
function ownImports(dist: string, file: string): string[] {
  const code = readFileSync(join(dist, file), 'utf8')
  return [...code.matchAll(/^(?:import|export)\b[^;]*?\bfrom\s*"(\.[^"]+)"|^import\s*"(\.[^"]+)"/gm)].map(
    (m) => normalize(join(dirname(file), (m[1] ?? m[2]) as string)),
  )
}

/** Every file an entry of dist/ loads statically, itself included. */
function staticGraph(dist: string, entry: string): string[] {
  const seen = new Set<string>()
  const queue = [entry]
  while (queue.length > 0) {
    const file = queue.pop() as string
    if (seen.has(file)) continue
    seen.add(file)
    queue.push(...ownImports(dist, file))
  }
  return [...seen]
}

describe('the packed package in a Next.js App Router host', () => {
  beforeAll(async () => {
    writeHost()
    // The sandbox starts while npm installs.
    sandboxStart = startSandbox({ demo: false })
    let started = performance.now()
    installLog = await installPacked(host, tarball)
    console.log(`Next.js host: npm install in ${((performance.now() - started) / 1000).toFixed(1)} s`)
    reportNodeModulesSize(host, 'Next.js host')
    sandbox = await sandboxStart
    writeApp(sandbox)
    started = performance.now()
    buildLog = await runAsync(join(host, 'node_modules/.bin/next'), ['build'], host, nextEnv())
    console.log(`Next.js host: next build in ${((performance.now() - started) / 1000).toFixed(1)} s`)
    url = await startNext()
    sandbox.origins.add(new URL(url).origin)
    // The server answering is the one started here: it serves this build.
    const buildId = readFileSync(join(host, '.next/BUILD_ID'), 'utf8').trim()
    expect(await (await fetch(url)).text()).toContain(buildId)
    browser = await launchBrowser()
  })

  afterAll(async () => {
    await browser?.close()
    await stopNext()
    await (await sandboxStart?.catch(() => undefined))?.close()
    rmSync(work, { recursive: true, force: true })
  })

  it("'use client' is on walletstate/react and the React files it loads, not on the server entries", () => {
    const dist = join(host, 'node_modules', own.name, 'dist')
    const directive = (file: string) => /^["']use client["'];?\n/.test(readFileSync(join(dist, file), 'utf8'))
    const importsReact = (file: string) =>
      /^import\b[^;]*?\bfrom\s*"react(-dom)?(\/[^"]*)?"/m.test(readFileSync(join(dist, file), 'utf8'))
    expect(directive('react.js')).toBe(true)
    const reactFiles = staticGraph(dist, 'react.js').filter(importsReact)
    expect(reactFiles.length).toBeGreaterThan(1)
    expect(reactFiles.filter((file) => !directive(file))).toEqual([])
    for (const entry of ['index.js', 'machines.js', 'siwx.js', 'testing.js'])
      expect(staticGraph(dist, entry).filter(directive), entry).toEqual([])
  })

  it('installs with no install script of ours to run or approve, and no EBADENGINE from what it brings', () => {
    expect.soft(ownInstallScripts(host)).toEqual([])
    expect.soft(installLog).not.toContain(`> ${own.name}@${own.version}`)
    expect.soft(ownScriptLines(installLog)).toEqual([])
    expect.soft(ownBadEngines(installLog, host)).toEqual([])
  })

  it('builds with no warning about the kit, the page prerendered', () => {
    const warnings = buildLog.split('\n').filter((line) => /⚠|warn/i.test(line) && line.includes(own.name))
    expect(warnings).toEqual([])
    // ○: prerendered as static content at build time, on the server.
    expect(buildLog).toMatch(/^[┌├└]\s+○\s+\/$/m)
  })

  it("the server's HTML has the page and the kit's button", async () => {
    const response = await fetch(url)
    const html = await response.text()
    expect(response.status).toBe(200)
    expect(html).toContain('<h1>My app</h1>')
    expect(html).toMatch(
      /<button type="button"[^>]* aria-haspopup="dialog" aria-expanded="false"[^>]*>Connect Wallet<\/button>/,
    )
    expect(html).not.toContain('role="dialog"')
  })

  it('the kit, its machines and its sign-in run in a route handler, on the server', async () => {
    const response = await fetch(new URL('server-entries', url))
    expect(response.status).toBe(200)
    const body = (await response.json()) as { views: string[]; modal: string; createSiwe: string }
    expect(body.views).toContain('Connect')
    expect(body).toMatchObject({ modal: 'modal', createSiwe: 'function' })
  })

  it('hydrates in Chromium with nothing in the console, opens Connect and connects the injected dev wallet', async () => {
    if (!browser) throw new Error('no browser')
    const page = await browser.newPage()
    const problems: string[] = []
    page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`))
    page.on('console', (message: ConsoleMessage) => {
      if (message.type() === 'error' || message.type() === 'warning')
        problems.push(`${message.type()}: ${message.text()} (${message.location().url})`)
    })
    // The dev wallet as an extension puts it in the page: before the page's own scripts, in the top frame.
    await page.addInitScript({
      content: `if (window === window.top) import(${JSON.stringify(sandbox.wallets.injectedScriptUrl)})`,
    })
    await page.goto(url)
    // The button says "reconnecting" in the server's HTML; the kit's actor starts once React has hydrated.
    await page.locator('button[data-status="disconnected"]').waitFor()
    await hostButton(page).click()
    const connect = page.getByRole('dialog', { name: 'Connect Wallet' })
    await connect.waitFor()
    await connect.getByRole('button', { name: /Walletstate Dev Wallet/ }).click()
    await walletPrompt(page).getByRole('button', { name: 'Approve' }).click()
    const address = getAddress(sandbox.wallets.injectedAddress)
    await expect.poll(() => hostButton(page).textContent()).toBe(truncated(address))
    expect(problems).toEqual([])
  })
})
