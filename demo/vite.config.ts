import { fileURLToPath } from 'node:url'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

// The demo host app. `npm start` serves it through sandbox/demo-server.ts with the sandbox's endpoints;
// `vite build --config demo/vite.config.ts` builds it for the size benchmark.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react()],
  build: { outDir: fileURLToPath(new URL('../dist/demo', import.meta.url)), emptyOutDir: true },
  server: { host: '127.0.0.1' },
})
