import { Connection, Keypair, LAMPORTS_PER_SOL, PublicKey } from '@solana/web3.js'
import type { Page } from 'playwright-core'
import { formatUnits } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { solanaMakerKeypair, solanaQuoteAmount } from '../../sandbox/api/convertSolana.ts'
import {
  type E2eContext,
  hostButton,
  SOLANA_WALLET,
  solanaPrompt,
  splBalanceOf,
  startE2e,
  truncated,
  view,
} from './support.ts'

/**
 * Issue 17's send on Solana in Chromium against the sandbox: the Solana dev wallet connects, Account → Send sends
 * 0.5 SOL to another sandbox key and 10 USDC to a fresh key (its token account created by the send), each
 * approved in the wallet's prompt; a success toast, the modal back on Account (SPEC §2), and the SVM balances,
 * read here with web3.js, changed by exactly what was sent. A declined prompt keeps the form and says so.
 * Issue 38: swaps with the sandbox's Solana maker, and Buy on Solana: 50 USD of USDC through the partner page,
 * delivered on the SVM (exactly 49.5 USDC) with the kit's toast and Tokens saying so.
 */
let e2e: E2eContext
let page: Page
let solana: Connection
let me: string

const toast = () => page.locator('.ws-toast')

beforeAll(async () => {
  e2e = await startE2e()
  page = await e2e.newPage()
  solana = new Connection(e2e.sandbox.solana.rpcUrl, 'confirmed')
  me = e2e.sandbox.wallets.solanaAddress
})
afterAll(async () => {
  await e2e?.close()
})

const lamportsOf = async (owner: string) => BigInt(await solana.getBalance(new PublicKey(owner), 'confirmed'))

const usdcOf = (owner: string) => splBalanceOf(solana, e2e.sandbox.solana.mints.usdc, owner)

/** From Account: Send, the token, amount and receiver, the preview with its SOL fee, then Send. */
async function fillAndPreview(symbol: string, amount: string, to: string) {
  await view(page, 'Account').getByRole('button', { name: 'Send', exact: true }).click()
  const form = view(page, 'WalletSend')
  await form.getByRole('button', { name: /^(Select token|Token: )/ }).click()
  await view(page, 'WalletSendSelectToken').locator(`button[data-symbol="${symbol}"]`).click()
  await form.getByRole('button', { name: `Token: ${symbol}` }).waitFor()
  await form.getByRole('textbox', { name: 'Amount' }).fill(amount)
  await form.getByRole('textbox', { name: 'Receiver' }).fill(to)
  await form.getByRole('button', { name: 'Preview send' }).click()
  const preview = view(page, 'WalletSendPreview')
  expect(await preview.getByTestId('send-amount').textContent()).toBe(`${amount} ${symbol}`)
  expect(await preview.getByTestId('send-receiver').textContent()).toBe(truncated(to))
  return preview
}

