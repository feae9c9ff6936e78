import type { BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type E2eContext, hostButton, startE2e, truncated } from './support.ts'

/**
 * Issue 18 item 5 in a phone's shape: Chromium at 375 px with a phone's user agent and touch. Choosing a wallet
 * with a mobile link opens it by that link with the pairing URI; the sandbox's WalletConnect wallet page is that
 * wallet (its listing entry's `mobile_link` is the page, a universal link), so the page itself navigates there,
 * the wallet pairs and approves over the sandbox relay, and going back to the host page resumes the pairing.
 */
const ANDROID_CHROME =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36'
const WIDTH = 375

let e2e: E2eContext
let context: BrowserContext
let page: Page
const pageErrors: string[] = []

/**
 * Makes the demo page's IndexedDB reads answer `delayMs` late, as a slow phone's storage does: started again on the
 * page's return, WalletConnect's sign client then reads its stores after the relay has handed over the wallet's
 * answer (`resumePairing.ts`, `replayMissedAnswers`). The wallet's page reads at its usual speed.
 */
function slowStorageReads({ origin, delayMs }: { origin: string; delayMs: number }): void {
  if (location.origin !== origin) return
  const onsuccess = Object.getOwnPropertyDescriptor(IDBRequest.prototype, 'onsuccess')!
  const get = IDBObjectStore.prototype.get
  IDBObjectStore.prototype.get = function (this: IDBObjectStore, ...args: Parameters<IDBObjectStore['get']>) {
    const request = get.apply(this, args)
    Object.defineProperty(request, 'onsuccess', {
      configurable: true,
      set(handler: ((event: Event) => void) | null) {
        onsuccess.set!.call(
          request,
          handler && ((event: Event) => setTimeout(() => handler.call(request, event), delayMs)),
        )
      },
      get: () => onsuccess.get!.call(request),
    })
    return request
  }
}

/** A fresh phone: its own browser context (storage included) and page, on the demo. */
async function openPhone({ slowStorage = false } = {}): Promise<void> {
  await context?.close()
  context = await e2e.browser.newContext({
    viewport: { width: WIDTH, height: 740 },
    userAgent: ANDROID_CHROME,
    isMobile: true,
    hasTouch: true,
  })
  if (slowStorage) {
    await context.addInitScript(slowStorageReads, {
      origin: new URL(e2e.sandbox.demo!.url).origin,
      delayMs: 150,
    })
  }
  page = await context.newPage()
  page.on('pageerror', (error) => pageErrors.push(error.message))
  await page.goto(e2e.sandbox.demo!.url)
}

beforeAll(async () => {
  e2e = await startE2e()
  await openPhone()
})
afterAll(async () => {
  await context?.close()
  await e2e?.close()
})

const dialog = (p: Page) => p.getByRole('dialog')

/** What sticks out of the viewport sideways: the page's own scroll width, and any element of the modal. */
async function horizontalOverflow(p: Page): Promise<string[]> {
  return p.evaluate((width) => {
    const out: string[] = []
    const root = document.documentElement
    if (root.scrollWidth > width) out.push(`page scrolls to ${root.scrollWidth}px`)
    for (const element of document.querySelectorAll('[role="dialog"], [role="dialog"] *')) {
      const box = element.getBoundingClientRect()
      if (box.width === 0 && box.height === 0) continue
      // Content wider than its box spills over its neighbours (a label longer than its button).
      const spills =
        element.scrollWidth > element.clientWidth + 1 && getComputedStyle(element).overflowX === 'visible'
      if (box.left < -0.5 || box.right > width + 0.5 || spills) {
        const name = `${element.tagName.toLowerCase()}${element.className ? `.${String(element.className).split(' ').join('.')}` : ''}`
        out.push(`${name} spans ${Math.round(box.left)}..${Math.round(box.right)}px`)
      }
    }
    return out
  }, WIDTH)
}

/** Buttons and links of the modal smaller than a finger (44 px), by their accessible text. */
/**
 * Waits until the dialog's animations (its opening slide and scale, a view's transition) have finished: sizes are
 * measured on the settled layout, not on a frame of an animation (a dialog scaling in measures 43 px for 44).
 */
