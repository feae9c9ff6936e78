// @vitest-environment happy-dom
import { type ChildProcess, spawn } from 'node:child_process'
import { createServer, request as httpRequest, type Server } from 'node:http'
import { createInterface } from 'node:readline'
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { type Address, createPublicClient, erc20Abi, formatUnits, http } from 'viem'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { SimulatedClock } from 'xstate'
import { createKitMachine, defineEvmNetwork, type KitActorRef } from '../../src'
import { TOAST_RESHOW_MS, TOKEN_BALANCE_RETRY_BLOCK_MS } from '../../src/constants'
import { ConnectButton, KitRoot } from '../../src/react'
import { memoryStorage } from '../../src/storage'
import { truncateAddress } from '../../src/utils/format'
import { Capture } from '../model-based/ui-kit'

/**
 * The Account view's details, Receive and the send views, rendered in the real kit against the sandbox's real
 * chain (anvil), RPC host and Data API, all on loopback (in a process of their own: `sandbox-services.ts`).
 * The wallet is a small EIP-1193 provider announced by EIP-6963 that hands every call to anvil (whose dev
 * accounts are unlocked), so it approves what it is asked: the wallet's own prompt is the end-to-end test's
 * business. The visitor's side is done through the rendered controls, by their accessible names; what the
 * screen shows is compared with what the chain holds. The kit reaches the Data API through a pass-through
 * proxy here that counts the balance requests that reach it.
 */
interface Services {
  rpcUrl: string
  chainId: number
  rpcOrigin: string
  apiOrigin: string
  accounts: Address[]
  tokens: { address: Address; symbol: string; decimals: number }[]
}
let services: Services
let child: ChildProcess | undefined
let proxy: Server | undefined
let proxyOrigin = ''
let balanceRequests = 0
let reader: ReturnType<typeof createPublicClient>

beforeAll(async () => {
  child = spawn(process.execPath, ['--import', 'tsx', 'test/integration/sandbox-services.ts'], {
    stdio: ['pipe', 'pipe', 'inherit'],
  })
  const firstLine = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child!.stdout! })
    lines.once('line', resolve)
    child!.once('exit', (code) => reject(new Error(`sandbox services exited (${code})`)))
  })
  services = JSON.parse(firstLine) as Services
  proxy = createServer((req, res) => {
    if (/^\/v1\/account\/[^/]+\/balance/.test(req.url ?? '') && req.method === 'GET') balanceRequests++
    const upstream = httpRequest(
      new URL(req.url ?? '/', services.apiOrigin),
      { method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(res)
      },
    )
    // A request the page gave up on (a view left, a query cancelled) is given up upstream too.
    res.on('close', () => upstream.destroy())
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502).end()
    })
    req.pipe(upstream)
  })
  await new Promise<void>((resolve) => proxy!.listen(0, '127.0.0.1', resolve))
  const address = proxy.address()
  proxyOrigin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
  reader = createPublicClient({ transport: http(services.rpcUrl) })
}, 120_000)

afterAll(async () => {
  await new Promise<void>((resolve) => (proxy ? proxy.close(() => resolve()) : resolve()))
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child!.once('exit', resolve))
    child.stdin?.end()
    await exited
  }
})

/** From the test's Node side: the fault switch refuses pages, and happy-dom's `fetch` is a page's. */
const setFault = (fault: object) =>
  new Promise<void>((resolve, reject) => {
    const req = httpRequest(new URL('/__fault', services.apiOrigin), { method: 'POST' }, (res) => {
      res.resume()
      res.on('end', () =>
        res.statusCode === 200 ? resolve() : reject(new Error(`__fault: ${res.statusCode}`)),
      )
    })
    req.on('error', reject)
    req.end(JSON.stringify(fault))
  })

let uninstall: (() => void) | undefined
afterEach(async () => {
  cleanup()
  uninstall?.()
  uninstall = undefined
  await setFault({ mode: 'off' })
})

