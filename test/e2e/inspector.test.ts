import { mkdir, readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectionMachine } from '../../src/machines/index.ts'
import type { RecordEntry, Recording } from '../../src/recording/format.ts'
import { formatReplayResult, replayRecording } from '../../src/testing/index.ts'
import { connectInjected, type E2eContext, startE2e } from './support.ts'

/**
 * The local inspector (issue 21) in Chromium: the demo's `?inspect=` streams `createRecorder`'s records to the
 * inspector server, whose viewer page draws the selected machine's statechart (elkjs) with its active states,
 * lists the actors and the events (filtered by actor and type), travels back and forth through the records and
 * saves them as a recording. Screenshot: .tmp/test-artifacts/inspector/ (ignored by git).
 */
let e2e: E2eContext
const ARTIFACTS = fileURLToPath(new URL('../../.tmp/test-artifacts/inspector/', import.meta.url))

beforeAll(async () => {
  e2e = await startE2e()
})
afterAll(async () => {
  await e2e?.close()
})

const records = () => e2e.sandbox.inspector.records() as RecordEntry[]
/** The recorder id of the newest demo page that streamed (its header is its first record). */
const newestRecorder = () => records().findLast((r) => r.type === '@walletstate.recording')?.rid

/** A viewer page, its errors collected (a CSP violation is a console error). */
async function openViewer(): Promise<{ viewer: Page; errors: string[] }> {
  const viewer = await e2e.browser.newPage({ viewport: { width: 1600, height: 1000 } })
  const errors: string[] = []
  viewer.on('pageerror', (error) => errors.push(error.message))
  viewer.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text())
  })
  await viewer.goto(`${e2e.sandbox.inspector.origin}/`)
  await viewer.getByRole('status').getByText('live').waitFor()
  return { viewer, errors }
}

