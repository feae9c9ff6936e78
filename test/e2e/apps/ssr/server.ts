import { readFile } from 'node:fs/promises'
import { createServer as createHttpServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import react from '@vitejs/plugin-react'
import { createServer } from 'vite'
import type { DemoSandboxConfig } from '../../../../demo/sandbox-config.ts'

export interface SsrServerOptions {
  sandbox: DemoSandboxConfig
  /** Module scripts the page loads before the app, e.g. the injected dev wallet. */
  headScripts?: string[]
}

export interface SsrServer {
  url: string
  /** How many pages `GET /` has rendered on the server. */
  renders: number
  close(): Promise<void>
}

const ROOT = fileURLToPath(new URL('.', import.meta.url))
const CACHE_DIR = fileURLToPath(new URL('../../../../.tmp/vite-ssr', import.meta.url))

/**
 * Globals a browser has and Node may have (Node 21+ has `navigator`, Node 22+ a `localStorage`): hidden while
 * the server runs, so the server render proves the kit needs none of them.
 */
export const BROWSER_GLOBALS = [
  'window',
  'document',
  'navigator',
  'localStorage',
  'sessionStorage',
  'matchMedia',
  'location',
  'history',
  'self',
] as const

/** JSON safe inside a `<script>` element (no `</script>`, no HTML comment opener). */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c')

/**
 * The server-rendered host app (./app.tsx) on 127.0.0.1: `GET /` renders it with Vite's `ssrLoadModule` and
 * `renderToString` in this Node process; everything else (the client entry, the kit's modules) is served by
 * Vite's dev middleware, as for the demo.
 *
 * @example
 * const ssr = await startSsrServer({ sandbox, headScripts: [wallets.injectedScriptUrl] })
 */
export async function startSsrServer(options: SsrServerOptions): Promise<SsrServer> {
  const hidden = BROWSER_GLOBALS.filter((name) => name in globalThis).map((name) => {
    const descriptor = Object.getOwnPropertyDescriptor(globalThis, name)
    Object.defineProperty(globalThis, name, { value: undefined, configurable: true, writable: true })
    return { name, descriptor }
  })
  const vite = await createServer({
    root: ROOT,
    configFile: false,
    cacheDir: CACHE_DIR,
    plugins: [react()],
    logLevel: 'warn',
    clearScreen: false,
    appType: 'custom',
    server: { middlewareMode: true, hmr: false },
    optimizeDeps: {
      include: [
        'react',
        'react-dom',
        'react-dom/client',
        'react/jsx-runtime',
        'xstate',
        'wagmi',
        'viem',
        'wagmi/actions',
        '@tanstack/react-query',
        'valibot',
        'qrcode',
      ],
    },
  })
  const head = [
    ...(options.headScripts ?? []).map((src) => `<script type="module" src="${src}"></script>`),
    `<script type="application/json" id="ssr-sandbox">${scriptJson(options.sandbox)}</script>`,
  ].join('\n')
  const state = { renders: 0 }
  const http = createHttpServer((request, response) => {
    const url = request.url ?? '/'
    if (url !== '/' && !url.startsWith('/?')) {
      vite.middlewares(request, response, () => {
        response.statusCode = 404
        response.end()
      })
      return
    }
    void (async () => {
      try {
        const template = await vite.transformIndexHtml(url, await readFile(`${ROOT}index.html`, 'utf8'))
        const { render } = (await vite.ssrLoadModule('/entry-server.tsx')) as {
          render: (sandbox: DemoSandboxConfig) => string
        }
        const html = template
          .replace('<!--ssr-head-->', head)
          .replace('<!--ssr-app-->', render(options.sandbox))
        state.renders += 1
        response.setHeader('content-type', 'text/html; charset=utf-8')
        response.end(html)
      } catch (error) {
        vite.ssrFixStacktrace(error as Error)
        response.statusCode = 500
        response.setHeader('content-type', 'text/plain; charset=utf-8')
        response.end(error instanceof Error ? (error.stack ?? error.message) : String(error))
      }
    })()
  })
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject)
    http.listen(0, '127.0.0.1', () => resolve())
  })
  const { port } = http.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/`,
    get renders() {
      return state.renders
    },
    async close() {
      http.closeAllConnections()
      await new Promise<void>((resolve) => http.close(() => resolve()))
      await vite.close()
      for (const { name, descriptor } of hidden)
        if (descriptor) Object.defineProperty(globalThis, name, descriptor)
    },
  }
}