describe('sending on Solana through the send views (issue 17)', () => {
  it('connects the Solana dev wallet', async () => {
    await hostButton(page).getByText('Connect Wallet').click()
    await page
      .getByRole('dialog', { name: 'Connect Wallet' })
      .getByRole('button', { name: new RegExp(SOLANA_WALLET) })
      .click()
    await solanaPrompt(page).getByRole('button', { name: 'Approve' }).click()
    await expect.poll(() => hostButton(page).textContent()).toBe(truncated(me))
    await hostButton(page).click()
    await view(page, 'Account').waitFor()
    const row = page.locator('[data-testid="token-balance"][data-symbol="USDC"]')
    await row.waitFor({ timeout: 15_000 })
  })

  it('sends 0.5 SOL to another sandbox key: approved, a success toast, back on Account, exactly 0.5 SOL more', async () => {
    const recipient = e2e.sandbox.solana.accounts[2]!.publicKey
    const [recipientBefore, mineBefore] = await Promise.all([lamportsOf(recipient), lamportsOf(me)])
    const preview = await fillAndPreview('SOL', '0.5', recipient)
    // One signature, 5000 lamports; the recipient exists, so no account is created.
    await expect.poll(() => preview.getByTestId('send-fee').textContent()).toBe('0.000005 SOL')
    await preview.getByRole('button', { name: 'Send', exact: true }).click()
    await solanaPrompt(page).getByRole('button', { name: 'Approve' }).click()
    await expect.poll(() => toast().textContent(), { timeout: 20_000 }).toBe('Sent 0.5 SOL')
    expect(await toast().getAttribute('data-variant')).toBe('success')
    // SPEC §2: after a Solana send (SOL too) the modal returns to Account.
    await view(page, 'Account').waitFor()
    expect(await lamportsOf(recipient)).toBe(recipientBefore + BigInt(LAMPORTS_PER_SOL / 2))
    expect(await lamportsOf(me)).toBe(mineBefore - BigInt(LAMPORTS_PER_SOL / 2) - 5_000n)
  })

  it('sends 10 USDC to a fresh key: its token account is created and holds exactly 10 USDC', async () => {
    const fresh = Keypair.generate().publicKey.toBase58()
    const before = await usdcOf(me)
    expect(await usdcOf(fresh)).toBe(0n)
    const preview = await fillAndPreview('USDC', '10', fresh)
    // The signature and the rent of the new token account (165 bytes), paid in SOL.
    const rent = BigInt(await solana.getMinimumBalanceForRentExemption(165))
    const fee = (5_000n + rent).toString().padStart(10, '0')
    const feeText = `${fee.slice(0, 1)}.${fee.slice(1).slice(0, 8).replace(/0+$/, '')} SOL`
    await expect.poll(() => preview.getByTestId('send-fee').textContent()).toContain(feeText)
    expect(await preview.getByTestId('send-fee').textContent()).toContain('new token account')
    await preview.getByRole('button', { name: 'Send', exact: true }).click()
    await solanaPrompt(page).getByRole('button', { name: 'Approve' }).click()
    await expect.poll(() => toast().textContent(), { timeout: 20_000 }).toBe('Sent 10 USDC')
    await view(page, 'Account').waitFor()
    expect(await usdcOf(fresh)).toBe(10_000_000n)
    expect(await usdcOf(me)).toBe(before - 10_000_000n)
  })

  it('a declined prompt leaves the form with its values and says so; nothing moves', async () => {
    const recipient = e2e.sandbox.solana.accounts[3]!.publicKey
    const before = await lamportsOf(recipient)
    const preview = await fillAndPreview('SOL', '0.25', recipient)
    await expect.poll(() => preview.getByTestId('send-fee').textContent()).toBe('0.000005 SOL')
    await preview.getByRole('button', { name: 'Send', exact: true }).click()
    await solanaPrompt(page).getByRole('button', { name: 'Reject' }).click()
    await expect
      .poll(() => preview.getByRole('alert').textContent())
      .toBe('Transaction declined in the wallet.')
    await preview.getByRole('button', { name: 'Edit' }).click()
    const form = view(page, 'WalletSend')
    await form.waitFor()
    expect(await form.getByRole('textbox', { name: 'Amount' }).inputValue()).toBe('0.25')
    expect(await form.getByRole('textbox', { name: 'Receiver' }).inputValue()).toBe(recipient)
    await form.getByRole('button', { name: 'Token: SOL' }).waitFor()
    expect(await lamportsOf(recipient)).toBe(before)
  })

  it('a name as receiver on Solana is an invalid address, and says names are EVM-only', async () => {
    const form = view(page, 'WalletSend')
    await form.getByRole('textbox', { name: 'Receiver' }).fill('sandbox-dev.reown.id')
    await form.getByRole('button', { name: 'Invalid address: names work on EVM networks only' }).waitFor()
    expect(e2e.pageErrors).toEqual([])
  })
})

