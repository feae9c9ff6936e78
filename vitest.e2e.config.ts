import { defineConfig } from 'vitest/config'
import { ensureWalletConnectBundle } from './scripts/walletconnect-bundle.mjs'

// The kit imports the WalletConnect bundle (src/chains/eip155/vendor/), which is built, not committed: built here
// when missing, before any test file loads, so `npx vitest` works in a fresh clone (no install script builds it).
await ensureWalletConnectBundle()

// The `e2e` project of vitest.config.ts, usable on its own too:
//   npx vitest run --config vitest.e2e.config.ts test/e2e/modal.test.ts
// Real Chromium (Debian's, at CHROMIUM_PATH or /usr/bin/chromium, through playwright-core) against the demo and
// the sandbox. Two files at a time, each with its own sandbox and browser (test/e2e/support.ts startE2e), so
// nothing one file does (a fault switched on, a balance spent, a login cooling down) reaches another; most of
// a file's time is spent waiting on the sandbox, the browser or the SPEC's timers, which the other file uses.
// Vite's dependency caches are filled once before the files start (test/e2e/warm-up.ts).
export default defineConfig({
  test: {
    name: 'e2e',
    include: ['test/e2e/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['test/e2e/warm-up.ts'],
    setupFiles: ['test/e2e/setup.ts'],
    fileParallelism: true,
    maxWorkers: 2,
    // A worker runs file after file with its module cache kept: each file still starts its own sandbox and
    // browser (nothing a test does outlives its file), but the harness, the sandbox's services and their packages
    // are imported once a worker, not once a file (~1.5 s of CPU a file; the helpers' module state is per call or
    // a constant's cache).
    isolate: false,
    testTimeout: 120_000,
    hookTimeout: 180_000,
    expect: { poll: { timeout: 10_000 } },
  },
})
