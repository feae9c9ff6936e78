import { existsSync } from 'node:fs'
import { type Connection, PublicKey } from '@solana/web3.js'
import { type Browser, chromium, type Page } from 'playwright-core'
import { expect } from 'vitest'
import { type Sandbox, type SandboxOptions, startSandbox } from '../../sandbox/index.ts'
import { Stops } from '../../sandbox/shared/stops.ts'
import { CHROMIUM, CHROMIUM_ARGS } from '../../scripts/chromium.mjs'

export { CHROMIUM, CHROMIUM_ARGS }

function checkChromium(): void {
  if (!existsSync(CHROMIUM))
    throw new Error(
      `Chromium not found at ${CHROMIUM}: run node scripts/ensure-chromium.mjs (npm run test:e2e does it first)`,
    )
}

/** Chromium at CHROMIUM_PATH (or /usr/bin/chromium), the path `npm test` / `npm run test:e2e` settled on. */
export async function launchBrowser(): Promise<Browser> {
  checkChromium()
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS })
}

export interface E2eContext {
  sandbox: Sandbox
  browser: Browser
  /** Page errors and console errors, so a test can assert the page ran clean. */
  pageErrors: string[]
  /**
   * A page of its own (its own browser context) at the demo's `path`. `clock: true` installs Playwright's clock
   * in it before the page loads: time flows as usual, and a test jumps over one of the SPEC's long limits with
   * `page.clock.fastForward` (or `fastForwardUntil`) instead of waiting it out.
   */
  newPage(path?: string, options?: { clock?: boolean }): Promise<Page>
  close(): Promise<void>
}

/**
 * A sandbox on free ports and a browser, for one test file. Without Chromium it fails before starting
 * anything; when either start fails, whatever did start is stopped before the error is thrown.
 */
export async function startE2e(options: SandboxOptions = {}): Promise<E2eContext> {
  checkChromium()
  const stops = new Stops()
  let sandbox: Sandbox
  let browser: Browser
  try {
    ;[sandbox, browser] = await Promise.all([
      stops.track(startSandbox(options)),
      stops.track(launchBrowser()),
    ])
  } catch (error) {
    await stops.close()
    throw error
  }
  const pageErrors: string[] = []
  live.set(browser, pageErrors)
  stops.track(Promise.resolve({ close: async () => void live.delete(browser) }))
  return {
    sandbox,
    browser,
    pageErrors,
    async newPage(path = '', options = {}) {
      const page = await browser.newPage()
      page.on('pageerror', (error) => pageErrors.push(error.message))
      if (options.clock) await page.clock.install()
      const demo = sandbox.demo
      if (!demo) throw new Error('the sandbox was started without the demo')
      await page.goto(new URL(path, demo.url).toString())
      return page
    },
    close: () => stops.close(),
  }
}

/** The browsers of this file's running e2e contexts, for what a failed test leaves on screen. */
const live = new Map<Browser, string[]>()

/**
 * What every open page shows when a test fails (printed beside the failure): its URL, the kit's view, the page errors
 * (`data-view`), the dialogs' text, and a screenshot in .tmp/test-results/failures/. Registered by
 * test/e2e/setup.ts for each test, so a failure seen once in CI can be read rather than guessed.
 */
export async function describeOpenPages(testName: string): Promise<string> {
  const lines: string[] = []
  const slug = testName.replace(/[^A-Za-z0-9]+/g, '-').slice(0, 80)
  let index = 0
  for (const [browser, errors] of live) {
    if (errors.length > 0) lines.push(`page errors: ${errors.slice(-5).join(' | ')}`)
    for (const context of browser.contexts()) {
      for (const page of context.pages()) {
        index += 1
        try {
          const views = await page
            .locator('[data-view]')
            .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-view')))
          const dialogs = await page
            .getByRole('dialog')
            .evaluateAll((nodes) =>
              nodes.map((node) => (node.textContent ?? '').replace(/\s+/g, ' ').slice(0, 400)),
            )
          const shot = `.tmp/test-results/failures/${slug}-${index}.png`
          await page.screenshot({ path: shot, timeout: 5_000 }).catch(() => undefined)
          lines.push(`page ${index} ${page.url()}`, `  views: ${views.join(', ') || '(none)'}`)
          for (const text of dialogs) lines.push(`  dialog: ${text}`)
          lines.push(`  screenshot: ${shot}`)
        } catch (error) {
          lines.push(`page ${index} ${page.url()}: unreadable (${(error as Error).message.split('\n')[0]})`)
        }
      }
    }
  }
  return lines.join('\n')
}

