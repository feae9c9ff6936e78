import { existsSync } from 'node:fs'
import { type Browser, chromium, type Page } from 'playwright-core'
import { type Sandbox, type SandboxOptions, startSandbox } from '../../sandbox/index.ts'

/** Debian's Chromium; `scripts/ensure-chromium.mjs` installs it when missing. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

/** The flags this machine needs: no sandbox as root, and no background traffic to hosts it cannot reach. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM))
    throw new Error(`Chromium not found at ${CHROMIUM}: run apt-get install -y chromium`)
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

/** A sandbox on free ports and a browser, for one test file. */
export async function startE2e(options: SandboxOptions = {}): Promise<E2eContext> {
  const sandbox = await startSandbox(options)
  let browser: Browser
  try {
    browser = await launchBrowser()
  } catch (error) {
    await sandbox.close()
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
    async close() {
      await browser.close()
      await sandbox.close()
    },
  }
}
