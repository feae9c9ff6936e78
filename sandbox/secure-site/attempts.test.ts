import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase, type SandboxDb } from '../api/db.ts'
import {
  AccountService,
  ApiError,
  CODE_ATTEMPT_WINDOW_MS,
  CODE_ATTEMPTS_PER_ADDRESS,
  MAX_CODE_ATTEMPTS,
} from './accounts.ts'
import { KeyVault } from './keys.ts'
import { SECURE_SITE_MIGRATIONS } from './migrations.ts'

/*
 * The one-time code limits under load: a burst of parallel guesses must not get more wrong codes checked
 * than the limit allows (the check and the count are one SQL statement), and one address cannot be guessed
 * at faster than its rate limit across new sign-ins.
 */

let db: SandboxDb
let now = Date.parse('2026-01-01T00:00:00Z')

function service(): AccountService {
  return new AccountService({
    pg: db.pg,
    vault: new KeyVault(),
    origin: 'http://127.0.0.1:1',
    mailIntervalMs: 0,
    verifyNewDevices: false,
    onAccountCreated: async () => undefined,
    isDeployed: async () => false,
    now: () => now,
  })
}

let accounts: AccountService
let counter = 0
const device = () => `device-${String(++counter).padStart(12, '0')}`

async function startLogin(email: string): Promise<{ loginId: string; code: string }> {
  const { loginId } = await accounts.startEmailLogin(email, device())
  const [mail] = await accounts.mailbox(email)
  if (!mail?.code) throw new Error(`no code mailed to ${email}`)
  return { loginId, code: mail.code }
}

/** A six-digit code that is not `code`. */
const wrong = (code: string, n: number) => {
  let guess = String((Number(code) + 1 + n) % 1_000_000).padStart(6, '0')
  if (guess === code) guess = String((Number(code) + 2) % 1_000_000).padStart(6, '0')
  return guess
}

type Outcome = { kind: 'session' } | { kind: 'error'; status: number; message: string }
const attempt = (loginId: string, code: string): Promise<Outcome> =>
  accounts.finishEmailLogin(loginId, code).then(
    () => ({ kind: 'session' }) as const,
    (error: unknown) => {
      if (!(error instanceof ApiError)) throw error
      return { kind: 'error', status: error.status, message: error.message } as const
    },
  )

beforeAll(async () => {
  db = await openDatabase({ migrations: SECURE_SITE_MIGRATIONS })
  accounts = service()
}, 60_000)

afterAll(async () => {
  await db?.close()
})

describe('one-time code attempts', () => {
  it('200 parallel guesses (wrong ones first, the right one among them) never open a session after 5 wrong ones', async () => {
    for (let round = 0; round < 3; round++) {
      now += CODE_ATTEMPT_WINDOW_MS // a fresh rate-limit window: only the per-sign-in limit is under test
      const { loginId, code } = await startLogin(`burst-${round}@example.com`)
      const guesses = Array.from({ length: 200 }, (_, i) => (i === 150 + round ? code : wrong(code, i)))
      const outcomes = await Promise.all(guesses.map((guess) => attempt(loginId, guess)))
      const invalid = outcomes.filter((o) => o.kind === 'error' && o.status === 400).length
      const sessions = outcomes.filter((o) => o.kind === 'session').length
      // At most 5 wrong codes were ever checked, and the right one (sent after 150 wrong ones) came too late.
      expect(invalid).toBeLessThanOrEqual(MAX_CODE_ATTEMPTS)
      expect(sessions).toBe(0)
      expect(outcomes.filter((o) => o.kind === 'error' && o.status === 429).length).toBe(200 - invalid)
      // The sign-in stays locked: even the right code alone is refused now.
      expect(await attempt(loginId, code)).toMatchObject({ kind: 'error', status: 429 })
    }
  })

  it('a right code in a parallel burst opens exactly one session when it is within the limit', async () => {
    now += CODE_ATTEMPT_WINDOW_MS
    const { loginId, code } = await startLogin('within@example.com')
    const guesses = [wrong(code, 1), wrong(code, 2), code, code, code]
    const outcomes = await Promise.all(guesses.map((guess) => attempt(loginId, guess)))
    expect(outcomes.filter((o) => o.kind === 'session')).toHaveLength(1)
    // The other right ones find the sign-in finished.
    expect(outcomes.filter((o) => o.kind === 'error' && o.status === 404)).toHaveLength(2)
  })

  it(`limits wrong codes per address to ${CODE_ATTEMPTS_PER_ADDRESS} per window, across new sign-ins`, async () => {
    now += CODE_ATTEMPT_WINDOW_MS
    const email = 'rate@example.com'
    let checked = 0
    let limited: Outcome | undefined
    // New sign-ins reset the per-sign-in count; the per-address window does not reset.
    for (let login = 0; login < 10 && limited === undefined; login++) {
      const { loginId, code } = await startLogin(email)
      for (let i = 0; i < MAX_CODE_ATTEMPTS - 1; i++) {
        const outcome = await attempt(loginId, wrong(code, i))
        if (outcome.kind === 'error' && outcome.status === 429) {
          limited = outcome
          break
        }
        checked++
      }
    }
    expect(checked).toBe(CODE_ATTEMPTS_PER_ADDRESS)
    expect(limited).toMatchObject({
      kind: 'error',
      status: 429,
      message: expect.stringMatching(/try again in \d+ seconds/),
    })
    // Even the right code waits for the window; afterwards it works.
    const { loginId, code } = await startLogin(email)
    expect(await attempt(loginId, code)).toMatchObject({ kind: 'error', status: 429 })
    now += CODE_ATTEMPT_WINDOW_MS
    expect(await attempt(loginId, code)).toEqual({ kind: 'session' })
  })

  it('parallel wrong codes of an e-mail change are counted atomically too', async () => {
    now += CODE_ATTEMPT_WINDOW_MS
    const email = 'change@example.com'
    const { loginId, code } = await startLogin(email)
    const { account } = await accounts.finishEmailLogin(loginId, code)
    await accounts.startEmailUpdate(account, 'changed@example.com')
    const [mail] = await accounts.mailbox(email)
    if (!mail?.code) throw new Error('no change code')
    const guesses = Array.from({ length: 100 }, (_, i) => (i === 80 ? mail.code! : wrong(mail.code!, i)))
    const outcomes = await Promise.all(
      guesses.map((guess) =>
        accounts.confirmEmailUpdatePrimary(account, guess).then(
          () => 'ok',
          (error: unknown) => (error instanceof ApiError ? error.status : 'threw'),
        ),
      ),
    )
    expect(outcomes.filter((o) => o === 400).length).toBeLessThanOrEqual(MAX_CODE_ATTEMPTS)
    expect(outcomes).not.toContain('ok')
    expect(outcomes).not.toContain('threw')
  })
})
