import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type E2eContext, hostButton, startE2e, switchInWallet, walletPrompt } from './support.ts'

let e2e: E2eContext
let page: Page

beforeAll(async () => {
  e2e = await startE2e()
  page = await e2e.newPage()
})
afterAll(async () => {
  await e2e?.close()
})

describe('a wallet on a network the app did not request, in Chromium', () => {
  it('opens UnsupportedChain when the wallet moves to chain 1, and closes it when the wallet comes back', async () => {
    await hostButton(page).click()
    await page.getByRole('button', { name: /Walletstate Dev Wallet/ }).click()
    await walletPrompt(page).getByRole('button', { name: 'Approve' }).click()
    await expect.poll(() => hostButton(page).textContent()).toMatch(/^0x.{4}\.\.\..{6}$|^0x..\.\.\..{6}$/)

    await switchInWallet(page, '0x1')
    const view = page.locator('[data-view="UnsupportedChain"]')
    await view.waitFor()
    await page.getByRole('dialog', { name: 'Switch Network' }).waitFor()

    // Back on the app's chain (switched in the wallet), the view has done its job and closes.
    await page.getByRole('button', { name: 'Walletstate Sandbox' }).waitFor()
    await switchInWallet(page, '0x7a69')
    await page.getByRole('dialog').waitFor({ state: 'detached' })

    await switchInWallet(page, '0x1')
    await view.waitFor()
    await page.getByRole('button', { name: 'Close' }).click()
    await page.getByRole('dialog').waitFor({ state: 'detached' })
    expect(e2e.pageErrors).toEqual([])
  })

  it('switching from the UnsupportedChain view asks the wallet and closes the view', async () => {
    await hostButton(page).click()
    await page.locator('[data-view="Account"]').waitFor()
    await page.keyboard.press('Escape')
    await page.getByRole('dialog').waitFor({ state: 'detached' })
    // Still on chain 1 from the previous test: reopening after a chain change shows the view again.
    await switchInWallet(page, '0x7a69')
    await switchInWallet(page, '0x1')
    await page.locator('[data-view="UnsupportedChain"]').waitFor()
    await page.getByRole('button', { name: 'Walletstate Sandbox' }).click()
    await walletPrompt(page).getByRole('button', { name: 'Approve' }).click()
    await page.getByRole('dialog', { name: 'Switch Network' }).waitFor({ state: 'detached' })
    await hostButton(page).click()
    await page.locator('[data-view="Account"]').getByRole('button', { name: 'Walletstate Sandbox' }).waitFor()
  })

  it('opened over Account, Back closes the modal instead of returning to Account', async () => {
    await page.keyboard.press('Escape')
    await page.getByRole('dialog').waitFor({ state: 'detached' })
    await hostButton(page).click()
    await page.locator('[data-view="Account"]').waitFor()
    await switchInWallet(page, '0x1')
    await page.locator('[data-view="UnsupportedChain"]').waitFor()
    await page.getByRole('button', { name: 'Back' }).click()
    await page.getByRole('dialog').waitFor({ state: 'detached' })
    expect(e2e.pageErrors).toEqual([])
  })
})
