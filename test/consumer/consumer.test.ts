// The package as a host gets it: the kit packed once for the tier (./pack.ts, which builds dist/ through
// `prepack`), then a throwaway host app outside the repo with its own React 19, wagmi 3, viem, react-query, Vite and
// TypeScript installs the tarball (from the local npm cache where it can), builds with Vite, type-checks under
// `strict`, and shows the Connect view in Chromium. The `consumer` tier of `npm test` (vitest.config.ts); slow, so
// it runs after `model`. ./next.test.ts does the same with a Next.js App Router host.
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { tmpdir } from 'node:os'
import { extname, join, resolve, sep } from 'node:path'
import { type Browser, chromium } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { CHROMIUM, CHROMIUM_ARGS } from '../../scripts/chromium.mjs'
import {
  hostEnv,
  installed,
  installPacked,
  own,
  ownBadEngines,
  ownInstallScripts,
  ownScriptLines,
  repo,
  reportNodeModulesSize,
  run,
} from './host.ts'
import type { ConsumerPack } from './pack.ts'

// The host's own @xstate/react and xstate (as a host that reads the kit's actors has them): one copy each with the kit's.
const HOST_DEPENDENCIES = [
  'react',
  'react-dom',
  'wagmi',
  'viem',
  '@tanstack/react-query',
  '@xstate/react',
  'xstate',
]
const HOST_DEV_DEPENDENCIES = [
  'vite',
  '@vitejs/plugin-react',
  'typescript',
  '@types/react',
  '@types/react-dom',
]

const { tarball, result: pack }: ConsumerPack = inject('consumerPack')
const work = mkdtempSync(join(tmpdir(), 'walletstate-consumer-'))
const host = join(work, 'host')
let installLog = ''

function writeHost() {
  mkdirSync(join(host, 'src'), { recursive: true })
  const pin = (names: string[]) => Object.fromEntries(names.map((name) => [name, installed(name)]))
  writeFileSync(
    join(host, 'package.json'),
    JSON.stringify(
      {
        name: 'walletstate-consumer-host',
        private: true,
        type: 'module',
        dependencies: pin(HOST_DEPENDENCIES),
        devDependencies: pin(HOST_DEV_DEPENDENCIES),
      },
      null,
      2,
    ),
  )
  writeFileSync(
    join(host, 'tsconfig.json'),
    JSON.stringify(
      {
        compilerOptions: {
          target: 'ES2022',
          lib: ['ES2023', 'DOM', 'DOM.Iterable'],
          module: 'ESNext',
          moduleResolution: 'Bundler',
          jsx: 'react-jsx',
          strict: true,
          noEmit: true,
          isolatedModules: true,
          skipLibCheck: true,
          types: [],
        },
        include: ['src'],
      },
      null,
      2,
    ),
  )
  writeFileSync(
    join(host, 'vite.config.ts'),
    "import react from '@vitejs/plugin-react'\nimport { defineConfig } from 'vite'\n\nexport default defineConfig({ plugins: [react()] })\n",
  )
  writeFileSync(
    join(host, 'index.html'),
    '<!doctype html>\n<html><head><meta charset="utf-8"><title>Host</title></head>\n<body><div id="root"></div><script type="module" src="/src/main.tsx"></script></body></html>\n',
  )
  // What a host developer writes: the three entry points, typed, with a dummy RPC (no request needs to succeed).
  writeFileSync(
    join(host, 'src/main.tsx'),
    `import { useSelector } from '@xstate/react'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { createKitMachine, defineEvmNetwork, type KitNetwork } from 'walletstate'
import { ConnectButton, KitRoot, useKitAccount, useModalActor } from 'walletstate/react'
import { modalMachine, selectIsOpen, selectView } from 'walletstate/machines'
import type { createModel } from 'walletstate/testing'

const network: KitNetwork = defineEvmNetwork({
  id: 31337,
  name: 'Host Chain',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: ['http://127.0.0.1:9'] } },
  testnet: true,
})
const kit = createKitMachine({ projectId: 'consumer-test', networks: [network] })

export type Model = typeof createModel
/** The machines entry: every machine and its selectors, typed. */
export const modalViewOf = (snapshot: Parameters<typeof selectView>[0]): string | undefined => selectView(snapshot)
export const modal = modalMachine

function Status() {
  const { isConnected, address } = useKitAccount()
  const shown: string = isConnected ? String(address) : 'disconnected'
  return <p id="status">{shown}</p>
}

/** The host's own @xstate/react on a kit actor (one copy of it in the host: the kit's). */
function ModalState() {
  const modal = useModalActor()
  const open = useSelector(modal, selectIsOpen)
  const view: string = useSelector(modal, selectView)
  return <p id="modal">{open ? view : 'closed'}</p>
}

const root = document.getElementById('root')
if (!root) throw new Error('no #root')
createRoot(root).render(
  <StrictMode>
    <KitRoot machine={kit}>
      <ConnectButton />
      <Status />
      <ModalState />
    </KitRoot>
  </StrictMode>,
)
`,
  )
}

