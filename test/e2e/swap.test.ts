import type { Page } from 'playwright-core'
import {
  type Address,
  createPublicClient,
  createWalletClient,
  erc20Abi,
  formatUnits,
  type Hex,
  http,
  parseAbiItem,
  parseUnits,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  approveInFrame,
  connectInjected,
  type E2eContext,
  freshEmail,
  hostButton,
  logInByEmail,
  startE2e,
  walletPrompt,
} from './support.ts'

/**
 * Issue 16's acceptance in Chromium against the sandbox: swaps through the Swap views (their test contract: the
 * "Swap" button on Account, the "You pay" textbox, the "Select token …" pickers, a button per token symbol,
 * "Review swap", the preview's "Approve"/"Swap" action, a `role="status"` toast containing "Swap"), approved in
 * the injected dev wallet's prompt and in the embedded wallet's frame. What moved is read on the chain with
 * viem and compared with the quote the sandbox's convert API gives for the same swap, asked here before the kit
 * swaps. Then the quote API fails (the fault switch) and recovers with "Try again"; and a swap whose price is
 * moved by someone else while the wallet's prompt is open reverts on chain, the kit saying so with the form kept.
 */
let e2e: E2eContext
let page: Page
let client: ReturnType<typeof createPublicClient>
let me: Address

const NATIVE = '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee'

/** Every URL the page asked for, from before its first load on. */
const requested: string[] = []
/** The swap feature's modules (dev server) or chunks (built): its views, machine, slots and convert client. */
const SWAP_CODE = /\/(Swap|SwapPreview|SwapSelectToken|swapShared|swap|convert)([.-][\w-]*)?\.(tsx?|js)(\?|$)/

beforeAll(async () => {
  e2e = await startE2e()
  page = await e2e.browser.newPage()
  page.on('pageerror', (error) => e2e.pageErrors.push(error.message))
  page.on('request', (request) => requested.push(new URL(request.url()).pathname))
  await page.goto(e2e.sandbox.demo!.url)
  client = createPublicClient({ transport: http(e2e.sandbox.chain.rpcUrl) })
  me = e2e.sandbox.wallets.injectedAddress
})
afterAll(async () => {
  await e2e?.close()
})

const view = (p: Page, name: string) => p.locator(`[data-view="${name}"]`)
const toast = (p: Page) => p.locator('.ws-toast')
const token = (symbol: string) => e2e.sandbox.chain.tokens.find((t) => t.symbol === symbol)!
const caip10 = (address: string) => `eip155:${e2e.sandbox.chain.chainId}:${address}`
const tokenAddress = (symbol: string) => (symbol === 'ETH' ? NATIVE : token(symbol).address)
const decimalsOf = (symbol: string) => (symbol === 'ETH' ? 18 : token(symbol).decimals)

/** What `holder` holds of `symbol`, in base units. */
async function balanceOf(symbol: string, holder: Address): Promise<bigint> {
  if (symbol === 'ETH') return client.getBalance({ address: holder })
  return client.readContract({
    address: token(symbol).address,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [holder],
  })
}

function apiUrl(path: string, query: Record<string, string>): string {
  const url = new URL(path, e2e.sandbox.api.origin)
  url.search = new URLSearchParams({
    projectId: e2e.sandbox.projectId,
    st: 'appkit',
    sv: 'html-wagmi-e2e',
    ...query,
  }).toString()
  return url.toString()
}

/** The convert API's quote for the swap, asked by the test itself (the pool's state now). */
async function quoted(from: string, to: string, amount: string, user: Address): Promise<bigint> {
  const res = await fetch(
    apiUrl('/v1/convert/quotes', {
      amount: parseUnits(amount, decimalsOf(from)).toString(),
      userAddress: caip10(user),
      from: caip10(tokenAddress(from)),
      to: caip10(tokenAddress(to)),
      gasPrice: '1000000000',
    }),
  )
  const body = (await res.json()) as { quotes: Array<{ toAmount: string }> }
  expect(res.status, JSON.stringify(body)).toBe(200)
  return BigInt(body.quotes[0]!.toAmount)
}

