import type { Page, Request } from 'playwright-core'
import { type Address, createPublicClient, erc20Abi, type Hex, http, parseUnits } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RpcLogEntry } from '../../sandbox/chain/rpc.ts'
import { chainBalances, tokensTab } from './balances.ts'
import { type E2eContext, fillSendForm, hostButton, startE2e, truncated, walletPrompt } from './support.ts'

/**
 * Issue 7's acceptance in Chromium against the sandbox: connected with the injected dev wallet (dev account 0),
 * the Tokens tab shows the ERC-20 balances; 1.5 STK and 0.01 ETH go to dev account 1 through the send views,
 * each approved in the wallet's prompt; the receipts arrive; Activity lists both transfers; what the screen
 * shows matches the chain, read here with viem. Then the Data API's fault switch fails the balance call: the
 * SPEC's toast shows and no balance request reaches the Data API for 30 s.
 */
let e2e: E2eContext
let page: Page
let client: ReturnType<typeof createPublicClient>
let me: Address
let recipient: Address

beforeAll(async () => {
  e2e = await startE2e()
  page = await e2e.newPage()
  client = createPublicClient({ transport: http(e2e.sandbox.chain.rpcUrl) })
  me = e2e.sandbox.wallets.injectedAddress
  recipient = e2e.sandbox.chain.accounts[1]!.address
})
afterAll(async () => {
  await e2e?.close()
})

const kit = () => page.locator('.ws-dialog')
const view = (name: string) => page.locator(`[data-view="${name}"]`)
const toast = () => page.locator('.ws-toast')

async function approveInWallet() {
  await walletPrompt(page).getByRole('button', { name: 'Approve' }).click()
}

/** From Account: Send, a token, an amount and the receiver, the preview with its fee, Send, approved. */
async function send(symbol: string, amount: string, to: Address) {
  await fillSendForm(page, { symbol, amount, receiver: to })
  const preview = view('WalletSendPreview')
  expect(await preview.getByTestId('send-amount').textContent()).toBe(`${amount} ${symbol}`)
  expect(await preview.getByTestId('send-receiver').textContent()).toBe(truncated(to))
  await expect.poll(() => preview.getByTestId('send-fee').textContent()).toMatch(/^0\.\d+ ETH$/)
  await preview.getByRole('button', { name: 'Send', exact: true }).click()
  await approveInWallet()
}

/** What the page asked the sandbox RPC host, oldest first (its `GET /__log`). */
async function kitCalls(): Promise<RpcLogEntry['calls']> {
  const demo = new URL(e2e.sandbox.demo!.url).origin
  const { entries } = (await (await fetch(`${e2e.sandbox.rpc.origin}/__log`)).json()) as {
    entries: RpcLogEntry[]
  }
  return entries.filter((e) => e.origin === demo).flatMap((e) => e.calls)
}