/** The host page's kit button (its name changes from "Connect Wallet" to the address). */
export const hostButton = (page: Page) => page.locator('button[aria-haspopup="dialog"]')

/** The injected dev wallet's approve/reject prompt. */
export const walletPrompt = (page: Page) => page.getByRole('dialog', { name: 'Walletstate Dev Wallet' })

/** The visitor switches network inside their wallet (asked through the wallet's own provider). */
export async function switchInWallet(page: Page, chainIdHex: string) {
  const pending = page.evaluate(async (chainId) => {
    const provider = await new Promise<{ request: (a: unknown) => Promise<unknown> }>((resolve) => {
      window.addEventListener(
        'eip6963:announceProvider',
        (event) => resolve((event as CustomEvent).detail.provider),
        { once: true },
      )
      window.dispatchEvent(new Event('eip6963:requestProvider'))
    })
    return provider.request({ method: 'wallet_switchEthereumChain', params: [{ chainId }] })
  }, chainIdHex)
  await walletPrompt(page).getByRole('button', { name: 'Approve' }).click()
  await pending
}

/** The kit's WalletConnect QR code (its `data-uri` is the pairing URI). */
export const wcQrCode = (page: Page) => page.getByRole('img', { name: 'WalletConnect QR code' })

/**
 * Opens Connect from the host's button and picks WalletConnect: answers the pairing URI its QR code carries.
 * `view`: the kit's view the QR must show in (e.g. `ConnectingWalletConnectBasic`), waited for first.
 */
export async function openWalletConnectQr(page: Page, view?: string): Promise<string> {
  await hostButton(page).click()
  await page
    .getByRole('dialog')
    .getByRole('button', { name: /WalletConnect/ })
    .click()
  if (view) await page.locator(`[data-view="${view}"]`).waitFor()
  await wcQrCode(page).waitFor({ timeout: 60_000 })
  const uri = await wcQrCode(page).getAttribute('data-uri')
  if (!uri?.startsWith('wc:')) throw new Error(`no pairing URI: ${uri}`)
  return uri
}

/** The sandbox WalletConnect wallet page opens `uri` and approves the app's proposal; `query` adds its options. */
export async function approveInWcWallet(e2e: E2eContext, uri: string, query = ''): Promise<Page> {
  const wallet = await e2e.browser.newPage()
  await wallet.goto(`${e2e.sandbox.wallets.wcWalletUrl}?uri=${encodeURIComponent(uri)}${query}`)
  await wallet
    .getByRole('region', { name: 'Session proposal' })
    .getByRole('button', { name: 'Approve' })
    .click()
  return wallet
}

/**
 * From Account: Send, the token by its symbol, the amount and the receiver typed, then "Preview send" (the preview's
 * own checks are the caller's).
 */
export async function fillSendForm(page: Page, send: { symbol: string; amount: string; receiver: string }) {
  await view(page, 'Account').getByRole('button', { name: 'Send', exact: true }).click()
  await view(page, 'WalletSend')
    .getByRole('button', { name: /^(Select token|Token: )/ })
    .click()
  await view(page, 'WalletSendSelectToken').locator(`button[data-symbol="${send.symbol}"]`).click()
  const form = view(page, 'WalletSend')
  await form.getByRole('button', { name: `Token: ${send.symbol}` }).waitFor()
  await form.getByRole('textbox', { name: 'Amount' }).fill(send.amount)
  await form.getByRole('textbox', { name: 'Receiver' }).fill(send.receiver)
  await form.getByRole('button', { name: 'Preview send' }).click()
}

/** An address as the kit shows it (SPEC §9: 4 + 6 characters), computed independently of the kit. */
export const truncated = (address: string) => `${address.slice(0, 4)}...${address.slice(-6)}`

/**
 * Connects the injected dev wallet from the host button (Connect → the wallet → its prompt approved): the button
 * then shows `address` truncated and the modal has closed.
 */
