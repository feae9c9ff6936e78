import { availableParallelism } from 'node:os'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vitest/config'
import { ensureWalletConnectBundle } from './scripts/walletconnect-bundle.mjs'

// The kit imports the WalletConnect bundle (src/chains/eip155/vendor/), which is built, not committed: built here
// when missing, before any test file loads, so `npx vitest` works in a fresh clone (no install script builds it).
await ensureWalletConnectBundle()

// The test tiers, each a vitest project run on its own by `npm test` (scripts/test.mjs), in this order:
//   typecheck    `.test-d.ts` type tests (expectTypeOf), checked by tsc, never run
//   unit         src/**/*.test.ts(x), test/layering/** (the layering check) and test/readme/** (every ts/tsx
//                block of README.md, run and type-checked): no server, no browser
//   model        test/model-based/**: every machine's paths (xstate/graph), replayed and counted
//   consumer     test/consumer/**: `npm pack` (once), the tarball installed into throwaway host apps outside the
//                repo, one built with Vite and type-checked under strict, one with Next.js (App Router, against
//                the sandbox), each opened in Chromium
//   integration  test/integration/** and sandbox/**: tests that start sandbox services (anvil, the APIs, the
//                relay); the sandbox's wallet and frame suites also launch Chromium; scripts/** tests the
//                `npm test` harness itself (no process left behind)
//   e2e          test/e2e/**: the demo in real Chromium, two files at a time (vitest.e2e.config.ts)
// `npx vitest run --project unit` runs one tier; `npx vitest run <path>` the files under a path, whatever tier.
export default defineConfig({
  plugins: [react()],
  test: {
    environment: 'node',
    // The kit's stylesheet is a string (`kit.css?inline`): the tests render it as the package does.
    css: { include: [/src\/react\/kit\.css/] },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // expect.poll waits on real I/O here (relay, anvil, Chromium); vitest's 1 s default fell short once on a loaded
    // CI machine. A condition that never holds still fails, after 10 s.
    expect: { poll: { timeout: 10_000 } },
    projects: [
      {
        extends: true,
        test: {
          name: 'typecheck',
          include: [],
          typecheck: {
            enabled: true,
            only: true,
            include: ['src/**/*.test-d.ts', 'test/**/*.test-d.ts'],
            tsconfig: 'tsconfig.test-d.json',
          },
        },
      },
      {
        extends: true,
        test: {
          name: 'unit',
          include: [
            'src/**/*.test.{ts,tsx}',
            'test/layering/**/*.test.ts',
            'test/readme/**/*.test.{ts,tsx}',
            'test/replays/**/*.test.ts',
          ],
        },
      },
      {
        extends: true,
        test: {
          name: 'model',
          include: ['test/model-based/**/*.test.{ts,tsx}'],
        },
      },
      {
        extends: true,
        test: {
          name: 'consumer',
          include: ['test/consumer/**/*.test.ts'],
          // `npm pack` once for every host app of the tier (test/consumer/pack.ts).
          globalSetup: ['test/consumer/pack.ts'],
          // Packing, installing into a fresh host and building it take minutes on a loaded machine.
          testTimeout: 300_000,
          // Its host apps (one file each) mostly wait on npm and their builds: side by side even on 2 cores.
          maxWorkers: 2,
          hookTimeout: 600_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.{ts,tsx}', 'sandbox/**/*.test.ts', 'scripts/**/*.test.ts'],
          // Its files mostly wait on their own services (port 0, in-memory databases): two at a time even
          // where vitest's default (one worker per core but one) would run them one by one, as on 2 cores.
          maxWorkers: Math.max(2, availableParallelism() - 1),
        },
      },
      'vitest.e2e.config.ts',
    ],
  },
})
