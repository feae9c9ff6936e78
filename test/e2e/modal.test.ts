import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type E2eContext, startE2e } from './support.ts'

let e2e: E2eContext

beforeAll(async () => {
  e2e = await startE2e()
})
afterAll(async () => {
  await e2e?.close()
})

const focusedName = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null
    return el ? (el.getAttribute('aria-label') ?? el.textContent ?? '').trim() : ''
  })

describe('the modal, keyboard only, in Chromium', () => {
  it('opens, moves between two views with visible transitions, goes back, closes with Escape', async () => {
    const page = await e2e.newPage()
    const opener = page.getByRole('button', { name: 'Connect Wallet' })
    await opener.waitFor()

    // Tab from the top of the page to the host's button and open the modal with Enter.
    for (let i = 0; i < 10 && (await focusedName(page)) !== 'Connect Wallet'; i++)
      await page.keyboard.press('Tab')
    expect(await focusedName(page)).toBe('Connect Wallet')
    await page.keyboard.press('Enter')

    const dialog = page.getByRole('dialog', { name: 'Connect Wallet' })
    await dialog.waitFor()
    expect(await opener.getAttribute('aria-expanded')).toBe('true')
    await expect.poll(() => page.locator('[data-view]').getAttribute('data-view')).toBe('Connect')

    // Focus moved into the dialog, on the view's first control (the first wallet); Tab reaches the rest.
    expect(await page.evaluate(() => !!document.activeElement?.closest('[data-view="Connect"]'))).toBe(true)
    // Past the e-mail form, the social buttons (focusable while the login frame loads) and the wallets.
    for (let i = 0; i < 40 && (await focusedName(page)) !== 'Supported networks'; i++)
      await page.keyboard.press('Tab')
    expect(await focusedName(page)).toBe('Supported networks')
    await page.keyboard.press('Enter')

    // The Networks view is a lazy chunk: it arrives, slides in from the right, and the transition ends.
    const networks = page.locator('[data-view="Networks"]')
    await networks.waitFor()
    expect(await networks.getAttribute('data-direction')).toBe('next')
    await expect.poll(() => page.getByRole('dialog').getAttribute('data-transitioning')).toBeNull()
    await page.getByRole('dialog', { name: 'Choose Network' }).waitFor()
    await networks.getByText('Walletstate Sandbox').waitFor()
    const animation = await networks.evaluate((el) => getComputedStyle(el).animationName)
    expect(animation).toBe('ws-in-next')

    // Tab stays inside the dialog (focus trap): cycle through every control and land back inside.
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press('Tab')
      expect(await page.evaluate(() => !!document.activeElement?.closest('[role="dialog"]'))).toBe(true)
    }

    // Back, by keyboard.
    await page.getByRole('button', { name: 'Back' }).focus()
    await page.keyboard.press('Enter')
    const connect = page.locator('[data-view="Connect"]')
    await connect.waitFor()
    expect(await connect.getAttribute('data-direction')).toBe('prev')
    expect(await connect.evaluate((el) => getComputedStyle(el).animationName)).toBe('ws-in-prev')

    // Escape closes and focus returns to the host's button.
    await page.keyboard.press('Escape')
    await dialog.waitFor({ state: 'detached' })
    expect(await focusedName(page)).toBe('Connect Wallet')
    expect(await opener.getAttribute('aria-expanded')).toBe('false')
    expect(e2e.pageErrors).toEqual([])
    await page.close()
  })

  it('closes on an overlay click and on the close button, and reopens on Connect', async () => {
    const page = await e2e.newPage()
    await page.getByRole('button', { name: 'Connect Wallet' }).click()
    await page.getByRole('dialog').waitFor()
    await page.mouse.click(5, 5)
    await page.getByRole('dialog').waitFor({ state: 'detached' })

    await page.getByRole('button', { name: 'Connect Wallet' }).click()
    await page.getByRole('button', { name: 'What is a wallet?' }).click()
    await page.locator('[data-view="WhatIsAWallet"]').getByText('A wallet holds the keys').waitFor()
    await page.getByRole('button', { name: 'Close' }).click()
    await page.getByRole('dialog').waitFor({ state: 'detached' })
    // Reopening starts again on Connect.
    await page.getByRole('button', { name: 'Connect Wallet' }).click()
    await expect.poll(() => page.locator('[data-view]').getAttribute('data-view')).toBe('Connect')
    expect(e2e.pageErrors).toEqual([])
    await page.close()
  })
})