export async function connectInjected(page: Page, address: string) {
  await hostButton(page).getByText('Connect Wallet').click()
  const entry = page
    .getByRole('dialog', { name: 'Connect Wallet' })
    .getByRole('button', { name: /Walletstate Dev Wallet/ })
  await entry.click()
  // Connect's list grows as the listing's wallets join after the first paint, and the dialog moves up with it: a
  // press made just then can end on another row, and no click happens (seen once in a CI run). A click that took
  // starts the connect at once (the wallet's prompt, ConnectingExternal); with neither after 3 s and Connect still
  // shown, the press is made again.
  const started = () =>
    Promise.all([walletPrompt(page).count(), view(page, 'Connect').count()]).then(
      ([prompts, connect]) => prompts > 0 || connect === 0,
    )
  const took = await expect
    .poll(started, { timeout: 3_000 })
    .toBe(true)
    .then(
      () => true,
      () => false,
    )
  if (!took) await entry.click()
  await walletPrompt(page).getByRole('button', { name: 'Approve' }).click()
  await expect.poll(() => hostButton(page).textContent()).toBe(truncated(address))
  await expect.poll(() => page.getByRole('dialog').count()).toBe(0)
}

/** Embedded-wallet logins (the e-mail code from the sandbox mailbox), shared by the e2e files that log in. */
export const dialog = (page: Page) => page.getByRole('dialog')
export const view = (page: Page, name: string) => page.locator(`[data-view="${name}"]`)
export const frame = (page: Page) => page.frameLocator('iframe[data-walletstate-frame]')
export const SHORT_ADDRESS = /^0x[0-9a-fA-F]{2}\.\.\.[0-9a-fA-F]{6}$/
let mailboxSeq = 0
export function freshEmail(tag: string): string {
  mailboxSeq += 1
  return `${tag}-${Date.now()}-${mailboxSeq}@example.test`
}

/** The newest mail to `to` that carries what `pick` wants (a code or a link), once it has arrived. */
export async function mail(e2e: E2eContext, to: string, pick: 'code' | 'link', after = 0): Promise<string> {
  let found: string | undefined
  await expect
    .poll(
      async () => {
        const mails = await e2e.sandbox.secureSite.mailbox(to)
        found = mails.slice(0, Math.max(0, mails.length - after)).find((m) => m[pick])?.[pick]
        return found !== undefined
      },
      { timeout: 20_000 },
    )
    .toBe(true)
  return found!
}

export async function startEmailLogin(page: Page, email: string) {
  await hostButton(page).click()
  const textbox = dialog(page).getByRole('textbox', { name: 'Email' })
  await textbox.fill(email)
  const submit = dialog(page).getByRole('button', { name: 'Continue' })
  await expect.poll(() => submit.isEnabled(), { timeout: 30_000 }).toBe(true)
  await submit.click()
}

/** E-mail login to the end: a new device is approved by the e-mailed link first when the site asks. */
export async function logInByEmail(e2e: E2eContext, page: Page, email: string): Promise<`0x${string}`> {
  await startEmailLogin(page, email)
  const otp = view(page, 'EmailVerifyOtp')
  const device = view(page, 'EmailVerifyDevice')
  await expect
    .poll(async () => (await otp.count()) + (await device.count()), { timeout: 30_000 })
    .toBeGreaterThan(0)
  if ((await device.count()) > 0) {
    const link = await mail(e2e, email, 'link')
    const approve = await e2e.browser.newPage()
    await approve.goto(link)
    await approve.getByText('The new device is approved').waitFor()
    await approve.close()
    await otp.waitFor({ timeout: 30_000 })
  }
  const code = await mail(e2e, email, 'code')
  await otp.getByRole('textbox', { name: 'Code' }).fill(code)
  await otp.getByRole('button', { name: 'Continue' }).click()
  await expect.poll(() => hostButton(page).textContent(), { timeout: 30_000 }).toMatch(SHORT_ADDRESS)
  const address = (await page.getByTestId('demo-address').textContent()) ?? ''
  expect(address).toMatch(/^0x[0-9a-fA-F]{40}$/)
  return address as `0x${string}`
}

