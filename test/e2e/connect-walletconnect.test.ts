import type { Page } from 'playwright-core'
import { verifyMessage } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type E2eContext, hostButton, startE2e, truncated } from './support.ts'

let e2e: E2eContext
let page: Page

beforeAll(async () => {
  e2e = await startE2e()
  page = await e2e.newPage()
})
afterAll(async () => {
  await e2e?.close()
})

/** Opens the QR view for WalletConnect and reads the pairing URI the QR code encodes. */
async function pairingUri(p: Page): Promise<string> {
  await hostButton(p).click()
  await p
    .getByRole('dialog')
    .getByRole('button', { name: /WalletConnect/ })
    .click()
  await p.locator('[data-view="ConnectingWalletConnectBasic"]').waitFor()
  const qr = p.getByRole('img', { name: 'WalletConnect QR code' })
  await qr.waitFor({ timeout: 60_000 })
  const uri = await qr.getAttribute('data-uri')
  if (!uri?.startsWith('wc:')) throw new Error(`no pairing URI: ${uri}`)
  return uri
}

async function openWallet(uri: string): Promise<Page> {
  const wallet = await e2e.browser.newPage()
  await wallet.goto(`${e2e.sandbox.wallets.wcWalletUrl}?uri=${encodeURIComponent(uri)}`)
  return wallet
}

describe('connect by WalletConnect through the sandbox relay, in Chromium', () => {
  it('pairs by the QR view URI, signs in the wallet page, and disconnects on both sides', async () => {
    // Nothing leaves the machine: WalletConnect's hosted Verify (an iframe to verify.walletconnect.org) is off.
    const outside: string[] = []
    page.on('request', (request) => {
      if (!/^(data:|blob:|https?:\/\/127\.0\.0\.1[:/])/.test(request.url())) outside.push(request.url())
    })
    const uri = await pairingUri(page)
    expect(await page.getByText(/Expires in \d+:\d\d/).count()).toBe(1)
    const wallet = await openWallet(uri)
    const proposal = wallet.getByRole('region', { name: 'Session proposal' })
    await proposal.getByText('Walletstate demo').first().waitFor()
    await proposal.getByRole('button', { name: 'Approve' }).click()

    const address = e2e.sandbox.wallets.wcAddress
    await expect.poll(() => hostButton(page).textContent(), { timeout: 20_000 }).toBe(truncated(address))

    await page.getByRole('button', { name: 'Sign message' }).click()
    await wallet
      .getByRole('region', { name: 'Signature request' })
      .getByRole('button', { name: 'Approve' })
      .click()
    const result = page.getByTestId('demo-result')
    await expect.poll(() => result.textContent(), { timeout: 20_000 }).toMatch(/^0x[0-9a-f]{130}$/)
    const signature = (await result.textContent()) as `0x${string}`
    expect(
      await verifyMessage({ address, message: `Hello from the Walletstate demo to ${address}`, signature }),
    ).toBe(true)

    await hostButton(page).click()
    await page.getByRole('button', { name: 'Disconnect' }).click()
    await expect.poll(() => hostButton(page).textContent()).toBe('Connect Wallet')
    await expect.poll(() => wallet.getByText('No active sessions').count(), { timeout: 20_000 }).toBe(1)
    await wallet.close()
    expect(outside).toEqual([])
  })

  it('a session ended by the wallet puts the kit back to disconnected', async () => {
    const uri = await pairingUri(page)
    const wallet = await openWallet(uri)
    await wallet
      .getByRole('region', { name: 'Session proposal' })
      .getByRole('button', { name: 'Approve' })
      .click()
    await expect
      .poll(() => hostButton(page).textContent(), { timeout: 20_000 })
      .toBe(truncated(e2e.sandbox.wallets.wcAddress))
    await wallet.getByRole('button', { name: 'Disconnect' }).first().click()
    await expect.poll(() => hostButton(page).textContent(), { timeout: 10_000 }).toBe('Connect Wallet')
    await wallet.close()
  })

  it('a proposal rejected in the wallet page leaves "Try again", which offers a fresh QR code', async () => {
    const uri = await pairingUri(page)
    const wallet = await openWallet(uri)
    await wallet
      .getByRole('region', { name: 'Session proposal' })
      .getByRole('button', { name: 'Reject' })
      .click()
    const view = page.locator('[data-view="ConnectingWalletConnectBasic"]')
    await view.getByRole('alert').waitFor({ timeout: 20_000 })
    expect(await view.getByRole('alert').textContent()).toMatch(/declined|rejected/i)
    await view.getByRole('button', { name: 'Try again' }).click()
    const qr = page.getByRole('img', { name: 'WalletConnect QR code' })
    await expect
      .poll(async () => (await qr.count()) > 0 && (await qr.getAttribute('data-uri')) !== uri, {
        timeout: 30_000,
      })
      .toBe(true)
    await page.keyboard.press('Escape')
    await wallet.close()
  })
})

