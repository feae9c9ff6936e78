import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import type { BrowserContext } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectionMachine, frameMachine } from '../../src/machines/index.ts'
import { recordingOf } from '../../src/recording/format.ts'
import {
  formatReplayResult,
  type RecordEntry,
  type Recording,
  replayRecording,
} from '../../src/testing/index.ts'
import {
  dialog,
  type E2eContext,
  freshEmail,
  hostButton,
  SHORT_ADDRESS,
  startE2e,
  truncated,
} from './support.ts'

/**
 * Issue 33 point 7 on real sessions: with the demo's recorder on (`?inspect=`, redaction on by default), a
 * phone connects a WalletConnect wallet by its mobile deep link (the pairing URI, its symKey included,
 * URL-encoded in the link the kit stores and opens), and a desktop visitor logs in with Google through the
 * sandbox's identity page (its `state`, its one-time callback token, the visitor's e-mail). The recordings are
 * saved to a file, and the file holds none of the secrets this run saw, raw or URL-encoded.
 */
const ANDROID_CHROME =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36'
const ARTIFACTS = '.tmp/test-artifacts/recording'

let e2e: E2eContext
let phone: BrowserContext | undefined

beforeAll(async () => {
  e2e = await startE2e()
})
afterAll(async () => {
  await phone?.close()
  await e2e?.close()
})

/** The recordings of every recorder (page load) that started since `before`, one per page load. */
function recordingsSince(before: Set<string>): Recording[] {
  const records = e2e.sandbox.inspector.records() as RecordEntry[]
  return records
    .filter((r) => r.type === '@walletstate.recording' && !before.has(r.rid))
    .map((header) =>
      recordingOf(
        header as Extract<RecordEntry, { type: '@walletstate.recording' }>,
        records.filter((r) => r.rid === header.rid),
      ),
    )
}
const recorders = () => new Set((e2e.sandbox.inspector.records() as RecordEntry[]).map((r) => r.rid))

/** Saves the recordings as "Save recording" would, and reads the file back. */
function saveAndRead(name: string, recordings: Recording[]): string {
  mkdirSync(ARTIFACTS, { recursive: true })
  const file = `${ARTIFACTS}/${name}.json`
  writeFileSync(file, JSON.stringify(recordings))
  return readFileSync(file, 'utf8')
}

/** The secret appears nowhere in the file: not raw, not URL-encoded once or twice, in any case of its hex. */
function expectNoSecret(text: string, secret: string, what: string) {
  expect(secret.length, what).toBeGreaterThan(5)
  const lower = text.toLowerCase()
  for (const form of [secret, encodeURIComponent(secret), encodeURIComponent(encodeURIComponent(secret))])
    expect(lower.includes(form.toLowerCase()), `${what} (${form}) is in the recording`).toBe(false)
}

const eventTypes = (recordings: Recording[]) =>
  recordings.flatMap((recording) =>
    recording.records.flatMap((r) => (r.type === '@xstate.event' ? [r.event.type] : [])),
  )

