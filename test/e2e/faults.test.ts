import type { Request } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { SEEDED_NAME } from '../../sandbox/api/names.ts'
import { alertWith, connectAndOpenAccount, dialog, faultSuite, openPage, setFault, view } from './faults.ts'
import { fastForwardUntil, hostButton } from './support.ts'

/*
 * Issue 13: the SPEC §8 texts a Data API or listing fault can produce, each provoked through the sandbox's fault
 * switch, seen in the UI by role, then the fault is lifted and the same page recovers: no reload (the harness:
 * test/e2e/faults.ts). The secure site's faults are in test/e2e/faults-secure-site.test.ts, beside this file.
 *
 * Texts a fault cannot produce, or only after the SPEC's long timers, are not here (see the notes at the end of
 * the file).
 */
const f = faultSuite()

describe('service faults show the SPEC §8 texts, and the page recovers once the fault is lifted', () => {
  it('Data API balance call fails: toast "Token Balance Unavailable"; after the 30 s block, "Try again" shows the balances', async () => {
    const page = await openPage({ clock: true })
    await setFault('api', { mode: 'fail', path: `/v1/account/${f.me}/balance` })
    await connectAndOpenAccount(page)
    const account = view(page, 'Account')
    await alertWith(page, 'Token Balance Unavailable').waitFor()
    expect(await account.getByTestId('token-balance').count()).toBe(0)

    await setFault('api', { mode: 'off' })
    // SPEC §4: a failed balance fetch blocks new attempts for 30 s (page time, moved on by the test's clock); then
    // "Try again" asks again.
    const tryAgain = account.getByRole('button', { name: 'Try again' })
    expect(await tryAgain.isEnabled()).toBe(false)
    await fastForwardUntil(page, () => tryAgain.isEnabled())
    await tryAgain.click()
    await expect.poll(() => account.getByTestId('token-balance').count(), { timeout: 10_000 }).toBe(4)
    expect(f.e2e.pageErrors).toEqual([])
  })

  it('Data API name look-ups fail: Account says "Error fetching names for address"; "Try again" shows the name', async () => {
    // The reverse look-up and the identity call (whose name the profile falls back to) both fail.
    await setFault('api', { mode: 'fail', path: '/v1/' })
    const page = await openPage()
    await connectAndOpenAccount(page)
    const account = view(page, 'Account')
    await alertWith(account, 'Error fetching names for address').waitFor({ timeout: 20_000 })
    expect(await account.getByTestId('account-profile-name').count()).toBe(0)
    await setFault('api', { mode: 'off' })
    await account.locator('.ws-profile').getByRole('button', { name: 'Try again' }).click()
    await expect
      .poll(() => account.getByTestId('account-profile-name').textContent(), { timeout: 20_000 })
      .toBe(SEEDED_NAME)
    expect(await alertWith(account, 'Error fetching names for address').count()).toBe(0)
    expect(f.e2e.pageErrors).toEqual([])
  })

  it('Data API name look-up fails during send: alert "Error resolving name"; the next "Preview send" resolves it', async () => {
    const page = await openPage()
    await connectAndOpenAccount(page)
    await expect
      .poll(() => view(page, 'Account').getByTestId('token-balance').count(), { timeout: 10_000 })
      .toBe(4)
    await setFault('api', { mode: 'fail', path: '/v1/profile/account/' })

    await view(page, 'Account').getByRole('button', { name: 'Send', exact: true }).click()
    const form = view(page, 'WalletSend')
    await form.getByRole('button', { name: 'Select token' }).click()
    await view(page, 'WalletSendSelectToken').locator('button[data-symbol="STK"]').click()
    await form.getByRole('button', { name: 'Token: STK' }).waitFor()
    await form.getByRole('textbox', { name: 'Amount' }).fill('0.1')
    await form.getByRole('textbox', { name: 'Receiver' }).fill(SEEDED_NAME)
    const preview = form.getByRole('button', { name: 'Preview send' })
    await preview.click()
    await alertWith(form, 'Error resolving name').waitFor()
    expect(await view(page, 'WalletSendPreview').count()).toBe(0)

    await setFault('api', { mode: 'off' })
    await expect.poll(() => preview.isEnabled(), { timeout: 10_000 }).toBe(true)
    await preview.click()
    // The name resolved (to dev account 0, its holder): the preview shows the send.
    await view(page, 'WalletSendPreview').waitFor()
    expect(await view(page, 'WalletSendPreview').getByTestId('send-amount').textContent()).toBe('0.1 STK')
    expect(f.e2e.pageErrors).toEqual([])
  })

  it('wallet listing fails (not a §8 text, the same shape): All Wallets shows "Could not load wallets"; "Try again" lists them', async () => {
    const page = await openPage()
    // The kit asks for the listing whenever a wallet list shows (Connect, then All Wallets) and it has none:
    // the alert to act on is the one after the last of those asks, so the test counts them.
    let asking = 0
    const isListing = (request: Request) => new URL(request.url()).pathname === '/getWallets'
    page.on('request', (request) => {
      if (isListing(request)) asking += 1
    })
    const settled = (request: Request) => {
      if (isListing(request)) asking -= 1
    }
    page.on('requestfinished', settled)
    page.on('requestfailed', settled)
    await setFault('walletsApi', { mode: 'fail', path: '/getWallets' })
    await hostButton(page).click()
    await dialog(page).getByRole('button', { name: 'All Wallets' }).click()
    const allWallets = view(page, 'AllWallets')
    const alert = alertWith(allWallets, 'Could not load wallets')
    await expect.poll(async () => asking === 0 && (await alert.isVisible()), { timeout: 10_000 }).toBe(true)
    const wallets = allWallets.getByRole('list').getByRole('button')
    expect(await wallets.count()).toBe(0)

    await setFault('walletsApi', { mode: 'off' })
    await allWallets.getByRole('button', { name: 'Try again' }).click()
    await expect.poll(() => wallets.count(), { timeout: 10_000 }).toBe(40)
    expect(await allWallets.getByRole('alert').count()).toBe(0)
    expect(f.e2e.pageErrors).toEqual([])
  })

  it('Data API history call fails: Activity shows "Failed to fetch transactions"; "Try again" lists them', async () => {
    const page = await openPage()
    await setFault('api', { mode: 'fail', path: `/v1/account/${f.me}/history` })
    await connectAndOpenAccount(page)
    const account = view(page, 'Account')
    await account.getByRole('tab', { name: 'Activity' }).click()
    const failed = alertWith(account, 'Failed to fetch transactions')
    await failed.waitFor({ timeout: 10_000 })

    await setFault('api', { mode: 'off' })
    await account.getByRole('button', { name: 'Try again' }).click()
    // The dev account's history (the chain's own transfers, or none yet) replaces the error.
    await expect
      .poll(
        async () =>
          (await account.getByTestId('activity-item').count()) > 0 ||
          (await account.getByText('No activity yet.').count()) > 0,
        { timeout: 10_000 },
      )
      .toBe(true)
    expect(await alertWith(account, 'Failed to fetch transactions').count()).toBe(0)
    expect(f.e2e.pageErrors).toEqual([])
  })
  // The analytics config's 403 is not a service fault but the project's answer to this page's origin: shown
  // by test/integration/invalidAppConfiguration.test.ts against the sandbox listing API.
})

/*
 * Not here, and why (checked against the kit as it is):
 * - 'Invalid Project ID': raised when the listing answers 401 or 403; no fault mode answers those.
 * - A chain RPC failure during send: the preview shows 'Unable to estimate the network fee.' (not a §8 text).
 * - 'Request Timed Out' (the relay stalls a WalletConnect request): the kit's limit is 120 s (SPEC §9).
 */
