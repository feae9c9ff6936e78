import { fileURLToPath } from 'node:url'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

const entry = (path: string) => fileURLToPath(new URL(path, import.meta.url))

// The kit as a library: three entry points, every dependency left to the host's bundler, lazy views as
// separate chunks.
export default defineConfig({
  plugins: [react()],
  build: {
    outDir: entry('./dist/lib'),
    emptyOutDir: true,
    sourcemap: true,
    lib: {
      entry: {
        index: entry('./src/index.ts'),
        react: entry('./src/react/index.ts'),
        testing: entry('./src/testing/index.ts'),
      },
      formats: ['es'],
    },
    rollupOptions: {
      external: (id) => !id.startsWith('.') && !id.startsWith('/') && !id.startsWith('\0'),
    },
  },
})
