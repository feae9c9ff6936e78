import type { Page } from 'playwright-core'
import { type Address, createPublicClient, erc20Abi, formatUnits, http, parseUnits } from 'viem'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { connectInjected, type E2eContext, hostButton, startE2e, truncated, view } from './support.ts'

/**
 * Issue 19's acceptance in Chromium against the sandbox: Account's "Buy" opens OnRampProviders (its code fetched
 * only then); 50 USD of USDC bought with a card through each provider: the partner page (its own origin) opens in
 * a window of its own, "Complete purchase" delivers on anvil, the kit sees the purchase (a `role="status"` toast
 * with "Purchase"), Tokens shows the new balance and Activity the buy. An amount outside the limits is refused
 * before any partner page opens; with the options and quote calls failing (the fault switch) the samples and the
 * estimate show as estimates and the purchase still completes; a partner page closed without paying leaves a
 * retryable state. Issue 33: the partner window is opened within the click on the provider (blank, then sent to
 * the partner page), and a purchase still pending when the partner window closes ("Complete later") is watched
 * on until the partner confirms it, and ends as purchased.
 */
let e2e: E2eContext
let page: Page
let client: ReturnType<typeof createPublicClient>
let me: Address
const requested: string[] = []
/** The Buy feature's chunks or modules: its views, machine, slots and API client. */
const ONRAMP_CODE = /\/(OnRamp\w*|onramp(Shared|Samples)?)([.-][\w-]*)?\.(tsx?|js)(\?|$)/

beforeAll(async () => {
  e2e = await startE2e()
  page = await e2e.browser.newPage()
  page.on('pageerror', (error) => e2e.pageErrors.push(error.message))
  page.on('request', (request) => requested.push(new URL(request.url()).pathname))
  // Every `window.open` of the host page, with the event being dispatched when it was called (`window.event`:
  // the click while its handlers run, nothing once they returned), and every status or alert line it showed.
  await page.addInitScript(() => {
    const log = window as unknown as {
      __opened: Array<{ url: string; during: string | null; active: boolean | null }>
      __statuses: string[]
    }
    log.__opened = []
    log.__statuses = []
    const open = window.open.bind(window)
    window.open = (...args: Parameters<typeof window.open>) => {
      const during = (window as unknown as { event?: Event }).event?.type ?? null
      const activation = (navigator as unknown as { userActivation?: { isActive: boolean } }).userActivation
      log.__opened.push({ url: String(args[0] ?? ''), during, active: activation?.isActive ?? null })
      return open(...args)
    }
    const seen = () => {
      for (const line of document.querySelectorAll('[role="status"], [role="alert"]')) {
        const text = line.textContent ?? ''
        if (text && log.__statuses.at(-1) !== text) log.__statuses.push(text)
      }
    }
    new MutationObserver(seen).observe(document, { childList: true, subtree: true, characterData: true })
  })
  await page.goto(e2e.sandbox.demo!.url)
  client = createPublicClient({ transport: http(e2e.sandbox.chain.rpcUrl) })
  me = e2e.sandbox.wallets.injectedAddress
})
afterAll(async () => {
  await e2e?.close()
})
afterEach(async () => {
  await fault({ mode: 'off' })
})

const usdc = () => e2e.sandbox.chain.tokens.find((t) => t.symbol === 'USDC')!
const usdcOf = (holder: Address) =>
  client.readContract({ address: usdc().address, abi: erc20Abi, functionName: 'balanceOf', args: [holder] })
const buy = () => view(page, 'OnRampProviders')
const purchase = () => view(page, 'OnRampPurchase')
const fault = (body: unknown) =>
  fetch(`${e2e.sandbox.api.origin}/__fault`, { method: 'POST', body: JSON.stringify(body) })

/** Account → Buy, the amount typed, and the provider's button enabled once quoted. */
async function fillBuy(amount: string, provider: string) {
  if ((await buy().count()) === 0) {
    await view(page, 'Account').getByRole('button', { name: 'Buy', exact: true }).click()
  }
  await buy().getByRole('textbox', { name: 'Amount' }).fill(amount)
  const button = buy().getByRole('button', { name: provider, exact: true })
  await expect.poll(() => button.isEnabled(), { timeout: 20_000 }).toBe(true)
  return button
}

const opened = () =>
  page.evaluate(
    () =>
      (
        window as unknown as {
          __opened: Array<{ url: string; during: string | null; active: boolean | null }>
        }
      ).__opened,
  )
const statuses = () => page.evaluate(() => (window as unknown as { __statuses: string[] }).__statuses)

