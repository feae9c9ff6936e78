import { getAssociatedTokenAddressSync, getOrCreateAssociatedTokenAccount, transfer } from '@solana/spl-token'
import { Connection, Keypair, LAMPORTS_PER_SOL, PublicKey } from '@solana/web3.js'
import bs58 from 'bs58'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { solanaQuoteAmount } from '../../sandbox/api/convertSolana.ts'
import {
  approveInFrame,
  type E2eContext,
  freshEmail,
  hostButton,
  logInByEmail,
  startE2e,
  truncated,
  view,
} from './support.ts'

/**
 * Issue 17 acceptance, in Chromium against the sandbox: "E-mail login, then switch the embedded wallet to Solana
 * and send SOL (approved in the frame)". The visitor logs in by e-mail (the EVM account shows), chooses "Solana
 * Sandbox" in Networks: the same login connects on Solana (no Connect view), the frame turns to Solana and the
 * host button shows the embedded wallet's base58 address. The demo's "Send SOL" sends 0.01 SOL to a fixed key,
 * approved in the frame; the sandbox Solana chain shows it. Back on "Walletstate Sandbox", the EVM account.
 */
let e2e: E2eContext
let page: Page
let solana: Connection
/** The embedded wallet's EVM account. */
let evm: string

/** The demo's "Send SOL" recipient (demo/main.tsx): the ed25519 key of the seed 32 × 0x11. */
const RECIPIENT = 'F25s3DdjXdCxYBhh2z8FBusVEMT4b9bGNFVKJi3wFoF4'
const AMOUNT = LAMPORTS_PER_SOL / 100
const BASE58 = /^[1-9A-HJ-NP-Za-km-z]+$/

beforeAll(async () => {
  e2e = await startE2e()
  page = await e2e.newPage()
  solana = new Connection(e2e.sandbox.solana.rpcUrl, 'confirmed')
})
afterAll(async () => {
  await e2e?.close()
})

async function chooseNetwork(p: Page, from: string, to: string) {
  await hostButton(p).click()
  await view(p, 'Account').waitFor()
  await p.getByRole('button', { name: from }).click()
  await view(p, 'Networks')
    .getByRole('button', { name: new RegExp(to) })
    .click()
}

