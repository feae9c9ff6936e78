import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type E2eContext, startE2e } from './support.ts'

let e2e: E2eContext

beforeAll(async () => {
  e2e = await startE2e()
})
afterAll(async () => {
  await e2e?.close()
})

type Recorded = { type: string; name?: string; event?: { type?: string }; snapshot?: { value?: unknown } }

describe('live inspection (KitRoot inspect → local inspector server)', () => {
  it('streams every actor, event and snapshot of the demo, and the viewer shows them live', async () => {
    const { inspector } = e2e.sandbox
    const viewer = await e2e.browser.newPage()
    await viewer.goto(`${inspector.origin}/`)
    await viewer.getByRole('status').getByText('live').waitFor()

    const page = await e2e.newPage(`?inspect=${encodeURIComponent(inspector.url)}`)
    await page.getByRole('button', { name: 'Connect Wallet' }).click()
    await page.getByRole('dialog').waitFor()
    await page.getByRole('button', { name: 'Supported networks' }).click()
    await page.locator('[data-view="Networks"]').waitFor()

    const records = () => inspector.records() as Recorded[]
    await expect
      .poll(() =>
        records()
          .filter((r) => r.type === '@xstate.event')
          .map((r) => r.event?.type),
      )
      .toEqual(
        expect.arrayContaining([
          'modal.open',
          'router.push',
          'xstate.after.viewTransition.modal.open.view.transitioning',
        ]),
      )
    const actorNames = records()
      .filter((r) => r.type === '@xstate.actor')
      .map((r) => r.name)
    expect(actorNames).toEqual(expect.arrayContaining(['modal', 'toast']))
    const modalStates = records()
      .filter((r) => r.type === '@xstate.snapshot')
      .map((r) => JSON.stringify(r.snapshot?.value) ?? '')
    expect(modalStates.some((value) => value.includes('"view":"transitioning"'))).toBe(true)

    // The viewer page received the same stream and lists the modal with its current state.
    await viewer.getByText('modal', { exact: false }).first().waitFor()
    await expect.poll(() => viewer.locator('#events li').count()).toBeGreaterThan(2)
    expect(await viewer.locator('#events').textContent()).toContain('router.push')
    await viewer.close()
    await page.close()
  })

  it('refuses records that are not inspection events', async () => {
    const { inspector } = e2e.sandbox
    const count = (type: string) => (inspector.records() as Recorded[]).filter((r) => r.type === type).length
    const probes = () =>
      (inspector.records() as Recorded[]).filter(
        (r) => r.type === '@xstate.event' && r.event?.type === 'probe',
      ).length
    const { WebSocket } = await import('ws')
    const ws = new WebSocket(inspector.url)
    await new Promise((resolve) => ws.once('open', resolve))
    ws.send('not json')
    ws.send(JSON.stringify({ type: 'evil', payload: '<script>' }))
    ws.send(JSON.stringify({ type: '@xstate.event', event: { type: 'probe' }, sessionId: 'x' }))
    await expect.poll(probes).toBe(1)
    expect(count('evil')).toBe(0)
    expect(JSON.stringify(inspector.records())).not.toContain('not json')
    ws.close()
  })
})