describe('account and send, in Chromium against the sandbox', () => {
  it('connects with the injected dev wallet; Tokens shows the ERC-20 balances the chain holds', async () => {
    await hostButton(page).getByText('Connect Wallet').click()
    await page
      .getByRole('dialog', { name: 'Connect Wallet' })
      .getByRole('button', { name: /Walletstate Dev Wallet/ })
      .click()
    await approveInWallet()
    await expect.poll(() => hostButton(page).textContent()).toBe(truncated(me))
    // Connected, the modal closed and the wallet asks nothing more.
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0)
    await hostButton(page).click()
    await view('Account').waitFor()
    await expect.poll(() => view('Account').getByTestId('token-balance').count()).toBe(4)
    const chain = await chainBalances(client, e2e.sandbox.chain.tokens, me)
    expect(await tokensTab(page)).toEqual(chain)
    // The amounts are the chain's: the three ERC-20s' balanceOf and decimals went as one request (SPEC §9 multicall
    // batch), when Account loaded.
    expect(await kitCalls()).toContainEqual({ method: 'eth_call', reads: 6 })
    for (const symbol of ['USDC', 'STK', 'USDT']) expect(Number(chain[symbol])).toBeGreaterThan(0)
    await expect
      .poll(() => view('Account').getByTestId('account-balance').textContent())
      .toBe(`${chain.ETH} ETH`)
    // The sandbox is a testnet: its tokens are worth nothing in USD (SPEC §9).
    expect(await view('Account').getByTestId('account-total').textContent()).toBe('$0.00')
    expect(await view('Account').getByTestId('account-profile-name').textContent()).toBe(
      'sandbox-dev.reown.id',
    )
  })

  it('SPEC §9 native balance cache 30 s and multicall batch size 1024 bytes: Account opened again asks the chain for no balance; both reads of a token are one eth_call', async () => {
    // Account was opened by the test before, within 30 s: closed and opened again, it shows the balance it read.
    const before = (await kitCalls()).length
    await page.keyboard.press('Escape')
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0)
    await hostButton(page).click()
    await expect.poll(() => view('Account').getByTestId('account-balance').textContent()).toMatch(/ ETH$/)
    // Then reads that must reach the chain: a send of STK up to its preview (the token's decimals and symbol).
    await fillSendForm(page, { symbol: 'STK', amount: '1', receiver: recipient })
    await expect.poll(() => view('WalletSendPreview').getByTestId('send-fee').textContent()).toMatch(/ ETH$/)
    const since = (await kitCalls()).slice(before)
    expect(since.filter((c) => c.method === 'eth_getBalance')).toEqual([])
    // The token's two reads went in one request: an eth_call carrying both (a multicall).
    expect(since).toContainEqual({ method: 'eth_call', reads: 2 })
    await kit().getByRole('button', { name: 'Back' }).click()
    await kit().getByRole('button', { name: 'Back' }).click()
    await view('Account').waitFor()
  })

  const hashes: Hex[] = []

  it('sends 1.5 STK: approved in the wallet, the receipt arrives, back on Account with the balances read fresh', async () => {
    const stk = e2e.sandbox.chain.tokens.find((t) => t.symbol === 'STK')!
    const balanceOf = (account: Address) =>
      client.readContract({ address: stk.address, abi: erc20Abi, functionName: 'balanceOf', args: [account] })
    const before = await balanceOf(recipient)
    await send('STK', '1.5', recipient)
    // SPEC §2: an ERC-20 send returns to Account.
    await view('Account').waitFor()
    await expect.poll(() => toast().textContent()).toBe('Sent 1.5 STK')
    expect((await balanceOf(recipient)) - before).toBe(parseUnits('1.5', 18))
    const block = await client.getBlock({ includeTransactions: true })
    const tx = block.transactions.find((t) => t.from.toLowerCase() === me.toLowerCase())!
    expect((await client.getTransactionReceipt({ hash: tx.hash })).status).toBe('success')
    hashes.push(tx.hash)
    await expect
      .poll(async () => (await tokensTab(page)).STK)
      .toBe((await chainBalances(client, e2e.sandbox.chain.tokens, me)).STK)
  })

  it('sends 0.01 ETH: approved in the wallet, the receipt arrives, back on the form, reset', async () => {
    const before = await client.getBalance({ address: recipient })
    await send('ETH', '0.01', recipient)
    // SPEC §2: a native send goes back (to the form), the send state reset.
    await view('WalletSend').waitFor()
    await expect.poll(() => view('WalletSend').getByRole('textbox', { name: 'Amount' }).inputValue()).toBe('')
    await view('WalletSend').getByRole('button', { name: 'Select token' }).waitFor()
    expect((await client.getBalance({ address: recipient })) - before).toBe(parseUnits('0.01', 18))
    const block = await client.getBlock({ includeTransactions: true })
    const tx = block.transactions.find((t) => t.from.toLowerCase() === me.toLowerCase())!
    expect((await client.getTransactionReceipt({ hash: tx.hash })).status).toBe('success')
    hashes.push(tx.hash)
    await kit().getByRole('button', { name: 'Back' }).click()
    await view('Account').waitFor()
  })

  it('Activity lists both transfers, newest first, with the operation, status and amounts to 3 decimals', async () => {
    await view('Account').getByRole('tab', { name: 'Activity' }).click()
    const items = view('Account').getByTestId('activity-item')
    await expect.poll(() => items.first().getAttribute('data-hash')).toBe(hashes[1])
    const native = items.nth(0)
    const token = items.nth(1)
    expect(await token.getAttribute('data-hash')).toBe(hashes[0])
    for (const item of [native, token]) {
      expect(await item.getAttribute('data-operation')).toBe('send')
      expect(await item.getByTestId('activity-status').textContent()).toBe('Confirmed')
      expect(await item.textContent()).toContain('Sent')
    }
    expect(await native.getByTestId('activity-transfer').allTextContents()).toEqual(['-0.010 ETH'])
    expect(await token.getByTestId('activity-transfer').allTextContents()).toEqual(['-1.500 STK'])
  })

  it('the balances on screen match the chain', async () => {
    await view('Account').getByRole('tab', { name: 'Tokens' }).click()
    const chain = await chainBalances(client, e2e.sandbox.chain.tokens, me)
    await expect.poll(() => tokensTab(page)).toEqual(chain)
    await expect
      .poll(() => view('Account').getByTestId('account-balance').textContent())
      .toBe(`${chain.ETH} ETH`)
    expect(e2e.pageErrors).toEqual([])
  })
})