/*
 * Issue 38: swap on Solana, filled by the sandbox convert API's maker (one transaction: the visitor's USDC to the
 * maker, the maker's SOL to the visitor), its transaction checked by the kit before the wallet is asked.
 */
describe('swapping on Solana with the maker (issue 38)', () => {
  const maker = solanaMakerKeypair().publicKey.toBase58()
  const preview = () => view(page, 'SwapPreview')

  /** From Account (or the form): Swap, the pair, the amount typed, a quote shown. */
  async function fillSwap(from: string, to: string, amount: string) {
    if ((await view(page, 'Swap').count()) === 0)
      await view(page, 'Account').getByRole('button', { name: 'Swap', exact: true }).click()
    const swap = view(page, 'Swap')
    await swap.getByRole('button', { name: /^Select token to pay/ }).click()
    await view(page, 'SwapSelectToken').getByRole('button', { name: from, exact: true }).click()
    await swap.getByRole('button', { name: /^Select token to receive/ }).click()
    await view(page, 'SwapSelectToken').getByRole('button', { name: to, exact: true }).click()
    await swap.getByRole('textbox', { name: 'You pay' }).fill(amount)
    const review = swap.getByRole('button', { name: 'Review swap' })
    await expect.poll(() => review.isEnabled(), { timeout: 20_000 }).toBe(true)
    return review
  }
  const fault = (body: unknown) =>
    fetch(`${e2e.sandbox.api.origin}/__fault`, { method: 'POST', body: JSON.stringify(body) })

  it('swaps 10 USDC → SOL: USDC −10 exactly, SOL + the quote less the fee shown, the maker the other way', async () => {
    // From the send form the last case left: back to Account, where Swap shows on a Solana account.
    await page.locator('.ws-dialog').getByRole('button', { name: 'Back' }).click()
    await view(page, 'Account').getByRole('button', { name: 'Swap', exact: true }).waitFor()
    const before = await Promise.all([usdcOf(me), lamportsOf(me), usdcOf(maker), lamportsOf(maker)])
    await (await fillSwap('USDC', 'SOL', '10')).click()
    const swapButton = preview().getByRole('button', { name: 'Swap', exact: true })
    await expect.poll(() => swapButton.isEnabled(), { timeout: 20_000 }).toBe(true)
    // Two signatures (the maker's and the visitor's), paid by the visitor.
    expect(await preview().getByTestId('swap-gas').textContent()).toBe('0.00001 SOL')
    const fee = 10_000n
    const { toAmount } = solanaQuoteAmount(
      10_000_000n,
      { decimals: 6, price: 1 },
      { decimals: 9, price: 150 },
    )
    await swapButton.click()
    await solanaPrompt(page).getByRole('button', { name: 'Approve' }).click()
    await expect
      .poll(() => toast().textContent(), { timeout: 20_000 })
      .toMatch(/^Swapped 10 USDC for 0\.0664/)
    expect(await usdcOf(me)).toBe(before[0] - 10_000_000n)
    expect(await lamportsOf(me)).toBe(before[1] + toAmount - fee)
    expect(await usdcOf(maker)).toBe(before[2] + 10_000_000n)
    expect(await lamportsOf(maker)).toBe(before[3] - toAmount)
    await view(page, 'Account').waitFor()
  })

  it('hostile builds (tokens elsewhere, more than the amount, less than the least) are refused before the wallet', async () => {
    const before = await usdcOf(me)
    for (const build of ['elsewhere', 'overdraw', 'short']) {
      const review = await fillSwap('USDC', 'SOL', '5')
      expect((await fault({ mode: 'hostile', times: 1, build })).status).toBe(200)
      await review.click()
      await expect
        .poll(() => preview().getByRole('alert').textContent(), { timeout: 20_000 })
        .toBe(
          'The swap service prepared a Solana transaction that does not match your swap, so it was not sent to your wallet.',
        )
      expect(await solanaPrompt(page).count()).toBe(0)
      await preview().getByRole('button', { name: 'Edit' }).click()
      await view(page, 'Swap').waitFor()
    }
    expect(await usdcOf(me)).toBe(before)
  })

  it('a quote past its window is refused by the maker; the form asks for a fresh quote', async () => {
    const review = await fillSwap('USDC', 'SOL', '5')
    expect((await fetch(`${e2e.sandbox.api.origin}/__solana-maker/expire`, { method: 'POST' })).status).toBe(
      200,
    )
    await review.click()
    await expect
      .poll(() => preview().getByRole('alert').textContent(), { timeout: 20_000 })
      .toBe('This quote has expired. Get a fresh quote to swap.')
    // "Try again" asks the maker for a fresh quote; the form, back to, offers the review with it.
    await preview().getByRole('button', { name: 'Try again' }).click()
    await page.locator('.ws-dialog').getByRole('button', { name: 'Back' }).click()
    await expect
      .poll(() => view(page, 'Swap').getByRole('button', { name: 'Review swap' }).isEnabled(), {
        timeout: 20_000,
      })
      .toBe(true)
    await page.locator('.ws-dialog').getByRole('button', { name: 'Back' }).click()
    await view(page, 'Account').waitFor()
    expect(e2e.pageErrors).toEqual([])
  })
})

