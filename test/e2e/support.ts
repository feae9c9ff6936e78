import { existsSync } from 'node:fs'
import { type Browser, chromium, type Page } from 'playwright-core'
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
  newPage(path?: string): Promise<Page>
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
  return {
    sandbox,
    browser,
    pageErrors,
    async newPage(path = '') {
      const page = await browser.newPage()
      page.on('pageerror', (error) => pageErrors.push(error.message))
      const demo = sandbox.demo
      if (!demo) throw new Error('the sandbox was started without the demo')
      await page.goto(new URL(path, demo.url).toString())
      return page
    },
    close: () => stops.close(),
  }
}

/** The host page's kit button (its name changes from "Connect Wallet" to the address). */
export const hostButton = (page: Page) => page.locator('button[aria-haspopup="dialog"]')

/** The injected dev wallet's approve/reject prompt. */
export const walletPrompt = (page: Page) => page.getByRole('dialog', { name: 'Walletstate Dev Wallet' })

/** An address as the kit shows it (SPEC §9: 4 + 6 characters), computed independently of the kit. */
export const truncated = (address: string) => `${address.slice(0, 4)}...${address.slice(-6)}`
