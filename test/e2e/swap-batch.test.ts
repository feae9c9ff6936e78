import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  approveInFrame,
  type E2eContext,
  freshEmail,
  hostButton,
  logInByEmail,
  startE2e,
  view,
} from './support.ts'

/*
 * Swap 100 USDC → ETH from the embedded wallet's smart account asks for ONE approval, not two (issue 36
 * acceptance): the smart account batches atomically (the kit answers wallet_getCapabilities locally), so the
 * preview's "Approve" sends the checked approval and swap as one `wallet_sendCalls` (atomicRequired) to the secure
 * site, which executes them as one user operation through the bundler; the kit follows it with
 * `wallet_getCallsStatus` to its receipt. The injected dev wallet's two steps (no atomic batching) are
 * test/e2e/swap.test.ts's, unchanged.
 *
 * What the secure site must answer for this to run (frame RPC, the embedded connector forwards both):
 * - `wallet_sendCalls`, params `[{ version: '2.0.0', chainId: '0x…', from: <smart account>, atomicRequired: true,
 *   calls: [{ to, data, value: '0x…' }, …] }]` → `{ id: string }` (one approval in the frame for the whole batch).
 * - `wallet_getCallsStatus`, params `[id]` → `{ version, id, chainId, atomic: true, status: 100 | 200 | 400 | 500,
 *   receipts?: [{ transactionHash, blockNumber: '0x…', status: '0x1' | '0x0', logs, gasUsed, blockHash }] }`.
 */
let e2e: E2eContext

beforeAll(async () => {
  e2e = await startE2e()
})
afterAll(async () => {
  await e2e?.close()
})

describe('swap from the embedded smart account, in Chromium against the sandbox', () => {
  it.skip('100 USDC → ETH asks for one approval in the frame (skipped: the secure site does not answer wallet_sendCalls on this branch yet)', async () => {
    const page = await e2e.newPage()
    await logInByEmail(e2e, page, freshEmail('batch-swap'))
    await hostButton(page).click()
    await view(page, 'Account').getByRole('button', { name: 'Swap', exact: true }).click()
    const swap = view(page, 'Swap')
    await swap.getByRole('textbox', { name: 'You pay' }).fill('100')
    await swap.getByRole('button', { name: 'Review swap' }).click()
    const preview = view(page, 'SwapPreview')
    const approve = preview.getByRole('button', { name: 'Approve', exact: true })
    await expect.poll(() => approve.isEnabled(), { timeout: 30_000 }).toBe(true)
    await approve.click()
    await expect
      .poll(() => preview.getByRole('status').textContent(), { timeout: 20_000 })
      .toContain('one confirmation')
    // One approval in the frame: the approval and the swap together.
    await approveInFrame(page)
    await expect
      .poll(() => page.getByRole('status').filter({ hasText: 'Swap' }).count(), { timeout: 60_000 })
      .toBeGreaterThan(0)
    // Never a second prompt: the preview is gone, the swap landed.
    await expect.poll(() => view(page, 'ApproveTransaction').count()).toBe(0)
    await page.close()
  })
})
