import type { Locator, Page, Request } from 'playwright-core'
import type { Address } from 'viem'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { SEEDED_NAME } from '../../sandbox/api/names.ts'
import type { Fault } from '../../sandbox/shared/fault.ts'
import { type E2eContext, hostButton, startE2e, truncated, walletPrompt } from './support.ts'

/*
 * Issue 13: the SPEC §8 texts a service fault can produce, each provoked through the sandbox's fault switch
 * (`POST /__fault` on the service's own origin, from Node), seen in the UI by role (a toast or an alert), then
 * the fault is lifted and the same page recovers: no reload. One fresh page per scenario, so a scenario's kit
 * state (a balance block, a failed frame) never leaks into the next.
 *
 * Texts a fault cannot produce, or only after the SPEC's long timers, are not here (see the todos and the
 * notes at the end of the file).
 */
let e2e: E2eContext
let me: Address

beforeAll(async () => {
  e2e = await startE2e()
  me = e2e.sandbox.wallets.injectedAddress
})
afterAll(async () => {
  await e2e?.close()
})

/** The services whose switch a scenario may set: every one is switched off after each test, pass or fail. */
const services = () => ({
  api: e2e.sandbox.api.origin,
  walletsApi: e2e.sandbox.walletsApi.origin,
  secureSite: e2e.sandbox.secureSite.origin,
  rpc: e2e.sandbox.rpc.origin,
  relay: e2e.sandbox.relay.origin,
})
type Service = keyof ReturnType<typeof services>

/** Sets a service's fault switch, as a test (Node) may; the switch answers 200 with what it set. */
async function setFault(service: Service, fault: Fault): Promise<void> {
  const answer = await fetch(`${services()[service]}/__fault`, {
    method: 'POST',
    body: JSON.stringify(fault),
  })
  expect(answer.status).toBe(200)
}

afterEach(async () => {
  await Promise.all(
    (Object.keys(services()) as Service[]).map((service) => setFault(service, { mode: 'off' })),
  )
})

const pages: Page[] = []
afterEach(async () => {
  for (const page of pages.splice(0)) await page.close()
})

async function openPage(): Promise<Page> {
  const page = await e2e.newPage()
  pages.push(page)
  // The first visit of a fresh demo server may wait for Vite to optimise dependencies (and reload once).
  await hostButton(page).getByText('Connect Wallet').waitFor({ timeout: 90_000 })
  return page
}

const dialog = (page: Page) => page.getByRole('dialog')
const view = (page: Page, name: string) => page.locator(`[data-view="${name}"]`)
/** A toast or an alert carrying `text` (the kit's error toasts are role="alert", its modal alerts too). */
const alertWith = (scope: Page | Locator, text: string) =>
  scope.getByRole('alert').filter({ hasText: text }).first()

/** Connects with the injected dev wallet and opens the Account view. */
async function connectAndOpenAccount(page: Page): Promise<void> {
  await hostButton(page).click()
  await dialog(page)
    .getByRole('button', { name: /Walletstate Dev Wallet/ })
    .click()
  await walletPrompt(page).getByRole('button', { name: 'Approve' }).click()
  await expect.poll(() => hostButton(page).textContent(), { timeout: 10_000 }).toBe(truncated(me))
  await expect.poll(() => dialog(page).count(), { timeout: 10_000 }).toBe(0)
  await hostButton(page).click()
  await view(page, 'Account').waitFor()
}

describe('service faults show the SPEC §8 texts, and the page recovers once the fault is lifted', () => {
  it('Data API balance call fails: toast "Token Balance Unavailable"; after the 30 s block, "Try again" shows the balances', async () => {
    const page = await openPage()
    await setFault('api', { mode: 'fail', path: `/v1/account/${me}/balance` })
    await connectAndOpenAccount(page)
    const account = view(page, 'Account')
    await alertWith(page, 'Token Balance Unavailable').waitFor()
    expect(await account.getByTestId('token-balance').count()).toBe(0)

    await setFault('api', { mode: 'off' })
    // SPEC §4: a failed balance fetch blocks new attempts for 30 s; then "Try again" asks again.
    const tryAgain = account.getByRole('button', { name: 'Try again' })
    await expect.poll(() => tryAgain.isEnabled(), { timeout: 40_000 }).toBe(true)
    await tryAgain.click()
    await expect.poll(() => account.getByTestId('token-balance').count(), { timeout: 10_000 }).toBe(4)
    expect(e2e.pageErrors).toEqual([])
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
    expect(e2e.pageErrors).toEqual([])
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
    expect(e2e.pageErrors).toEqual([])
  })

  it('secure site stalls the login frame: "Unable to load email login dependency" and alert "Embedded Wallet Failed to Load"; "Try again" loads it', async () => {
    const page = await openPage()
    await setFault('secureSite', { mode: 'stall', path: '/frame' })
    await hostButton(page).click()
    // The login frame loads on the visitor's intent (issue 14): the pointer over the e-mail form.
    await dialog(page).getByRole('textbox', { name: 'Email' }).hover()
    // SPEC §9: the frame has 20 s to say it is ready.
    await alertWith(dialog(page), 'Unable to load email login dependency').waitFor({ timeout: 30_000 })
    await alertWith(dialog(page), 'Embedded Wallet Failed to Load').waitFor()
    const continueButton = dialog(page).getByRole('button', { name: 'Continue' })
    await dialog(page).getByRole('textbox', { name: 'Email' }).fill('fault-recovery@example.test')
    expect(await continueButton.isEnabled()).toBe(false)

    await setFault('secureSite', { mode: 'off' })
    await dialog(page).getByRole('button', { name: 'Try again' }).click()
    // A fresh frame loads: the e-mail login may go, and no alert says the frame failed.
    await expect.poll(() => continueButton.isEnabled(), { timeout: 30_000 }).toBe(true)
    expect(await dialog(page).getByText('Unable to load email login dependency').count()).toBe(0)
    expect(
      await dialog(page).getByRole('alert').filter({ hasText: 'Embedded Wallet Failed to Load' }).count(),
    ).toBe(0)
    expect(e2e.pageErrors).toEqual([])
  })

  it('secure site stalls its API during e-mail login: alert "Something went wrong"; "Continue" again sends the code', async () => {
    const page = await openPage()
    await hostButton(page).click()
    const email = dialog(page).getByRole('textbox', { name: 'Email' })
    const continueButton = dialog(page).getByRole('button', { name: 'Continue' })
    await email.fill(`fault-${Date.now()}@example.test`)
    await expect.poll(() => continueButton.isEnabled(), { timeout: 30_000 }).toBe(true)
    // The frame is up; its own calls to the secure site's API now go unanswered.
    await setFault('secureSite', { mode: 'stall', path: '/api/' })
    await continueButton.click()
    // SPEC §9: a frame command has 30 s to be answered.
    await alertWith(dialog(page), 'Something went wrong').waitFor({ timeout: 40_000 })

    await setFault('secureSite', { mode: 'off' })
    await expect.poll(() => continueButton.isEnabled(), { timeout: 10_000 }).toBe(true)
    await continueButton.click()
    await view(page, 'EmailVerifyOtp').or(view(page, 'EmailVerifyDevice')).waitFor({ timeout: 30_000 })
    expect(e2e.pageErrors).toEqual([])
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
    expect(e2e.pageErrors).toEqual([])
  })

  it('Data API history call fails: Activity shows "Failed to fetch transactions"; "Try again" lists them', async () => {
    const page = await openPage()
    await setFault('api', { mode: 'fail', path: `/v1/account/${me}/history` })
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
    expect(e2e.pageErrors).toEqual([])
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