const MIME: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
}

function serve(dir: string): Promise<{ server: Server; url: string }> {
  const root = resolve(dir)
  const server = createServer((req, res) => {
    const pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)
    const path = resolve(root, `.${pathname.endsWith('/') ? `${pathname}index.html` : pathname}`)
    if (!path.startsWith(root + sep) || !statSync(path, { throwIfNoEntry: false })?.isFile()) {
      res.writeHead(404).end()
      return
    }
    res.writeHead(200, { 'content-type': MIME[extname(path)] ?? 'application/octet-stream' })
    res.end(readFileSync(path))
  })
  return new Promise((ok) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      ok({ server, url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/` })
    }),
  )
}

describe('the packed package in a host app', () => {
  beforeAll(async () => {
    writeHost()
    installLog = await installPacked(host, tarball)
    reportNodeModulesSize(host, 'Vite host')
  })

  afterAll(() => {
    rmSync(work, { recursive: true, force: true })
  })

  it('the tarball holds the built package, not the workspace', () => {
    const paths = pack.files.map((f) => f.path)
    expect(paths).toEqual(expect.arrayContaining(['package.json', 'README.md', 'LICENSE']))
    expect(paths).toEqual(
      expect.arrayContaining([
        'dist/index.js',
        'dist/machines.js',
        'dist/react.js',
        'dist/testing.js',
        'dist/types/index.d.ts',
        'dist/types/machines/index.d.ts',
        'dist/types/react/index.d.ts',
        'dist/types/testing/index.d.ts',
      ]),
    )
    // The WalletConnect bundle and the lazy views are chunks of the package.
    // Named without a hash of ours (vite.lib.config.ts): the host's bundler hashes what it emits.
    expect(paths.some((p) => /^dist\/chunks\/walletconnect\d*\.js$/.test(p))).toBe(true)
    expect(paths.some((p) => /^dist\/chunks\/Networks\d*\.js$/.test(p))).toBe(true)
    const unwanted = paths.filter(
      (p) =>
        /^src\//.test(p) ||
        /\.test(-d)?\.tsx?$/.test(p) ||
        /^(bench|sandbox|\.ci|test|demo|scripts)\//.test(p),
    )
    expect(unwanted).toEqual([])
    expect(
      paths.every((p) =>
        /^(dist\/|bin\/walletstate-replay\.js$|package\.json$|README\.md$|LICENSE$)/.test(p),
      ),
    ).toBe(true)
  })

  it('installs with no install script of ours to run or approve, and no EBADENGINE from what it brings', () => {
    // npm runs preinstall, install and postinstall when a package is installed as a dependency (`prepare` only for
    // git dependencies), and npm 11 lists each, `prepare` too, as an install script for the host to approve.
    expect.soft(ownInstallScripts(host)).toEqual([])
    // `--foreground-scripts` prints "> name@version script" for every script npm runs; npm 11 names the ones it
    // did not run in its "install-scripts" warning.
    expect.soft(installLog).not.toContain(`> ${own.name}@${own.version}`)
    expect.soft(ownScriptLines(installLog)).toEqual([])
    // The kit and every package it brings in support the Node versions its `engines` names (this one among them).
    expect.soft(ownBadEngines(installLog, host)).toEqual([])
  })

  it('installed alone into an empty folder: npm lists no install script to approve and no EBADENGINE', async () => {
    // The issue's own words: `npm install <tarball>` in an empty folder (the peers come with it, as npm installs
    // peers). No script of any package the kit brings in, ours or not, is left for the host to approve.
    const empty = join(work, 'empty')
    mkdirSync(empty, { recursive: true })
    writeFileSync(join(empty, 'package.json'), '{ "name": "empty-host", "private": true }\n')
    const log = await installPacked(empty, tarball)
    expect(log.split('\n').filter((line) => /install-scripts|EBADENGINE/.test(line))).toEqual([])
  })

  it("the installed package's manifest: dependencies as dist/ imports them, no install script, engines true", () => {
    const report = JSON.parse(
      run(
        'node',
        [join(repo, 'scripts/check-package.mjs'), join(host, 'node_modules', own.name), '--json'],
        host,
      ),
    ) as Record<string, unknown[]>
    expect({
      installScripts: report.installScripts,
      undeclared: report.undeclared,
      unused: report.unused,
      enginesConflicts: report.enginesConflicts,
    }).toEqual({ installScripts: [], undeclared: [], unused: [], enginesConflicts: [] })
  })

  it('declarations a host editor loads fast: none over 150 KB, all under 600 KB', () => {
    // Exits 1 with the sizes over budget.
    run('node', [join(repo, 'scripts/declarations.mjs'), join(host, 'node_modules', own.name)], host)
  })

  it('the host keeps one copy of React, wagmi, viem, react-query, @xstate/react and xstate', () => {
    const installedOwn = JSON.parse(
      readFileSync(join(host, 'node_modules', own.name, 'package.json'), 'utf8'),
    ) as { version: string }
    expect(installedOwn.version).toBe(own.version)
    // One copy each: every path npm lists for them is the host's own.
    for (const name of HOST_DEPENDENCIES) {
      const listed = run('npm', ['ls', name, '--all', '--parseable'], host)
        .split('\n')
        .filter((line) => line.endsWith(`${sep}node_modules${sep}${name.replace('/', sep)}`))
      expect(new Set(listed), name).toEqual(new Set([join(host, 'node_modules', name)]))
    }
    const tree = run('npm', ['ls', 'react', 'wagmi'], host)
    expect(tree).toContain(`${own.name}@${own.version}`)
    expect(tree).toMatch(/react@19\.\S+ deduped/)
    expect(tree).toMatch(/wagmi@3\.\S+ deduped/)
  })

  it('type-checks the host under strict', () => {
    // Throws with tsc's output on any error.
    run(join(host, 'node_modules/.bin/tsc'), ['--noEmit', '-p', 'tsconfig.json'], host)
  })

  it("the package's declarations check clean with skipLibCheck off", () => {
    // wagmi's own declarations do not (against react-query's current types), so only our files are looked at.
    let output = ''
    try {
      output = run(
        join(host, 'node_modules/.bin/tsc'),
        ['--noEmit', '-p', 'tsconfig.json', '--skipLibCheck', 'false'],
        host,
      )
    } catch (error) {
      output = String((error as { stdout?: string }).stdout ?? error)
    }
    expect(output.split('\n').filter((line) => line.includes(`node_modules/${own.name}/`))).toEqual([])
  })

  it('npx walletstate-replay replays a session recorded with the installed package, and writes its test', () => {
    // A session of the modal, recorded in Node with the package's recorder.
    writeFileSync(
      join(host, 'record.mjs'),
      `import { writeFileSync } from 'node:fs'
import { createActor } from 'xstate'
import { modalMachine } from '${own.name}/machines'
import { createRecorder } from '${own.name}/testing'
const recorder = createRecorder()
const modal = createActor(modalMachine, { inspect: recorder.inspect }).start()
modal.send({ type: 'modal.open' })
modal.send({ type: 'router.push', view: 'Networks' })
modal.send({ type: 'modal.close' })
modal.stop()
writeFileSync('session.json', JSON.stringify(recorder.recording()))
`,
    )
    run('node', ['record.mjs'], host)
    const output = run(
      'npx',
      ['--no-install', 'walletstate-replay', 'session.json', '--write-test', 'replay.test.mjs'],
      host,
    )
    expect(output).toMatch(/^✓ modal: 1 actor, 3 events replayed, no divergence$/m)
    expect(output).toContain('Wrote replay.test.mjs (and replay.recording.json)')
    expect(readFileSync(join(host, 'replay.test.mjs'), 'utf8')).toContain(`from '${own.name}/testing'`)
    // Into a folder that does not exist yet: made.
    run(
      'npx',
      ['--no-install', 'walletstate-replay', 'session.json', '--write-test', 'sub/dir/replay.test.mjs'],
      host,
    )
    expect(readFileSync(join(host, 'sub/dir/replay.test.mjs'), 'utf8')).toContain(
      `from '${own.name}/testing'`,
    )
    // A file that is not a recording: one line on stderr, no stack trace, and exit code 2.
    writeFileSync(join(host, 'not-a-recording.json'), '{"hello":1}')
    let failure: { status?: number; stdout?: string; stderr?: string } = {}
    try {
      run('npx', ['--no-install', 'walletstate-replay', 'not-a-recording.json'], host)
    } catch (error) {
      failure = error as typeof failure
    }
    expect(failure.status).toBe(2)
    expect(failure.stderr?.trim()).toBe(
      'walletstate-replay: not-a-recording.json: Not a walletstate recording (no "format": "walletstate-recording")',
    )
  })

  describe('built with Vite and opened in Chromium', () => {
    let buildLog = ''
    let browser: Browser | undefined
    let server: Server | undefined

    beforeAll(() => {
      // A host's production build: without vitest's NODE_ENV=test, which would give it React's development code.
      const build = spawnSync(join(host, 'node_modules/.bin/vite'), ['build', '--logLevel', 'warn'], {
        cwd: host,
        env: hostEnv(),
        encoding: 'utf8',
      })
      buildLog = `${build.stdout}\n${build.stderr}`
      if (build.status !== 0) throw new Error(`vite build failed:\n${buildLog}`)
    })

    it("prints no warning of the kit's making (a module of ours, a chunk over 500 kB)", () => {
      const lines = buildLog.split('\n')
      expect(lines.filter((line) => line.includes(`node_modules/${own.name}/`))).toEqual([])
      expect(lines.filter((line) => /larger than 500 kB/.test(line))).toEqual([])
    })

    afterAll(async () => {
      await browser?.close()
      await new Promise((done) => (server ? server.close(() => done(undefined)) : done(undefined)))
    })

    it("the host's first-click scripts are ASCII: Chromium keeps a script holding one other character as UTF-16, twice its size", () => {
      const html = readFileSync(join(host, 'dist/index.html'), 'utf8')
      const scripts = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]!)
      expect(scripts.length).toBeGreaterThan(0)
      const offending = scripts.flatMap((file) => {
        const code = readFileSync(join(host, 'dist', file), 'utf8')
        const found: string[] = []
        for (let i = 0; i < code.length && found.length < 10; i += 1)
          if (code.charCodeAt(i) > 0x7f) found.push(`${file}: ${code.slice(Math.max(0, i - 40), i + 20)}`)
        return found
      })
      expect(offending).toEqual([])
    })

    it('renders the Connect view from the installed package', async () => {
      const served = await serve(join(host, 'dist'))
      server = served.server
      browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS })
      const page = await browser.newPage()
      const errors: string[] = []
      page.on('pageerror', (error) => errors.push(error.message))
      await page.goto(served.url)
      await expect(page.locator('#status').textContent()).resolves.toBe('disconnected')
      await expect(page.locator('#modal').textContent()).resolves.toBe('closed')
      await page.getByRole('button', { name: 'Connect Wallet' }).click()
      await page.locator('[data-view="Connect"]').waitFor({ timeout: 20_000 })
      // The host's own useSelector follows the kit's modal.
      await expect.poll(() => page.locator('#modal').textContent()).toBe('Connect')
      expect(errors).toEqual([])
    })
  })
})
