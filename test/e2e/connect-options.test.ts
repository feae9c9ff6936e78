import type { Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEV_WALLET_IDS } from '../../sandbox/api/listing.ts'
import { SANDBOX_SOLANA_CHAIN_ID } from '../../sandbox/api/solana.ts'
import { SANDBOX_CHAIN_ID } from '../../sandbox/chain/chain.ts'
import { type E2eContext, hostButton, startE2e, truncated, walletPrompt } from './support.ts'

/**
 * Issue 18's options that did nothing before, each shown by its effect in Chromium against the sandbox: the
 * legal checkbox, collapsed wallets, a custom wallet in its slot, and All Wallets' "Certified only" filter.
 * The demo turns each on from its URL (`?legal=1`, `?collapseWallets=1`, `?customWallet=1`).
 */
let e2e: E2eContext

beforeAll(async () => {
  e2e = await startE2e()
})
afterAll(async () => {
  await e2e?.close()
})

/** The demo with `query`, its Connect view open. */
async function openConnect(query: string): Promise<{ page: Page; connect: Locator }> {
  const page = await e2e.newPage(query)
  // The first visit of a fresh demo server may wait for Vite to optimise dependencies (and reload once).
  await hostButton(page).getByText('Connect Wallet').waitFor({ timeout: 90_000 })
  await hostButton(page).click()
  const connect = page.getByRole('dialog', { name: 'Connect Wallet' }).locator('[data-view="Connect"]')
  await connect.waitFor()
  return { page, connect }
}

/** The names of the Connect view's wallet buttons, in order (without their icon's initial and their badge). */
const walletNames = (connect: Locator) =>
  connect
    .getByRole('list', { name: 'Wallets' })
    .getByRole('button')
    .evaluateAll((buttons) =>
      buttons.map((button) =>
        [...button.children]
          .filter((child) => child.tagName === 'SPAN' && !child.matches('[aria-hidden="true"], .ws-badge'))
          .map((child) => child.textContent?.trim())
          .join(''),
      ),
    )