/** An EIP-1193 wallet for one dev account over anvil, announced by EIP-6963. */
function installWallet(account: Address) {
  let id = 0
  const provider = {
    async request({ method, params }: { method: string; params?: unknown }) {
      if (method === 'eth_requestAccounts' || method === 'eth_accounts') return [account]
      if (method === 'eth_chainId') return `0x${services.chainId.toString(16)}`
      if (method === 'wallet_switchEthereumChain') return null
      if (method === 'wallet_requestPermissions' || method === 'wallet_getPermissions')
        return [{ parentCapability: 'eth_accounts' }]
      const response = await fetch(services.rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params: params ?? [] }),
      })
      const body = (await response.json()) as { result?: unknown; error?: { code: number; message: string } }
      if (body.error) throw Object.assign(new Error(body.error.message), { code: body.error.code })
      return body.result
    },
    on() {},
    removeListener() {},
  }
  const detail = Object.freeze({
    info: {
      uuid: '7b0f7f2e-8d1e-4c55-9a57-5f0b1f6c7a10',
      name: 'UI Test Wallet',
      icon: 'data:image/svg+xml,%3Csvg xmlns="http://www.w3.org/2000/svg"/%3E',
      rdns: 'io.walletstate.uitest',
    },
    provider,
  })
  const announce = () => window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail }))
  window.addEventListener('eip6963:requestProvider', announce)
  announce()
  uninstall = () => window.removeEventListener('eip6963:requestProvider', announce)
}

const dialog = () => screen.getByRole('dialog')
const view = () => dialog().querySelector('[data-view]')?.getAttribute('data-view')
const button = (name: string | RegExp) => within(dialog()).getByRole('button', { name }) as HTMLButtonElement
const textbox = (name: string) => within(dialog()).getByRole('textbox', { name }) as HTMLInputElement
const type = (input: HTMLInputElement, value: string) => fireEvent.change(input, { target: { value } })
const toast = () => document.querySelector('.ws-toast')

async function showView(name: string) {
  await waitFor(() => expect(view()).toBe(name))
  await waitFor(() => expect(dialog().querySelector('.ws-loading')).toBeNull())
}

/** Renders a kit on the sandbox and connects `account` through the modal, as a visitor would. */
async function connected(accountIndex = 0) {
  const account = services.accounts[accountIndex]!
  installWallet(account)
  const machine = createKitMachine({
    projectId: 'account-ui',
    features: { allWallets: false, analytics: false, email: false, socials: false },
    storage: memoryStorage(),
    endpoints: {
      api: proxyOrigin,
      walletsApi: 'http://127.0.0.1:9',
      rpc: services.rpcOrigin,
      relay: 'ws://127.0.0.1:9',
      frame: 'http://127.0.0.1:9',
      telemetry: 'http://127.0.0.1:9',
    },
    networks: [
      defineEvmNetwork({
        id: services.chainId,
        name: 'Walletstate Sandbox',
        nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
        rpcUrls: { default: { http: [services.rpcUrl] } },
        testnet: true,
      }),
    ],
  })
  const clock = new SimulatedClock()
  let kit: KitActorRef | undefined
  render(
    <KitRoot machine={machine} options={{ clock }}>
      <ConnectButton />
      <Capture
        onActor={(actor) => {
          kit = actor
        }}
      />
    </KitRoot>,
  )
  fireEvent.click(screen.getByRole('button', { name: 'Connect Wallet' }))
  await showView('Connect')
  fireEvent.click(await within(dialog()).findByRole('button', { name: /UI Test Wallet/ }))
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), { timeout: 10_000 })
  const shown = truncateAddress(account)
  await waitFor(() => expect(screen.getByRole('button', { name: shown })).toBeDefined())
  fireEvent.click(screen.getByRole('button', { name: shown }))
  await showView('Account')
  return {
    account,
    kit: kit!,
    /** Time passes on the kit's clock (the balance block, toasts and the modal's animations run on it). */
    advance: async (ms: number) => {
      await act(async () => {
        clock.increment(ms)
        for (let i = 0; i < 10; i++) await Promise.resolve()
      })
    },
  }
}

/** Token quantities as the chain has them, shown as the Account view shows them (4 decimals, cut). */
async function chainQuantities(account: Address): Promise<Record<string, string>> {
  const shown = (raw: bigint, decimals: number) => {
    const [whole, fraction = ''] = formatUnits(raw, decimals).split('.')
    const cut = fraction.slice(0, 4).replace(/0+$/, '')
    return cut ? `${whole}.${cut}` : whole!
  }
  const out: Record<string, string> = { ETH: shown(await reader.getBalance({ address: account }), 18) }
  for (const token of services.tokens) {
    const raw = await reader.readContract({
      address: token.address,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [account],
    })
    out[token.symbol] = shown(raw, token.decimals)
  }
  return out
}

function shownQuantities(): Record<string, string> {
  const rows = within(dialog()).getAllByTestId('token-balance')
  return Object.fromEntries(
    rows.map((row) => {
      const text = within(row).getByTestId('token-quantity').textContent ?? ''
      const [quantity = ''] = text.split(' ')
      return [row.getAttribute('data-symbol') ?? '', quantity]
    }),
  )
}

