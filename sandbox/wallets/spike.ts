import { createServer } from 'node:http'
import { chromium } from 'playwright-core'
import { startChain } from '../chain/chain.ts'
import { rpcEndpoint, startRpcService } from '../chain/rpc.ts'
import { startRelay } from '../relay/relay.ts'
import { startWallets } from './server.ts'

const chain = await startChain()
const rpc = await startRpcService({ chain })
const relay = await startRelay()
const wallets = await startWallets({ rpcUrl: rpcEndpoint(rpc.origin, 'spike'), chainId: chain.chainId, accounts: chain.accounts, relayUrl: relay.url, projectId: 'spike' })
const html = `<!doctype html><html><body><h1>Host</h1><script type="module" src="${wallets.injectedScriptUrl}"></script></body></html>`
const server = createServer((req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(html))
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] })
const page = await browser.newPage()
page.on('console', (m) => console.log('console', m.type(), m.text()))
page.on('pageerror', (e) => console.log('pageerror', e))
page.on('requestfailed', (r) => console.log('FAILED', r.url(), r.failure()?.errorText))
page.on('response', (r) => console.log('HTTP', r.status(), r.url().slice(0, 120)))
await page.goto(`http://127.0.0.1:${(server.address() as {port: number}).port}/`)
await new Promise((r) => setTimeout(r, 3000))
console.log(await page.evaluate(() => JSON.stringify((window as any).__walletstateDevWallet)))
await browser.close(); server.close()
await wallets.close(); await relay.close(); await rpc.close(); await chain.close()
