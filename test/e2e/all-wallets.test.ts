import type { Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEV_WALLET_IDS, HOSTILE_WALLET_IDS, HTML_NAME } from '../../sandbox/api/listing.ts'
import { SANDBOX_SOLANA_CHAIN_ID } from '../../sandbox/api/solana.ts'
import { SANDBOX_CHAIN_2_ID, SANDBOX_CHAIN_ID } from '../../sandbox/chain/chain.ts'
import { type E2eContext, startE2e } from './support.ts'

let e2e: E2eContext
/** The demo's networks in its order: the sandbox chain, "Solana Sandbox", "Second Sandbox", as the listing is asked for them. */
const CHAINS = `eip155:${SANDBOX_CHAIN_ID},${SANDBOX_SOLANA_CHAIN_ID},eip155:${SANDBOX_CHAIN_2_ID}`
/** How many wallets the listing has for the demo's networks. */
let expectedCount: number

beforeAll(async () => {
  e2e = await startE2e()
  const query = new URLSearchParams({
    projectId: e2e.sandbox.projectId,
    st: 'e2e',
    sv: '0',
    page: '1',
    entries: '1',
    chains: CHAINS,
  })
  const res = await fetch(`${e2e.sandbox.walletsApi.origin}/getWallets?${query}`)
  expectedCount = ((await res.json()) as { count: number }).count
})
afterAll(async () => {
  await e2e?.close()
})

/** A page that records any script the listing could smuggle in: alerts and writes to `window.__xss`. */
async function openPage(): Promise<{ page: Page; dialogs: string[] }> {
  const page = await e2e.newPage()
  const dialogs: string[] = []
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message())
    void dialog.dismiss()
  })
  // The first visit of a fresh demo server may wait for Vite to optimise dependencies (and reload once).
  await page.getByRole('button', { name: 'Connect Wallet' }).waitFor({ timeout: 90_000 })
  await page.evaluate(() => {
    const w = window as unknown as { __xss?: unknown; alert: (message?: unknown) => void }
    w.alert = (message) => {
      w.__xss = message ?? true
    }
  })
  return { page, dialogs }
}

/** Connect Wallet, then the Connect view's "All Wallets" button. */
async function openAllWallets(page: Page): Promise<Locator> {
  await page.getByRole('button', { name: 'Connect Wallet' }).click()
  const dialog = page.getByRole('dialog')
  await page.locator('[data-view="Connect"]').waitFor()
  await dialog.getByRole('button', { name: 'All Wallets' }).click()
  const view = page.locator('[data-view="AllWallets"]')
  await view.waitFor()
  await page.getByRole('dialog', { name: 'All Wallets' }).waitFor()
  return view
}

const walletButtons = (view: Locator) => view.getByRole('list').getByRole('button')

