import type { Page } from 'playwright-core'
import { createPublicClient, formatEther, http, verifyMessage } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type E2eContext, hostButton, startE2e, truncated, walletPrompt } from './support.ts'

let e2e: E2eContext
let page: Page

beforeAll(async () => {
  e2e = await startE2e()
  page = await e2e.newPage()
})
afterAll(async () => {
  await e2e?.close()
})

async function approveInWallet(p: Page) {
  await walletPrompt(p).getByRole('button', { name: 'Approve' }).click()
}

describe('connect with the injected dev wallet (EIP-6963), in Chromium', () => {
  it('connects after the wallet prompt is approved, and shows the truncated address and anvil balance', async () => {
    const address = e2e.sandbox.wallets.injectedAddress
    await hostButton(page).getByText('Connect Wallet').click()
    const kitDialog = page.getByRole('dialog', { name: 'Connect Wallet' })
    const item = kitDialog.getByRole('button', { name: /Walletstate Dev Wallet/ })
    await item.waitFor()
    expect(await item.textContent()).toContain('Installed')
    await item.click()
    await page.locator('[data-view="ConnectingExternal"]').waitFor()
    await approveInWallet(page)
    await expect.poll(() => hostButton(page).textContent()).toBe(truncated(address))
    expect(await page.getByRole('dialog').count()).toBe(0)

    await hostButton(page).click()
    await page.locator('[data-view="Account"]').waitFor()
    expect(await page.getByTestId('account-address').textContent()).toBe(truncated(address))
    const client = createPublicClient({ transport: http(e2e.sandbox.chain.rpcUrl) })
    const wei = await client.getBalance({ address })
    const [whole, fraction = ''] = formatEther(wei).split('.')
    const expected = `${whole}${fraction.slice(0, 4).replace(/0+$/, '') ? `.${fraction.slice(0, 4).replace(/0+$/, '')}` : ''} ETH`
    await expect.poll(() => page.getByTestId('account-balance').textContent()).toBe(expected)
    await page.keyboard.press('Escape')
  })

  it('signs a message from the demo after approval in the wallet', async () => {
    await page.getByRole('button', { name: 'Sign message' }).click()
    await approveInWallet(page)
    const result = page.getByTestId('demo-result')
    await expect.poll(() => result.textContent()).toMatch(/^0x[0-9a-f]{130}$/)
    const signature = (await result.textContent()) as `0x${string}`
    const address = e2e.sandbox.wallets.injectedAddress
    expect(
      await verifyMessage({ address, message: `Hello from the Walletstate demo to ${address}`, signature }),
    ).toBe(true)
  })

  it('reconnects after a reload without a click', async () => {
    await page.reload()
    await expect
      .poll(() => hostButton(page).textContent())
      .toBe(truncated(e2e.sandbox.wallets.injectedAddress))
    expect(await walletPrompt(page).count()).toBe(0)
  })

  it('disconnects from the Account view, and stays disconnected after a reload', async () => {
    await hostButton(page).click()
    await page.getByRole('button', { name: 'Disconnect' }).click()
    await expect.poll(() => hostButton(page).textContent()).toBe('Connect Wallet')
    await page.reload()
    await hostButton(page).waitFor()
    await page.waitForTimeout(1_500)
    expect(await hostButton(page).textContent()).toBe('Connect Wallet')
  })

  it('a rejection in the wallet leaves a retryable state with the message, and Try again connects', async () => {
    await hostButton(page).click()
    await page.getByRole('button', { name: /Walletstate Dev Wallet/ }).click()
    await walletPrompt(page).getByRole('button', { name: 'Reject' }).click()
    const view = page.locator('[data-view="ConnectingExternal"]')
    await view.getByRole('alert').getByText('Connection declined in the wallet.').waitFor()
    await view.getByRole('button', { name: 'Try again' }).click()
    await approveInWallet(page)
    await expect
      .poll(() => hostButton(page).textContent())
      .toBe(truncated(e2e.sandbox.wallets.injectedAddress))
    expect(e2e.pageErrors).toEqual([])
  })
})

describe('telemetry', () => {
  it('tracked each fresh connection with its method, and not the silent reconnect', async () => {
    // The kit sends its events in the background: the last connection's may still be on its way.
    const successes = async () =>
      (await e2e.sandbox.api.telemetry(e2e.sandbox.projectId)).filter(
        (e) => e.props.event === 'CONNECT_SUCCESS',
      )
    // Two fresh connections above (the first, and Try again); the reconnect after reload is not one.
    await expect.poll(async () => (await successes()).length).toBeGreaterThanOrEqual(2)
    const connects = await successes()
    expect(connects).toHaveLength(2)
    expect(connects.map((e) => (e.props as { properties?: { method?: string } }).properties?.method)).toEqual(
      ['browser', 'browser'],
    )
    expect(connects[0]?.st).toBe('walletstate')
  })

  it('errors are reported: the sink received an error event with errorType after the declined connection', async () => {
    const declined = async () =>
      (await e2e.sandbox.api.telemetry(e2e.sandbox.projectId)).filter(
        (e) => e.props.event === 'CONNECT_ERROR',
      )
    await expect.poll(async () => (await declined()).length).toBeGreaterThanOrEqual(1)
    expect((await declined())[0]?.props).toMatchObject({
      type: 'error',
      errorType: 'UserRejectedError',
      errorMessage: 'Connection declined in the wallet.',
    })
  })
})
