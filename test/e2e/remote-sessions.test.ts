import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  approveInWcWallet,
  type E2eContext,
  hostButton,
  openWalletConnectQr,
  startE2e,
  truncated,
  wcQrCode,
} from './support.ts'

/*
 * SPEC §4 remote sessions, end to end: the kit's session client (role app) beside WalletConnect's provider,
 * and the sandbox wallet page (role wallet), through the sandbox relay.
 */
let e2e: E2eContext

beforeAll(async () => {
  e2e = await startE2e()
})
afterAll(async () => {
  await e2e?.close()
})

const openQrView = (page: Page) => openWalletConnectQr(page, 'ConnectingWalletConnectBasic')
const approveIn = (uri: string, inspect?: string) =>
  approveInWcWallet(e2e, uri, inspect ? `&inspect=${encodeURIComponent(inspect)}` : '')

describe('remote sessions in Chromium', () => {
  it('a proposal left unanswered expires and the QR view offers a fresh one, which connects', async () => {
    const { inspector } = e2e.sandbox
    const page = await e2e.newPage(`?proposalTtl=8000&inspect=${encodeURIComponent(inspector.url)}`)
    const first = await openQrView(page)
    // Nobody scans it: after its 8 s lifetime the session client expires it and the connection asks again.
    await expect
      .poll(
        async () =>
          (await wcQrCode(page).count()) > 0 && (await wcQrCode(page).getAttribute('data-uri')) !== first,
        {
          timeout: 30_000,
        },
      )
      .toBe(true)
    const fresh = (await wcQrCode(page).getAttribute('data-uri')) ?? ''
    expect(fresh).toMatch(/^wc:[0-9a-f]{64}@2\?/)
    expect(fresh.split('@')[0]).not.toBe(first.split('@')[0])
    expect(await page.locator('[data-view="ConnectingWalletConnectBasic"]').getByRole('alert').count()).toBe(
      0,
    )
    // The inspector shows the lifecycle as states: the session client, its proposal, and the expiry.
    // The records reach the inspector over its socket, after the page has drawn the fresh QR code: polled.
    // The page streams the kit's recorder (its actors by id, system id and machine id); the wallet page streams
    // with @statelyai/inspect (its actors by name).
    type InspectorRecord = {
      type: string
      name?: string
      id?: string
      systemId?: string
      machine?: { id: string }
      event?: { type?: string }
    }
    const actorNames = () =>
      (inspector.records() as InspectorRecord[])
        .filter((r) => r.type === '@xstate.actor')
        .flatMap((r) => [r.name, r.id, r.systemId, r.machine?.id].filter((n): n is string => !!n))
    await expect
      .poll(() => actorNames().filter((name) => name.startsWith('proposal:')).length, { timeout: 10_000 })
      .toBeGreaterThanOrEqual(2)
    expect(actorNames()).toContain('sessionClient')
    const eventTypes = () =>
      (inspector.records() as InspectorRecord[])
        .filter((r) => r.type === '@xstate.event')
        .map((r) => r.event?.type)
    await expect
      .poll(eventTypes, { timeout: 10_000 })
      .toEqual(
        expect.arrayContaining([
          'wc.sessionPropose',
          'xstate.after.proposalExpiry.proposal.pending',
          'remoteSessions.proposalExpired',
          'connection.pairingExpired',
        ]),
      )

    // The wallet page streams to the same inspector: both sides of the lifecycle, side by side.
    const wallet = await approveIn(fresh, inspector.url)
    await expect
      .poll(() => hostButton(page).textContent(), { timeout: 20_000 })
      .toBe(truncated(e2e.sandbox.wallets.wcAddress))
    // The wallet approved (its command) and the app saw the settlement acknowledged, as states of each side.
    await expect
      .poll(eventTypes, { timeout: 10_000 })
      .toEqual(expect.arrayContaining(['session.pair', 'proposal.approve', 'wc.settleAcknowledged']))
    await expect
      .poll(() => actorNames().filter((name) => name.startsWith('session:')).length, { timeout: 10_000 })
      .toBeGreaterThanOrEqual(2)
    await hostButton(page).click()
    await page.getByRole('button', { name: 'Disconnect' }).click()
    await expect.poll(() => hostButton(page).textContent()).toBe('Connect Wallet')
    await wallet.close()
    await page.close()
  })

  it('a session the wallet deletes, with a request open, puts the kit back to disconnected within a second', async () => {
    const page = await e2e.newPage()
    const wallet = await approveIn(await openQrView(page))
    await expect
      .poll(() => hostButton(page).textContent(), { timeout: 20_000 })
      .toBe(truncated(e2e.sandbox.wallets.wcAddress))

    // A signing request the wallet never answers.
    await page.getByRole('button', { name: 'Sign message' }).click()
    await wallet.getByRole('region', { name: 'Signature request' }).waitFor({ timeout: 20_000 })

    await wallet
      .getByRole('button', { name: /^Disconnect/ })
      .first()
      .click()
    await expect
      .poll(() => hostButton(page).textContent(), { timeout: 1_000, interval: 50 })
      .toBe('Connect Wallet')
    // Nothing is left waiting: the open request settles, with an error and no signature, instead of hanging.
    await expect
      .poll(() => page.getByTestId('demo-result').textContent(), { timeout: 10_000 })
      .toMatch(/error/i)
    expect(await page.getByTestId('demo-result').textContent()).not.toMatch(/0x[0-9a-f]{130}/)
    await wallet.close()
    await page.close()
  })
})