describe('All Wallets, in Chromium against the sandbox listing', () => {
  it('pages, searches and renders hostile entries safely', async () => {
    const { page, dialogs } = await openPage()
    const requests: string[] = []
    page.on('request', (request) => {
      if (request.url().includes('/getWallets?')) requests.push(request.url())
    })
    const view = await openAllWallets(page)

    // The first page: 40 wallets, asked with the SDK parameters and the demo's chains.
    const search = view.getByRole('textbox', { name: 'Search wallets' })
    await expect.poll(() => walletButtons(view).count()).toBe(40)
    expect(expectedCount).toBeGreaterThan(40)
    const first = new URL(requests[0]!)
    expect(Object.fromEntries(first.searchParams)).toMatchObject({
      projectId: e2e.sandbox.projectId,
      page: '1',
      entries: '40',
      chains: CHAINS,
    })
    expect(first.searchParams.get('st')).toBeTruthy()
    expect(first.searchParams.get('sv')).toBeTruthy()
    expect(await view.getByRole('button', { name: 'Walletstate Dev Wallet' }).count()).toBe(1)
    // Images load lazily through /getWalletImage with the SDK parameters, with no text alternative.
    const img = view.locator(`[data-wallet-id="${DEV_WALLET_IDS.injected}"] img`)
    expect(await img.getAttribute('alt')).toBe('')
    expect(await img.getAttribute('loading')).toBe('lazy')
    expect(await img.getAttribute('src')).toMatch(/\/getWalletImage\/[0-9a-f-]+\?projectId=.+&st=.+&sv=.+$/)

    // Scrolling to the end of the list loads the rest, page by page, until the count.
    const scroller = view.locator('.ws-wallet-scroll')
    await expect
      .poll(
        async () => {
          await scroller.evaluate((el) => el.scrollTo({ top: el.scrollHeight }))
          return walletButtons(view).count()
        },
        { timeout: 15_000 },
      )
      .toBe(expectedCount)
    await expect.poll(() => view.getByRole('button', { name: 'Load more' }).count()).toBe(0)
    const pagesAsked = requests.length

    // The hostile entry with an HTML name is a button whose name is that literal text; nothing was injected.
    const evil = view.getByRole('button', { name: HTML_NAME, exact: true })
    await evil.scrollIntoViewIfNeeded()
    expect(await evil.count()).toBe(1)
    expect(await evil.locator('.ws-wallet-name').textContent()).toBe(HTML_NAME)
    const injected = await page.evaluate(
      () => document.querySelectorAll('img[src="x"], img:not([src])').length,
    )
    expect(injected).toBe(0)

    // The wallet whose image is missing shows its initial instead.
    const missing = view.locator(`[data-wallet-id="${HOSTILE_WALLET_IDS.missingImage}"]`)
    await missing.scrollIntoViewIfNeeded()
    await missing.locator('[data-fallback]').waitFor()
    expect(await missing.locator('[data-fallback]').textContent()).toBe('M')
    expect(await missing.locator('img').count()).toBe(0)
    expect(await missing.getAttribute('aria-label')).toBeNull()
    await expect
      .poll(() => missing.evaluate((el) => el.textContent?.trim()))
      .toContain('Missing Image Wallet')

    // The long name is cut to fit, with an ellipsis.
    const long = view.locator(`[data-wallet-id="${HOSTILE_WALLET_IDS.longName}"] .ws-wallet-name`)
    expect((await long.textContent())?.endsWith('…')).toBe(true)

    // Search: typing waits for a pause, then asks once; "walletstate" finds the two dev wallets.
    await search.fill('walletstate')
    await expect
      .poll(async () => (await walletButtons(view).allTextContents()).map((t) => t.trim()))
      .toEqual(['Walletstate Dev Wallet', 'Walletstate WC Wallet'])
    const searches = requests.slice(pagesAsked)
    expect(searches).toHaveLength(1)
    expect(new URL(searches[0]!).searchParams.get('search')).toBe('walletstate')
    expect(new URL(searches[0]!).searchParams.get('entries')).toBe('100')

    await search.fill('zzz-no-such-wallet')
    await view.getByText('No wallets found').waitFor()
    expect(await walletButtons(view).count()).toBe(0)

    // Clearing the search shows the whole list again, without asking the API.
    const before = requests.length
    await search.fill('')
    await expect.poll(() => walletButtons(view).count()).toBe(expectedCount)
    await page.waitForTimeout(500)
    expect(requests.length).toBe(before)

    // No link anywhere in the page runs script or carries a document.
    const badLinks = await page.evaluate(() =>
      [...document.querySelectorAll('[href], [src], [action], [formaction], [xlink\\:href]')]
        .flatMap((el) => ['href', 'src', 'action', 'formaction', 'xlink:href'].map((a) => el.getAttribute(a)))
        .filter((value): value is string => value !== null)
        // biome-ignore lint/suspicious/noControlCharactersInRegex: as a browser does, controls are dropped
        .map((value) => value.replace(/[\u0000-\u0020]/g, '').toLowerCase())
        .filter((value) => /^(javascript|vbscript|data):/.test(value)),
    )
    expect(badLinks).toEqual([])
    expect(await page.locator('[data-view="AllWallets"] a').count()).toBe(0)

    expect(await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss)).toBeUndefined()
    expect(dialogs).toEqual([])
    expect(e2e.pageErrors).toEqual([])
    await page.close()
  })

  it('shows the error when the listing fails and recovers with "Try again"; "Load more" works without scrolling', async () => {
    const { page } = await openPage()
    // The listing fails until switched back: the Connect view leaves its recommended wallets out quietly,
    // All Wallets shows the error.
    const setFault = (body: object) =>
      fetch(`${e2e.sandbox.walletsApi.origin}/__fault`, { method: 'POST', body: JSON.stringify(body) })
    expect((await setFault({ mode: 'fail', path: '/getWallets' })).status).toBe(200)
    const view = await openAllWallets(page)

    const alert = view.getByRole('alert')
    await alert.waitFor()
    expect(await alert.textContent()).toContain('Could not load wallets')
    expect(await walletButtons(view).count()).toBe(0)

    expect((await setFault({ mode: 'off' })).status).toBe(200)
    await view.getByRole('button', { name: 'Try again' }).click()
    await expect.poll(() => walletButtons(view).count()).toBe(40)
    expect(await view.getByRole('alert').count()).toBe(0)

    // The visible fallback for infinite scroll.
    // Clicked where it is, not scrolled to: scrolling would let the infinite scroll load the pages first.
    await view.getByRole('button', { name: 'Load more' }).dispatchEvent('click')
    await expect.poll(() => walletButtons(view).count()).toBeGreaterThan(40)

    // Choosing a wallet hands it to the kit and the modal stays usable.
    await view.getByRole('button', { name: 'Walletstate WC Wallet' }).click()
    await page.getByRole('dialog').waitFor()
    expect(e2e.pageErrors).toEqual([])
    await page.close()
  })
})
