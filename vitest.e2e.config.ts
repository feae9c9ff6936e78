import { defineConfig } from 'vitest/config'

// The `e2e` project of vitest.config.ts, usable on its own too:
//   npx vitest run --config vitest.e2e.config.ts test/e2e/modal.test.ts
// Real Chromium (Debian's, at CHROMIUM_PATH or /usr/bin/chromium, through playwright-core) against the demo and
// the sandbox, one file at a time.
export default defineConfig({
  test: {
    name: 'e2e',
    include: ['test/e2e/**/*.test.ts'],
    environment: 'node',
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 180_000,
    expect: { poll: { timeout: 10_000 } },
  },
})
