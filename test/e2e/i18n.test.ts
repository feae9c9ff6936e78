import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { KIT_LOCALES, type KitLocale } from '../../src/config'
import ar from '../../src/react/locales/ar.json'
import BUTTON from '../../src/react/locales/connectButton.json'
import de from '../../src/react/locales/de.json'
import enFirst from '../../src/react/locales/en.json'
import enViews from '../../src/react/locales/en.views.json'
import es from '../../src/react/locales/es.json'
import fr from '../../src/react/locales/fr.json'
import ja from '../../src/react/locales/ja.json'
import zh from '../../src/react/locales/zh.json'
import { type E2eContext, hostButton, startE2e, truncated, view, walletPrompt } from './support.ts'

/*
 * Issue 18: the Connect and Account views in every locale, in Chromium against the sandbox, each kept as a
 * screenshot (.tmp/test-artifacts/i18n/, ignored by git); Arabic laid out right to left. Each locale gets a fresh
 * page (its own storage), starts in that locale (`?locale=`, the demo's `locale` option), connects the injected
 * dev wallet and opens Account.
 */

const en = { ...enFirst, ...enViews }
const CATALOGS: Record<KitLocale, Record<keyof typeof en, string>> = { en, de, es, fr, ja, zh, ar }
const ARTIFACTS = fileURLToPath(new URL('../../.tmp/test-artifacts/i18n/', import.meta.url))

let e2e: E2eContext

beforeAll(async () => {
  await mkdir(ARTIFACTS, { recursive: true })
  e2e = await startE2e()
})
afterAll(async () => {
  await e2e?.close()
})

const kitRoot = (page: Page) => page.locator('[data-walletstate]')

async function box(page: Page, selector: string) {
  const found = await page.locator(selector).first().boundingBox()
  if (!found) throw new Error(`${selector} is not laid out`)
  return found
}

describe('translations, in Chromium', () => {
  for (const locale of KIT_LOCALES) {
    const t = CATALOGS[locale]
    it(`${locale}: Connect and Account in ${locale}, from the option \`locale\``, async () => {
      const page = await e2e.newPage(`?locale=${locale}`)
      // The host button is the kit's: its text is the catalog's (once the catalog has come).
      await expect.poll(() => hostButton(page).textContent()).toBe(BUTTON[locale])
      await hostButton(page).click()
      const dialog = page.getByRole('dialog', { name: t['title.Connect'] })
      await dialog.waitFor()
      expect(await kitRoot(page).getAttribute('lang')).toBe(locale)
      expect(await kitRoot(page).getAttribute('dir')).toBe(locale === 'ar' ? 'rtl' : 'ltr')
      const wallet = dialog.getByRole('button', { name: /Walletstate Dev Wallet/ })
      await wallet.waitFor()
      expect(await wallet.textContent()).toContain(t['connect.badge.installed'])
      expect(await dialog.getByRole('button', { name: t['connect.whatIsAWallet'] }).count()).toBe(1)
      expect(await dialog.getByRole('button', { name: t['modal.close'] }).count()).toBe(1)
      expect(await dialog.getByRole('textbox', { name: t['email.label'] }).count()).toBe(1)

      // Right to left: the close button is at the dialog's start (its left in Arabic), the title in between.
      const dialogBox = await box(page, '[role="dialog"]')
      const closeBox = await dialog.getByRole('button', { name: t['modal.close'] }).boundingBox()
      const middle = dialogBox.x + dialogBox.width / 2
      if (locale === 'ar') expect(closeBox!.x + closeBox!.width).toBeLessThan(middle)
      else expect(closeBox!.x).toBeGreaterThan(middle)
      // The badge sits at the row's end: left of the wallet's name in Arabic.
      const nameBox = await wallet.getByText('Walletstate Dev Wallet').boundingBox()
      const badgeBox = await wallet.getByText(t['connect.badge.installed']).boundingBox()
      if (locale === 'ar') expect(badgeBox!.x).toBeLessThan(nameBox!.x)
      else expect(badgeBox!.x).toBeGreaterThan(nameBox!.x)
      await page.screenshot({ path: join(ARTIFACTS, `connect-${locale}.png`) })

      await wallet.click()
      await view(page, 'ConnectingExternal').waitFor()
      await walletPrompt(page).getByRole('button', { name: 'Approve' }).click()
      const address = e2e.sandbox.wallets.injectedAddress
      await expect.poll(() => hostButton(page).textContent()).toBe(truncated(address))
      await hostButton(page).click()
      const account = page.getByRole('dialog', { name: t['title.Account'] })
      await account.waitFor()
      await view(page, 'Account').waitFor()
      await expect.poll(() => page.getByTestId('account-balance').textContent()).toMatch(/ETH$/)
      expect(await account.getByRole('button', { name: t['common.disconnect'] }).count()).toBe(1)
      await account.getByRole('tab', { name: t['tab.tokens'] }).waitFor()
      expect(await account.getByRole('navigation', { name: t['account.features'] }).textContent()).toContain(
        t['feature.send'],
      )
      await page.screenshot({ path: join(ARTIFACTS, `account-${locale}.png`) })
      await page.close()
    })
  }

  it('setLocale at run time: the host button and the modal change language; only a chosen locale’s catalog is fetched', async () => {
    const page = await e2e.newPage()
    await hostButton(page).click()
    await page.getByRole('dialog', { name: en['title.Connect'] }).waitFor()
    await page.keyboard.press('Escape')
    await page.getByLabel('Language').selectOption('ar')
    await expect.poll(() => hostButton(page).textContent()).toBe(BUTTON.ar)
    await hostButton(page).click()
    await page.getByRole('dialog', { name: ar['title.Connect'] }).waitFor()
    expect(await kitRoot(page).getAttribute('dir')).toBe('rtl')
    await page.keyboard.press('Escape')
    await page.getByLabel('Language').selectOption('en')
    await expect.poll(() => hostButton(page).textContent()).toBe(BUTTON.en)
    expect(await kitRoot(page).getAttribute('dir')).toBe('ltr')
    // Every other locale's catalog was its own chunk, fetched only when chosen: Japanese never was.
    const fetched = await page.evaluate(() =>
      performance.getEntriesByType('resource').map((entry) => entry.name),
    )
    expect(fetched.some((name) => /locales\/ar\.json|\/ar[-.]/.test(name))).toBe(true)
    expect(fetched.some((name) => /locales\/ja\.json|\/ja[-.]/.test(name))).toBe(false)
    expect(e2e.pageErrors).toEqual([])
    await page.close()
  })
})
