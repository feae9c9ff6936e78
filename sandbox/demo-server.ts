import { fileURLToPath } from 'node:url'
import { createServer, type Plugin, type ViteDevServer } from 'vite'
import type { DemoSandboxConfig } from '../demo/sandbox-config.ts'
import { listenOnFreePort } from './shared/viteListen.ts'

export interface DemoServerOptions {
  port?: number
  sandbox: DemoSandboxConfig
  /** Module scripts the host page loads before the app, e.g. the injected dev wallet. */
  headScripts?: string[]
}

export interface DemoServer {
  url: string
  port: number
  /** What the demo page is told of the sandbox (so a test can build the page's kit in Node: demo/kit.ts). */
  sandbox: DemoSandboxConfig
  close(): Promise<void>
}

const DEMO_CONFIG = fileURLToPath(new URL('../demo/vite.config.ts', import.meta.url))

/**
 * Serves the demo host app with Vite on 127.0.0.1, the sandbox's endpoints injected at serve time.
 *
 * @example
 * const demo = await startDemoServer({ sandbox: { projectId: 'p', endpoints: {}, chain: null } })
 */
export async function startDemoServer(options: DemoServerOptions): Promise<DemoServer> {
  const scripts = options.headScripts ?? []
  const injectScripts: Plugin = {
    name: 'walletstate-demo-head-scripts',
    transformIndexHtml: () =>
      scripts.map((src) => ({ tag: 'script', attrs: { type: 'module', src }, injectTo: 'head' as const })),
  }
  const server: ViteDevServer = await createServer({
    configFile: DEMO_CONFIG,
    logLevel: 'warn',
    clearScreen: false,
    define: { __WALLETSTATE_SANDBOX__: JSON.stringify(options.sandbox) },
    plugins: [injectScripts],
    server: { host: '127.0.0.1', port: options.port ?? 0, strictPort: true, hmr: false },
    optimizeDeps: {
      include: [
        'react',
        'react-dom',
        'react-dom/client',
        'react/jsx-runtime',
        'xstate',
        'wagmi',
        'viem',
        'viem/siwe',
        'wagmi/actions',
        // Account's balances check (src/chains/eip155/chainBalances.ts): known before the first page, so opening
        // Account never has Vite optimise a dependency it met late (and reload the page mid-test).
        'wagmi/query',
        '@tanstack/react-query',
        'valibot',
        'qrcode',
      ],
    },
  })
  await listenOnFreePort(server, options.port ?? 0)
  const address = server.httpServer?.address()
  if (!address || typeof address === 'string') throw new Error('demo server did not bind a port')
  const url = `http://127.0.0.1:${address.port}/`
  // Warm the module graph so the first visitor does not wait for dependency optimisation.
  const response = await fetch(url)
  const html = await response.text()
  if (!html.includes('Walletstate demo')) throw new Error(`Something else answers on ${url}`)
  return { url, port: address.port, sandbox: options.sandbox, close: () => server.close() }
}