describe('connect options (issue 18), in Chromium against the sandbox', () => {
  it('legalCheckbox: every connect is unavailable until the terms are agreed to; then the dev wallet connects', async () => {
    const { page, connect } = await openConnect('?legal=1')
    const checkbox = connect.getByRole('checkbox', {
      name: 'I agree to the Terms of Service and Privacy Policy',
    })
    expect(await checkbox.isChecked()).toBe(false)
    const terms = connect.getByRole('link', { name: 'Terms of Service' })
    const privacy = connect.getByRole('link', { name: 'Privacy Policy' })
    expect([await terms.getAttribute('href'), await privacy.getAttribute('href')]).toEqual([
      'https://walletstate.example/terms',
      'https://walletstate.example/privacy',
    ])
    expect(await terms.getAttribute('rel')).toBe('noopener noreferrer')

    // Every connect control is aria-disabled and described by the reason: wallets, WalletConnect, e-mail, social.
    const devWallet = connect.getByRole('button', { name: /Walletstate Dev Wallet/ })
    await devWallet.waitFor()
    const controls = [
      devWallet,
      connect.getByRole('button', { name: /^WalletConnect/ }),
      connect.getByRole('button', { name: 'Continue' }),
      connect.getByRole('list', { name: 'Log in with' }).getByRole('button').first(),
    ]
    for (const control of controls) {
      expect(await control.getAttribute('aria-disabled')).toBe('true')
      const reason = await control.getAttribute('aria-describedby')
      expect(await page.locator(`[id="${reason}"]`).textContent()).toBe(
        'Agree to the Terms of Service and Privacy Policy to connect.',
      )
    }

    // A click on the wallet anyway (past Playwright's enabled check): the kit refuses the connect.
    await devWallet.click({ force: true })
    // Ticking the box renders after that click was handled: had the connect started, Connect would be gone.
    await checkbox.check()
    await expect.poll(() => devWallet.getAttribute('aria-disabled')).toBeNull()
    expect(await connect.count()).toBe(1)
    expect(await page.locator('[data-view="ConnectingExternal"]').count()).toBe(0)
    expect(await walletPrompt(page).count()).toBe(0)
    expect(await page.getByText('Agree to the Terms of Service and Privacy Policy to connect.').count()).toBe(
      0,
    )

    // Agreed: the same wallet connects.
    await devWallet.click()
    await page.locator('[data-view="ConnectingExternal"]').waitFor()
    await walletPrompt(page).getByRole('button', { name: 'Approve' }).click()
    await expect
      .poll(() => hostButton(page).textContent())
      .toBe(truncated(e2e.sandbox.wallets.injectedAddress))
    await page.close()
  })

  it('collapseWallets: e-mail and socials show, the wallets wait behind "Continue with a wallet"', async () => {
    // Off (the default): the wallet list shows at once.
    const plain = await openConnect('')
    await plain.connect.getByRole('list', { name: 'Wallets' }).waitFor()
    expect(await plain.connect.getByRole('button', { name: 'Continue with a wallet' }).count()).toBe(0)
    await plain.page.close()

    const { page, connect } = await openConnect('?collapseWallets=1')
    await connect.getByRole('textbox', { name: 'Email' }).waitFor()
    await connect.getByRole('list', { name: 'Log in with' }).waitFor()
    const reveal = connect.getByRole('button', { name: 'Continue with a wallet' })
    expect(await reveal.getAttribute('aria-expanded')).toBe('false')
    expect(await connect.getByRole('list', { name: 'Wallets' }).count()).toBe(0)
    expect(await connect.getByRole('button', { name: /Walletstate Dev Wallet/ }).count()).toBe(0)

    await reveal.click()
    const wallets = connect.getByRole('list', { name: 'Wallets' })
    await wallets.waitFor()
    await wallets.getByRole('button', { name: /Walletstate Dev Wallet/ }).waitFor()
    expect(await reveal.count()).toBe(0)
    // Focus moves to the first wallet revealed (WalletConnect, first in the connector order).
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.textContent?.trim() ?? ''))
      .toContain('WalletConnect')
    await page.close()
  })

  it('customWallets: the host’s wallet shows in the custom slot and pairs through WalletConnect with safe links', async () => {
    const { page, connect } = await openConnect('?customWallet=1')
    // The listing's recommended wallets (the first four of its first page) join once its machine runs.
    const query = new URLSearchParams({
      projectId: e2e.sandbox.projectId,
      st: 'e2e',
      sv: '0',
      page: '1',
      entries: '40',
      chains: `eip155:${SANDBOX_CHAIN_ID},${SANDBOX_SOLANA_CHAIN_ID}`,
    })
    const firstPage = (await (
      await fetch(`${e2e.sandbox.walletsApi.origin}/getWallets?${query}`)
    ).json()) as {
      data: Array<{ id: string; name: string }>
    }
    const recommended = firstPage.data
      .slice(0, 4)
      .filter((w) => w.id !== DEV_WALLET_IDS.injected)
      .map((w) => w.name)
    expect(recommended.length).toBeGreaterThan(0)
    await expect.poll(() => walletNames(connect)).toContain(recommended.at(-1))

    // The connector order: WalletConnect, installed, (no featured in the demo), custom, (no external), recommended.
    const names = await walletNames(connect)
    const custom = names.indexOf('Walletstate Custom Wallet')
    expect(names[0]).toBe('WalletConnect')
    // Between them, the installed wallets (the EIP-6963 dev wallet, and Solana's when announced).
    expect(names.slice(1, custom)).toContain('Walletstate Dev Wallet')
    const badges = await connect
      .getByRole('list', { name: 'Wallets' })
      .getByRole('button')
      .evaluateAll((buttons) => buttons.map((button) => button.querySelector('.ws-badge')?.textContent ?? ''))
    expect(badges.slice(1, custom).every((badge) => badge === 'Installed')).toBe(true)
    expect(badges[custom]).toBe('')
    expect(names.slice(custom + 1, custom + 1 + recommended.length)).toEqual(recommended)
    expect(names.at(-1)).toBe('All Wallets')

    // Chosen: WalletConnect's pairing, with the wallet's own links carrying the pairing URI.
    await connect.getByRole('button', { name: 'Walletstate Custom Wallet' }).click()
    const pairing = page.locator('[data-view="ConnectingWalletConnect"]')
    await pairing.waitFor()
    const web = pairing.getByRole('link', { name: 'Open Walletstate Custom Wallet' })
    await web.waitFor()
    expect(await web.getAttribute('href')).toMatch(/^https:\/\/custom\.walletstate\.example\/\?uri=wc%3A/)
    expect(await web.getAttribute('rel')).toBe('noopener noreferrer')
    expect(await pairing.getByRole('link', { name: 'Open desktop app' }).getAttribute('href')).toMatch(
      /^walletstate-custom:\/\/wc\?uri=wc%3A/,
    )
    await page.close()
  })

  it('badge_type: "Certified only" asks the listing for certified wallets and narrows All Wallets', async () => {
    const { page, connect } = await openConnect('')
    const requests: URL[] = []
    page.on('request', (request) => {
      if (request.url().includes('/getWallets?')) requests.push(new URL(request.url()))
    })
    await connect.getByRole('button', { name: 'All Wallets' }).click()
    const view = page.locator('[data-view="AllWallets"]')
    const buttons = view.getByRole('list', { name: 'Wallets' }).getByRole('button')
    await expect.poll(() => buttons.count()).toBe(40)
    // Certified wallets carry the mark (an image named "Certified"); others do not.
    const dev = view.locator(`[data-wallet-id="${DEV_WALLET_IDS.injected}"]`)
    expect(await dev.getByRole('img', { name: 'Certified' }).count()).toBe(1)
    const unmarked = await view.locator('button.ws-wallet:not(:has([data-certified]))').count()
    expect(unmarked).toBeGreaterThan(0)

    // What the sandbox listing holds for the demo's chains, certified only.
    const query = new URLSearchParams({
      projectId: e2e.sandbox.projectId,
      st: 'e2e',
      sv: '0',
      page: '1',
      entries: '1',
      chains: `eip155:${SANDBOX_CHAIN_ID},${SANDBOX_SOLANA_CHAIN_ID}`,
      badge_type: 'certified',
    })
    const { count: certifiedCount } = (await (
      await fetch(`${e2e.sandbox.walletsApi.origin}/getWallets?${query}`)
    ).json()) as { count: number }
    expect(certifiedCount).toBeGreaterThan(0)
    expect(certifiedCount).toBeLessThan(40)

    const asked = requests.length
    const filter = view.getByRole('checkbox', { name: 'Certified only' })
    await filter.check()
    await expect.poll(() => buttons.count()).toBe(certifiedCount)
    const filtered = requests.slice(asked)
    expect(filtered.length).toBeGreaterThan(0)
    expect(filtered.every((url) => url.searchParams.get('badge_type') === 'certified')).toBe(true)
    expect(await view.locator('button.ws-wallet:not(:has([data-certified]))').count()).toBe(0)

    // Off again: the whole list, asked without the filter.
    const before = requests.length
    await filter.uncheck()
    await expect.poll(() => buttons.count()).toBe(40)
    expect(requests.slice(before).every((url) => !url.searchParams.has('badge_type'))).toBe(true)
    expect(requests.length).toBeGreaterThan(before)
    await page.close()
  })
})