/**
 * Approves the request the frame shows, as a visitor does, and again if Chromium dropped the click because the
 * frame had just moved (as declineInFrame below). The click counts as taken once this request's screen is gone:
 * hidden, or showing the next request's details; only a screen still showing this request is clicked again.
 */
export async function approveInFrame(page: Page) {
  await view(page, 'ApproveTransaction').waitFor({ timeout: 30_000 })
  const approve = frame(page).getByRole('button', { name: 'Approve' })
  await approve.waitFor({ timeout: 30_000 })
  const approval = frame(page).locator('#approval')
  const details = frame(page).locator('#approval-details')
  const request = await details.textContent()
  const taken = async () => (await approval.isHidden()) || (await details.textContent()) !== request
  for (let attempt = 0; attempt < 5; attempt += 1) {
    if (attempt > 0 && (await taken())) return
    await approve.click()
    try {
      await expect.poll(taken, { timeout: 5_000 }).toBe(true)
      return
    } catch {
      // The click did not reach the frame: this request is still on screen, so the visitor clicks again.
    }
  }
  throw new Error('the frame never took the Approve click')
}

/**
 * Declines the approval the frame shows, as a visitor does: once it is usable (Approve enabled means the frame has
 * seen itself fully visible and in place), and again if Chromium dropped the click because the frame had just
 * moved (it drops input to a frame that tracks its visibility for a moment after each move; on a loaded machine
 * the frame's own report of a move can come after that moment).
 */
export async function declineInFrame(page: Page) {
  await view(page, 'ApproveTransaction').waitFor({ timeout: 30_000 })
  const approval = frame(page).locator('#approval')
  await expect
    .poll(() => frame(page).getByRole('button', { name: 'Approve' }).isEnabled(), { timeout: 10_000 })
    .toBe(true)
  for (let attempt = 0; attempt < 5; attempt += 1) {
    if (await approval.isHidden()) return
    await frame(page).getByRole('button', { name: 'Decline' }).click({ timeout: 5_000 })
    try {
      await approval.waitFor({ state: 'hidden', timeout: 2_000 })
      return
    } catch {
      // The click did not reach the frame: the approval is still open, so the visitor clicks again.
    }
  }
  throw new Error('the frame never took the Decline click')
}

/** The sandbox's Wallet Standard Solana wallet, and its approve/decline prompt. */
export const SOLANA_WALLET = 'Walletstate Solana Dev Wallet'
export const solanaPrompt = (page: Page) => page.getByRole('dialog', { name: SOLANA_WALLET })

/** Closes whatever dialogs are open (Escape until none is left). */
export async function closeModal(page: Page) {
  await expect
    .poll(async () => {
      if ((await page.getByRole('dialog').count()) > 0) await page.keyboard.press('Escape')
      return page.getByRole('dialog').count()
    })
    .toBe(0)
}

/** What `owner` holds of the SPL `mint` on the sandbox Solana chain, in base units (every token account). */
export async function splBalanceOf(solana: Connection, mint: string, owner: string): Promise<bigint> {
  const accounts = await solana.getParsedTokenAccountsByOwner(new PublicKey(owner), {
    mint: new PublicKey(mint),
  })
  return accounts.value.reduce(
    (sum, a) => sum + BigInt(a.account.data.parsed.info.tokenAmount.amount as string),
    0n,
  )
}

/**
 * Moves the page's clock (installed with `newPage(path, { clock: true })`) on by `stepMs` at each poll, firing the
 * timers due, until `done` holds: a SPEC limit (a 20 s load, a 30 s block) passes in moments. The page's own work
 * between two steps (a chunk that loads, a request that settles) runs in real time, so a timer armed late is
 * still reached; fails after `timeoutMs` of real time, as `expect.poll` does.
 */
export async function fastForwardUntil(
  page: Page,
  done: () => Promise<boolean>,
  { stepMs = 1_000, timeoutMs = 30_000 }: { stepMs?: number; timeoutMs?: number } = {},
): Promise<void> {
  await expect
    .poll(
      async () => {
        if (await done()) return true
        await page.clock.fastForward(stepMs)
        return done()
      },
      { timeout: timeoutMs, interval: 100 },
    )
    .toBe(true)
}
