import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RelayLogEntry } from '../../sandbox/relay/relay.ts'
import {
  approveInWcWallet,
  type E2eContext,
  hostButton,
  openWalletConnectQr,
  startE2e,
  truncated,
} from './support.ts'

/*
 * Sessions that last (SPEC §4 "Extending a session resets its expiry", §7 wc_sessionExtend, wc_sessionPing), end
 * to end: the kit (the app) beside the sandbox WalletConnect wallet page, through the sandbox relay, whose log
 * shows what was published. No fixed waits: the relay's log, the pages and the clock are polled.
 */
let e2e: E2eContext

beforeAll(async () => {
  e2e = await startE2e()
})
afterAll(async () => {
  await e2e?.close()
})

const openQrView = (page: Page) => openWalletConnectQr(page)
/** The wallet page approves the app's proposal; `query` adds its own options. */
const approveIn = (uri: string, query = '') => approveInWcWallet(e2e, uri, query)

const connectedAs = (page: Page) => hostButton(page).textContent()
const logged = (method: string, kind: RelayLogEntry['kind'], since: number) =>
  e2e.sandbox.relay.log().filter((e) => e.method === method && e.kind === kind && e.at >= since)
const walletStatus = (wallet: Page) => wallet.getByTestId('wc-wallet-status').textContent()

describe('sessions that last, in Chromium', () => {
  it('a session the wallet grants for 15 s is extended in time: still connected past that, the extension in the relay log', async () => {
    const page = await e2e.newPage()
    const wallet = await approveIn(await openQrView(page), '&sessionExpiry=15')
    const address = truncated(e2e.sandbox.wallets.wcAddress)
    await expect.poll(() => connectedAs(page), { timeout: 20_000 }).toBe(address)
    const settled = Date.now()
    const expiresBy = settled + 15_000
    // The settlement carried the wallet's short expiry, and the wallet page says so.
    expect(await walletStatus(wallet)).toContain('Sessions approved here expire after 15 s')

    // The kit extends halfway through (SESSION_EXTEND_MARGIN_MS is a day, more than the 15 s): the relay carries
    // the extension and the wallet's acknowledgement, before the first expiry.
    await expect
      .poll(() => logged('wc_sessionExtend', 'request', settled - 5_000).length, { timeout: 30_000 })
      .toBeGreaterThan(0)
    await expect
      .poll(() => logged('wc_sessionExtend', 'response', settled - 5_000).length, { timeout: 10_000 })
      .toBeGreaterThan(0)
    const extension = logged('wc_sessionExtend', 'request', settled - 5_000)[0]!
    expect(extension.at).toBeLessThan(expiresBy)
    await expect.poll(() => walletStatus(wallet)).toContain('The app extended the session')

    // Past the expiry the wallet first set (and a few seconds for the library's expirer, which ticks each second):
    // still connected, and no session-expired alert.
    await expect.poll(() => Date.now() > expiresBy + 5_000, { timeout: 40_000, interval: 500 }).toBe(true)
    expect(await connectedAs(page)).toBe(address)
    expect(await page.getByText('Session expired').count()).toBe(0)
    // A request on the extended session still reaches the wallet.
    await page.getByRole('button', { name: 'Sign message' }).click()
    await wallet
      .getByRole('region', { name: 'Signature request' })
      .getByRole('button', { name: 'Approve' })
      .click({ timeout: 20_000 })
    await expect
      .poll(() => page.getByTestId('demo-result').textContent(), { timeout: 20_000 })
      .toMatch(/0x[0-9a-f]{130}/)
    await wallet.close()
    await page.close()
  })

  it('a wallet that stops answering pings: Account says so (connected still), and "Try again" clears it once it answers', async () => {
    // The kit pings a wallet silent for 3 s (the default is 5 min).
    const page = await e2e.newPage('?sessionPing=3000')
    const wallet = await approveIn(await openQrView(page))
    const address = truncated(e2e.sandbox.wallets.wcAddress)
    await expect.poll(() => connectedAs(page), { timeout: 20_000 }).toBe(address)
    const settled = Date.now()
    // Pings are answered while the switch is on.
    await expect
      .poll(() => logged('wc_sessionPing', 'response', settled).length, { timeout: 20_000 })
      .toBeGreaterThan(0)
    await expect.poll(() => walletStatus(wallet)).toContain('Answered a ping from the app')

    // The wallet stops answering.
    await wallet.getByRole('checkbox', { name: 'Answer pings' }).uncheck()
    const silentSince = Date.now()
    await hostButton(page).click()
    const account = page.locator('[data-view="Account"]')
    await account.waitFor()
    const notice = account.getByTestId('wallet-not-answering')
    // The next ping goes unanswered; after SESSION_PEER_ANSWER_TIMEOUT_MS (15 s) the kit says so.
    await expect.poll(() => notice.count(), { timeout: 40_000 }).toBe(1)
    expect(await notice.getByRole('alert').textContent()).toBe(
      'Your wallet is not answering. Open it to keep this session going, or disconnect.',
    )
    expect(logged('wc_sessionPing', 'request', silentSince).length).toBeGreaterThan(0)
    expect(logged('wc_sessionPing', 'response', silentSince)).toEqual([])
    expect(await walletStatus(wallet)).toContain('Ignored a ping from the app')
    // Not a silent disconnect: still connected, with a way out.
    expect(await connectedAs(page)).toBe(address)
    expect(await notice.getByRole('button', { name: 'Disconnect' }).isEnabled()).toBe(true)

    // The wallet answers again; the visitor tries again: the notice goes.
    await wallet.getByRole('checkbox', { name: 'Answer pings' }).check()
    await expect
      .poll(
        async () => {
          if ((await notice.count()) === 0) return true
          const retry = notice.getByRole('button', { name: 'Try again' })
          if (await retry.isEnabled()) await retry.click()
          return false
        },
        { timeout: 40_000, interval: 1_000 },
      )
      .toBe(true)
    expect(await connectedAs(page)).toBe(address)
    await wallet.close()
    await page.close()
  })
})