describe('buying on Solana through the partner page (issue 38)', () => {
  it('buys 50 USD of USDC: delivered on the SVM (exactly 49.5 USDC), the toast says so, Tokens shows it', async () => {
    const before = await usdcOf(me)
    await view(page, 'Account').getByRole('button', { name: 'Buy', exact: true }).click()
    const buy = view(page, 'OnRampProviders')
    await buy.getByRole('textbox', { name: 'Amount' }).fill('50')
    const coinbase = buy.getByRole('button', { name: 'Coinbase', exact: true })
    await expect.poll(() => coinbase.isEnabled(), { timeout: 20_000 }).toBe(true)
    // Coinbase's fee is 1 %: 49.50 USD of the sandbox USDC on its Solana network.
    await expect.poll(() => buy.getByText('You get 49.5 USDC').count()).toBe(1)
    const popup = page.context().waitForEvent('page', { timeout: 20_000 })
    await coinbase.click()
    const partner = await popup
    await partner.waitForURL((url) => url.origin === e2e.sandbox.onrampPartner.origin, { timeout: 20_000 })
    // The order delivers to the visitor's base58 address, on the sandbox's Solana network.
    const field = (name: string) => partner.locator(`[data-field="${name}"]`).textContent()
    await expect.poll(() => field('address')).toBe(me)
    expect(await field('network')).toBe('Walletstate Sandbox Solana')
    await partner.getByRole('button', { name: 'Complete purchase' }).click()
    const status = page.getByRole('status').filter({ hasText: 'Purchase' })
    await expect
      .poll(() => status.first().textContent(), { timeout: 30_000 })
      .toContain('Purchase complete: received 49.5 USDC')
    expect(await usdcOf(me)).toBe(before + 49_500_000n)
    // Back on Account, the balances read again: Tokens shows what the SVM holds now.
    await view(page, 'OnRampPurchase').getByRole('button', { name: 'Back to account' }).click()
    const row = view(page, 'Account').locator('[data-testid="token-balance"][data-symbol="USDC"]')
    const [whole, fraction = ''] = formatUnits(before + 49_500_000n, 6).split('.')
    const cut = fraction.slice(0, 4).replace(/0+$/, '')
    await expect
      .poll(async () => ((await row.getByTestId('token-quantity').textContent()) ?? '').split(' ')[0], {
        timeout: 20_000,
      })
      .toBe(cut ? `${whole}.${cut}` : whole)
    expect(e2e.pageErrors).toEqual([])
  })
})