describe('the embedded wallet on Solana (issue 17)', () => {
  it('logs in by e-mail, switches to Solana, sends 0.01 SOL approved in the frame', async () => {
    evm = await logInByEmail(e2e, page, freshEmail('solana-embedded'))
    expect(await hostButton(page).textContent()).toBe(truncated(evm))

    // Solana Sandbox: nothing connected there, but the login carries over: no Connect view.
    await chooseNetwork(page, 'Walletstate Sandbox', 'Solana Sandbox')
    const account = page.getByTestId('demo-address')
    await expect.poll(() => account.textContent(), { timeout: 30_000 }).toMatch(BASE58)
    const address = (await account.textContent()) ?? ''
    const owner = new PublicKey(address)
    expect(owner.toBase58()).toBe(address)
    expect(await view(page, 'Connect').count()).toBe(0)
    await expect.poll(() => hostButton(page).textContent()).toBe(truncated(address))
    expect(truncated(address)).toMatch(/^[1-9A-HJ-NP-Za-km-z]{4}\.\.\.[1-9A-HJ-NP-Za-km-z]{6}$/)
    // The secure site's own Solana account: airdropped 10 SOL when it was made.
    await expect.poll(() => solana.getBalance(owner), { timeout: 15_000 }).toBe(10 * LAMPORTS_PER_SOL)

    // "Send SOL": 0.01 SOL, approved inside the frame (ApproveTransaction), confirmed on the sandbox chain.
    const before = await solana.getBalance(new PublicKey(RECIPIENT))
    const result = page.getByTestId('demo-result')
    await page.getByRole('button', { name: 'Send SOL' }).click()
    await approveInFrame(page)
    await expect
      .poll(() => result.textContent(), { timeout: 30_000 })
      .toMatch(/^[1-9A-HJ-NP-Za-km-z]{80,90}$/)
    const signature = (await result.textContent()) ?? ''
    expect(bs58.decode(signature)).toHaveLength(64)
    await expect.poll(() => view(page, 'ApproveTransaction').count()).toBe(0)
    expect(await solana.getBalance(new PublicKey(RECIPIENT))).toBe(before + AMOUNT)
    const [status] = (await solana.getSignatureStatuses([signature])).value
    expect(status?.err).toBeNull()
    // The embedded account paid the 0.01 SOL and the fee (5000 lamports a signature on the sandbox chain).
    const spent = 10 * LAMPORTS_PER_SOL - (await solana.getBalance(owner))
    expect(spent - AMOUNT).toBeGreaterThan(0)
    expect(spent - AMOUNT).toBeLessThanOrEqual(10_000)
  })

  // Issue 38: the maker's swap, the embedded wallet signing after the maker, approved in the frame.
  it('swaps 10 USDC → SOL on Solana, approved in the frame: USDC −10 exactly, SOL + the quote less the fee', async () => {
    const owner = new PublicKey((await page.getByTestId('demo-address').textContent()) ?? '')
    // The embedded wallet holds SOL only: a dev key gives it 10 USDC first.
    const mint = new PublicKey(e2e.sandbox.solana.mints.usdc)
    const giver = Keypair.fromSecretKey(e2e.sandbox.solana.accounts[7]!.secretKey)
    const to = await getOrCreateAssociatedTokenAccount(solana, giver, mint, owner)
    await transfer(
      solana,
      giver,
      getAssociatedTokenAddressSync(mint, giver.publicKey),
      to.address,
      giver,
      10_000_000n,
    )
    const usdc = async () => BigInt((await solana.getTokenAccountBalance(to.address)).value.amount)
    const before = { usdc: await usdc(), sol: BigInt(await solana.getBalance(owner)) }
    await hostButton(page).click()
    await view(page, 'Account').getByRole('button', { name: 'Swap', exact: true }).click()
    const swap = view(page, 'Swap')
    await swap.getByRole('button', { name: /^Select token to pay/ }).click()
    await view(page, 'SwapSelectToken').getByRole('button', { name: 'USDC', exact: true }).click()
    await swap.getByRole('button', { name: /^Select token to receive/ }).click()
    await view(page, 'SwapSelectToken').getByRole('button', { name: 'SOL', exact: true }).click()
    await swap.getByRole('textbox', { name: 'You pay' }).fill('10')
    const review = swap.getByRole('button', { name: 'Review swap' })
    await expect.poll(() => review.isEnabled(), { timeout: 20_000 }).toBe(true)
    await review.click()
    const confirm = view(page, 'SwapPreview').getByRole('button', { name: 'Swap', exact: true })
    await expect.poll(() => confirm.isEnabled(), { timeout: 20_000 }).toBe(true)
    expect(await view(page, 'SwapPreview').getByTestId('swap-gas').textContent()).toBe('0.00001 SOL')
    await confirm.click()
    await approveInFrame(page)
    await expect
      .poll(() => page.locator('.ws-toast').textContent(), { timeout: 30_000 })
      .toMatch(/^Swapped 10 USDC for 0\.0664/)
    const { toAmount } = solanaQuoteAmount(
      10_000_000n,
      { decimals: 6, price: 1 },
      { decimals: 9, price: 150 },
    )
    expect(await usdc()).toBe(before.usdc - 10_000_000n)
    expect(BigInt(await solana.getBalance(owner))).toBe(before.sol + toAmount - 10_000n)
    await page.keyboard.press('Escape')
  })

  it('back to the EVM network: the EVM embedded account shows again', async () => {
    const account = page.getByTestId('demo-address')
    await chooseNetwork(page, 'Solana Sandbox', 'Walletstate Sandbox')
    await expect.poll(() => hostButton(page).textContent(), { timeout: 15_000 }).toBe(truncated(evm))
    expect(await account.textContent()).toBe(evm)
    expect(e2e.pageErrors).toEqual([])
  })
})