async function settled(p: Page): Promise<void> {
  await p.waitForFunction(() =>
    (document.querySelector('[role="dialog"]')?.getAnimations({ subtree: true }) ?? []).every(
      (animation) => animation.playState === 'finished' || animation.playState === 'idle',
    ),
  )
}

async function smallTargets(p: Page): Promise<string[]> {
  await settled(p)
  return p.evaluate(() => {
    // What a finger can tap: the element, and for a checkbox its labels too (a tap on a label ticks it).
    const target = (element: Element) => {
      const boxes = [element, ...((element as HTMLInputElement).labels ?? [])].map((e) =>
        e.getBoundingClientRect(),
      )
      const left = Math.min(...boxes.map((b) => b.left))
      const right = Math.max(...boxes.map((b) => b.right))
      const top = Math.min(...boxes.map((b) => b.top))
      const bottom = Math.max(...boxes.map((b) => b.bottom))
      return { width: right - left, height: bottom - top }
    }
    return [
      ...document.querySelectorAll('[role="dialog"] button, [role="dialog"] a[href], [role="dialog"] input'),
    ]
      .filter((element) => {
        const box = target(element)
        if (box.width === 0 && box.height === 0) return false
        return box.height < 43.5 || box.width < 43.5
      })
      .map((element) => {
        const box = target(element)
        const label = element.getAttribute('aria-label') ?? element.textContent?.trim() ?? element.tagName
        return `${label.slice(0, 30)} (${Math.round(box.width)}x${Math.round(box.height)})`
      })
  })
}

/** How each connection of the sandbox's project was made, from its CONNECT_SUCCESS events, in order. */
async function connectMethods(): Promise<Array<string | undefined>> {
  return (await e2e.sandbox.api.telemetry(e2e.sandbox.projectId))
    .filter((event) => event.props.event === 'CONNECT_SUCCESS')
    .map((event) => (event.props as { properties?: { method?: string } }).properties?.method)
}

async function storedLinking(): Promise<{ href: string; name: string } | undefined> {
  const origin = new URL(e2e.sandbox.demo!.url).origin
  const state = await context.storageState()
  const raw = state.origins
    .find((o) => o.origin === origin)
    ?.localStorage.find((item) => item.name === 'walletstate.wcLinking')?.value
  return raw ? JSON.parse(raw) : undefined
}

describe('a phone at 375 px', () => {
  it('the modal fits: no horizontal overflow on Connect, All Wallets and the WalletConnect view; touch targets of 44 px', async () => {
    await hostButton(page).tap()
    await page.locator('[data-view="Connect"]').waitFor()
    expect(await horizontalOverflow(page)).toEqual([])
    expect(await smallTargets(page)).toEqual([])
    await page.screenshot({ path: '.tmp/test-results/mobile-connect.png' })

    await dialog(page).getByRole('button', { name: 'All Wallets' }).tap()
    await page.locator('[data-view="AllWallets"]').waitFor()
    await dialog(page)
      .getByRole('button', { name: /Walletstate WC Wallet/ })
      .first()
      .waitFor()
    expect(await horizontalOverflow(page)).toEqual([])
    expect(await smallTargets(page)).toEqual([])
    await page.screenshot({ path: '.tmp/test-results/mobile-all-wallets.png' })

    // WalletConnect itself has no mobile link: its QR view shows, nothing is opened.
    await dialog(page).getByRole('button', { name: 'Back' }).tap()
    await dialog(page)
      .getByRole('button', { name: /WalletConnect/ })
      .tap()
    await page.getByRole('img', { name: 'WalletConnect QR code' }).waitFor({ timeout: 60_000 })
    expect(await horizontalOverflow(page)).toEqual([])
    expect(await smallTargets(page)).toEqual([])
    await page.screenshot({ path: '.tmp/test-results/mobile-walletconnect.png' })
    expect(page.url()).toBe(e2e.sandbox.demo!.url)
    await page.keyboard.press('Escape')
    await dialog(page).waitFor({ state: 'detached' })
  })

  it('choosing a wallet with a mobile link opens it with the pairing URI; back on the page, the pairing completes', async () => {
    await mobileLinkFlow()
  })

  it('on a phone slow to read its storage, the wallet’s answer handed over before WalletConnect listens still completes the pairing', async () => {
    await mobileLinkFlow({ slowStorage: true })
  })
})

