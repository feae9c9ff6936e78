import { mkdirSync, writeFileSync } from 'node:fs'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDemoKit } from '../../demo/kit.ts'
import {
  accountMachine,
  connectionMachine,
  frameMachine,
  frameRequestMachine,
  modalMachine,
  sendMachine,
  toastMachine,
  walletsMachine,
} from '../../src/machines/index.ts'
import { recordingOf } from '../../src/recording/format.ts'
import {
  formatReplayResult,
  type RecordEntry,
  type Recording,
  replayRecording,
} from '../../src/testing/index.ts'
import {
  connectInjected,
  type E2eContext,
  freshEmail,
  hostButton,
  logInByEmail,
  mail,
  startE2e,
  truncated,
  view,
  walletPrompt,
} from './support.ts'

/**
 * Issue 21's loop on a real session: the demo streams its recorder's records to the local inspector server
 * while a visitor connects the injected dev wallet, opens Account, sends 0.01 ETH and disconnects; the
 * recording is then replayed in Node with the sandbox stopped.
 */
let e2e: E2eContext
let page: Page
let kit: ReturnType<typeof createDemoKit> | undefined
let session: Recording | undefined

beforeAll(async () => {
  e2e = await startE2e()
})
afterAll(async () => {
  await e2e?.close()
})

const ARTIFACTS = '.tmp/test-artifacts/recording'

/** The records of the one recorder (page) that started after `before` (the recorders seen until then). */
function newRecording(records: RecordEntry[], before: Set<string>): Recording {
  const header = records.find((r) => r.type === '@walletstate.recording' && !before.has(r.rid))
  if (header?.type !== '@walletstate.recording') throw new Error('no recorder header was streamed')
  return recordingOf(
    header,
    records.filter((r) => r.rid === header.rid),
  )
}