/** What the transactions `from` sent in blocks after `block` paid for gas. */
async function gasPaidSince(block: bigint, from: Address): Promise<bigint> {
  let paid = 0n
  const head = await client.getBlockNumber({ cacheTime: 0 })
  for (let n = block + 1n; n <= head; n++) {
    const { transactions } = await client.getBlock({ blockNumber: n, includeTransactions: true })
    for (const tx of transactions) {
      if (tx.from.toLowerCase() !== from.toLowerCase()) continue
      const receipt = await client.getTransactionReceipt({ hash: tx.hash })
      paid += receipt.gasUsed * receipt.effectiveGasPrice
    }
  }
  return paid
}

/** From Account: Swap, the pair picked with the "Select token" buttons, the amount typed, a quote shown. */
async function fillSwap(p: Page, from: string, to: string, amount: string) {
  const account = view(p, 'Account')
  if ((await view(p, 'Swap').count()) === 0) {
    await account.getByRole('button', { name: 'Swap', exact: true }).click()
  }
  const swap = view(p, 'Swap')
  await swap.waitFor()
  await swap.getByRole('button', { name: /^Select token to pay/ }).click()
  await view(p, 'SwapSelectToken').getByRole('button', { name: from, exact: true }).click()
  await swap.waitFor()
  await swap.getByRole('button', { name: /^Select token to receive/ }).click()
  await view(p, 'SwapSelectToken').getByRole('button', { name: to, exact: true }).click()
  await swap.waitFor()
  await swap.getByRole('textbox', { name: 'You pay' }).fill(amount)
  const review = swap.getByRole('button', { name: 'Review swap' })
  await expect.poll(() => review.isEnabled(), { timeout: 20_000 }).toBe(true)
}

/** The preview's action button: "Approve" or "Swap" (exact, so the view's other buttons never match). */
const action = (p: Page, name: 'Approve' | 'Swap') =>
  view(p, 'SwapPreview').getByRole('button', { name, exact: true })

const approveInWallet = (p: Page) => walletPrompt(p).getByRole('button', { name: 'Approve' }).click()

/** The Approval events of `symbol` from `owner` mined after `block`, their values in order. */
async function approvalsSince(symbol: string, owner: Address, block: bigint): Promise<bigint[]> {
  const logs = await client.getLogs({
    address: token(symbol).address,
    event: parseAbiItem('event Approval(address indexed owner, address indexed spender, uint256 value)'),
    args: { owner },
    fromBlock: block + 1n,
  })
  return logs.map((log) => log.args.value!)
}