/**
 * The provider chosen: the partner page opens in its own window, on the partner's origin. Issue 33: the window is
 * opened while the click is dispatched (a pop-up blocker allows no other), blank, and sent to the partner page
 * once its URL is known; the old code called `window.open` after two API calls, when `window.event` is gone.
 */
async function choose(button: ReturnType<Page['getByRole']>): Promise<Page> {
  const before = (await opened()).length
  const popup = page.context().waitForEvent('page', { timeout: 20_000 })
  await button.click()
  const partner = await popup
  await partner.waitForURL((url) => url.origin === e2e.sandbox.onrampPartner.origin, { timeout: 20_000 })
  await purchase().waitFor()
  expect((await opened()).slice(before)).toEqual([{ url: 'about:blank', during: 'click', active: true }])
  return partner
}

/** The purchase delivered on the chain, and the kit showing it: its toast, Tokens and Activity. */
async function completesPurchase(partner: Page, expected: string, action = 'Complete purchase') {
  const before = await usdcOf(me)
  await partner.getByRole('button', { name: action }).click()
  const status = page.getByRole('status').filter({ hasText: 'Purchase' })
  await expect
    .poll(() => status.first().textContent(), { timeout: 30_000 })
    .toContain(`Purchase complete: received ${expected} USDC`)
  const after = await usdcOf(me)
  expect(after - before).toBe(parseUnits(expected, 6))
  // Back to Account: the Tokens tab shows what the chain holds now, Activity lists the buy first.
  await purchase().getByRole('button', { name: 'Back to account' }).click()
  const account = view(page, 'Account')
  await account.getByRole('tab', { name: 'Tokens' }).click()
  const row = account.locator('[data-testid="token-balance"][data-symbol="USDC"]')
  const [whole, fraction = ''] = formatUnits(after, 6).split('.')
  const cut = fraction.slice(0, 4).replace(/0+$/, '')
  await expect
    .poll(async () => ((await row.getByTestId('token-quantity').textContent()) ?? '').split(' ')[0], {
      timeout: 20_000,
    })
    .toBe(cut ? `${whole}.${cut}` : whole)
  await account.getByRole('tab', { name: 'Activity' }).click()
  await expect
    .poll(() => account.getByTestId('activity-item').first().getAttribute('data-operation'), {
      timeout: 20_000,
    })
    .toBe('buy')
}

