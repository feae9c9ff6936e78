import { Connection, PublicKey } from '@solana/web3.js'
import bs58 from 'bs58'
import type { Page } from 'playwright-core'
import nacl from 'tweetnacl'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { shownQuantity } from './balances.ts'
import {
  closeModal,
  type E2eContext,
  hostButton,
  SOLANA_WALLET,
  solanaPrompt,
  splBalanceOf,
  startE2e,
  truncated,
  view,
  walletPrompt,
} from './support.ts'

/**
 * Issue 17 in Chromium against the sandbox: the demo configures the EVM sandbox chain and "Solana Sandbox". The
 * Solana dev wallet (Wallet Standard, "Walletstate Solana Dev Wallet") connects from the same modal; the
 * Account view shows SOL and USDC as the sandbox Solana chain holds them; the demo's "Sign message" signs on
 * Solana (base58, checked here with ed25519); a reload reconnects. With the EVM dev wallet connected too, the
 * Networks view switches the account shown between the namespaces, and one namespace's disconnect leaves the
 * other connected.
 */
let e2e: E2eContext
let page: Page
let solana: Connection

beforeAll(async () => {
  e2e = await startE2e()
  page = await e2e.newPage()
  solana = new Connection(e2e.sandbox.solana.rpcUrl, 'confirmed')
})
afterAll(async () => {
  await e2e?.close()
})

const usdcOf = (owner: string) => splBalanceOf(solana, e2e.sandbox.solana.mints.usdc, owner)