describe('swap with the injected dev wallet, in Chromium against the sandbox', () => {
  it('connects and opens Swap from Account', async () => {
    await connectInjected(page, me)
    await hostButton(page).click()
    await view(page, 'Account').waitFor()
    await expect.poll(() => view(page, 'Account').getByTestId('token-balance').count()).toBeGreaterThan(0)
    // Connected, Account open with its balances: none of the swap's code has been fetched yet.
    expect(requested.filter((path) => SWAP_CODE.test(path))).toEqual([])
    await view(page, 'Account').getByRole('button', { name: 'Swap', exact: true }).click()
    await view(page, 'Swap').waitFor()
    await view(page, 'Swap').getByRole('textbox', { name: 'You pay' }).waitFor()
    // Opening Swap fetched it.
    expect(requested.filter((path) => SWAP_CODE.test(path)).length).toBeGreaterThan(0)
  })

  it('swaps 100 USDC → ETH: approved, then swapped; the chain moved by the quote within 1 %; Tokens and Activity show it', async () => {
    const start = await client.getBlockNumber({ cacheTime: 0 })
    const before = { USDC: await balanceOf('USDC', me), ETH: await balanceOf('ETH', me) }
    await fillSwap(page, 'USDC', 'ETH', '100')
    const quote = await quoted('USDC', 'ETH', '100', me)
    await view(page, 'Swap').getByRole('button', { name: 'Review swap' }).click()
    await view(page, 'SwapPreview').waitFor()
    // No allowance yet: the preview asks to approve first.
    await expect.poll(() => action(page, 'Approve').isEnabled(), { timeout: 20_000 }).toBe(true)
    // See before you sign: the approval and the swap simulated; the account's changes shown, signed.
    const changes = view(page, 'SwapPreview')
      .getByRole('list', { name: 'Balance changes' })
      .getByRole('listitem')
    await expect.poll(() => changes.count()).toBe(2)
    expect(await changes.allTextContents()).toEqual([
      expect.stringMatching(/^\+0\.0\d* ETH$/),
      '\u2212100 USDC',
    ])
    const simulated = Object.fromEntries(
      await Promise.all(
        (await changes.all()).map(async (item) => [
          ((await item.textContent()) ?? '').split(' ')[1],
          BigInt((await item.getAttribute('data-delta')) ?? 'x'),
        ]),
      ),
    ) as Record<string, bigint>
    await action(page, 'Approve').click()
    await approveInWallet(page)
    // The approval mined, the allowance is there: the action is the swap, and the wallet is asked for it.
    await action(page, 'Swap').waitFor({ timeout: 30_000 })
    await approveInWallet(page)
    const status = page.getByRole('status').filter({ hasText: 'Swap' })
    await expect.poll(() => toast(page).textContent(), { timeout: 30_000 }).toMatch(/^Swapped 100 USDC for /)
    expect(await status.count()).toBeGreaterThan(0)
    await view(page, 'Account').waitFor()

    const after = { USDC: await balanceOf('USDC', me), ETH: await balanceOf('ETH', me) }
    expect(before.USDC - after.USDC).toBe(parseUnits('100', 6))
    const received = after.ETH - before.ETH + (await gasPaidSince(start, me))
    // What the preview's simulation showed is what the chain moved, to the wei (gas aside: its own line).
    expect(simulated).toEqual({ USDC: after.USDC - before.USDC, ETH: received })
    // The same pool, untouched between the test's quote and the swap: the quote exactly, and never below 1 %.
    expect(received).toBe(quote)
    expect(received * 100n).toBeGreaterThanOrEqual(quote * 99n)
    // The approval set exactly the amount.
    expect(await approvalsSince('USDC', me, start)).toContainEqual(parseUnits('100', 6))

    // Tokens: USDC as the chain holds it now.
    const usdc = view(page, 'Account').locator('[data-testid="token-balance"][data-symbol="USDC"]')
    // As the kit shows quantities (computed here): at most 4 decimals, cut, trailing zeros dropped.
    const [whole, fraction = ''] = formatUnits(after.USDC, 6).split('.')
    const cut = fraction.slice(0, 4).replace(/0+$/, '')
    const shownUsdc = cut ? `${whole}.${cut}` : whole
    await expect
      .poll(async () => ((await usdc.getByTestId('token-quantity').textContent()) ?? '').split(' ')[0])
      .toBe(shownUsdc)
    // Activity: the swap, newest first, as a trade.
    await view(page, 'Account').getByRole('tab', { name: 'Activity' }).click()
    const newest = view(page, 'Account').getByTestId('activity-item').first()
    await expect.poll(() => newest.getAttribute('data-operation'), { timeout: 20_000 }).toBe('trade')
    expect(await newest.textContent()).toContain('Swapped')
    expect(await newest.getByTestId('activity-transfer').allTextContents()).toContain('-100.000 USDC')
    await view(page, 'Account').getByRole('tab', { name: 'Tokens' }).click()
  })

  it('swaps 50 USDT → USDC through approve-to-zero: a smaller allowance is reset to 0, then set, then swapped', async () => {
    const usdt = token('USDT')
    const router = e2e.sandbox.chain.contracts.router
    // The visitor's leftover allowance (1 USDT, set outside the kit): USDT-style tokens refuse to change it.
    const key = e2e.sandbox.chain.accounts.find(
      (a) => a.address.toLowerCase() === me.toLowerCase(),
    )!.privateKey
    const wallet = createWalletClient({
      account: privateKeyToAccount(key),
      chain: e2e.sandbox.chain.viemChain,
      transport: http(e2e.sandbox.chain.rpcUrl),
    })
    const set = await wallet.writeContract({
      address: usdt.address,
      abi: erc20Abi,
      functionName: 'approve',
      args: [router, parseUnits('1', usdt.decimals)],
    })
    await client.waitForTransactionReceipt({ hash: set })
    const start = await client.getBlockNumber({ cacheTime: 0 })
    const before = { USDT: await balanceOf('USDT', me), USDC: await balanceOf('USDC', me) }

    await view(page, 'Account').getByRole('button', { name: 'Swap', exact: true }).click()
    await fillSwap(page, 'USDT', 'USDC', '50')
    const quote = await quoted('USDT', 'USDC', '50', me)
    await view(page, 'Swap').getByRole('button', { name: 'Review swap' }).click()
    await expect.poll(() => action(page, 'Approve').isEnabled(), { timeout: 20_000 }).toBe(true)
    await action(page, 'Approve').click()
    await approveInWallet(page) // the reset to 0
    await approveInWallet(page) // the amount
    await action(page, 'Swap').waitFor({ timeout: 30_000 })
    await approveInWallet(page) // the swap
    await expect.poll(() => toast(page).textContent(), { timeout: 30_000 }).toMatch(/^Swapped 50 USDT for /)
    await view(page, 'Account').waitFor()

    // The approvals the visitor signed, in order (a token that also logs the spend adds entries after them).
    expect((await approvalsSince('USDT', me, start)).slice(0, 2)).toEqual([
      0n,
      parseUnits('50', usdt.decimals),
    ])
    const after = { USDT: await balanceOf('USDT', me), USDC: await balanceOf('USDC', me) }
    expect(before.USDT - after.USDT).toBe(parseUnits('50', usdt.decimals))
    expect(after.USDC - before.USDC).toBe(quote)
  })

  it('the quote API failing shows its error with "Try again", which recovers once the API answers', async () => {
    await view(page, 'Account').getByRole('button', { name: 'Swap', exact: true }).click()
    const swap = view(page, 'Swap')
    await swap.waitFor()
    const fault = (body: unknown) =>
      fetch(`${e2e.sandbox.api.origin}/__fault`, { method: 'POST', body: JSON.stringify(body) })
    expect((await fault({ mode: 'fail', path: '/v1/convert/quotes' })).status).toBe(200)
    try {
      await swap.getByRole('button', { name: /^Select token to pay/ }).click()
      await view(page, 'SwapSelectToken').getByRole('button', { name: 'USDC', exact: true }).click()
      await swap.getByRole('button', { name: /^Select token to receive/ }).click()
      await view(page, 'SwapSelectToken').getByRole('button', { name: 'STK', exact: true }).click()
      await swap.getByRole('textbox', { name: 'You pay' }).fill('10')
      const alert = swap.getByRole('alert')
      await expect.poll(() => alert.textContent(), { timeout: 20_000 }).toContain('Unable to get a quote.')
      expect(await swap.getByRole('button', { name: 'Review swap' }).count()).toBe(0)
    } finally {
      expect((await fault({ mode: 'off' })).status).toBe(200)
    }
    await swap.getByRole('button', { name: 'Try again' }).click()
    const review = swap.getByRole('button', { name: 'Review swap' })
    await expect.poll(() => review.isEnabled(), { timeout: 20_000 }).toBe(true)
    expect(await swap.getByRole('alert').count()).toBe(0)
    // What the visitor entered survived the failure.
    expect(await swap.getByRole('textbox', { name: 'You pay' }).inputValue()).toBe('10')
    await page.locator('.ws-dialog').getByRole('button', { name: 'Back' }).click()
    await view(page, 'Account').waitFor()
  })

  // Issue 33's acceptance: a swap whose build does not match what the visitor saw ends with a visible refusal in
  // the dialog and no wallet request (the dev wallet's request log stays empty).
  it('a hostile convert API (the fault switch in hostile mode): refused in the dialog, the wallet asked nothing', async () => {
    const requests = () =>
      page.evaluate(
        () =>
          (window as unknown as { __walletstateDevWallet: { transactionRequests: unknown[] } })
            .__walletstateDevWallet.transactionRequests.length,
      )
    const fault = (body: unknown) =>
      fetch(`${e2e.sandbox.api.origin}/__fault`, { method: 'POST', body: JSON.stringify(body) })
    const logged = await requests()
    const nonce = await client.getTransactionCount({ address: me, blockTag: 'pending' })
    await view(page, 'Account').getByRole('button', { name: 'Swap', exact: true }).click()
    await fillSwap(page, 'USDC', 'ETH', '5')
    expect((await fault({ mode: 'hostile' })).status).toBe(200)
    try {
      await view(page, 'Swap').getByRole('button', { name: 'Review swap' }).click()
      const preview = view(page, 'SwapPreview')
      await expect
        .poll(() => preview.getByRole('alert').textContent(), { timeout: 20_000 })
        .toBe(
          'The swap service prepared a transaction that does not match your swap, so it was not sent to your wallet.',
        )
      expect(await action(page, 'Approve').count()).toBe(0)
      expect(await action(page, 'Swap').count()).toBe(0)
      expect(await preview.getByRole('button', { name: 'Try again' }).count()).toBe(1)
    } finally {
      expect((await fault({ mode: 'off' })).status).toBe(200)
    }
    // Nothing reached the wallet: no request logged, no prompt, no transaction.
    expect(await requests()).toBe(logged)
    expect(await walletPrompt(page).count()).toBe(0)
    expect(await client.getTransactionCount({ address: me, blockTag: 'pending' })).toBe(nonce)
    await view(page, 'SwapPreview').getByRole('button', { name: 'Edit' }).click()
    await view(page, 'Swap').waitFor()
    await page.locator('.ws-dialog').getByRole('button', { name: 'Back' }).click()
    await view(page, 'Account').waitFor()
  })

  it('a price moved past the slippage while the wallet asks: the swap reverts on chain, the kit says so, nothing lost', async () => {
    const whale = e2e.sandbox.chain.accounts[6]!
    const usdcBefore = await balanceOf('USDC', me)
    await view(page, 'Account').getByRole('button', { name: 'Swap', exact: true }).click()
    await fillSwap(page, 'ETH', 'USDC', '1')
    await view(page, 'Swap').getByRole('button', { name: 'Review swap' }).click()
    // The native currency needs no approval: straight to the swap.
    await expect.poll(() => action(page, 'Swap').isEnabled(), { timeout: 20_000 }).toBe(true)
    await action(page, 'Swap').click()
    await walletPrompt(page).waitFor()
    // While the prompt is open, someone sells 10 ETH into the same pool: the built swap's minimum is now out of
    // reach.
    const built = await fetch(apiUrl('/v1/convert/build-transaction', {}), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        amount: parseUnits('10', 18).toString(),
        eip155: { slippage: '1' },
        from: caip10(NATIVE),
        to: caip10(token('USDC').address),
        userAddress: caip10(whale.address),
      }),
    })
    const { tx } = (await built.json()) as { tx: { to: string; data: Hex; amount: string } }
    const front = await createWalletClient({
      account: privateKeyToAccount(whale.privateKey),
      chain: e2e.sandbox.chain.viemChain,
      transport: http(e2e.sandbox.chain.rpcUrl),
    }).sendTransaction({ to: tx.to.split(':')[2] as Address, data: tx.data, value: BigInt(tx.amount) })
    expect((await client.waitForTransactionReceipt({ hash: front })).status).toBe('success')

    await approveInWallet(page)
    const preview = view(page, 'SwapPreview')
    await expect
      .poll(() => preview.getByRole('alert').textContent(), { timeout: 30_000 })
      .toBe('The swap failed: the price moved past your slippage tolerance.')
    // On chain: the visitor's swap was mined and reverted; no USDC arrived.
    const { transactions } = await client.getBlock({ includeTransactions: true })
    const mine = transactions.find((t) => t.from.toLowerCase() === me.toLowerCase())!
    expect((await client.getTransactionReceipt({ hash: mine.hash })).status).toBe('reverted')
    expect(await balanceOf('USDC', me)).toBe(usdcBefore)
    // Nothing lost: the form keeps the pair and the amount; "Try again" quotes afresh at the new price.
    await preview.getByRole('button', { name: 'Try again' }).click()
    const swap = view(page, 'Swap')
    await expect
      .poll(async () => (await swap.count()) + (await preview.count()), { timeout: 20_000 })
      .toBeGreaterThan(0)
    if ((await swap.count()) > 0) {
      expect(await swap.getByRole('textbox', { name: 'You pay' }).inputValue()).toBe('1')
      expect(await swap.getByRole('button', { name: /^Select token to pay/ }).textContent()).toContain('ETH')
      expect(await swap.getByRole('button', { name: /^Select token to receive/ }).textContent()).toContain(
        'USDC',
      )
    }
    expect(e2e.pageErrors).toEqual([])
  })
})