describe('live inspection (KitRoot inspect → createRecorder → local inspector server)', () => {
  it('streams every actor, event and snapshot of the demo, and the viewer shows them live', async () => {
    const { inspector } = e2e.sandbox
    const { viewer, errors } = await openViewer()

    const page = await e2e.newPage(`?inspect=${encodeURIComponent(inspector.url)}`)
    await page.getByRole('button', { name: 'Connect Wallet' }).click()
    await page.getByRole('dialog').waitFor()
    await page.getByRole('button', { name: 'Supported networks' }).click()
    await page.locator('[data-view="Networks"]').waitFor()

    await expect
      .poll(() =>
        records()
          .filter((r) => r.type === '@xstate.event')
          .map((r) => r.event.type),
      )
      .toEqual(
        expect.arrayContaining([
          'modal.open',
          'router.push',
          'xstate.after.viewTransition.modal.open.view.transitioning',
        ]),
      )
    // One recorder for the page: its header first, then numbered records, each machine described once.
    const rid = newestRecorder()
    const mine = records().filter((r) => r.rid === rid)
    expect(mine[0]).toMatchObject({ type: '@walletstate.recording', seq: 1, redacted: true })
    expect(mine.map((r) => r.seq)).toEqual(mine.map((_, i) => i + 1))
    const machines = mine.flatMap((r) => (r.type === '@walletstate.machine' ? [r.machine.id] : []))
    expect(machines).toEqual(expect.arrayContaining(['modal', 'toast', 'connection']))
    expect(new Set(machines).size).toBe(machines.length)
    // Exactly one kit actor tree, in StrictMode too: one root (the kit), every other actor below it.
    const actors = mine.flatMap((r) => (r.type === '@xstate.actor' ? [r] : []))
    expect(actors.filter((r) => r.machine?.id === 'kit')).toHaveLength(1)
    const roots = actors.filter((r) => r.parentId === undefined)
    expect(roots.map((r) => r.machine?.id)).toEqual(['kit'])
    const sessions = new Set(actors.map((r) => r.sessionId))
    expect(actors.every((r) => r.parentId === undefined || sessions.has(r.parentId))).toBe(true)
    expect(actors.filter((r) => r.machine?.id === 'connection' && r.systemId === 'connection')).toHaveLength(
      1,
    )
    const modalStates = mine.flatMap((r) => (r.type === '@xstate.snapshot' ? [JSON.stringify(r.value)] : []))
    expect(modalStates.some((value) => value?.includes('"view":"transitioning"'))).toBe(true)

    // The viewer page received the same stream and lists the modal with its current state.
    await viewer.locator('#actors').getByText('modal', { exact: true }).first().waitFor()
    // One recorder so far: no picker.
    expect(await viewer.getByLabel('Recorder').isVisible()).toBe(false)
    await expect.poll(() => viewer.locator('#actors .name').getByText('kit', { exact: true }).count()).toBe(1)
    await expect.poll(() => viewer.locator('#events li').count()).toBeGreaterThan(2)
    expect(await viewer.locator('#events').textContent()).toContain('router.push')
    expect(errors).toEqual([])
    await viewer.close()
    await page.close()
  })

  it('draws the connection statechart live, travels back in time, filters events and saves the recording', async () => {
    const { inspector } = e2e.sandbox
    const { viewer, errors } = await openViewer()
    const page = await e2e.newPage(`?inspect=${encodeURIComponent(inspector.url)}`)
    await connectInjected(page, e2e.sandbox.wallets.injectedAddress)
    const rid = newestRecorder()!

    // One page is one recorder: the picker names the demo's (the first test's page is another).
    await viewer.getByLabel('Recorder').selectOption(rid)
    // The eip155 connection (systemId `connection`; Solana's, under its capability's host, is `solanaConnection`).
    await viewer
      .locator('#actors button')
      .filter({ has: viewer.locator('.kind', { hasText: /#connection$/ }) })
      .first()
      .click()
    const diagram = viewer.getByRole('img', { name: /^Statechart of connection/ })
    await diagram.waitFor()
    const node = (id: string) => diagram.locator(`g.state[data-id="${id}"]`)
    const isActive = async (id: string) =>
      ((await node(id).getAttribute('class')) ?? '').split(' ').includes('active')
    await expect.poll(() => isActive('connection.connected')).toBe(true)
    await expect
      .poll(() => viewer.locator('#active').textContent())
      .toMatch(/^active: connection\.connected\b/)
    expect(await isActive('connection.connecting')).toBe(false)
    // Nested states, their transitions labelled with events and guards, the delayed ones by their delay.
    for (const id of [
      'connection.connected.idle',
      'connection.disconnected.failed',
      'connection.connecting.pairing',
    ]) {
      expect(await node(id).count()).toBe(1)
    }
    const labels = await diagram.locator('.edge-label text').allTextContents()
    expect(labels).toEqual(
      expect.arrayContaining([
        'connection.connect',
        'done: reconnect [hasAccount]',
        'after reconnectTimeout',
      ]),
    )
    await mkdir(ARTIFACTS, { recursive: true })
    await viewer.screenshot({ path: `${ARTIFACTS}viewer-connected.png` })

    // Back in time, record by record, until the connection was not yet connected: it was connecting.
    const back = viewer.getByRole('button', { name: 'Step back' })
    const live = viewer.getByRole('button', { name: 'Live' })
    const stepLabel = viewer.locator('#step-label')
    for (let i = 0; i < 2_000 && (await isActive('connection.connected')); i += 1) {
      const before = await stepLabel.textContent()
      await back.click()
      await expect.poll(() => stepLabel.textContent()).not.toBe(before)
    }
    expect(await isActive('connection.connecting')).toBe(true)
    expect(await isActive('connection.connected')).toBe(false)
    expect(await viewer.locator('#active').textContent()).toMatch(/^active: connection\.connecting\./)
    expect(await live.getAttribute('aria-pressed')).toBe('false')
    expect(await stepLabel.textContent()).toMatch(/^Step \d+ of \d+ \(paused\): /)
    // The actor list shows the state at that step too.
    const connectionRow = viewer.locator('#actors button[aria-pressed="true"]')
    expect(await connectionRow.locator('.value').textContent()).toMatch(/^connecting\./)
    await viewer.screenshot({ path: `${ARTIFACTS}viewer-connecting.png` })

    // The arrow keys step too; a step forward is connected again.
    await viewer.locator('body').press('ArrowRight')
    await expect.poll(() => isActive('connection.connected')).toBe(true)
    await viewer.locator('body').press('ArrowLeft')
    await expect.poll(() => isActive('connection.connecting')).toBe(true)
    // Live follows the stream again: connected.
    await live.click()
    await expect.poll(() => isActive('connection.connected')).toBe(true)
    expect(await live.getAttribute('aria-pressed')).toBe('true')

    // The event log, filtered by actor and by type.
    const connectionSession = await connectionRow.getAttribute('data-session')
    await viewer.getByLabel('Filter events by actor').selectOption(connectionSession!)
    const listed = () => viewer.locator('#events li .ev').allTextContents()
    // Only what the connection received or sent.
    await expect.poll(async () => (await listed()).includes('modal.open')).toBe(false)
    expect(await listed()).toContain('connection.connect')
    const lines = await viewer.locator('#events li').allTextContents()
    expect(lines.every((line) => / → connection\b| from connection\b/.test(line))).toBe(true)
    // The type filter keeps the types that contain the text (any case).
    const before = (await listed()).length
    await viewer.getByLabel('Filter events by type').fill('Connection.Conn')
    await expect.poll(async () => (await listed()).length).toBeLessThan(before)
    expect(await listed()).toContain('connection.connect')
    expect((await listed()).every((type) => type.includes('connection.conn'))).toBe(true)
    // An event in the log is a step: there, the connection has not taken it yet.
    await viewer.locator('#events li button', { hasText: /^connection\.connect\s+→ connection/ }).click()
    await expect
      .poll(() => stepLabel.textContent())
      .toMatch(/\(paused\): event connection\.connect → connection/)
    await expect
      .poll(() => viewer.locator('#active').textContent())
      .toMatch(/^active: connection\.disconnected\./)
    await live.click()
    await viewer.getByLabel('Filter events by type').fill('')
    await viewer.getByLabel('Filter events by actor').selectOption('')
    await viewer.getByLabel('Filter events by type').fill('wallet.select')
    await expect.poll(async () => [...new Set(await listed())]).toEqual(['wallet.select'])

    // Save recording: the recorder's session as a recording file.
    const [download] = await Promise.all([
      viewer.waitForEvent('download'),
      viewer.getByRole('button', { name: 'Save recording' }).click(),
    ])
    expect(download.suggestedFilename()).toMatch(/^walletstate-recording-[0-9TZ.-]+\.json$/)
    await download.saveAs(`${ARTIFACTS}recording.json`)
    const saved = JSON.parse(await readFile(`${ARTIFACTS}recording.json`, 'utf8')) as Recording
    const header = records().find((r) => r.rid === rid && r.type === '@walletstate.recording')
    expect(saved).toMatchObject({
      format: 'walletstate-recording',
      version: 1,
      startedAt: header && 'startedAt' in header ? header.startedAt : 'missing',
      redacted: true,
    })
    expect(saved.records.length).toBeGreaterThan(10)
    expect(saved.records.every((r) => r.rid === rid)).toBe(true)
    expect(saved.records.map((r) => r.seq)).toEqual(saved.records.map((_, i) => i + 1))
    expect(
      saved.records.some((r) => r.type === '@xstate.event' && r.event.type === 'connection.connect'),
    ).toBe(true)
    // The file is what a developer replays: the connection's session replays in Node with no divergence.
    const replayed = replayRecording(saved, { machine: connectionMachine })
    expect(replayed.ok, formatReplayResult(replayed)).toBe(true)
    expect(errors).toEqual([])
    await viewer.close()
    await page.close()
  })

  it('serves the viewer under a strict Content-Security-Policy and puts received text in as text', async () => {
    const { inspector } = e2e.sandbox
    const response = await fetch(`${inspector.origin}/`)
    const csp = response.headers.get('content-security-policy') ?? ''
    expect(csp).toContain("script-src 'self'")
    expect(csp).toContain(`connect-src ws://127.0.0.1:${inspector.port}`)
    expect(csp).toContain("default-src 'none'")
    expect(await response.text()).not.toMatch(/<script>|\son\w+=/)

    const { viewer, errors } = await openViewer()
    const { WebSocket } = await import('ws')
    const ws = new WebSocket(inspector.url)
    await new Promise((resolve) => ws.once('open', resolve))
    const hostile = '<img src=x onerror="document.title=1">'
    const rid = `hostile-${Date.now()}`
    ws.send(
      JSON.stringify({
        type: '@walletstate.recording',
        rid,
        seq: 1,
        format: 'walletstate-recording',
        version: 1,
        startedAt: hostile,
        redacted: false,
      }),
    )
    ws.send(
      JSON.stringify({ type: '@xstate.actor', rid, seq: 2, sessionId: 'h:0', id: hostile, kind: 'other' }),
    )
    ws.send(
      JSON.stringify({ type: '@xstate.event', rid, seq: 3, sessionId: 'h:0', event: { type: hostile } }),
    )
    await viewer.getByLabel('Recorder').selectOption(rid)
    await expect.poll(() => viewer.locator('#events .ev').allTextContents()).toEqual([hostile])
    expect(await viewer.locator('#actors').textContent()).toContain(hostile)
    expect(await viewer.locator('img').count()).toBe(0)
    expect(await viewer.title()).toBe('Walletstate inspector')
    expect(errors).toEqual([])
    ws.close()
    await viewer.close()
  })

  it('refuses records that are not inspection events', async () => {
    const { inspector } = e2e.sandbox
    const count = (type: string) =>
      (inspector.records() as { type: string }[]).filter((r) => r.type === type).length
    const probes = () =>
      (inspector.records() as { type: string; event?: { type?: string } }[]).filter(
        (r) => r.type === '@xstate.event' && r.event?.type === 'probe',
      ).length
    const { WebSocket } = await import('ws')
    const ws = new WebSocket(inspector.url)
    await new Promise((resolve) => ws.once('open', resolve))
    ws.send('not json')
    ws.send(JSON.stringify({ type: 'evil', payload: '<script>' }))
    ws.send(JSON.stringify({ type: '@walletstate.probe', rid: 'p', seq: 1 }))
    ws.send(JSON.stringify({ type: '@xstate.event', event: { type: 'probe' }, sessionId: 'x' }))
    await expect.poll(probes).toBe(1)
    expect(count('@walletstate.probe')).toBe(1)
    expect(count('evil')).toBe(0)
    expect(JSON.stringify(inspector.records())).not.toContain('not json')
    ws.close()
  })
})
