import type { Locator, Page } from 'playwright-core'
import type { Address } from 'viem'
import { afterAll, afterEach, beforeAll, expect } from 'vitest'
import type { Fault } from '../../sandbox/shared/fault.ts'
import { type E2eContext, hostButton, startE2e, truncated, walletPrompt } from './support.ts'

/*
 * The fault scenarios' harness (issue 13), shared by test/e2e/faults.test.ts (the Data API and the listing) and
 * test/e2e/faults-secure-site.test.ts (the login frame's site): the SPEC §8 texts a service fault can produce,
 * each provoked through the sandbox's fault switch (`POST /__fault` on the service's own origin, from Node),
 * seen in the UI by role (a toast or an alert), then the fault is lifted and the same page recovers: no reload.
 * One fresh page per scenario, so a scenario's kit state (a balance block, a failed frame) never leaks into the
 * next; one sandbox per file, so one file's faults never reach the other's pages.
 */
export interface FaultSuite {
  readonly e2e: E2eContext
  /** The injected dev wallet's account. */
  readonly me: Address
}

/** Starts the file's sandbox and browser, and switches every fault off and closes the pages after each test. */
export function faultSuite(): FaultSuite {
  const suite = {} as { e2e: E2eContext; me: Address }
  beforeAll(async () => {
    suite.e2e = await startE2e()
    suite.me = suite.e2e.sandbox.wallets.injectedAddress
    current = suite.e2e
  })
  afterAll(async () => {
    await suite.e2e?.close()
  })
  afterEach(async () => {
    await Promise.all(
      (Object.keys(services()) as Service[]).map((service) => setFault(service, { mode: 'off' })),
    )
  })
  afterEach(async () => {
    for (const page of pages.splice(0)) await page.close()
  })
  return suite
}

let current: E2eContext

/** The services whose switch a scenario may set: every one is switched off after each test, pass or fail. */
const services = () => ({
  api: current.sandbox.api.origin,
  walletsApi: current.sandbox.walletsApi.origin,
  secureSite: current.sandbox.secureSite.origin,
  rpc: current.sandbox.rpc.origin,
  relay: current.sandbox.relay.origin,
})
type Service = keyof ReturnType<typeof services>

/** Sets a service's fault switch, as a test (Node) may; the switch answers 200 with what it set. */
export async function setFault(service: Service, fault: Fault): Promise<void> {
  const answer = await fetch(`${services()[service]}/__fault`, {
    method: 'POST',
    body: JSON.stringify(fault),
  })
  expect(answer.status).toBe(200)
}

const pages: Page[] = []

/** The demo in a page of its own; `clock: true` installs Playwright's clock (see `fastForwardUntil`). */
export async function openPage(options: { clock?: boolean } = {}): Promise<Page> {
  const page = await current.newPage('', options)
  pages.push(page)
  // The first visit of a fresh demo server may wait for Vite to optimise dependencies (and reload once).
  await hostButton(page).getByText('Connect Wallet').waitFor({ timeout: 90_000 })
  return page
}

export const dialog = (page: Page) => page.getByRole('dialog')
export const view = (page: Page, name: string) => page.locator(`[data-view="${name}"]`)
/** A toast or an alert carrying `text` (the kit's error toasts are role="alert", its modal alerts too). */
export const alertWith = (scope: Page | Locator, text: string) =>
  scope.getByRole('alert').filter({ hasText: text }).first()

/** Connects with the injected dev wallet and opens the Account view. */
export async function connectAndOpenAccount(page: Page): Promise<void> {
  await hostButton(page).click()
  await dialog(page)
    .getByRole('button', { name: /Walletstate Dev Wallet/ })
    .click()
  await walletPrompt(page).getByRole('button', { name: 'Approve' }).click()
  await expect
    .poll(() => hostButton(page).textContent(), { timeout: 10_000 })
    .toBe(truncated(current.sandbox.wallets.injectedAddress))
  await expect.poll(() => dialog(page).count(), { timeout: 10_000 }).toBe(0)
  await hostButton(page).click()
  await view(page, 'Account').waitFor()
}
