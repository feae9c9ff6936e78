import type { Page } from 'playwright-core'
import { type Address, createPublicClient, erc20Abi, http, parseUnits } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SEND_REQUEST_TIMEOUT_MS } from '../../src/constants'
import { type E2eContext, hostButton, startE2e, truncated, walletPrompt } from './support.ts'

/**
 * One payment, one transaction, in Chromium against the sandbox. The injected dev wallet holds the send's request
 * (nobody answers its prompt) past the kit's time limit: the page's clock is Playwright's, jumped forward by
 * SEND_REQUEST_TIMEOUT_MS rather than waited for. The kit asks the chain about the request's nonce and then
 * offers "Send again"; pressed, the wallet queues a second prompt. Both are approved: the first transaction is
 * mined, the second asks for the same nonce and cannot be. The chain shows one transaction for that nonce and
 * the receiver's balance moved once; the kit ends with the payment sent.
 *
 * With the old chart, "Try again" sent a second request with a nonce of its own: approving both paid twice.
 */
let e2e: E2eContext
let page: Page
let client: ReturnType<typeof createPublicClient>
let me: Address
let recipient: Address

beforeAll(async () => {
  e2e = await startE2e()
  page = await e2e.browser.newPage()
  page.on('pageerror', (error) => e2e.pageErrors.push(error.message))
  // Before the page's scripts run, so the kit's timers are the controllable clock's (it still runs in real time).
  await page.clock.install()
  await page.goto(e2e.sandbox.demo!.url)
  client = createPublicClient({ transport: http(e2e.sandbox.chain.rpcUrl) })
  me = e2e.sandbox.wallets.injectedAddress
  recipient = e2e.sandbox.chain.accounts[2]!.address
})
afterAll(async () => {
  await e2e?.close()
})

const view = (name: string) => page.locator(`[data-view="${name}"]`)
const approveInWallet = () => walletPrompt(page).getByRole('button', { name: 'Approve' }).click()

describe('after the send’s time limit, "Send again" leads to at most one mined transaction', () => {
  it('holds the request past the limit, sends again, approves both prompts: one transaction, the balance moved once', async () => {
    const usdc = e2e.sandbox.chain.tokens.find((t) => t.symbol === 'USDC')!
    const usdcOf = (account: Address) =>
      client.readContract({
        address: usdc.address,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [account],
      })

    await hostButton(page).getByText('Connect Wallet').click()
    await page
      .getByRole('dialog', { name: 'Connect Wallet' })
      .getByRole('button', { name: /Walletstate Dev Wallet/ })
      .click()
    await approveInWallet()
    await expect.poll(() => hostButton(page).textContent()).toBe(truncated(me))
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0)

    const nonce = await client.getTransactionCount({ address: me })
    const before = await usdcOf(recipient)

    await hostButton(page).click()
    await view('Account').getByRole('button', { name: 'Send', exact: true }).click()
    await view('WalletSend')
      .getByRole('button', { name: /^(Select token|Token: )/ })
      .click()
    await view('WalletSendSelectToken').locator('button[data-symbol="USDC"]').click()
    const form = view('WalletSend')
    await form.getByRole('button', { name: 'Token: USDC' }).waitFor()
    await form.getByRole('textbox', { name: 'Amount' }).fill('5')
    await form.getByRole('textbox', { name: 'Receiver' }).fill(recipient)
    await form.getByRole('button', { name: 'Preview send' }).click()
    const preview = view('WalletSendPreview')
    await expect.poll(() => preview.getByTestId('send-fee').textContent()).toMatch(/^0\.\d+ ETH$/)
    await preview.getByRole('button', { name: 'Send', exact: true }).click()

    // The wallet shows its prompt; nobody answers it. The kit's time limit passes.
    await walletPrompt(page).getByRole('button', { name: 'Approve' }).waitFor()
    await page.clock.fastForward(SEND_REQUEST_TIMEOUT_MS)
    // Looked at on chain first (nothing mined with the nonce), then "Send again", with what it means.
    const sendAgain = preview.getByRole('button', { name: 'Send again' })
    await sendAgain.waitFor()
    expect(await preview.getByRole('alert').textContent()).toBe(
      'The wallet did not answer in time, and nothing was sent yet. Send again replaces the open request: only one can go through.',
    )
    expect(await client.getTransactionCount({ address: me })).toBe(nonce)
    // The dev wallet's prompt is an overlay on the page (an extension's is a window of its own): the kit's
    // button is pressed underneath it.
    await sendAgain.dispatchEvent('click')

    // Two prompts now, one after the other: both approved.
    await approveInWallet()
    await expect.poll(() => client.getTransactionCount({ address: me })).toBe(nonce + 1)
    await walletPrompt(page).getByRole('button', { name: 'Approve' }).waitFor()
    await approveInWallet()

    // The kit finds the payment's transaction by its nonce and ends as sent (SPEC §2: ERC-20 back to Account).
    await view('Account').waitFor()
    await expect.poll(() => page.locator('.ws-toast').filter({ hasText: 'Sent 5 USDC' }).count()).toBe(1)
    // On chain: exactly one transaction took the nonce, and the balance moved once.
    expect(await client.getTransactionCount({ address: me })).toBe(nonce + 1)
    expect((await usdcOf(recipient)) - before).toBe(parseUnits('5', usdc.decimals))
    const latest = await client.getBlockNumber()
    const mine = []
    for (let number = latest; number > latest - 5n && number >= 0n; number--) {
      const block = await client.getBlock({ blockNumber: number, includeTransactions: true })
      mine.push(...block.transactions.filter((t) => t.from.toLowerCase() === me.toLowerCase()))
    }
    expect(mine.filter((t) => t.nonce === nonce)).toHaveLength(1)
    expect(mine.filter((t) => t.nonce > nonce)).toHaveLength(0)
    expect(e2e.pageErrors).toEqual([])
  })
})