/**
 * The visitor chooses a wallet with a mobile link, approves in the wallet, and comes back: the
 * kit resumes the pairing and shows the account; a disconnect forgets the stored deep link.
 */
async function mobileLinkFlow({ slowStorage = false } = {}): Promise<void> {
  // The normal phone goes on from the page that showed WalletConnect's QR view (its pairing left behind); the slow
  // one starts fresh.
  if (slowStorage) await openPhone({ slowStorage })
  const connectsBefore = (await connectMethods()).length
  const walletPage = e2e.sandbox.wallets.wcWalletUrl
  await hostButton(page).tap()
  await dialog(page).getByRole('button', { name: 'All Wallets' }).tap()
  await page.getByRole('textbox', { name: 'Search wallets' }).fill('Walletstate WC')
  // The universal link, WalletConnect's format: the wallet's link, `wc`, and the URI encoded.
  await page.evaluate(() => Object.assign(window, { beforeTheWallet: true }))
  const opened = page.waitForRequest((request) => request.url().startsWith(`${walletPage}wc?uri=`), {
    timeout: 60_000,
  })
  await dialog(page)
    .getByRole('button', { name: /Walletstate WC Wallet/ })
    .tap()
  const href = (await opened).url()
  const uri = new URL(href).searchParams.get('uri') ?? ''
  expect(uri).toMatch(/^wc:[0-9a-f]{64}@2\?/)
  expect(href).toBe(`${walletPage}wc?uri=${encodeURIComponent(uri)}`)
  // SPEC §3's stored deep link: the link opened, kept for the page's return.
  expect(await storedLinking()).toMatchObject({ name: 'Walletstate WC Wallet', href })

  // The wallet (this tab now) pairs by the URI and the visitor approves.
  const proposal = page.getByRole('region', { name: 'Session proposal' })
  await proposal.getByText('Walletstate demo').first().waitFor({ timeout: 30_000 })
  await proposal.getByRole('button', { name: 'Approve' }).tap()
  await expect.poll(() => page.locator('#sessions li').count(), { timeout: 20_000 }).toBe(1)

  // Back to the host page: the app's own way back (its metadata.redirect.universal, which the wallet shows once
  // approved: SPEC §3), or the browser's back; the kit resumes the pending pairing and shows the account.
  const back = page.getByRole('link', { name: 'Return to Walletstate demo' })
  expect(await back.getAttribute('href')).toBe(e2e.sandbox.demo!.url)
  if (slowStorage) await page.goBack()
  else await back.tap()
  await page.waitForURL(e2e.sandbox.demo!.url)
  expect(page.url()).toBe(e2e.sandbox.demo!.url)
  // A new document (not one kept in the back-forward cache): only the stored deep link tells the kit.
  expect(await page.evaluate(() => 'beforeTheWallet' in window)).toBe(false)
  await expect
    .poll(() => hostButton(page).textContent(), { timeout: 30_000 })
    .toBe(truncated(e2e.sandbox.wallets.wcAddress))
  expect(await storedLinking()).toMatchObject({ href })

  // The success event says how: `mobile`.
  await expect
    .poll(async () => (await connectMethods()).slice(connectsBefore), { timeout: 20_000 })
    .toEqual(['mobile'])

  // A disconnect resets: the stored deep link goes (SPEC §3).
  await hostButton(page).tap()
  await dialog(page).getByRole('button', { name: 'Disconnect' }).tap()
  await expect.poll(() => hostButton(page).textContent()).toBe('Connect Wallet')
  expect(await storedLinking()).toBeUndefined()
  expect(pageErrors).toEqual([])
}
