import react from '@vitejs/plugin-react'
import { defineConfig } from 'vitest/config'

// Unit, machine, model-based and sandbox integration tests. End-to-end tests in real Chromium have their
// own config (vitest.e2e.config.ts) so they can run one file at a time.
export default defineConfig({
  plugins: [react()],
  test: {
    include: [
      'src/**/*.test.{ts,tsx}',
      'test/model-based/**/*.test.{ts,tsx}',
      'test/integration/**/*.test.ts',
      'test/layering/**/*.test.ts',
      'sandbox/**/*.test.ts',
    ],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
})
