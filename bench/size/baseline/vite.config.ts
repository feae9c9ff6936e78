import { fileURLToPath } from 'node:url'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

// The size benchmark's baseline app: same plugins and build options as demo/vite.config.ts, so the only
// difference between the two builds is the kit. `bench/size/run.mjs` overrides `build.outDir`.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react()],
  build: { outDir: fileURLToPath(new URL('../out/baseline', import.meta.url)), emptyOutDir: true },
  server: { host: '127.0.0.1' },
})