describe('Account view', () => {
  it('shows the profile name, the native balance, $0.00 on the testnet, the features in the SPEC order and the tabs', async () => {
    const r = await connected(0)
    // Dev account 0 holds the sandbox's seeded name (reverse look-up).
    await waitFor(() =>
      expect(screen.getByTestId('account-profile-name').textContent).toBe('sandbox-dev.reown.id'),
    )
    const eth = (await chainQuantities(r.account)).ETH
    await waitFor(() => expect(screen.getByTestId('account-balance').textContent).toBe(`${eth} ETH`))
    expect(screen.getByTestId('account-total').textContent).toBe('$0.00')
    const features = within(dialog()).getByRole('navigation', { name: 'Wallet features' })
    expect(
      within(features)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Buy', 'Swap', 'Receive', 'Send'])
    const tabs = within(dialog()).getAllByRole('tab')
    expect(tabs.map((t) => [t.textContent, t.getAttribute('aria-selected')])).toEqual([
      ['Tokens', 'true'],
      ['NFTs', 'false'],
      ['Activity', 'false'],
    ])
    // The tab is the account machine's state.
    fireEvent.click(within(dialog()).getByRole('tab', { name: 'Activity' }))
    await waitFor(() =>
      expect(within(dialog()).getByRole('tab', { name: 'Activity' }).getAttribute('aria-selected')).toBe(
        'true',
      ),
    )
    expect(r.kit.system.get('account')?.getSnapshot().matches({ tab: 'activity' })).toBe(true)
    fireEvent.keyDown(within(dialog()).getByRole('tablist'), { key: 'ArrowRight' })
    await waitFor(() =>
      expect(r.kit.system.get('account')?.getSnapshot().matches({ tab: 'tokens' })).toBe(true),
    )
  })

  it('Tokens: the balances the chain holds; NFTs: the collection without the spam item', async () => {
    const r = await connected(0)
    await waitFor(() => expect(within(dialog()).getAllByTestId('token-balance').length).toBe(4))
    expect(shownQuantities()).toEqual(await chainQuantities(r.account))
    fireEvent.click(within(dialog()).getByRole('tab', { name: 'NFTs' }))
    const list = await within(dialog()).findByRole('list', { name: 'NFTs' })
    const names = within(list)
      .getAllByTestId('nft')
      .map((n) => n.querySelector('.ws-ellipsis')?.textContent)
    expect(names.length).toBeGreaterThan(0)
    expect(names.some((name) => name?.includes('#5'))).toBe(false)
  })

  it('Activity: operation, status and amounts to 3 decimals, paged with Load more; spam NFTs hidden', async () => {
    await connected(0)
    fireEvent.click(within(dialog()).getByRole('tab', { name: 'Activity' }))
    const list = await within(dialog()).findByRole('list', { name: 'Activity' })
    const first = within(list).getAllByTestId('activity-item').length
    expect(first).toBeGreaterThan(0)
    for (const status of within(list).getAllByTestId('activity-status'))
      expect(['Confirmed', 'Failed', 'Pending']).toContain(status.textContent)
    for (const transfer of within(list).queryAllByTestId('activity-transfer')) {
      const text = transfer.textContent ?? ''
      // A fungible amount has exactly 3 decimals; an NFT shows its name.
      if (/^[+-]?[\d,]+\.\d+ /.test(text)) expect(text).toMatch(/^[+-]?[\d,]+\.\d{3} [A-Z]+$/)
      expect(text).not.toContain('#5')
    }
    fireEvent.click(button('Load more'))
    await waitFor(() =>
      expect(within(dialog()).getAllByTestId('activity-item').length).toBeGreaterThan(first),
    )
    // Page after page, never a spam item.
    while (within(dialog()).queryByRole('button', { name: 'Load more' })) {
      const count = within(dialog()).getAllByTestId('activity-item').length
      fireEvent.click(button('Load more'))
      await waitFor(() =>
        expect(within(dialog()).getAllByTestId('activity-item').length).toBeGreaterThan(count),
      )
    }
    expect(dialog().textContent).not.toContain('Sandbox Punk #5')
    expect(dialog().textContent).toContain('Minted')
  })

  it("Activity: a failed history call shows 'Failed to fetch transactions' with Try again, which loads it", async () => {
    await connected(1)
    await waitFor(() => expect(within(dialog()).getAllByTestId('token-balance').length).toBe(4))
    // Every call about an account fails from now on: the next one is the history's.
    await setFault({ mode: 'fail', path: '/v1/account/' })
    fireEvent.click(within(dialog()).getByRole('tab', { name: 'Activity' }))
    const panel = within(dialog()).getByRole('tabpanel')
    await waitFor(() =>
      expect(within(panel).getByRole('alert').textContent).toBe('Failed to fetch transactions'),
    )
    expect(within(panel).queryByRole('list', { name: 'Activity' })).toBeNull()
    await setFault({ mode: 'off' })
    fireEvent.click(within(panel).getByRole('button', { name: 'Try again' }))
    const list = await within(dialog()).findByRole('list', { name: 'Activity' })
    expect(within(list).getAllByTestId('activity-item').length).toBeGreaterThan(0)
    expect(within(dialog()).queryByRole('alert')).toBeNull()
  })

  it("Activity: a later page that fails keeps the pages shown, says 'Failed to fetch transactions' and retries that page", async () => {
    await connected(0)
    fireEvent.click(await within(dialog()).findByRole('tab', { name: 'Activity' }))
    const list = await within(dialog()).findByRole('list', { name: 'Activity' })
    const first = within(list).getAllByTestId('activity-item').length
    await setFault({ mode: 'fail', path: '/v1/account/' })
    fireEvent.click(button('Load more'))
    const panel = within(dialog()).getByRole('tabpanel')
    await waitFor(() =>
      expect(within(panel).getByRole('alert').textContent).toBe('Failed to fetch transactions'),
    )
    expect(within(panel).getAllByTestId('activity-item').length).toBe(first)
    await setFault({ mode: 'off' })
    fireEvent.click(within(panel).getByRole('button', { name: 'Try again' }))
    await waitFor(() => expect(within(panel).getAllByTestId('activity-item').length).toBeGreaterThan(first))
    expect(within(panel).queryByRole('alert')).toBeNull()
  })

  it('a failed balance call shows the SPEC toast, and no new request reaches the Data API for 30 s', async () => {
    // The network check answers; every call about an account fails.
    await setFault({ mode: 'fail', path: '/v1/account/' })
    const before = balanceRequests
    const s = await connected(2)
    await waitFor(() => expect(toast()?.textContent).toBe('Token Balance Unavailable'))
    expect(toast()?.getAttribute('role')).toBe('alert')
    const afterFailure = balanceRequests
    expect(afterFailure - before).toBe(1)
    const retry = await within(dialog()).findByRole('button', { name: 'Try again' })
    expect((retry as HTMLButtonElement).disabled).toBe(true)
    // Leaving and coming back asks again; the machine refuses during the block.
    fireEvent.click(within(dialog()).getByRole('tab', { name: 'NFTs' }))
    fireEvent.click(within(dialog()).getByRole('tab', { name: 'Tokens' }))
    fireEvent.click(button('Send'))
    await showView('WalletSend')
    fireEvent.click(button('Back'))
    await showView('Account')
    await s.advance(TOKEN_BALANCE_RETRY_BLOCK_MS - 1)
    fireEvent.click(within(dialog()).getByRole('tab', { name: 'NFTs' }))
    fireEvent.click(within(dialog()).getByRole('tab', { name: 'Tokens' }))
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(balanceRequests).toBe(afterFailure)
    // 30 s on: a new attempt is allowed, and it reaches the API (now answering).
    await setFault({ mode: 'off' })
    await s.advance(1)
    await waitFor(() => expect(button('Try again').disabled).toBe(false))
    fireEvent.click(button('Try again'))
    await waitFor(() => expect(within(dialog()).getAllByTestId('token-balance').length).toBe(4))
    expect(balanceRequests).toBe(afterFailure + 1)
    expect(shownQuantities()).toEqual(await chainQuantities(s.account))
  })
})

describe('WalletReceive', () => {
  it('shows the address, its QR code and the compatible networks; Copy address copies it', async () => {
    const r = await connected(0)
    fireEvent.click(button('Receive'))
    await showView('WalletReceive')
    expect(screen.getByTestId('receive-address').textContent).toBe(r.account)
    const qr = await within(dialog()).findByRole('img', { name: 'QR code of your address' })
    expect(qr.getAttribute('data-uri')).toBe(r.account)
    const networks = within(dialog()).getByRole('list', { name: 'Compatible networks' })
    expect(
      within(networks)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Walletstate SandboxConnected'])
    fireEvent.click(button('Copy address'))
    await waitFor(() => expect(toast()?.textContent).toBe('Address copied'))
    expect(await navigator.clipboard.readText()).toBe(r.account)
  })
})

describe('send views', () => {
  it('validates in the SPEC order, keeps the form through a failed name, previews the fee and sends an ERC-20', async () => {
    const r = await connected(3)
    await waitFor(() => expect(within(dialog()).getAllByTestId('token-balance').length).toBe(4))
    fireEvent.click(button('Send'))
    await showView('WalletSend')
    // The preview button carries the machine's validation text until the form is valid.
    const preview = () =>
      within(dialog()).getByRole('button', {
        name: /required|Preview send|Invalid|Insufficient/,
      }) as HTMLButtonElement
    expect(preview().textContent).toBe('An amount and receiver address are required')
    expect(preview().disabled).toBe(true)
    type(textbox('Amount'), '1.5')
    type(textbox('Receiver'), 'nobody-here.reown.id')
    expect(preview().textContent).toBe('A token is required')

    fireEvent.click(button('Select token'))
    await showView('WalletSendSelectToken')
    const tokens = within(dialog()).getByRole('list', { name: 'Tokens' })
    expect(
      within(tokens)
        .getAllByRole('button')
        .map((b) => b.getAttribute('data-symbol')),
    ).toEqual(['ETH', 'USDC', 'STK', 'USDT'])
    type(
      within(dialog()).getByRole('searchbox', { name: 'Search tokens' }) as HTMLInputElement,
      'sandbox tok',
    )
    expect(
      within(tokens)
        .getAllByRole('button')
        .map((b) => b.getAttribute('data-symbol')),
    ).toEqual(['STK'])
    fireEvent.click(within(tokens).getByRole('button'))
    await showView('WalletSend')
    expect(button('Token: STK')).toBeDefined()
    expect(textbox('Amount').value).toBe('1.5')
    expect(preview().textContent).toBe('Preview send')

    // A name nobody holds: the SPEC's text, and the form as it was.
    fireEvent.click(preview())
    await waitFor(() => expect(within(dialog()).getByRole('alert').textContent).toBe('Error resolving name'))
    expect(view()).toBe('WalletSend')
    expect(textbox('Amount').value).toBe('1.5')
    expect(textbox('Receiver').value).toBe('nobody-here.reown.id')

    const bob = services.accounts[4]!
    const stk = services.tokens.find((t) => t.symbol === 'STK')!
    const before = await reader.readContract({
      address: stk.address,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [bob],
    })
    type(textbox('Receiver'), bob)
    fireEvent.click(preview())
    await showView('WalletSendPreview')
    expect(screen.getByTestId('send-amount').textContent).toBe('1.5 STK')
    expect(screen.getByTestId('send-receiver').textContent).toBe(truncateAddress(bob))
    await waitFor(() => expect(screen.getByTestId('send-fee').textContent).toMatch(/^0\.\d+ ETH$/))
    // Back to the form and forward again: the values stay.
    fireEvent.click(button('Cancel'))
    await showView('WalletSend')
    expect(textbox('Receiver').value).toBe(bob)
    fireEvent.click(preview())
    await showView('WalletSendPreview')
    await waitFor(() => expect(button('Send').disabled).toBe(false))
    fireEvent.click(button('Send'))
    // ERC-20: back on Account (SPEC §2), with a toast, and the balances read fresh.
    await showView('Account')
    await r.advance(TOAST_RESHOW_MS)
    await waitFor(() => expect(toast()?.textContent).toBe('Sent 1.5 STK'))
    const after = await reader.readContract({
      address: stk.address,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [bob],
    })
    expect(after - before).toBe(1_500_000_000_000_000_000n)
    const expected = await chainQuantities(r.account)
    await waitFor(() => expect(shownQuantities()).toEqual(expected))
  })

  it('a native send goes back to the form, reset', async () => {
    await connected(3)
    fireEvent.click(button('Send'))
    await showView('WalletSend')
    fireEvent.click(button('Select token'))
    await showView('WalletSendSelectToken')
    fireEvent.click(await within(dialog()).findByRole('button', { name: /Ether/ }))
    await showView('WalletSend')
    type(textbox('Amount'), '0.01')
    type(textbox('Receiver'), services.accounts[4]!)
    fireEvent.click(button('Preview send'))
    await showView('WalletSendPreview')
    await waitFor(() => expect(button('Send').disabled).toBe(false))
    fireEvent.click(button('Send'))
    await waitFor(() => expect(view()).toBe('WalletSend'), { timeout: 10_000 })
    await waitFor(() => expect(textbox('Amount').value).toBe(''))
    expect(button('Select token')).toBeDefined()
  })
})
