// @vitest-environment happy-dom
import { createServer, request as httpRequest, type Server } from 'node:http'
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { type Address, erc20Abi, formatUnits } from 'viem'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { TOAST_RESHOW_MS, TOKEN_BALANCE_RETRY_BLOCK_MS } from '../../src/constants'
import { truncateAddress } from '../../src/utils/format'
import {
  button,
  dialog,
  renderConnectedKit,
  sandboxServices,
  setFault as setApiFault,
  showView,
  textbox,
  toast,
  type,
  shownView as view,
} from './sandboxKit'

/**
 * The Account view's details, Receive and the send views, rendered in the real kit against the sandbox's real
 * chain (anvil), RPC host and Data API, all on loopback (in a process of their own: `sandbox-services.ts`).
 * The wallet is a small EIP-1193 provider announced by EIP-6963 that hands every call to anvil (whose dev
 * accounts are unlocked), so it approves what it is asked: the wallet's own prompt is the end-to-end test's
 * business. The visitor's side is done through the rendered controls, by their accessible names; what the
 * screen shows is compared with what the chain holds. The kit reaches the Data API through a pass-through
 * proxy here that counts the balance requests that reach it.
 */
const sandbox = sandboxServices()
let proxy: Server | undefined
let proxyOrigin = ''
let balanceRequests = 0

beforeAll(async () => {
  proxy = createServer((req, res) => {
    if (/^\/v1\/account\/[^/]+\/balance/.test(req.url ?? '') && req.method === 'GET') balanceRequests++
    const target = new URL(req.url ?? '/', sandbox.services().apiOrigin)
    // Host names the upstream, as a proxy sends it: the sandbox refuses another host (DNS rebinding).
    const upstream = httpRequest(
      target,
      { method: req.method, headers: { ...req.headers, host: target.host } },
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
}, 120_000)

afterAll(async () => {
  await new Promise<void>((resolve) => (proxy ? proxy.close(() => resolve()) : resolve()))
})

const setFault = (fault: object) => setApiFault(sandbox.services().apiOrigin, fault)

let uninstall: (() => void) | undefined
afterEach(async () => {
  cleanup()
  uninstall?.()
  uninstall = undefined
  await setFault({ mode: 'off' })
})

/** Renders a kit on the sandbox (its Data API through the counting proxy) and connects `account`; on Account. */
async function connected(accountIndex = 0) {
  const session = await renderConnectedKit(sandbox.services(), {
    projectId: 'account-ui',
    accountIndex,
    apiOrigin: proxyOrigin,
  })
  uninstall = session.uninstall
  return session
}

/** Token quantities as the chain has them, shown as the Account view shows them (4 decimals, cut). */
async function chainQuantities(account: Address): Promise<Record<string, string>> {
  const shown = (raw: bigint, decimals: number) => {
    const [whole, fraction = ''] = formatUnits(raw, decimals).split('.')
    const cut = fraction.slice(0, 4).replace(/0+$/, '')
    return cut ? `${whole}.${cut}` : whole!
  }
  const out: Record<string, string> = {
    ETH: shown(await sandbox.reader().getBalance({ address: account }), 18),
  }
  for (const token of sandbox.services().tokens) {
    const raw = await sandbox.reader().readContract({
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

    // A name someone holds (dev account 0's, issue 20): the preview shows it beside the address it resolves to.
    type(textbox('Receiver'), 'sandbox-dev.reown.id')
    fireEvent.click(preview())
    await showView('WalletSendPreview')
    expect(screen.getByTestId('send-receiver').textContent?.toLowerCase()).toBe(
      `sandbox-dev.reown.id (${truncateAddress(sandbox.services().accounts[0]!)})`.toLowerCase(),
    )
    fireEvent.click(button('Cancel'))
    await showView('WalletSend')

    const bob = sandbox.services().accounts[4]!
    const stk = sandbox.services().tokens.find((t) => t.symbol === 'STK')!
    const before = await sandbox.reader().readContract({
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
    const after = await sandbox.reader().readContract({
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
    type(textbox('Receiver'), sandbox.services().accounts[4]!)
    fireEvent.click(button('Preview send'))
    await showView('WalletSendPreview')
    await waitFor(() => expect(button('Send').disabled).toBe(false))
    fireEvent.click(button('Send'))
    await waitFor(() => expect(view()).toBe('WalletSend'), { timeout: 10_000 })
    await waitFor(() => expect(textbox('Amount').value).toBe(''))
    expect(button('Select token')).toBeDefined()
  })
})
