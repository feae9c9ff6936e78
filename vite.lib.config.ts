import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

// The package is a production build whatever NODE_ENV the build runs under: `npm pack` from a test (NODE_ENV=test)
// had built React's development JSX (`jsxDEV`) into dist/, which a host's production React does not have.
process.env.NODE_ENV = 'production'

const entry = (path: string) => fileURLToPath(new URL(path, import.meta.url))

/**
 * Packages built into the package's chunks instead of installed beside it: Solana's wallet adapter and Wallet Standard
 * glue (loaded only with a Solana network), whose current releases declare `engines.node >=22` although they are
 * browser code; installed, they made npm warn EBADENGINE on every Node 20 host (scripts/check-package.mjs).
 */
const BUILT_IN =
  /^@solana\/(wallet-adapter-base|wallet-standard-(wallet-adapter-base|chains|features|util))(\/|$)/

/**
 * What the package leaves to the host's install: its declared dependencies and peer dependencies. Every other
 * package it imports is built into its chunks: @solana/web3.js and what it brings (its RPC socket client pulls in
 * `bufferutil` and `utf-8-validate`, whose install scripts npm asks every host to approve), loaded only with a
 * Solana network; Solana's wallet adapter (above).
 */
const manifest = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as {
  dependencies: Record<string, string>
  peerDependencies: Record<string, string>
}
const INSTALLED = new Set([...Object.keys(manifest.dependencies), ...Object.keys(manifest.peerDependencies)])
const packageOf = (id: string) => id.split('/').slice(0, id.startsWith('@') ? 2 : 1).join('/')

/** Entry-level modules a lazy chunk imports too (see `manualChunks` below). */
const SHARED_WITH_LAZY_CHUNKS =
  /src\/(chains\/walletConnectParameters|kit\/verifyDomain|chains\/solana\/connectorIds|api\/queryClient|utils\/images)\.ts$/

/**
 * `'use client'` on every file that imports React (dist/react.js, its chunks of hooks and components, the lazy
 * views), so a React Server Component (Next.js App Router) can import `walletstate/react` and render its
 * components: the bundler drops the directives of src/, and a server component evaluating React client code
 * fails (`createContext is not a function`). The other entries and the chunks they import do not import React
 * and stay usable on the server (test/consumer/ checks both).
 */
const useClient = (chunk: { imports: string[] }) =>
  chunk.imports.some((id) => /^react(-dom)?(\/|$)/.test(id)) ? "'use client'\n" : ''

// The kit as a library, what `npm run build` (and so `npm pack`) puts in dist/: five ES entry points
// (dist/index.js, dist/machines.js, dist/react.js, dist/testing.js, dist/siwx.js), every package left to the host's bundler, and the lazy views
// and the self-contained WalletConnect bundle (src/chains/eip155/vendor/) as chunks beside them. The types come
// from tsconfig.build.json into dist/types/.
export default defineConfig({
  plugins: [react()],
  build: {
    outDir: entry('./dist'),
    emptyOutDir: true,
    target: 'es2022',
    minify: false,
    // The host's bundler minifies the JavaScript; the stylesheet (a string by then, src/react/kit.css) is
    // minified here.
    cssMinify: 'esbuild',
    // No source maps: they would point at src/, which the package does not ship.
    sourcemap: false,
    lib: {
      entry: {
        index: entry('./src/index.ts'),
        machines: entry('./src/machines/index.ts'),
        react: entry('./src/react/index.ts'),
        testing: entry('./src/testing/index.ts'),
        siwx: entry('./src/siwx/index.ts'),
      },
      formats: ['es'],
    },
    rollupOptions: {
      external: (id) =>
        !id.startsWith('.') &&
        !id.startsWith('/') &&
        !id.startsWith('\0') &&
        !BUILT_IN.test(id) &&
        (id.startsWith('node:') || INSTALLED.has(packageOf(id))),
      // No hash in the chunks' names: the host's bundler hashes every file it emits, and a hash here would stay in
      // the name it gives the file (`Account-<ours>-<its>.js`). Each lazy chunk's name is written in the host's
      // first-click JS (its preload table and each `import()`), where a hash is ~9 bytes that do not compress:
      // -0.9 KiB gzip of JS before the first click in bench/peers (issue 14's budget). Names that meet get a
      // number (`signIn2.js`).
      output: {
        banner: useClient,
        chunkFileNames: 'chunks/[name].js',
        // Modules the entry's code and its lazy chunks both import get a chunk of their own, without `import()`s.
        // Left to the default they join createKit.js, which `import()`s those lazy chunks: a lazy chunk importing
        // its own importer is a cycle, and the host's bundler (rolldown) then splits the kit, xstate and viem's
        // helpers out of the host's entry into seven more files: +2.6 KiB gzip before the first click in
        // bench/peers (issue 14's budget). `node bench/peers/run.mjs --kits walletstate` shows it.
        // The same host split follows from chunk boundaries moved by an entry's imports: the root entry
        // re-exporting the Pay errors (src/errors/pay.ts) split src/errors/connection.ts out of kit.js, and the host
        // then made seven first-click files (+2.2 KiB gzip); they are exported from walletstate/react instead.
        // After a change to an entry's imports, check the first click (`node bench/peers/run.mjs --kits walletstate`).
        manualChunks(id) {
          return SHARED_WITH_LAZY_CHUNKS.test(id) ? 'shared' : undefined
        },
      },
    },
  },
})
