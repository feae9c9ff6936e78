import type { ConsoleMessage, Page } from 'playwright-core'
import { getAddress } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SANDBOX_CHAIN_ID } from '../../sandbox/chain/chain.ts'
import { rpcEndpoint } from '../../sandbox/chain/rpc.ts'
import { BROWSER_GLOBALS, type SsrServer, startSsrServer } from './apps/ssr/server.ts'
import { type E2eContext, hostButton, startE2e, truncated, walletPrompt } from './support.ts'

/**
 * Issue 18 item 2: `<KitRoot>` rendered on the server (Node, `renderToString` through Vite's `ssrLoadModule`,
 * test/e2e/apps/ssr/) and hydrated in Chromium. The server render needs no browser global and shows the host's
 * page with the modal closed; hydration logs nothing (React reports a mismatch with console.error); a stored
 * connection comes back after the server-rendered page reloads.
 */
let e2e: E2eContext
let ssr: SsrServer
let page: Page
/** Every console warning and error of the page, and its uncaught errors. */
const problems: string[] = []

const text = (testId: string) => page.getByTestId(testId).textContent()

beforeAll(async () => {
  e2e = await startE2e({ demo: false })
  const { sandbox } = e2e
  ssr = await startSsrServer({
    headScripts: [sandbox.wallets.injectedScriptUrl],
    sandbox: {
      projectId: sandbox.projectId,
      endpoints: sandbox.endpoints,
      chain: {
        id: SANDBOX_CHAIN_ID,
        name: 'Walletstate Sandbox',
        rpcUrl: rpcEndpoint(sandbox.rpc.origin, sandbox.projectId),
      },
    },
  })
  sandbox.origins.add(new URL(ssr.url).origin)
  page = await e2e.browser.newPage()
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`))
  page.on('console', (message: ConsoleMessage) => {
    if (message.type() === 'error' || message.type() === 'warning')
      problems.push(`${message.type()}: ${message.text()}`)
  })
})
afterAll(async () => {
  await ssr?.close()
  await e2e?.close()
})

/** Loads the page and waits until React has hydrated it (the kit's actor runs and its button answers). */
async function loadHydrated() {
  const rendered = ssr.renders
  await page.goto(ssr.url)
  expect(ssr.renders).toBe(rendered + 1)
  // The host page marks itself in an effect: effects run once the page has hydrated.
  await page.locator('html[data-hydrated]').waitFor({ state: 'attached' })
}

describe('server rendering', () => {
  it('renders the host page and the kit closed in Node, with no browser global', async () => {
    for (const name of BROWSER_GLOBALS)
      expect(globalThis[name as keyof typeof globalThis], name).toBeUndefined()
    const response = await fetch(ssr.url)
    const html = await response.text()
    expect(response.status, html).toBe(200)
    const app = html.slice(html.indexOf('<div id="root">'), html.indexOf('</main>'))
    expect(app).toContain('<h1>Server-rendered host</h1>')
    expect(app).toMatch(
      // (Its `id` is React's `useId`, which names it in its own aria-labelledby once an account has a name.)
      /<button type="button"[^>]* aria-haspopup="dialog" aria-expanded="false"[^>]*>Connect Wallet<\/button>/,
    )
    expect(app).toContain('<output data-testid="modal-state">closed</output>')
    expect(app).not.toContain('role="dialog"')
  })

  it('hydrates in Chromium with no warning or error, and the kit runs', async () => {
    await loadHydrated()
    await expect.poll(() => text('kit-status')).toBe('disconnected')
    await hostButton(page).click()
    await page.getByRole('dialog', { name: 'Connect Wallet' }).waitFor()
    expect(await text('modal-state')).toBe('open')
    await page.keyboard.press('Escape')
    await expect.poll(() => text('modal-state')).toBe('closed')
    expect(problems).toEqual([])
  })

  it('connects, and after a reload of the server-rendered page the stored connection comes back', async () => {
    const address = getAddress(e2e.sandbox.wallets.injectedAddress)
    await hostButton(page).click()
    await page
      .getByRole('dialog', { name: 'Connect Wallet' })
      .getByRole('button', { name: /Walletstate Dev Wallet/ })
      .click()
    await walletPrompt(page).getByRole('button', { name: 'Approve' }).click()
    await expect.poll(() => hostButton(page).textContent()).toBe(truncated(address))
    expect(await text('wagmi-address')).toBe(address)

    await loadHydrated()
    await expect.poll(() => hostButton(page).textContent()).toBe(truncated(address))
    await expect.poll(() => text('kit-address')).toBe(address)
    expect(await text('wagmi-address')).toBe(address)
    expect(await walletPrompt(page).count()).toBe(0)
    expect(problems).toEqual([])
  })
})
