import type { Page } from 'playwright-core'
import { getAddress } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type E2eContext, hostButton, startE2e, truncated, walletPrompt } from './support.ts'

/**
 * Issue 18 item 1: a host app on its own wagmi config and providers (demo/ownWagmi.tsx, served at
 * /own-wagmi.html) passes that config to the kit (`wagmiConfig`). The kit connects through it, and the host's
 * own wagmi hooks (`useAccount`) see the account the kit connected, in Chromium.
 */
let e2e: E2eContext
let page: Page
/** Everything the page logged as a warning or an error, and every script it fetched. */
const consoleProblems: string[] = []
const scripts: string[] = []

const text = (testId: string) => page.getByTestId(testId).textContent()

beforeAll(async () => {
  e2e = await startE2e()
  page = await e2e.browser.newPage()
  page.on('pageerror', (error) => e2e.pageErrors.push(error.message))
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') consoleProblems.push(message.text())
  })
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(request.url())
  })
  await page.goto(new URL('own-wagmi.html', e2e.sandbox.demo!.url).toString())
})
afterAll(async () => {
  await e2e?.close()
})

describe('a host app with its own wagmi config, in Chromium', () => {
  it("runs the kit inside the host's WagmiProvider and QueryClientProvider, the kit's connectors in the host's config", async () => {
    await hostButton(page).getByText('Connect Wallet').waitFor()
    expect(await text('host-config')).toBe('host')
    expect(await text('host-query-client')).toBe('host')
    // The host's own connector, the kit's two, and the dev wallet announced by EIP-6963 to the host's config.
    await expect
      .poll(async () => (await text('host-connectors'))?.split(' ').sort())
      .toEqual(['io.walletstate.devwallet', 'mock', 'walletConnect', 'walletstateEmbedded'])
    // The host's WagmiProvider reconnects on mount, and finds nothing to restore yet.
    await expect.poll(() => text('host-account')).toBe('disconnected')
  })

  it("connects through the kit, and the host's useAccount sees the same account", async () => {
    const address = getAddress(e2e.sandbox.wallets.injectedAddress)
    await hostButton(page).click()
    await page
      .getByRole('dialog', { name: 'Connect Wallet' })
      .getByRole('button', { name: /Walletstate Dev Wallet/ })
      .click()
    await walletPrompt(page).getByRole('button', { name: 'Approve' }).click()
    await expect.poll(() => hostButton(page).textContent()).toBe(truncated(address))
    await expect.poll(() => text('host-account')).toBe(address)
    expect(await text('kit-account')).toBe(address)
    expect(await text('host-connector')).toBe('io.walletstate.devwallet')
    expect(await text('host-chain')).toBe(String(e2e.sandbox.chain.chainId))
  })

  it('comes back after a reload, for the kit and the host alike, without loading WalletConnect', async () => {
    const address = getAddress(e2e.sandbox.wallets.injectedAddress)
    scripts.length = 0
    await page.reload()
    await expect.poll(() => hostButton(page).textContent()).toBe(truncated(address))
    await expect.poll(() => text('host-account')).toBe(address)
    expect(await walletPrompt(page).count()).toBe(0)
    // The host's WagmiProvider reconnects every connector on mount: the kit's WalletConnect stays unloaded.
    expect(scripts.filter((url) => /vendor\/walletconnect/i.test(url))).toEqual([])
  })

  it("disconnects from the kit's Account view, and the host's useAccount follows", async () => {
    await hostButton(page).click()
    await page.getByRole('button', { name: 'Disconnect' }).click()
    await expect.poll(() => hostButton(page).textContent()).toBe('Connect Wallet')
    await expect.poll(() => text('host-account')).toBe('disconnected')
  })

  it('ran clean: no page error, no console warning or error', () => {
    expect(e2e.pageErrors).toEqual([])
    expect(consoleProblems).toEqual([])
  })
})