describe('Solana beside eip155 in one modal (issue 17)', () => {
  it('lists "Solana Sandbox" in Networks and the Solana dev wallet in Connect', async () => {
    await hostButton(page).getByText('Connect Wallet').click()
    const connect = page.getByRole('dialog', { name: 'Connect Wallet' })
    await connect
      .getByRole('button', { name: /Walletstate Dev Wallet/ })
      .first()
      .waitFor()
    await connect.getByRole('button', { name: new RegExp(SOLANA_WALLET) }).waitFor()
    await connect.getByRole('button', { name: 'Supported networks' }).click()
    await view(page, 'Networks')
      .getByRole('button', { name: /Solana Sandbox/ })
      .waitFor()
    await view(page, 'Networks')
      .getByRole('button', { name: /Walletstate Sandbox/ })
      .waitFor()
    await closeModal(page)
  })

  it('connects the Solana dev wallet: the host button shows the base58 address, Account SOL and USDC', async () => {
    const address = e2e.sandbox.wallets.solanaAddress
    await hostButton(page).getByText('Connect Wallet').click()
    await page
      .getByRole('dialog', { name: 'Connect Wallet' })
      .getByRole('button', { name: new RegExp(SOLANA_WALLET) })
      .click()
    await view(page, 'ConnectingExternal').waitFor()
    await solanaPrompt(page).getByRole('button', { name: 'Approve' }).click()
    await expect.poll(() => hostButton(page).textContent()).toBe(truncated(address))
    expect(truncated(address)).toMatch(/^[1-9A-HJ-NP-Za-km-z]{4}\.\.\.[1-9A-HJ-NP-Za-km-z]{6}$/)

    await hostButton(page).click()
    await view(page, 'Account').waitFor()
    expect(await page.getByTestId('account-address').textContent()).toBe(truncated(address))
    const lamports = BigInt(await solana.getBalance(new PublicKey(address)))
    await expect
      .poll(() => page.getByTestId('account-balance').textContent(), { timeout: 15_000 })
      .toBe(`${shownQuantity(lamports, 9)} SOL`)
    const usdc = await usdcOf(address)
    expect(usdc).toBeGreaterThan(0n)
    const row = page.locator('[data-testid="token-balance"][data-symbol="USDC"]')
    await expect
      .poll(() => row.getByTestId('token-quantity').textContent())
      .toBe(`${shownQuantity(usdc, 6)} USDC`)
    // Activity and NFTs are eip155's; the Solana account has Tokens only.
    expect(await page.getByRole('tab').allTextContents()).toEqual(['Tokens'])
    await closeModal(page)
  })

  it('signs a message from the demo on Solana: a base58 ed25519 signature by the account', async () => {
    const address = e2e.sandbox.wallets.solanaAddress
    await page.getByRole('button', { name: 'Sign message' }).click()
    await solanaPrompt(page).getByRole('button', { name: 'Approve' }).click()
    const result = page.getByTestId('demo-result')
    await expect.poll(() => result.textContent()).toMatch(/^[1-9A-HJ-NP-Za-km-z]{80,90}$/)
    const signature = bs58.decode((await result.textContent()) ?? '')
    const message = new TextEncoder().encode(`Hello from the Walletstate demo to ${address}`)
    expect(nacl.sign.detached.verify(message, signature, new PublicKey(address).toBytes())).toBe(true)
  })

  it('reconnects the Solana wallet after a reload, without a prompt', async () => {
    await page.reload()
    const address = e2e.sandbox.wallets.solanaAddress
    await expect.poll(() => hostButton(page).textContent(), { timeout: 15_000 }).toBe(truncated(address))
    expect(await solanaPrompt(page).count()).toBe(0)
  })

  it('with the EVM wallet connected too, Networks switches the account shown; each survives the other disconnecting', async () => {
    const evm = e2e.sandbox.wallets.injectedAddress
    const sol = e2e.sandbox.wallets.solanaAddress
    // To the EVM network: nothing is connected there yet, so Connect shows.
    await hostButton(page).click()
    await view(page, 'Account').waitFor()
    await page.getByRole('button', { name: 'Solana Sandbox' }).click()
    await view(page, 'Networks').waitFor()
    await view(page, 'Networks')
      .getByRole('button', { name: /Walletstate Sandbox/ })
      .click()
    await view(page, 'Connect').waitFor()
    await page
      .getByRole('dialog')
      .getByRole('button', { name: /^Walletstate Dev Wallet/ })
      .click()
    await walletPrompt(page).getByRole('button', { name: 'Approve' }).click()
    await expect.poll(() => hostButton(page).textContent()).toBe(truncated(evm))

    // Back to Solana: its account shows again, no wallet asked.
    await hostButton(page).click()
    await view(page, 'Account').waitFor()
    await page.getByRole('button', { name: 'Walletstate Sandbox' }).click()
    await view(page, 'Networks')
      .getByRole('button', { name: /Solana Sandbox/ })
      .click()
    await expect.poll(() => hostButton(page).textContent()).toBe(truncated(sol))
    expect(await page.getByTestId('account-address').textContent()).toBe(truncated(sol))

    // Disconnecting Solana leaves the EVM account, which is shown now.
    await closeModal(page)
    await hostButton(page).click()
    await view(page, 'Account').waitFor()
    await page.getByRole('button', { name: 'Disconnect' }).click()
    await expect.poll(() => hostButton(page).textContent()).toBe(truncated(evm))

    // Solana again: connected afresh, then the EVM account is disconnected and Solana's stays.
    await hostButton(page).click()
    await page.getByRole('button', { name: 'Walletstate Sandbox' }).click()
    await view(page, 'Networks')
      .getByRole('button', { name: /Solana Sandbox/ })
      .click()
    await view(page, 'Connect').waitFor()
    await page
      .getByRole('dialog')
      .getByRole('button', { name: new RegExp(SOLANA_WALLET) })
      .click()
    await solanaPrompt(page).getByRole('button', { name: 'Approve' }).click()
    await expect.poll(() => hostButton(page).textContent()).toBe(truncated(sol))
    await hostButton(page).click()
    await page.getByRole('button', { name: 'Solana Sandbox' }).click()
    await view(page, 'Networks')
      .getByRole('button', { name: /Walletstate Sandbox/ })
      .click()
    await expect.poll(() => hostButton(page).textContent()).toBe(truncated(evm))
    await page.getByRole('button', { name: 'Disconnect' }).click()
    await expect.poll(() => hostButton(page).textContent()).toBe(truncated(sol))
    // And after a reload, Solana's account is still the one connected.
    await page.reload()
    await expect.poll(() => hostButton(page).textContent(), { timeout: 15_000 }).toBe(truncated(sol))
  })

  it('a Solana connect declined in the wallet says so as an EVM decline does, and is reported to the telemetry sink (SPEC §7)', async () => {
    const declined = async () =>
      (await e2e.sandbox.api.telemetry(e2e.sandbox.projectId)).filter(
        (e) => e.props.event === 'CONNECT_ERROR',
      )
    const before = (await declined()).length
    const p = await e2e.newPage()
    await hostButton(p).getByText('Connect Wallet').click()
    await p
      .getByRole('dialog', { name: 'Connect Wallet' })
      .getByRole('button', { name: new RegExp(SOLANA_WALLET) })
      .click()
    await view(p, 'ConnectingExternal').waitFor()
    await solanaPrompt(p).getByRole('button', { name: 'Reject' }).click()
    // The one refusal on every namespace: the visitor reads what an EVM wallet's decline says.
    await view(p, 'ConnectingExternal')
      .getByRole('alert')
      .getByText('Connection declined in the wallet.')
      .waitFor()
    await expect.poll(async () => (await declined()).length, { timeout: 20_000 }).toBe(before + 1)
    expect((await declined()).at(-1)?.props).toMatchObject({
      type: 'error',
      errorType: 'UserRejectedError',
      errorMessage: 'Connection declined in the wallet.',
    })
    await p.close()
  })
})