describe('Buy with the injected dev wallet, in Chromium against the sandbox', () => {
  it('connects; Account’s Buy opens OnRampProviders, its code fetched only then', async () => {
    await connectInjected(page, me)
    await hostButton(page).click()
    await view(page, 'Account').waitFor()
    expect(requested.filter((path) => ONRAMP_CODE.test(path))).toEqual([])
    await view(page, 'Account').getByRole('button', { name: 'Buy', exact: true }).click()
    await buy().getByRole('textbox', { name: 'Amount' }).waitFor()
    expect(requested.filter((path) => ONRAMP_CODE.test(path)).length).toBeGreaterThan(0)
  })

  it('an amount outside the limits is refused before any partner page opens, the limits shown', async () => {
    const pages = page.context().pages().length
    const amount = buy().getByRole('textbox', { name: 'Amount' })
    await amount.fill('5')
    await expect
      .poll(() => buy().getByRole('alert').textContent())
      .toBe('Enter an amount between $10.00 and $7,500.00')
    expect(await amount.getAttribute('aria-invalid')).toBe('true')
    for (const name of ['Coinbase', 'Meld'])
      expect(await buy().getByRole('button', { name, exact: true }).isDisabled()).toBe(true)
    // 8,000 is over a card's limit, within a bank account's.
    await amount.fill('8000')
    await expect
      .poll(() => buy().getByRole('alert').textContent())
      .toBe('Enter an amount between $10.00 and $7,500.00')
    await buy().getByRole('radio', { name: 'Bank account' }).check()
    await expect.poll(() => buy().getByRole('alert').count()).toBe(0)
    await expect
      .poll(() => buy().getByRole('button', { name: 'Coinbase', exact: true }).isEnabled(), {
        timeout: 20_000,
      })
      .toBe(true)
    await buy().getByRole('radio', { name: 'Card' }).check()
    await expect.poll(() => buy().getByRole('alert').count()).toBe(1)
    await buy().getByRole('button', { name: 'Coinbase', exact: true }).click({ force: true })
    expect(page.context().pages().length).toBe(pages)
    expect(await purchase().count()).toBe(0)
  })

  it('buys 50 USD of USDC with a card through Coinbase: delivered, the kit sees it, Tokens and Activity show it', async () => {
    const button = await fillBuy('50', 'Coinbase')
    // Coinbase's fee is 1 %: 0.50 USD, 49.50 USDC.
    await expect.poll(() => buy().getByText('You get 49.5 USDC').count()).toBe(1)
    const partner = await choose(button)
    await partner.getByText('Buy with Coinbase').waitFor()
    await completesPurchase(partner, '49.5')
  })

  it('buys 50 USD of USDC with a card through Meld (1.9 %)', async () => {
    const button = await fillBuy('50', 'Meld')
    const partner = await choose(button)
    await partner.getByText('Buy with Meld').waitFor()
    // 50 − 0.95 = 49.05 USDC.
    await completesPurchase(partner, '49.05')
  })

  it('a partner page closed without paying leaves Try again, which buys', async () => {
    const button = await fillBuy('20', 'Coinbase')
    const partner = await choose(button)
    await partner.getByRole('button', { name: 'Cancel' }).click()
    await expect
      .poll(() => purchase().getByRole('alert').textContent(), { timeout: 20_000 })
      .toBe('The purchase was not completed')
    await purchase().getByRole('button', { name: 'Try again' }).click()
    // Back on the form, the amount kept.
    expect(await buy().getByRole('textbox', { name: 'Amount' }).inputValue()).toBe('20')
    const again = buy().getByRole('button', { name: 'Coinbase', exact: true })
    await expect.poll(() => again.isEnabled(), { timeout: 20_000 }).toBe(true)
    await completesPurchase(await choose(again), '19.8')
  })

  // Issue 33: the old code read the order once after the window closed, found it pending, ended the flow as
  // "The purchase was not completed" and stopped reading, so the purchase that landed seconds later never showed.
  it('a purchase still pending when the partner window closes ends as purchased once the partner confirms it', async () => {
    const button = await fillBuy('25', 'Coinbase')
    const partner = await choose(button)
    const closed = partner.waitForEvent('close', { timeout: 20_000 })
    const shown = (await statuses()).length
    // "Complete later": paid now, the window closes itself, the partner delivers a few seconds later.
    // 25 − 0.25 = 24.75 USDC.
    await completesPurchase(partner, '24.75', 'Complete later')
    await closed
    const seen = (await statuses()).slice(shown)
    // While the order was pending with the window closed, the purchase view said it was being processed, and it
    // never said the purchase was not completed.
    expect(seen).toContain('Your payment is being processed by Coinbase. Waiting for the tokens to arrive…')
    expect(
      seen.indexOf('Your payment is being processed by Coinbase. Waiting for the tokens to arrive…'),
    ).toBeLessThan(seen.findIndex((text) => text.includes('Purchase complete: received 24.75 USDC')))
    expect(seen).not.toContain('The purchase was not completed')
  })

  it('a purchase the partner fails says so, nothing arrives, and Try again is offered', async () => {
    const before = await usdcOf(me)
    const button = await fillBuy('30', 'Meld')
    const partner = await choose(button)
    await partner.getByRole('button', { name: 'Fail purchase' }).click()
    await expect
      .poll(() => purchase().getByRole('alert').textContent(), { timeout: 20_000 })
      .toBe('The purchase failed')
    expect(await usdcOf(me)).toBe(before)
    await purchase().getByRole('button', { name: 'Try again' }).click()
    expect(await buy().getByRole('textbox', { name: 'Amount' }).inputValue()).toBe('30')
    if (!partner.isClosed()) await partner.close()
  })

  it('with the options and quote calls failing, the samples and estimates show as estimates and the purchase completes', async () => {
    // A fresh Buy flow: reload (the connection comes back), then the options and quotes fail.
    expect((await fault({ mode: 'fail', path: '/v1/onramp/' })).status).toBe(200)
    await page.reload()
    await expect.poll(() => hostButton(page).textContent(), { timeout: 20_000 }).toBe(truncated(me))
    await hostButton(page).click()
    await view(page, 'Account').getByRole('button', { name: 'Buy', exact: true }).click()
    await buy().getByRole('note').waitFor()
    expect(await buy().getByRole('note').textContent()).toContain('estimates')
    const button = await fillBuy('50', 'Coinbase')
    await expect
      .poll(() =>
        buy()
          .getByText(/^Estimate: you get about 49.5 USDC/)
          .count(),
      )
      .toBe(1)
    await completesPurchase(await choose(button), '49.5')
    expect(e2e.pageErrors).toEqual([])
  })
})
