import type { Page } from 'playwright-core'
import { type Address, createPublicClient, erc20Abi, http, parseEther, parseUnits } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectInjected, type E2eContext, startE2e, walletPrompt } from './support.ts'

/**
 * Batched calls (EIP-5792) with the injected dev wallet, which has no atomic batching (its `wallet_getCapabilities`
 * says `atomic: unsupported` on every chain, and it has no `wallet_sendCalls`), in Chromium against the sandbox.
 * The demo's "Send batch" asks the kit for two transfers (0.001 ETH and 1 USDC to the second dev account): the kit
 * tells the visitor the wallet will ask for each call separately, the wallet prompts twice, both transfers land
 * (the recipient's balances up by exactly the amounts), and wagmi's own `getCallsStatus` reports success with two
 * receipts. A batch with a call whose 'to' is not 0x is refused with the SPEC §5 rule before the wallet is asked.
 */
let e2e: E2eContext
let client: ReturnType<typeof createPublicClient>
let recipient: Address
let usdc: Address

beforeAll(async () => {
  e2e = await startE2e()
  client = createPublicClient({ transport: http(e2e.sandbox.chain.rpcUrl) })
  recipient = e2e.sandbox.chain.accounts[1]!.address
  usdc = e2e.sandbox.chain.tokens.find((token) => token.symbol === 'USDC')!.address as Address
})
afterAll(async () => {
  await e2e?.close()
})

async function openDemo(query: string): Promise<Page> {
  const page = await e2e.browser.newPage()
  page.on('pageerror', (error) => e2e.pageErrors.push(error.message))
  await page.goto(new URL(query, e2e.sandbox.demo!.url).toString())
  return page
}

const result = (page: Page) => page.getByTestId('demo-result')
const callsStatus = (page: Page) => page.getByTestId('demo-calls-status')
const sendBatch = (page: Page) => page.getByRole('button', { name: 'Send batch', exact: true })
const walletRequests = (page: Page) =>
  page.evaluate(() =>
    (
      window as unknown as { __walletstateDevWallet: { transactionRequests: Array<{ method: string }> } }
    ).__walletstateDevWallet.transactionRequests.map((request) => request.method),
  )
const usdcOf = (address: Address) =>
  client.readContract({ address: usdc, abi: erc20Abi, functionName: 'balanceOf', args: [address] })

describe('a batch with a wallet without atomic batching', () => {
  it('goes as two transactions, one prompt each, and the kit says so; both land, and getCallsStatus reports two receipts', async () => {
    const page = await openDemo('')
    await connectInjected(page, e2e.sandbox.wallets.injectedAddress)
    const [ethBefore, usdcBefore] = await Promise.all([
      client.getBalance({ address: recipient }),
      usdcOf(recipient),
    ])

    await sendBatch(page).click()
    await expect
      .poll(() => page.locator('.ws-toast').textContent(), { timeout: 30_000 })
      .toBe('Your wallet will ask for each call separately (2 calls)')
    // The first call's prompt, then the second's.
    const prompt = walletPrompt(page)
    await prompt.getByRole('button', { name: 'Approve' }).click()
    await expect.poll(() => walletRequests(page), { timeout: 30_000 }).toHaveLength(3)
    await prompt.getByRole('button', { name: 'Approve' }).click()

    await expect.poll(() => callsStatus(page).textContent(), { timeout: 60_000 }).toBe('success (2 receipts)')
    // The wallet was offered the batch (it has no wallet_sendCalls), then asked for each call.
    expect(await walletRequests(page)).toEqual([
      'wallet_sendCalls',
      'eth_sendTransaction',
      'eth_sendTransaction',
    ])
    expect((await client.getBalance({ address: recipient })) - ethBefore).toBe(parseEther('0.001'))
    expect((await usdcOf(recipient)) - usdcBefore).toBe(parseUnits('1', 6))
    // The host got the batch's id, the one wagmi's getCallsStatus read.
    expect(await result(page).textContent()).toMatch(/^0x[0-9a-f]+$/)
    await expect.poll(() => page.locator('.ws-toast').textContent()).toBe('Calls confirmed (2 calls)')

    // "Show batch status": the batch went as separate transactions, which no wallet tracks as one, so the kit
    // reads their receipts from the chain and shows the status itself, in words (this wallet has no
    // wallet_showCallsStatus, and it is not asked to send or sign anything more).
    await page.getByRole('button', { name: 'Show batch status', exact: true }).click()
    await expect
      .poll(() => page.locator('.ws-toast').textContent(), { timeout: 30_000 })
      .toBe('Batch status: confirmed (2 receipts)')
    await expect.poll(() => result(page).textContent()).toBe('Batch status shown')
    expect(await walletRequests(page)).toEqual([
      'wallet_sendCalls',
      'eth_sendTransaction',
      'eth_sendTransaction',
    ])
    expect(await walletPrompt(page).count()).toBe(0)
  })

  it("a call whose 'to' does not start with 0x: refused with the SPEC rule, and the wallet is never asked", async () => {
    const page = await openDemo('?badBatch=1')
    await connectInjected(page, e2e.sandbox.wallets.injectedAddress)
    const [ethBefore, usdcBefore] = await Promise.all([
      client.getBalance({ address: recipient }),
      usdcOf(recipient),
    ])

    await sendBatch(page).click()
    await expect
      .poll(() => result(page).textContent(), { timeout: 30_000 })
      .toBe(
        "Batched calls need a 'to' starting 0x; data, if present, starts 0x. (call 1: 'to' does not start with 0x)",
      )
    expect(await walletRequests(page)).toEqual([])
    expect(await walletPrompt(page).count()).toBe(0)
    expect(await callsStatus(page).textContent()).toBe('')
    expect(await client.getBalance({ address: recipient })).toBe(ethBefore)
    expect(await usdcOf(recipient)).toBe(usdcBefore)
  })
})
