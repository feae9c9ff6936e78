import type { Page } from 'playwright-core'
import {
  type Address,
  createPublicClient,
  createWalletClient,
  erc20Abi,
  http,
  parseUnits,
  verifyMessage,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chainBalances, tokensTab } from './balances.ts'
import {
  connectInjected,
  type E2eContext,
  fillSendForm,
  hostButton,
  startE2e,
  truncated,
  walletPrompt,
} from './support.ts'

/**
 * SPEC §3 allAccounts (issue 37 point 4), in Chromium against the sandbox: the injected dev wallet shares two
 * accounts (dev accounts 0 and 3); Account lists both, the first shown; choosing the second (by pointer, then
 * back by keyboard) changes the address shown and the Tokens, which match what the chain holds for that account
 * (read here with viem), and a send goes from it. A reload shows the wallet's first account again: the choice is
 * the kit's, the wallet's own order decides a fresh connection (as wagmi reconnects). The WalletConnect wallet
 * page's two accounts (dev accounts 1 and 4) show in Account after pairing, and a signature follows the choice.
 */
let e2e: E2eContext
let page: Page
let client: ReturnType<typeof createPublicClient>
let first: Address
let second: Address

beforeAll(async () => {
  e2e = await startE2e()
  page = await e2e.newPage()
  client = createPublicClient({ transport: http(e2e.sandbox.chain.rpcUrl) })
  ;[first, second] = e2e.sandbox.wallets.injectedAddresses as [Address, Address]
  // Every dev account starts with the same tokens: the second gets 250 USDC more (from dev account 5, which no
  // other test uses), so its Tokens differ from the first's.
  const usdc = e2e.sandbox.chain.tokens.find((t) => t.symbol === 'USDC')!
  const faucet = privateKeyToAccount(e2e.sandbox.chain.accounts[5]!.privateKey)
  const wallet = createWalletClient({ account: faucet, transport: http(e2e.sandbox.chain.rpcUrl) })
  const hash = await wallet.writeContract({
    chain: null,
    address: usdc.address,
    abi: erc20Abi,
    functionName: 'transfer',
    args: [second, parseUnits('250', usdc.decimals)],
  })
  expect((await client.waitForTransactionReceipt({ hash })).status).toBe('success')
})
afterAll(async () => {
  await e2e?.close()
})

const view = (name: string) => page.locator(`[data-view="${name}"]`)
const accountList = (p: Page = page) => p.getByRole('list', { name: "Your wallet's accounts" })
const accountButton = (address: string, p: Page = page) =>
  accountList(p).getByRole('button', { name: truncated(address), exact: true })

const current = (address: string, p: Page = page) => accountButton(address, p).getAttribute('aria-current')