describe('the page’s domain, as wallets will see it (SPEC §3 Verify context, §8 alert)', () => {
  const setVerify = (body: object) =>
    fetch(`${e2e.sandbox.relay.origin}/__verify`, { method: 'POST', body: JSON.stringify(body) })

  it('a domain that is not one of the project’s: the kit warns and alerts, the wallet shows it unverified; a verified one passes quietly', async () => {
    const pageOrigin = new URL(page.url()).origin
    expect((await setVerify({ verifiedDomains: ['https://app.example'] })).status).toBe(200)
    try {
      const uri = await pairingUri(page)
      const alert = page.locator('[data-alert="UNVERIFIED_DOMAIN"]')
      await alert.waitFor()
      expect(await alert.getAttribute('role')).toBe('alert')
      expect(await alert.textContent()).toContain('Unverified Domain')
      const warning = page.getByTestId('domain-warning')
      expect(await warning.textContent()).toContain(pageOrigin)

      const wallet = await openWallet(uri)
      const proposal = wallet.getByRole('region', { name: 'Session proposal' })
      await proposal.getByText(`Unverified (${pageOrigin})`, { exact: false }).waitFor()
      await proposal.getByRole('button', { name: 'Reject' }).click()
      await wallet.close()
      await page.getByRole('button', { name: 'Dismiss: Unverified Domain' }).click()
      await page.keyboard.press('Escape')
    } finally {
      expect((await setVerify({ verifiedDomains: null })).status).toBe(200)
    }

    // The project's own domains (the sandbox's: loopback pages) include this page: verified, no alert.
    const uri = await pairingUri(page)
    const wallet = await openWallet(uri)
    const proposal = wallet.getByRole('region', { name: 'Session proposal' })
    await proposal.getByText(`Verified (${pageOrigin})`, { exact: false }).waitFor()
    expect(await page.locator('[data-alert="UNVERIFIED_DOMAIN"]').count()).toBe(0)
    expect(await page.getByTestId('domain-warning').count()).toBe(0)
    await proposal.getByRole('button', { name: 'Reject' }).click()
    await wallet.close()
    await page.keyboard.press('Escape')
    expect(e2e.pageErrors).toEqual([])
  })
})

describe('wallets from the listing on the QR view', () => {
  async function chooseFromAllWallets(p: Page, search: string, name: RegExp) {
    await hostButton(p).click()
    await p.getByRole('dialog').getByRole('button', { name: 'All Wallets' }).click()
    await p.getByRole('textbox', { name: 'Search wallets' }).fill(search)
    await p.getByRole('dialog').getByRole('button', { name }).click()
    await p.locator('[data-view="ConnectingWalletConnect"]').waitFor()
    await p.getByRole('img', { name: 'WalletConnect QR code' }).waitFor({ timeout: 60_000 })
  }

  it("a wallet's web-app link opens it with the pairing URI, and it connects", async () => {
    await chooseFromAllWallets(page, 'Walletstate WC', /Walletstate WC Wallet/)
    const link = page.getByRole('link', { name: 'Open Walletstate WC Wallet' })
    const href = (await link.getAttribute('href')) ?? ''
    expect(href.startsWith(e2e.sandbox.wallets.wcWalletUrl)).toBe(true)
    expect(new URL(href).searchParams.get('uri')).toBe(
      await page.getByRole('img', { name: 'WalletConnect QR code' }).getAttribute('data-uri'),
    )
    expect(await link.getAttribute('rel')).toBe('noopener noreferrer')
    const [wallet] = await Promise.all([page.context().waitForEvent('page'), link.click()])
    await wallet
      .getByRole('region', { name: 'Session proposal' })
      .getByRole('button', { name: 'Approve' })
      .click()
    await expect
      .poll(() => hostButton(page).textContent(), { timeout: 20_000 })
      .toBe(truncated(e2e.sandbox.wallets.wcAddress))
    await hostButton(page).click()
    await page.getByRole('button', { name: 'Disconnect' }).click()
    await expect.poll(() => hostButton(page).textContent()).toBe('Connect Wallet')
    await wallet.close()
  })

  it('hostile listing links (javascript:, data:) are never offered', async () => {
    for (const [search, name] of [
      ['Script Link', /Script Link Wallet/],
      ['Data Link', /Data Link Wallet/],
    ] as const) {
      await chooseFromAllWallets(page, search, name)
      const hrefs = await page
        .locator('[data-walletstate] a[href]')
        .evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''))
      expect(hrefs.filter((h) => /^\s*(javascript|data|vbscript):/i.test(h))).toEqual([])
      expect(await page.getByRole('link').count()).toBe(0)
      await page.keyboard.press('Escape')
      await page.getByRole('dialog').waitFor({ state: 'detached' })
    }
    expect(e2e.pageErrors).toEqual([])
  })
})
