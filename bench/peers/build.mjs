// Builds the five host apps in apps/ with one Vite (this folder's) and the same options: a production build
// each, into out/build/<kit>/. Walletstate is measured as a host installs it: the repo's package build (what
// `npm run build` puts in dist/, here written to out/package/ so the repo's dist/ is untouched), and the app's
// imports of `walletstate` and `walletstate/react` resolve to it (the kit's own dependencies come from the
// repo's node_modules, so `npm install` at the root first).
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const here = fileURLToPath(new URL('./', import.meta.url))
export const repo = join(here, '../..')

/** Packages the kit's source and the app must share: one copy each, the app's (Vite resolves them from root). */
const SHARED = ['react', 'react-dom', 'wagmi', 'viem', '@tanstack/react-query']

export const packageDir = join(here, 'out/package')

const WALLETSTATE_ALIASES = [
  { find: /^walletstate$/, replacement: join(packageDir, 'index.js') },
  { find: /^walletstate\/react$/, replacement: join(packageDir, 'react.js') },
]

/** The repo's package build (vite.lib.config.ts, the JavaScript of `npm run build`) into out/package/. */
function buildPackage() {
  const run = (args) => {
    const result = spawnSync(process.execPath, args, { cwd: repo, encoding: 'utf8' })
    if (result.status !== 0) throw new Error(`${args.join(' ')} failed:\n${result.stderr || result.stdout}`)
  }
  run(['scripts/build-walletconnect.mjs', '--if-missing'])
  run([
    join(repo, 'node_modules/vite/bin/vite.js'),
    'build',
    '--config',
    'vite.lib.config.ts',
    '--outDir',
    packageDir,
    '--logLevel',
    'error',
  ])
}

export async function buildApp(kit, outDir) {
  const [{ build }, { default: react }] = await Promise.all([import('vite'), import('@vitejs/plugin-react')])
  const root = join(here, 'apps', kit)
  if (!existsSync(join(root, 'node_modules'))) {
    throw new Error(`apps/${kit} has no node_modules: run \`npm install\` in bench/peers first`)
  }
  if (kit === 'walletstate' && !existsSync(join(repo, 'node_modules/xstate'))) {
    throw new Error(
      'the repo has no node_modules: run `npm install` at the repo root first (the kit is built from src/)',
    )
  }
  if (kit === 'walletstate') buildPackage()
  await build({
    configFile: false,
    root,
    mode: 'production',
    logLevel: 'error',
    plugins: [react()],
    resolve: { dedupe: SHARED, ...(kit === 'walletstate' ? { alias: WALLETSTATE_ALIASES } : {}) },
    build: { outDir, emptyOutDir: true, reportCompressedSize: false, chunkSizeWarningLimit: 100_000 },
  })
}