describe('the injected dev wallet shares two accounts (SPEC §3 allAccounts)', () => {
  it('connects on the first; Account lists both, the first shown, its Tokens as the chain holds them', async () => {
    expect(e2e.sandbox.wallets.injectedAddress).toBe(first)
    await connectInjected(page, first)
    await hostButton(page).click()
    await view('Account').waitFor()
    await expect.poll(() => accountList().getByRole('button').count()).toBe(2)
    expect(await current(first)).toBe('true')
    expect(await current(second)).toBeNull()
    await expect.poll(() => view('Account').getByTestId('token-balance').count()).toBe(4)
    await expect
      .poll(() => tokensTab(page))
      .toEqual(await chainBalances(client, e2e.sandbox.chain.tokens, first))
  })

  it('choosing the second changes the address shown and the Tokens to what the chain holds for it', async () => {
    const before = await chainBalances(client, e2e.sandbox.chain.tokens, first)
    await accountButton(second).click()
    await expect
      .poll(() => view('Account').getByTestId('account-address').textContent())
      .toBe(truncated(second))
    await expect.poll(() => hostButton(page).textContent()).toBe(truncated(second))
    expect(await current(second)).toBe('true')
    expect(await current(first)).toBeNull()
    const chain = await chainBalances(client, e2e.sandbox.chain.tokens, second)
    await expect.poll(() => tokensTab(page)).toEqual(chain)
    // Not the first account's balances left on screen: the second has 250 USDC more.
    expect(chain.USDC).not.toBe(before.USDC)
    expect(Number(chain.USDC) - Number(before.USDC)).toBe(250)
  })

  it('a send goes from the account shown: the wallet is asked for it, and it lands from it', async () => {
    const stk = e2e.sandbox.chain.tokens.find((t) => t.symbol === 'STK')!
    const to = e2e.sandbox.chain.accounts[9]!.address
    const balanceOf = (account: Address) =>
      client.readContract({ address: stk.address, abi: erc20Abi, functionName: 'balanceOf', args: [account] })
    const [fromBefore, toBefore] = [await balanceOf(second), await balanceOf(to)]
    await fillSendForm(page, { symbol: 'STK', amount: '2', receiver: to })
    const preview = view('WalletSendPreview')
    await expect.poll(() => preview.getByTestId('send-fee').textContent()).toMatch(/^0\.\d+ ETH$/)
    await preview.getByRole('button', { name: 'Send', exact: true }).click()
    // The wallet's prompt names the account it signs with.
    const prompt = walletPrompt(page)
    await prompt.waitFor()
    expect(await prompt.textContent()).toContain(second)
    await prompt.getByRole('button', { name: 'Approve' }).click()
    await view('Account').waitFor()
    await expect.poll(() => page.locator('.ws-toast').textContent()).toBe('Sent 2 STK')
    expect(fromBefore - (await balanceOf(second))).toBe(parseUnits('2', stk.decimals))
    expect((await balanceOf(to)) - toBefore).toBe(parseUnits('2', stk.decimals))
    await expect
      .poll(async () => (await tokensTab(page)).STK)
      .toBe((await chainBalances(client, e2e.sandbox.chain.tokens, second)).STK)
  })

  it('back to the first by keyboard: the list is buttons a keyboard reaches, the Tokens follow', async () => {
    await accountButton(first).focus()
    await page.keyboard.press('Enter')
    await expect
      .poll(() => view('Account').getByTestId('account-address').textContent())
      .toBe(truncated(first))
    expect(await current(first)).toBe('true')
    await expect
      .poll(() => tokensTab(page))
      .toEqual(await chainBalances(client, e2e.sandbox.chain.tokens, first))
  })

  it('after a reload the wallet order decides again: the first shown, both listed', async () => {
    await accountButton(second).click()
    await expect.poll(() => hostButton(page).textContent()).toBe(truncated(second))
    await page.reload()
    await expect.poll(() => hostButton(page).textContent(), { timeout: 20_000 }).toBe(truncated(first))
    await hostButton(page).click()
    await view('Account').waitFor()
    await expect.poll(() => current(first)).toBe('true')
    expect(await accountList().getByRole('button').count()).toBe(2)
    await page.getByRole('button', { name: 'Disconnect' }).click()
    await expect.poll(() => hostButton(page).textContent()).toBe('Connect Wallet')
  })
})

describe('the WalletConnect wallet page shares two eip155 accounts', () => {
  it('both show in Account after pairing; a signature follows the account chosen', async () => {
    const [wcFirst, wcSecond] = e2e.sandbox.wallets.wcAddresses as [Address, Address]
    expect(wcFirst).toBe(e2e.sandbox.wallets.wcAddress)
    await hostButton(page).click()
    await page
      .getByRole('dialog')
      .getByRole('button', { name: /WalletConnect/ })
      .click()
    const qr = page.getByRole('img', { name: 'WalletConnect QR code' })
    await qr.waitFor({ timeout: 60_000 })
    const uri = await qr.getAttribute('data-uri')
    expect(uri).toMatch(/^wc:/)
    const wallet = await e2e.browser.newPage()
    await wallet.goto(`${e2e.sandbox.wallets.wcWalletUrl}?uri=${encodeURIComponent(uri!)}`)
    await wallet
      .getByRole('region', { name: 'Session proposal' })
      .getByRole('button', { name: 'Approve' })
      .click()
    await expect.poll(() => hostButton(page).textContent(), { timeout: 20_000 }).toBe(truncated(wcFirst))

    await hostButton(page).click()
    await view('Account').waitFor()
    await expect.poll(() => accountList().getByRole('button').count()).toBe(2)
    expect(await current(wcFirst)).toBe('true')
    await accountButton(wcSecond).click()
    await expect
      .poll(() => view('Account').getByTestId('account-address').textContent())
      .toBe(truncated(wcSecond))
    await page.keyboard.press('Escape')

    await page.getByRole('button', { name: 'Sign message' }).click()
    const request = wallet.getByRole('region', { name: 'Signature request' })
    await request.waitFor({ timeout: 20_000 })
    expect(await request.textContent()).toContain(wcSecond)
    await request.getByRole('button', { name: 'Approve' }).click()
    const result = page.getByTestId('demo-result')
    await expect.poll(() => result.textContent(), { timeout: 20_000 }).toMatch(/^0x[0-9a-f]{130}$/)
    const signature = (await result.textContent()) as `0x${string}`
    const message = `Hello from the Walletstate demo to ${wcSecond}`
    expect(await verifyMessage({ address: wcSecond, message, signature })).toBe(true)
    await wallet.close()
  })
})
