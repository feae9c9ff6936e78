import type { Page } from 'playwright-core'
import { verifyMessage } from 'viem'
import { parseSiweMessage } from 'viem/siwe'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SANDBOX_CHAIN_ID } from '../../sandbox/chain/chain.ts'
import { type E2eContext, hostButton, startE2e, truncated, walletPrompt } from './support.ts'

/**
 * Sign-in with the wallet (issue 15) in the demo (`?siwx=1`, the SIWE preset, sessions in the page's storage),
 * with the injected dev wallet, which asks before it connects and before it signs.
 */
let e2e: E2eContext
let page: Page

beforeAll(async () => {
  e2e = await startE2e()
})
afterAll(async () => {
  await e2e?.close()
})

const session = (p: Page) => p.getByTestId('demo-session')
const siwe = (p: Page) => p.locator('[data-view="ConnectingSiwe"]')

async function connectInjected(p: Page) {
  await hostButton(p).getByText('Connect Wallet').click()
  await p
    .getByRole('dialog', { name: 'Connect Wallet' })
    .getByRole('button', { name: /Walletstate Dev Wallet/ })
    .click()
  await walletPrompt(p).getByRole('button', { name: 'Approve' }).click()
}

describe('sign-in with the injected dev wallet (SIWE preset), in Chromium', () => {
  it('connect → ConnectingSiwe → the wallet signs an EIP-4361 message for this page → signed in', async () => {
    page = await e2e.newPage('?siwx=1')
    const address = e2e.sandbox.wallets.injectedAddress
    expect(await session(page).textContent()).toBe('')
    await connectInjected(page)
    await siwe(page).waitFor({ timeout: 15_000 })
    expect(await page.getByRole('dialog', { name: 'Sign In' }).count()).toBe(1)
    await siwe(page).getByRole('button', { name: 'Sign in' }).click()
    // The wallet shows the message; the test reads it there and checks what the kit asked to sign.
    const prompt = walletPrompt(page)
    await prompt.waitFor()
    const shown = (await prompt.textContent()) ?? ''
    expect(shown).toContain('wants you to sign in with your Ethereum account')
    await prompt.getByRole('button', { name: 'Approve' }).click()
    await expect.poll(() => session(page).textContent(), { timeout: 15_000 }).toBe(address)
    expect(await page.getByRole('dialog', { name: 'Sign In' }).count()).toBe(0)
    expect(await hostButton(page).textContent()).toBe(truncated(address))

    // The stored session: an EIP-4361 message for this page's host, signed by the account.
    const stored = await page.evaluate(() => localStorage.getItem('walletstate.siwe.sessions'))
    const [kept] = JSON.parse(stored ?? '[]') as { message: string; signature: `0x${string}` }[]
    const fields = parseSiweMessage(kept!.message)
    expect(fields.domain).toBe(new URL(page.url()).host)
    expect(fields.uri).toBe(new URL(page.url()).origin)
    expect(fields.address).toBe(address)
    expect(fields.chainId).toBe(SANDBOX_CHAIN_ID)
    expect(fields.nonce).toMatch(/^[A-Za-z0-9]{8,}$/)
    expect(fields.expirationTime!.getTime()).toBeGreaterThan(Date.now())
    expect(await verifyMessage({ address, message: kept!.message, signature: kept!.signature })).toBe(true)
  })

  it('a reload keeps the session without a new signature', async () => {
    await page.reload()
    await expect
      .poll(() => session(page).textContent(), { timeout: 15_000 })
      .toBe(e2e.sandbox.wallets.injectedAddress)
    expect(await walletPrompt(page).count()).toBe(0)
    expect(await siwe(page).count()).toBe(0)
  })

  it('a tampered stored session is refused: the visitor is asked to sign again', async () => {
    await page.evaluate(() => {
      const list = JSON.parse(localStorage.getItem('walletstate.siwe.sessions') ?? '[]')
      list[0].signature = `0x${'12'.repeat(65)}`
      localStorage.setItem('walletstate.siwe.sessions', JSON.stringify(list))
    })
    await page.reload()
    await siwe(page).waitFor({ timeout: 15_000 })
    expect(await session(page).textContent()).toBe('')
    await siwe(page).getByRole('button', { name: 'Sign in' }).click()
    await walletPrompt(page).getByRole('button', { name: 'Approve' }).click()
    await expect
      .poll(() => session(page).textContent(), { timeout: 15_000 })
      .toBe(e2e.sandbox.wallets.injectedAddress)
  })

  it('disconnect signs out: the session is revoked from storage', async () => {
    await hostButton(page).click()
    await page.getByRole('button', { name: 'Disconnect' }).click()
    await expect.poll(() => hostButton(page).textContent()).toBe('Connect Wallet')
    await expect.poll(() => session(page).textContent()).toBe('')
    expect(await page.evaluate(() => localStorage.getItem('walletstate.siwe.sessions'))).toBeNull()
    await page.close()
  })

  it('declining while sign-in is required leaves the visitor disconnected, with a clear message', async () => {
    const p = await e2e.newPage('?siwx=1&siwxRequired=1')
    await connectInjected(p)
    await siwe(p).waitFor({ timeout: 15_000 })
    await siwe(p).getByText('Signing in is required to stay connected.').waitFor()
    await siwe(p).getByRole('button', { name: 'Cancel' }).click()
    await expect.poll(() => hostButton(p).textContent(), { timeout: 15_000 }).toBe('Connect Wallet')
    await expect
      .poll(() => p.getByRole('alert').allTextContents())
      .toContain('This app requires you to sign in with your wallet. You were disconnected.')
    expect(await session(p).textContent()).toBe('')
    await p.close()
  })
})
