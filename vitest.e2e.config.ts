import { defineConfig } from 'vitest/config'

// Real Chromium (Debian's /usr/bin/chromium through playwright-core) against the demo and the sandbox.
export default defineConfig({
  test: {
    include: ['test/e2e/**/*.test.ts'],
    environment: 'node',
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
})