describe('recording a real session', () => {
  it('an e-mail login recorded with redaction on holds no e-mail address and no one-time code', async () => {
    const { inspector } = e2e.sandbox
    const before = new Set((inspector.records() as RecordEntry[]).map((r) => r.rid))
    const login = await e2e.newPage(`?inspect=${encodeURIComponent(inspector.url)}`)
    const email = freshEmail('recorded')
    await logInByEmail(e2e, login, email)
    const code = await mail(e2e, email, 'code')
    const recording = newRecording(inspector.records() as RecordEntry[], before)
    const text = JSON.stringify(recording)
    expect(recording.redacted).toBe(true)
    // The frame machine received both, and the recording kept their shape, not their values.
    const types = recording.records.flatMap((r) => (r.type === '@xstate.event' ? [r.event.type] : []))
    expect(types).toEqual(expect.arrayContaining(['frame.connectEmail', 'frame.submitOtp']))
    expect(text).not.toContain(email)
    expect(text).not.toContain(email.split('@')[0]!)
    expect(text).not.toContain(code)
    expect(text).toContain('@redacted.invalid')
    expect(text).toContain(`"otp":"${'0'.repeat(code.length)}"`)
    mkdirSync(ARTIFACTS, { recursive: true })
    writeFileSync(`${ARTIFACTS}/email-login.json`, text)
    // Redacted, it still replays: the stand-ins keep the shapes the guards look at.
    const demo = e2e.sandbox.demo!
    const loginKit = createDemoKit(demo.sandbox, new URL(login.url()).search, new URL(demo.url).origin)
    for (const machine of [loginKit, frameMachine, frameRequestMachine, connectionMachine, modalMachine]) {
      const result = replayRecording(recording, { machine })
      expect(result.ok, formatReplayResult(result)).toBe(true)
    }
    await login.close()
  })

  it('connect, Account, send 0.01 ETH, disconnect: every actor, event and snapshot is recorded', async () => {
    const { inspector } = e2e.sandbox
    const before = new Set((inspector.records() as RecordEntry[]).map((r) => r.rid))
    page = await e2e.newPage(`?inspect=${encodeURIComponent(inspector.url)}`)
    const me = e2e.sandbox.wallets.injectedAddress
    const recipient = e2e.sandbox.chain.accounts[1]!.address
    await connectInjected(page, me)
    await hostButton(page).click()
    await view(page, 'Account').waitFor()
    await view(page, 'Account').getByRole('button', { name: 'Send', exact: true }).click()
    await view(page, 'WalletSend')
      .getByRole('button', { name: /^(Select token|Token: )/ })
      .click()
    await view(page, 'WalletSendSelectToken').locator('button[data-symbol="ETH"]').click()
    const form = view(page, 'WalletSend')
    await form.getByRole('button', { name: 'Token: ETH' }).waitFor()
    await form.getByRole('textbox', { name: 'Amount' }).fill('0.01')
    await form.getByRole('textbox', { name: 'Receiver' }).fill(recipient)
    await form.getByRole('button', { name: 'Preview send' }).click()
    const preview = view(page, 'WalletSendPreview')
    await expect.poll(() => preview.getByTestId('send-fee').textContent()).toMatch(/^0\.\d+ ETH$/)
    await preview.getByRole('button', { name: 'Send', exact: true }).click()
    await walletPrompt(page).getByRole('button', { name: 'Approve' }).click()
    await view(page, 'WalletSend').waitFor()
    await expect.poll(() => form.getByRole('textbox', { name: 'Amount' }).inputValue()).toBe('')
    await page.locator('.ws-dialog').getByRole('button', { name: 'Back' }).click()
    await view(page, 'Account').waitFor()
    await page.getByRole('button', { name: 'Disconnect' }).click()
    await expect.poll(() => hostButton(page).textContent()).toBe('Connect Wallet')
    expect(truncated(me)).toMatch(/^0x/)

    // The page streams its records to the inspector over a socket: the last of them (the disconnect's) can still
    // be on the way when the button has changed. Wait for them before saving the session.
    await expect
      .poll(() => {
        const { records } = newRecording(inspector.records() as RecordEntry[], before)
        const connection = new Set(
          records.flatMap((r) =>
            r.type === '@xstate.actor' && r.machine?.id === 'connection' ? [r.sessionId] : [],
          ),
        )
        const after = records.findIndex(
          (r) => r.type === '@xstate.event' && r.event.type === 'connection.disconnect',
        )
        const last = records
          .filter((r) => r.type === '@xstate.snapshot' && connection.has(r.sessionId))
          .at(-1)
        return (
          after >= 0 &&
          last?.type === '@xstate.snapshot' &&
          JSON.stringify(last.value).includes('disconnected')
        )
      })
      .toBe(true)
    const records = inspector.records() as RecordEntry[]
    const recording = newRecording(records, before)
    mkdirSync(ARTIFACTS, { recursive: true })
    writeFileSync(`${ARTIFACTS}/session.json`, JSON.stringify(recording))
    const machines = new Set(
      recording.records.flatMap((r) => (r.type === '@xstate.actor' && r.machine ? [r.machine.id] : [])),
    )
    expect([...machines].sort()).toEqual([
      'account',
      // The capabilities' hosts (swap, Buy, names): recorded, though not replayed below, since their input is
      // their capability (its loader and glue are functions, which a recording cannot carry).
      'capability',
      'connection',
      'kit',
      'modal',
      'send',
      // The send's transaction (src/machines/transaction.ts) and its wallet request, children of the send flow.
      'sendWallet',
      'toast',
      'transaction',
      'wallets',
    ])
    // The events the visitor caused, as the kit received them.
    const types = recording.records.flatMap((r) => (r.type === '@xstate.event' ? [r.event.type] : []))
    for (const type of ['modal.open', 'connection.connect', 'connection.disconnect'])
      expect(types).toContain(type)

    // The same kit as the page's, built in Node from the demo's config; then the sandbox goes away.
    const demo = e2e.sandbox.demo!
    kit = createDemoKit(demo.sandbox, new URL(page.url()).search, new URL(demo.url).origin)
    session = recording
    await e2e.close()
  })

  it('replays in Node with no sandbox running: every machine, no divergence', () => {
    expect(session).toBeDefined()
    const machines = [
      kit!,
      accountMachine,
      connectionMachine,
      modalMachine,
      sendMachine,
      toastMachine,
      walletsMachine,
    ]
    const results = machines.map((machine) => replayRecording(session!, { machine }))
    for (const result of results) expect(result.ok, formatReplayResult(result)).toBe(true)
    expect(results.map((r) => r.machine)).toEqual([
      'kit',
      'account',
      'connection',
      'modal',
      'send',
      'toast',
      'wallets',
    ])
  })

  it('a changed guard in the send machine reports the first divergence: the event and both state values', () => {
    // A fixture: the send machine as if its `isSolana` guard said ETH were on Solana (which of the send's slots
    // asks the wallet, native or ERC-20, is decided by its transaction's wallet request now: send/wallet.ts).
    const changed = sendMachine.provide({ guards: { isSolana: () => true } })
    const result = replayRecording(session!, { machine: changed })
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.reason).toBe('divergence')
    expect(result.event).toMatchObject({ type: expect.any(String) })
    expect(JSON.stringify(result.expected)).toContain('eip155')
    expect(JSON.stringify(result.actual)).not.toContain('eip155')
    expect(formatReplayResult(result)).toMatch(
      /After step \d+ \(.+\)[\s\S]*event: [\s\S]*expected: [\s\S]*actual: /,
    )
  })
})