describe('a recorded session holds no secret', () => {
  it('a phone pairing a WalletConnect wallet by its deep link: no pairing key in the recording', async () => {
    const before = recorders()
    phone = await e2e.browser.newContext({
      viewport: { width: 375, height: 740 },
      userAgent: ANDROID_CHROME,
      isMobile: true,
      hasTouch: true,
    })
    const page = await phone.newPage()
    const demoUrl = `${e2e.sandbox.demo!.url}?inspect=${encodeURIComponent(e2e.sandbox.inspector.url)}`
    await page.goto(demoUrl)
    const walletPage = e2e.sandbox.wallets.wcWalletUrl
    await hostButton(page).tap()
    await dialog(page).getByRole('button', { name: 'All Wallets' }).tap()
    await page.getByRole('textbox', { name: 'Search wallets' }).fill('Walletstate WC')
    const opened = page.waitForRequest((request) => request.url().startsWith(`${walletPage}wc?uri=`), {
      timeout: 60_000,
    })
    await dialog(page)
      .getByRole('button', { name: /Walletstate WC Wallet/ })
      .tap()
    // The pairing URI this run made, from the deep link the kit opened: its symKey is the secret.
    const href = (await opened).url()
    const uri = new URL(href).searchParams.get('uri') ?? ''
    const symKey = /[?&]symKey=([0-9a-fA-F]{64})/.exec(uri)?.[1]
    expect(symKey, uri).toBeDefined()

    const proposal = page.getByRole('region', { name: 'Session proposal' })
    await proposal.getByText('Walletstate demo').first().waitFor({ timeout: 30_000 })
    await proposal.getByRole('button', { name: 'Approve' }).tap()
    await expect.poll(() => page.locator('#sessions li').count(), { timeout: 20_000 }).toBe(1)
    await page.goBack()
    await expect
      .poll(() => hostButton(page).textContent(), { timeout: 30_000 })
      .toBe(truncated(e2e.sandbox.wallets.wcAddress))

    // The page before the wallet and the page after it: the deep link was recorded (the event carrying it,
    // and the resumed connection's stored link), so its absence below is the redaction's doing.
    let recordings: Recording[] = []
    await expect
      .poll(() => {
        recordings = recordingsSince(before)
        return eventTypes(recordings).filter((type) => type === 'connection.wcLinking').length
      })
      .toBeGreaterThan(0)
    const text = saveAndRead('walletconnect-mobile', recordings)
    expect(text).toContain('symKey%3D')
    expectNoSecret(text, symKey!, 'the pairing key')
    // Redacted, it still replays: the blanked key keeps the shape of a pairing URI.
    const replayed = recordings.filter((recording) =>
      recording.records.some((r) => r.type === '@xstate.actor' && r.machine?.id === 'connection'),
    )
    expect(replayed.length).toBeGreaterThan(0)
    for (const recording of replayed) {
      const result = replayRecording(recording, { machine: connectionMachine })
      expect(result.ok, formatReplayResult(result)).toBe(true)
    }
  })

  it('a Google login through the identity page: no state, no one-time callback token, no e-mail', async () => {
    const before = recorders()
    const page = await e2e.newPage(`?inspect=${encodeURIComponent(e2e.sandbox.inspector.url)}`)
    const seen: string[] = []
    page.context().on('request', (request) => seen.push(request.url()))
    await hostButton(page).click()
    const google = dialog(page).getByRole('button', { name: 'Google' })
    await expect.poll(() => google.isEnabled(), { timeout: 30_000 }).toBe(true)
    const [popup] = await Promise.all([page.waitForEvent('popup'), google.click()])
    const email = freshEmail('recorded-social')
    await popup.getByRole('textbox', { name: 'Email' }).waitFor({ timeout: 30_000 })
    await popup.getByRole('textbox', { name: 'Email' }).fill(email)
    await popup.getByRole('button', { name: 'Continue' }).click()
    await expect.poll(() => hostButton(page).textContent(), { timeout: 30_000 }).toMatch(SHORT_ADDRESS)

    // This run's secrets, from the URLs the browser loaded: the identity page's `state` and the one-time token
    // the secure site put in the callback (its OAuth code).
    const param = (name: string) =>
      seen.flatMap((url) => {
        const value = new URL(url).searchParams.get(name)
        return value ? [value] : []
      })[0]
    const state = param('state')
    const oneTime = param('walletstate_social')
    expect(state, seen.join('\n')).toBeDefined()
    expect(oneTime, seen.join('\n')).toBeDefined()

    let recordings: Recording[] = []
    await expect
      .poll(() => {
        recordings = recordingsSince(before)
        return eventTypes(recordings)
      })
      .toContain('frame.socialCallback')
    const text = saveAndRead('social-login', recordings)
    expectNoSecret(text, state!, 'the OAuth state')
    expectNoSecret(text, oneTime!, 'the one-time callback token (the OAuth code)')
    expectNoSecret(text, email, 'the e-mail')
    expectNoSecret(text, email.split('@')[0]!, "the e-mail's local part")
    expect(text).toContain('walletstate_social=')
    const replayed = recordings.filter((recording) =>
      recording.records.some((r) => r.type === '@xstate.actor' && r.machine?.id === 'frame'),
    )
    expect(replayed.length).toBeGreaterThan(0)
    for (const recording of replayed) {
      const result = replayRecording(recording, { machine: frameMachine })
      expect(result.ok, formatReplayResult(result)).toBe(true)
    }
    await page.close()
  })
})