describe('a failing balance call', () => {
  it('shows the toast "Token Balance Unavailable", and no new balance request reaches the Data API for 30 s', async () => {
    const api = e2e.sandbox.api.origin
    const balancePath = `/v1/account/${me}/balance`
    const answer = await fetch(`${api}/__fault`, {
      method: 'POST',
      body: JSON.stringify({ mode: 'fail', path: balancePath }),
    })
    expect(answer.status).toBe(200)
    // A fresh page: the kit reconnects and the Account view asks for balances anew.
    await page.reload()
    await expect.poll(() => hostButton(page).textContent()).toBe(truncated(me))
    const requests: Request[] = []
    const onRequest = (request: Request) => {
      if (new URL(request.url()).pathname === balancePath) requests.push(request)
    }
    page.on('request', onRequest)
    try {
      await hostButton(page).click()
      await view('Account').waitFor()
      await expect.poll(() => toast().textContent()).toBe('Token Balance Unavailable')
      expect(await toast().getAttribute('role')).toBe('alert')
      expect(requests).toHaveLength(1)
      // The browser's own clock for when the failed request started: the block starts after it (at the failure),
      // so "now - failedAt" never over-counts the block, as a time taken when the test saw the request could.
      const failedAt = requests[0]!.timing().startTime
      expect(failedAt).toBeGreaterThan(0)
      const tryAgain = view('Account').getByRole('button', { name: 'Try again' })
      expect(await tryAgain.isDisabled()).toBe(true)
      // During the block the visitor keeps asking: tabs, the send form (its token picker needs balances), back.
      // The last round starts well inside the 30 s, so a slow round cannot run past the block's end.
      while (Date.now() - failedAt < 22_000) {
        await view('Account').getByRole('tab', { name: 'NFTs' }).click()
        await view('Account').getByRole('tab', { name: 'Tokens' }).click()
        await view('Account').getByRole('button', { name: 'Send', exact: true }).click()
        await view('WalletSend').waitFor()
        await kit().getByRole('button', { name: 'Back' }).click()
        await view('Account').waitFor()
        await page.waitForTimeout(1_500)
      }
      // Then only the quick ask (the Tokens tab shown again) until shortly before the block ends.
      while (Date.now() - failedAt < 27_500) {
        await view('Account').getByRole('tab', { name: 'NFTs' }).click()
        await view('Account').getByRole('tab', { name: 'Tokens' }).click()
        await page.waitForTimeout(250)
      }
      // Still inside the 30 s (counted from the request, so from before the failure): nothing went out.
      const quiet = 29_000 - (Date.now() - failedAt)
      if (quiet > 0) await page.waitForTimeout(quiet)
      expect(requests).toHaveLength(1)
      // Then a new attempt is allowed, and it does reach the Data API.
      await fetch(`${api}/__fault`, { method: 'POST', body: JSON.stringify({ mode: 'off' }) })
      await expect.poll(() => tryAgain.isDisabled(), { timeout: 5_000 }).toBe(false)
      expect(Date.now() - failedAt).toBeGreaterThanOrEqual(30_000)
      await tryAgain.click()
      await expect.poll(() => view('Account').getByTestId('token-balance').count()).toBe(4)
      expect(requests).toHaveLength(2)
      expect(await tokensTab(page)).toEqual(await chainBalances(client, e2e.sandbox.chain.tokens, me))
    } finally {
      page.off('request', onRequest)
    }
  })
})