describe('swap with the embedded wallet (approvals in the frame)', () => {
  it("swaps 5 USDC → ETH from an e-mail login's EOA: approve and swap approved inside the frame", async () => {
    const embedded = await e2e.newPage()
    const smart = await logInByEmail(e2e, embedded, freshEmail('swapper'))
    // The EOA batches nothing (its wallet_getCapabilities says so), so its swap is the two steps, each approved in
    // the frame; the smart account's one confirmation is test/e2e/swap-batch.test.ts.
    await hostButton(embedded).click()
    const account = view(embedded, 'Account')
    await account.waitFor()
    const toEoa = account.getByRole('button', { name: 'Switch to your EOA' })
    await expect.poll(() => toEoa.isEnabled(), { timeout: 30_000 }).toBe(true)
    await toEoa.click()
    await expect
      .poll(() => account.getByTestId('account-type').textContent(), { timeout: 30_000 })
      .toBe('Account type: EOA')
    const shownAddress = embedded.getByTestId('demo-address')
    await expect.poll(() => shownAddress.textContent(), { timeout: 30_000 }).not.toBe(smart)
    const address = (await shownAddress.textContent()) as `0x${string}`
    // The faucet's USDC has landed.
    await expect.poll(() => balanceOf('USDC', address), { timeout: 30_000 }).toBeGreaterThan(0n)
    const before = await balanceOf('USDC', address)
    await fillSwap(embedded, 'USDC', 'ETH', '5')
    await view(embedded, 'Swap').getByRole('button', { name: 'Review swap' }).click()
    await expect.poll(() => action(embedded, 'Approve').isEnabled(), { timeout: 20_000 }).toBe(true)
    await action(embedded, 'Approve').click()
    await approveInFrame(embedded)
    await approveInFrame(embedded)
    await expect
      .poll(() => toast(embedded).textContent(), { timeout: 60_000 })
      .toMatch(/^Swapped 5 USDC for /)
    expect(before - (await balanceOf('USDC', address))).toBe(parseUnits('5', 6))
    await embedded.close()
  })
})
