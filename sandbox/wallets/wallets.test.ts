import { randomBytes } from 'node:crypto'
import { createServer, request as httpRequest, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { SignClient } from '@walletconnect/sign-client'
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core'
import {
  createPublicClient,
  type Hex,
  http,
  isHex,
  parseEther,
  toHex,
  verifyMessage,
  verifyTypedData,
} from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CHROMIUM, CHROMIUM_ARGS } from '../../scripts/chromium.mjs'
import { type Chain, startChain } from '../chain/chain.ts'
import { rpcEndpoint, startRpcService } from '../chain/rpc.ts'
import { type Relay, startRelay } from '../relay/relay.ts'
import type { SandboxService } from '../shared/http.ts'
import { Stops } from '../shared/stops.ts'
import { startWallets, type Wallets } from './server.ts'

const PROJECT_ID = 'wallets-test'

let chain: Chain
let rpc: SandboxService
let relay: Relay
let wallets: Wallets
let host: { origin: string; server: Server }
let browser: Browser

/** A host app on its own origin that loads the injected wallet and records every EIP-6963 announcement. */
async function startHostPage(scriptUrl: string): Promise<{ origin: string; server: Server }> {
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Host app</title><link rel="icon" href="data:,"></head>
<body><h1>Host app</h1>
<script>
  window.__announcements = []
  window.__events = []
  window.addEventListener('eip6963:announceProvider', (event) => window.__announcements.push(event.detail))
  window.dispatchEvent(new Event('eip6963:requestProvider'))
</script>
<script type="module" src="${scriptUrl}"></script>
</body></html>`
  const server = createServer((req, res) => {
    if (req.url === '/') res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html)
    else res.writeHead(404).end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server }
}

interface RpcOutcome {
  result?: unknown
  error?: { code: number; message: string }
}

/** Calls the announced provider inside the page, as a dapp would. */
function callProvider(page: Page, method: string, params?: unknown): Promise<RpcOutcome> {
  return page.evaluate(
    async ({ method, params }) => {
      interface Announced {
        info: { rdns: string }
        provider: { request(args: { method: string; params?: unknown }): Promise<unknown> }
      }
      const announced = (window as unknown as { __announcements: Announced[] }).__announcements
      const provider = announced.find((detail) => detail.info.rdns === 'io.walletstate.devwallet')?.provider
      if (!provider) throw new Error('no provider announced')
      try {
        return { result: await provider.request(params === undefined ? { method } : { method, params }) }
      } catch (error) {
        const { code, message } = error as { code: number; message: string }
        return { error: { code, message } }
      }
    },
    { method, params },
  )
}

/** Waits for the wallet's prompt, checks what it asks, and answers it by clicking. */
async function answerPrompt(page: Page, expectText: string[], button: 'Approve' | 'Reject'): Promise<void> {
  const dialog = page.getByRole('dialog', { name: 'Walletstate Dev Wallet' })
  await dialog.waitFor({ state: 'visible', timeout: 10_000 })
  const text = await dialog.textContent()
  for (const expected of expectText) expect(text).toContain(expected)
  await dialog.getByRole('button', { name: button, exact: true }).click()
  await dialog.waitFor({ state: 'detached', timeout: 5_000 })
}

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`Timed out after ${ms} ms: ${what}`)), ms)
    }),
  ])
}

// Registered before the setup runs: whatever started is stopped, even when a start fails (no Chromium).
const stops = new Stops()
afterAll(() => stops.close())

beforeAll(async () => {
  chain = await stops.track(startChain())
  ;[rpc, relay] = await Promise.all([stops.track(startRpcService({ chain })), stops.track(startRelay())])
  wallets = await stops.track(
    startWallets({
      rpcUrl: rpcEndpoint(rpc.origin, PROJECT_ID),
      chainId: chain.chainId,
      accounts: chain.accounts,
      relayUrl: relay.url,
      projectId: PROJECT_ID,
    }),
  )
  host = await startHostPage(wallets.injectedScriptUrl)
  stops.track(
    Promise.resolve({ close: () => new Promise<void>((resolve) => host.server.close(() => resolve())) }),
  )
  browser = await stops.track(chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS }))
}, 120_000)

describe('startWallets', () => {
  it('answers as itself and refuses keys that are not public dev keys', async () => {
    const health = await (await fetch(`${wallets.origin}/__health`)).json()
    expect(health).toEqual({ service: 'wallets', instance: wallets.instance })
    expect(wallets.injectedAddress).toBe(chain.accounts[0]?.address)
    expect(wallets.wcAddress).toBe(chain.accounts[1]?.address)
    // A key outside Foundry's mnemonic must never be put into a page.
    const stranger = {
      address: '0x2c7536E3605D9C16a7a3D7b1898e529396a65c23',
      privateKey: '0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318',
    }
    await expect(
      startWallets({
        rpcUrl: rpcEndpoint(rpc.origin, PROJECT_ID),
        chainId: chain.chainId,
        accounts: [stranger, ...chain.accounts],
        relayUrl: relay.url,
        projectId: PROJECT_ID,
      }),
    ).rejects.toThrow(/not an anvil dev account/)
  })

  it('lets another origin load the injected script as a module (CORS)', async () => {
    const response = await fetch(wallets.injectedScriptUrl, { headers: { origin: host.origin } })
    expect(response.status).toBe(200)
    expect(response.headers.get('access-control-allow-origin')).toBe(host.origin)
    expect(response.headers.get('content-type')).toMatch(/javascript/)
  })

  it('gives a page on a foreign origin no CORS headers for it', async () => {
    for (const origin of ['https://evil.example', 'null']) {
      const response = await fetch(wallets.injectedScriptUrl, { headers: { origin } })
      expect(response.headers.get('access-control-allow-origin')).toBeNull()
    }
  })

  // DNS rebinding: the wallet pages are served by Vite, whose own Host check (server.allowedHosts, left at its
  // default) refuses a name that is not the loopback's, as the sandbox's other services do (shared/origins.ts).
  it('refuses a request for another host name (DNS rebinding)', async () => {
    const url = new URL(wallets.injectedScriptUrl)
    const status = (host: string) =>
      new Promise<number>((resolve, reject) => {
        const req = httpRequest(
          { host: '127.0.0.1', port: url.port, path: url.pathname, setHost: false, headers: { host } },
          (res) => {
            res.resume()
            resolve(res.statusCode ?? 0)
          },
        )
        req.once('error', reject)
        req.end()
      })
    expect(await status(`evil.example:${url.port}`)).toBe(403)
    expect(await status(`localhost:${url.port}`)).toBe(200)
  })
})

describe('injected dev wallet on a host page of another origin', () => {
  let context: BrowserContext
  let page: Page

  beforeAll(async () => {
    context = await browser.newContext()
    page = await context.newPage()
    await page.goto(host.origin)
    await page.waitForFunction(
      () => (window as unknown as { __announcements: unknown[] }).__announcements.length > 0,
    )
  })
  afterAll(async () => {
    await context?.close()
  })

  it('announces itself by EIP-6963 and again on eip6963:requestProvider', async () => {
    const announced = await page.evaluate(() => {
      const list = (window as unknown as { __announcements: Array<{ info: Record<string, string> }> })
        .__announcements
      const before = list.length
      window.dispatchEvent(new Event('eip6963:requestProvider'))
      return {
        before,
        after: list.length,
        info: list[0]?.info,
        sameProvider: list[0] === list[list.length - 1],
      }
    })
    expect(announced.after).toBe(announced.before + 1)
    expect(announced.sameProvider).toBe(true)
    expect(announced.info).toMatchObject({ name: 'Walletstate Dev Wallet', rdns: 'io.walletstate.devwallet' })
    expect(announced.info?.icon).toMatch(/^data:image\/svg\+xml[;,]/)
    expect(announced.info?.uuid).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    )
    expect(await callProvider(page, 'eth_chainId')).toEqual({ result: toHex(chain.chainId) })
  })

  it('connects only after the person approves, and reconnects silently after a reload', async () => {
    expect(await callProvider(page, 'eth_accounts')).toEqual({ result: [] })
    const connecting = callProvider(page, 'eth_requestAccounts')
    await answerPrompt(page, ['Connection request', host.origin], 'Approve')
    // The first account first (every connection starts on it), then the second one it shares.
    expect(await connecting).toEqual({ result: wallets.injectedAddresses })
    expect(wallets.injectedAddresses).toEqual([wallets.injectedAddress, chain.accounts[3]!.address])

    await page.reload()
    await page.waitForFunction(
      () => (window as unknown as { __announcements: unknown[] }).__announcements.length > 0,
    )
    expect(await callProvider(page, 'eth_accounts')).toEqual({ result: wallets.injectedAddresses })
    // Already authorised: no prompt this time.
    expect(await callProvider(page, 'eth_requestAccounts')).toEqual({ result: wallets.injectedAddresses })
  })

  it('signs a message on Approve and answers 4001 on Reject', async () => {
    const message = `Sign in to the host app, nonce ${randomBytes(4).toString('hex')}`
    const signing = callProvider(page, 'personal_sign', [toHex(message), wallets.injectedAddress])
    await answerPrompt(page, ['Signature request', message], 'Approve')
    const { result } = await signing
    expect(isHex(result)).toBe(true)
    expect(await verifyMessage({ address: wallets.injectedAddress, message, signature: result as Hex })).toBe(
      true,
    )

    const refused = callProvider(page, 'personal_sign', [toHex('No thanks'), wallets.injectedAddress])
    await answerPrompt(page, ['No thanks'], 'Reject')
    expect(await refused).toEqual({ error: { code: 4001, message: 'User rejected the request.' } })
    expect(await callProvider(page, 'eth_getEncryptionPublicKey', [wallets.injectedAddress])).toMatchObject({
      error: { code: 4200 },
    })
  })

  it('signs with the second account it shares when the request names it, and with no account it does not hold', async () => {
    const second = wallets.injectedAddresses[1]!
    const message = `Second account, nonce ${randomBytes(4).toString('hex')}`
    const signing = callProvider(page, 'personal_sign', [toHex(message), second])
    await answerPrompt(page, ['Signature request', second, message], 'Approve')
    const { result } = await signing
    expect(await verifyMessage({ address: second, message, signature: result as Hex })).toBe(true)
    // A dev account it does not share is refused, not signed for with another one.
    expect(
      await callProvider(page, 'personal_sign', [toHex('Not mine'), chain.accounts[5]!.address]),
    ).toMatchObject({ error: { code: 4100 } })
  })

  it("prompts above the host page's own modal dialog and signs typed data", async () => {
    // A kit modal shown with showModal() makes the rest of the page inert; the prompt must still be clickable.
    await page.evaluate(() => {
      const modal = document.createElement('dialog')
      modal.id = 'host-modal'
      modal.textContent = 'Host modal'
      document.body.append(modal)
      modal.showModal()
    })
    const typedData = {
      domain: { name: 'Host App', version: '1', chainId: chain.chainId },
      types: {
        Login: [
          { name: 'user', type: 'address' },
          { name: 'nonce', type: 'uint256' },
        ],
      },
      primaryType: 'Login',
      message: { user: wallets.injectedAddress, nonce: '42' },
    } as const
    const signing = callProvider(page, 'eth_signTypedData_v4', [
      wallets.injectedAddress,
      JSON.stringify(typedData),
    ])
    await answerPrompt(page, ['Typed data signature request', 'Login', 'Host App'], 'Approve')
    const { result } = await signing
    expect(
      await verifyTypedData({
        address: wallets.injectedAddress,
        ...typedData,
        message: { user: wallets.injectedAddress, nonce: 42n },
        signature: result as Hex,
      }),
    ).toBe(true)
    expect(await page.evaluate(() => (document.getElementById('host-modal') as HTMLDialogElement).open)).toBe(
      true,
    )
    await page.evaluate(() => (document.getElementById('host-modal') as HTMLDialogElement).close())
  })

  it('sends an approved transaction that lands on anvil', async () => {
    const to = chain.accounts[5]?.address as Hex
    const value = parseEther('0.25')
    const sending = callProvider(page, 'eth_sendTransaction', [
      { from: wallets.injectedAddress, to, value: toHex(value) },
    ])
    await answerPrompt(page, ['Transaction request', to, '0.25 ETH'], 'Approve')
    const { result: hash, error } = await sending
    expect(error).toBeUndefined()
    const client = createPublicClient({ chain: chain.viemChain, transport: http(chain.rpcUrl) })
    const receipt = await client.waitForTransactionReceipt({ hash: hash as Hex, pollingInterval: 50 })
    expect(receipt.status).toBe('success')
    expect(receipt.from.toLowerCase()).toBe(wallets.injectedAddress.toLowerCase())
    expect(receipt.to?.toLowerCase()).toBe(to.toLowerCase())
    const tx = await client.getTransaction({ hash: hash as Hex })
    expect(tx.value).toBe(value)
  })

  it('switches to an unsupported chain on approval, refuses reads there, and revokes', async () => {
    await page.evaluate(() => {
      const w = window as unknown as {
        __events: unknown[][]
        __announcements: Array<{ provider: { on(event: string, listener: (value: unknown) => void): void } }>
      }
      const provider = w.__announcements[0]?.provider
      provider?.on('chainChanged', (value) => w.__events.push(['chainChanged', value]))
      provider?.on('accountsChanged', (value) => w.__events.push(['accountsChanged', value]))
    })
    const switching = callProvider(page, 'wallet_switchEthereumChain', [{ chainId: '0x1' }])
    await answerPrompt(page, ['Switch network', 'Ethereum'], 'Approve')
    expect(await switching).toEqual({ result: null })
    expect(await callProvider(page, 'eth_chainId')).toEqual({ result: '0x1' })
    expect(await callProvider(page, 'eth_blockNumber')).toMatchObject({ error: { code: 4901 } })
    expect(await callProvider(page, 'wallet_switchEthereumChain', [{ chainId: '0x89' }])).toMatchObject({
      error: { code: 4902 },
    })

    const back = callProvider(page, 'wallet_switchEthereumChain', [{ chainId: toHex(chain.chainId) }])
    await answerPrompt(page, ['Switch network'], 'Approve')
    expect(await back).toEqual({ result: null })
    expect((await callProvider(page, 'eth_blockNumber')).result).toMatch(/^0x[0-9a-f]+$/)

    expect(await callProvider(page, 'wallet_revokePermissions', [{ eth_accounts: {} }])).toEqual({
      result: null,
    })
    expect(await callProvider(page, 'eth_accounts')).toEqual({ result: [] })
    expect(await page.evaluate(() => (window as unknown as { __events: unknown[][] }).__events)).toEqual([
      ['chainChanged', '0x1'],
      ['chainChanged', toHex(31337)],
      ['accountsChanged', []],
    ])
  })
})

describe('WalletConnect wallet page', () => {
  let dapp: InstanceType<typeof SignClient>
  let context: BrowserContext
  let page: Page
  const outside: string[] = []
  const namespaces = () => ({
    eip155: {
      chains: [`eip155:${chain.chainId}`],
      methods: ['personal_sign', 'eth_sendTransaction'],
      events: ['accountsChanged', 'chainChanged'],
    },
  })

  beforeAll(async () => {
    dapp = await SignClient.init({
      projectId: PROJECT_ID,
      relayUrl: relay.url,
      telemetryEnabled: false,
      customStoragePrefix: `wallets-test-dapp-${randomBytes(6).toString('hex')}`,
      logger: 'silent',
      metadata: { name: 'Wallets Test Dapp', description: 'test', url: 'http://127.0.0.1', icons: [] },
    })
    context = await browser.newContext()
    page = await context.newPage()
    // Nothing outside this machine is reachable: a page that calls hosted services would hang on them.
    page.on('request', (request) => {
      const url = new URL(request.url())
      if (url.protocol !== 'data:' && url.hostname !== '127.0.0.1') outside.push(request.url())
    })
  })
  afterAll(async () => {
    await context?.close()
    if (dapp) {
      dapp.core.heartbeat.stop()
      await dapp.core.relayer.transportClose()
    }
  })

  it('pairs from ?uri=, approves the session, signs on Approve and sees the dapp disconnect', async () => {
    const { uri, approval } = await within(
      dapp.connect({ optionalNamespaces: namespaces() }),
      10_000,
      'connect',
    )
    // Waited on from the start: sign-client resolves only a caller already waiting when the session settles.
    const approved = approval()
    await page.goto(`${wallets.wcWalletUrl}?uri=${encodeURIComponent(uri as string)}`)

    const proposal = page.getByRole('region', { name: 'Session proposal' })
    await proposal.waitFor({ timeout: 15_000 })
    const proposalText = await proposal.textContent()
    expect(proposalText).toContain('Wallets Test Dapp')
    expect(proposalText).toContain(`eip155:${chain.chainId}`)
    expect(proposalText).toContain('personal_sign')
    await proposal.getByRole('button', { name: 'Approve', exact: true }).click()
    const session = await within(approved, 10_000, 'session approval')
    // Its first account first (the one every session starts on), then the second one it shares.
    expect(session.namespaces.eip155?.accounts).toEqual([
      `eip155:${chain.chainId}:${wallets.wcAddress}`,
      `eip155:${chain.chainId}:${chain.accounts[4]!.address}`,
    ])

    const sessions = page.getByRole('list', { name: 'Active sessions' }).getByRole('listitem')
    await sessions.filter({ hasText: 'Wallets Test Dapp' }).waitFor()
    expect(await sessions.getByRole('button', { name: 'Disconnect' }).count()).toBe(1)

    const message = `WalletConnect sign-in ${randomBytes(4).toString('hex')}`
    const signing = dapp.request<Hex>({
      topic: session.topic,
      chainId: `eip155:${chain.chainId}`,
      request: { method: 'personal_sign', params: [toHex(message), wallets.wcAddress] },
    })
    const request = page.getByRole('region', { name: 'Signature request' })
    await request.waitFor({ timeout: 10_000 })
    expect(await request.textContent()).toContain(message)
    await request.getByRole('button', { name: 'Approve', exact: true }).click()
    const signature = await within(signing, 10_000, 'personal_sign')
    expect(await verifyMessage({ address: wallets.wcAddress, message, signature })).toBe(true)

    // Settled into a value at once, so the rejection is never an unhandled one while the test clicks.
    const refused = dapp
      .request<Hex>({
        topic: session.topic,
        chainId: `eip155:${chain.chainId}`,
        request: { method: 'personal_sign', params: [toHex('Refuse me'), wallets.wcAddress] },
      })
      .then(
        (value) => ({ value }),
        (error: unknown) => ({ error }),
      )
    await request.getByText('Refuse me').waitFor({ timeout: 10_000 })
    await request.getByRole('button', { name: 'Reject', exact: true }).click()
    expect(await within(refused, 10_000, 'rejected personal_sign')).toEqual({
      error: { code: 4001, message: 'User rejected the request.' },
    })

    await dapp.disconnect({ topic: session.topic, reason: { code: 6000, message: 'User disconnected.' } })
    await page.getByText('No active sessions').waitFor({ state: 'visible', timeout: 10_000 })
    expect(await sessions.count()).toBe(0)
    expect(await page.getByTestId('wc-wallet-status').textContent()).toContain('The app ended the session')
  })

  it('pairs from a pasted URI, rejects a proposal, and disconnects from the wallet side', async () => {
    const pasteAndPair = async (uri: string) => {
      await page.getByRole('textbox', { name: 'Pairing URI' }).fill(uri)
      await page.getByRole('button', { name: 'Pair', exact: true }).click()
      const proposal = page.getByRole('region', { name: 'Session proposal' })
      await proposal.waitFor({ timeout: 10_000 })
      return proposal
    }

    const first = await within(dapp.connect({ optionalNamespaces: namespaces() }), 10_000, 'connect')
    const rejected = first.approval().then(
      () => 'approved',
      (error: unknown) => error,
    )
    await (await pasteAndPair(first.uri as string))
      .getByRole('button', { name: 'Reject', exact: true })
      .click()
    expect(await within(rejected, 10_000, 'rejected proposal')).toMatchObject({ code: 5000 })

    const second = await within(dapp.connect({ optionalNamespaces: namespaces() }), 10_000, 'connect')
    const approved = second.approval()
    await (await pasteAndPair(second.uri as string))
      .getByRole('button', { name: 'Approve', exact: true })
      .click()
    const session = await within(approved, 10_000, 'session approval')
    const deleted = new Promise<string>((resolve) =>
      dapp.once('session_delete', ({ topic }) => resolve(topic)),
    )
    await page.getByRole('button', { name: 'Disconnect Wallets Test Dapp', exact: true }).click()
    expect(await within(deleted, 10_000, 'session_delete at the dapp')).toBe(session.topic)
    await page.getByText('No active sessions').waitFor({ state: 'visible', timeout: 10_000 })
    expect(outside).toEqual([])
  })
})
