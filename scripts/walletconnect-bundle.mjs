// WalletConnect (wagmi's connector and @walletconnect/ethereum-provider with everything they import) built into one
// self-contained bundle under src/chains/eip155/vendor/, which the kit imports lazily. Built, never committed:
// `npm start`, `npm run build`, `npm test`, the vitest configs and the benches call `ensureWalletConnectBundle()`
// (or `node scripts/build-walletconnect.mjs --if-missing`) first, so a fresh clone needs no install script.
//
// Why a bundle: when a host's bundler splits a lazy chunk that shares modules (viem, ox, noble) with the page's main
// bundle, it hoists every shared module that the main bundle can reach through a package barrel into an eagerly
// loaded chunk: ~90 KiB gzip the visitor would pay before ever choosing WalletConnect. A bundle with its own copies
// shares nothing, so it costs nothing until it is used.
import { createHash } from 'node:crypto'
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const here = (path) => fileURLToPath(new URL(path, import.meta.url))
const eip155 = here('../src/chains/eip155')
export const VENDOR_DIR = `${eip155}/vendor`
const ENTRY = here('./walletconnect-entry.ts')

/** What the bundle is built from: this build, its entry, and the packages it builds in. */
const SOURCES = [
  './walletconnect-bundle.mjs',
  './walletconnect-entry.ts',
  '../src/chains/eip155/walletConnectInner.ts',
]
const PACKAGES = [
  'wagmi',
  'viem',
  '@walletconnect/ethereum-provider',
  '@walletconnect/universal-provider',
  '@walletconnect/sign-client',
  '@walletconnect/core',
  '@walletconnect/utils',
]
const STAMP = 'walletconnect.stamp'

/**
 * A hash of what the bundle is built from, kept beside it: a bundle built by an older build (or over other package
 * versions) is built again, not shipped as it is.
 */
function sourceStamp() {
  const hash = createHash('sha256')
  for (const path of SOURCES) hash.update(readFileSync(here(path)))
  for (const name of PACKAGES) {
    let version = 'none'
    try {
      version = JSON.parse(readFileSync(here(`../node_modules/${name}/package.json`), 'utf8')).version
    } catch {}
    hash.update(`\n${name}@${version}`)
  }
  return hash.digest('hex')
}

/** A whole bundle of these sources: the entry and its declaration (what src/chains/eip155/walletConnect.ts needs). */
function current(dir, stamp) {
  if (!existsSync(`${dir}/walletconnect.js`) || !existsSync(`${dir}/walletconnect.d.ts`)) return false
  try {
    return readFileSync(`${dir}/${STAMP}`, 'utf8').trim() === stamp
  } catch {
    return false
  }
}

/**
 * The provider imports AppKit (`@reown/appkit/core`, ~900 KiB of chunks and 148 MB installed) only for its hosted
 * QR modal, which the kit turns off (`showQrModal: false`): this stands in for it, so none of it is built in.
 */
const NO_APPKIT = '\0walletstate:no-appkit'
const noAppKit = {
  name: 'walletstate:no-appkit',
  enforce: 'pre',
  resolveId: (id) => (id === '@reown/appkit' || id.startsWith('@reown/appkit/') ? NO_APPKIT : undefined),
  load: (id) =>
    id === NO_APPKIT
      ? 'export function createAppKit() { throw new Error("WalletConnect\'s hosted modal is not part of walletstate: the kit draws its own QR code (showQrModal: false).") }\n'
      : undefined,
}

/** Moves a folder into place (copies it across file systems); fails when the target is already there. */
function moveInto(from, to) {
  try {
    renameSync(from, to)
  } catch (error) {
    if (error.code !== 'EXDEV') throw error
    cpSync(from, to, { recursive: true, errorOnExist: true, force: false })
  }
}

/**
 * Builds the bundle when it is missing or was built from other sources, into a folder of its own, then moves it
 * into place: a build that fails leaves nothing half written, and two processes building at once (two vitest
 * configs, a bench) each see a whole bundle or none. Resolves to whether it built. With `force`, it always builds.
 */
export async function ensureWalletConnectBundle({ force = false, log = console.log } = {}) {
  const stamp = sourceStamp()
  if (!force && current(VENDOR_DIR, stamp)) return false
  const { build } = await import('vite')
  const started = Date.now()
  // Staged where neither git nor the linter looks, should the process be killed before it cleans up.
  const staging = here(`../node_modules/.cache/walletstate-walletconnect-${process.pid}-${started}`)
  mkdirSync(staging, { recursive: true })
  try {
    await build({
      configFile: false,
      logLevel: 'warn',
      plugins: [noAppKit],
      build: {
        outDir: staging,
        emptyOutDir: true,
        target: 'es2022',
        minify: true,
        lib: { entry: ENTRY, formats: ['es'], fileName: () => 'walletconnect.js' },
        rollupOptions: {
          output: { chunkFileNames: 'wc-[hash].js' },
          // viem's barrel reaches ox's Node-only worker pool (`import('node:worker_threads')`), which Vite
          // externalizes with a warning; nothing in the bundle calls it, so it is dropped, and so is the warning.
          onLog(level, log, handler) {
            if (
              level === 'warn' &&
              /node:worker_threads/.test(log.message) &&
              /virtualMasterPool/.test(log.message)
            )
              return
            handler(level, log)
          },
        },
      },
    })
    writeFileSync(
      `${staging}/walletconnect.d.ts`,
      `// Generated by scripts/walletconnect-bundle.mjs.\nexport { createInnerWalletConnect } from '../walletConnectInner'\nexport { SignClient } from '@walletconnect/sign-client'\n`,
    )
    writeFileSync(`${staging}/${STAMP}`, `${stamp}\n`)
    // A bundle of other sources (or any, with `force`) is replaced.
    if (existsSync(VENDOR_DIR) && (force || !current(VENDOR_DIR, stamp))) {
      rmSync(VENDOR_DIR, { recursive: true, force: true })
    }
    try {
      moveInto(staging, VENDOR_DIR)
    } catch (error) {
      // Another process put its bundle in place first: keep that one.
      if (!current(VENDOR_DIR, stamp)) throw error
      return false
    }
  } finally {
    rmSync(staging, { recursive: true, force: true })
  }
  log(`WalletConnect bundle built in ${((Date.now() - started) / 1000).toFixed(1)} s: ${VENDOR_DIR}`)
  return true
}
