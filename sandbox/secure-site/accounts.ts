import { createHash, randomBytes, randomInt, randomUUID } from 'node:crypto'
import type { PGlite, Transaction } from '@electric-sql/pglite'
import { type Address, getAddress, type Hex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import type { KeyVault, SealedKey } from './keys.ts'
import { RateLimit } from './rate-limit.ts'
import { type AccountType, type AccountView, SOCIAL_TOKEN_PARAM } from './shared.ts'
import { generateSolanaKey } from './solana-wallet.ts'
import { smartAccountAddress, type WalletAccount } from './wallet.ts'

/** An HTTP answer the API turns into `errorJson(status, message, { code })`. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code?: number,
    readonly headers: Record<string, string> = {},
  ) {
    super(message)
  }
}

/** One delivered e-mail, as `GET /mailbox?to=` answers it (DESIGN.md "The sandbox"). */
export interface Mail {
  to: string
  subject: string
  text: string
  /** The one-time code, for code mails. */
  code?: string
  /** The link to open, for device-verification mails. */
  link?: string
  /** ISO 8601 time it was sent. */
  at: string
}

/** An account row with its sealed key, as the server uses it internally. */
export interface AccountRecord extends WalletAccount {
  id: string
  email: string | undefined
  farcasterName: string | undefined
  /** The Solana address (base58); `undefined` only for a row made before Solana keys, until first used. */
  solana: string | undefined
}

export interface AccountServiceOptions {
  pg: PGlite
  vault: KeyVault
  /** The site's origin, for links in mails and stand-in page URLs. */
  origin: string
  /** Minimum time between two mails of one kind to one address (default 10 s). */
  mailIntervalMs: number
  /** Ask a new device of an existing account to confirm by an e-mailed link (default on). */
  verifyNewDevices: boolean
  /** Called once per new account (the faucet); awaited before the account's first transaction. */
  onAccountCreated: (account: AccountRecord) => Promise<void>
  /**
   * Called when an older account (made before Solana keys) gets its Solana key, to fund it as a new account's
   * is; awaited as {@link onAccountCreated} is. Default: nothing.
   */
  onSolanaKeyAdded?: (address: string) => Promise<void>
  /** Whether the smart account has code on chain. */
  isDeployed: (address: Address) => Promise<boolean>
  /** The clock of the per-address rate limit (tests move it); default `Date.now`. */
  now?: () => number
}

type MailPurpose = 'login-code' | 'device-link' | 'update-primary' | 'update-secondary'

/** How long a sign-in (code, device link, social or Farcaster request) stays usable. */
const LOGIN_TTL_MS = 10 * 60_000
const SESSION_TTL_MS = 7 * 24 * 60 * 60_000
/** Wrong codes allowed per sign-in or e-mail change before a new code is needed. */
export const MAX_CODE_ATTEMPTS = 5
/** Ours: code checks allowed per e-mail address in one window, across its sign-ins and e-mail changes. */
export const CODE_ATTEMPTS_PER_ADDRESS = 10
/** Ours: the window of {@link CODE_ATTEMPTS_PER_ADDRESS}. */
export const CODE_ATTEMPT_WINDOW_MS = 10 * 60_000

interface AccountRow {
  id: string
  email: string | null
  farcaster_name: string | null
  address: string
  smart_account_address: string
  solana_address: string | null
  preferred_account_type: AccountType
}

const ACCOUNT_COLUMNS =
  'id, email, farcaster_name, address, smart_account_address, solana_address, preferred_account_type'

/**
 * The secure site's accounts: e-mail sign-in with one-time codes and device verification, the social and
 * Farcaster stand-ins, sessions, e-mail changes and the mailbox. Every secret it hands out (codes, tokens,
 * links) is stored hashed; the embedded wallet keys are sealed by the {@link KeyVault}.
 */
export class AccountService {
  readonly #o: AccountServiceOptions
  /** Funding of new accounts still running, awaited before their first transaction. */
  readonly #funding = new Map<string, Promise<void>>()
  /** Code checks per account (one e-mail address), across its sign-ins and e-mail changes. */
  readonly #codeChecks: RateLimit

  constructor(options: AccountServiceOptions) {
    this.#o = options
    this.#codeChecks = new RateLimit({
      limit: CODE_ATTEMPTS_PER_ADDRESS,
      windowMs: CODE_ATTEMPT_WINDOW_MS,
      ...(options.now ? { now: options.now } : {}),
    })
  }

  /** Counts one code check of the account, or refuses with 429 when its address used up the window. */
  #takeCodeCheck(accountId: string): void {
    const waitMs = this.#codeChecks.take(accountId)
    if (waitMs === 0) return
    const seconds = Math.ceil(waitMs / 1000)
    throw new ApiError(
      429,
      `Too many codes tried for this address: try again in ${seconds} seconds`,
      undefined,
      {
        'Retry-After': String(seconds),
      },
    )
  }

  get #pg(): PGlite {
    return this.#o.pg
  }

  // --- mailbox -------------------------------------------------------------------------------------------

  /** Mails to `to`, newest first. */
  async mailbox(to: string): Promise<Mail[]> {
    const { rows } = await this.#pg.query<{
      to_address: string
      subject: string
      body: string
      code: string | null
      link: string | null
      sent_at: Date
    }>(
      'SELECT to_address, subject, body, code, link, sent_at FROM secure_mail WHERE to_address = $1 ORDER BY seq DESC LIMIT 200',
      [to.trim().toLowerCase()],
    )
    return rows.map(toMail)
  }

  /** Every mail, newest first (the mailbox page for people). */
  async allMail(limit = 200): Promise<Mail[]> {
    const { rows } = await this.#pg.query<{
      to_address: string
      subject: string
      body: string
      code: string | null
      link: string | null
      sent_at: Date
    }>('SELECT to_address, subject, body, code, link, sent_at FROM secure_mail ORDER BY seq DESC LIMIT $1', [
      limit,
    ])
    return rows.map(toMail)
  }

  /** Refuses with 429 when a mail of this kind went to `to` less than the interval ago. */
  async #throttle(db: PGlite | Transaction, to: string, purpose: MailPurpose): Promise<void> {
    const { rows } = await db.query<{ sent_at: Date }>(
      'SELECT sent_at FROM secure_mail WHERE to_address = $1 AND purpose = $2 ORDER BY seq DESC LIMIT 1',
      [to, purpose],
    )
    const last = rows[0]?.sent_at
    if (last === undefined) return
    const waitMs = last.getTime() + this.#o.mailIntervalMs - Date.now()
    if (waitMs <= 0) return
    const seconds = Math.ceil(waitMs / 1000)
    const what = purpose === 'device-link' ? 'A verification link' : 'A code'
    throw new ApiError(
      429,
      `${what} was sent to ${to} less than ${Math.ceil(this.#o.mailIntervalMs / 1000)} seconds ago: try again in ${seconds} seconds`,
      undefined,
      { 'Retry-After': String(seconds) },
    )
  }

  async #send(
    db: PGlite | Transaction,
    mail: { to: string; purpose: MailPurpose; subject: string; text: string; code?: string; link?: string },
  ): Promise<void> {
    await db.query(
      'INSERT INTO secure_mail (to_address, purpose, subject, body, code, link, sent_at) VALUES ($1, $2, $3, $4, $5, $6, $7)',
      [mail.to, mail.purpose, mail.subject, mail.text, mail.code ?? null, mail.link ?? null, new Date()],
    )
  }

  // --- accounts ------------------------------------------------------------------------------------------

  async #findAccount(
    db: PGlite | Transaction,
    by: 'id' | 'email' | 'farcaster_name',
    value: string,
  ): Promise<AccountRecord | undefined> {
    const { rows } = await db.query<AccountRow>(
      `SELECT ${ACCOUNT_COLUMNS} FROM secure_accounts WHERE ${by} = $1`,
      [value],
    )
    return rows[0] ? toRecord(rows[0]) : undefined
  }

  /** Finds the account of an identity, creating it (with a fresh sealed key) on first sight. */
  async #findOrCreate(identity: { email: string } | { farcasterName: string }): Promise<AccountRecord> {
    const [column, value] =
      'email' in identity
        ? (['email', identity.email] as const)
        : (['farcaster_name', identity.farcasterName] as const)
    const existing = await this.#findAccount(this.#pg, column, value)
    if (existing) return existing
    const id = randomUUID()
    const privateKey = generatePrivateKey()
    const eoa = privateKeyToAccount(privateKey).address
    const sealed = this.#o.vault.seal(privateKey, id)
    const solana = generateSolanaKey()
    const solanaSealed = this.#o.vault.seal(solana.seed, id, 'solana')
    await this.#pg.query(
      `INSERT INTO secure_accounts (id, email, farcaster_name, address, smart_account_address, key_iv, key_tag,
         key_ciphertext, solana_address, solana_key_iv, solana_key_tag, solana_key_ciphertext, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) ON CONFLICT DO NOTHING`,
      [
        id,
        'email' in identity ? identity.email : null,
        'farcasterName' in identity ? identity.farcasterName : null,
        eoa,
        smartAccountAddress(eoa),
        sealed.iv,
        sealed.tag,
        sealed.ciphertext,
        solana.address,
        solanaSealed.iv,
        solanaSealed.tag,
        solanaSealed.ciphertext,
        new Date(),
      ],
    )
    // A concurrent first sign-in may have won the insert: the row that exists is the account.
    const account = await this.#findAccount(this.#pg, column, value)
    if (!account) throw new Error('The account could not be created')
    if (account.id === id) this.#fund(account.id, account.eoa, () => this.#o.onAccountCreated(account))
    return account
  }

  /** Runs one funding of the account, tracked so its first transaction waits for it; a failure is logged. */
  #fund(accountId: string, what: string, task: () => Promise<void>): void {
    const previous = this.#funding.get(accountId) ?? Promise.resolve()
    const funding = previous.then(task).catch((error: unknown) => {
      console.error(`secure-site: funding ${what} failed:`, error)
    })
    this.#funding.set(accountId, funding)
    void funding.then(() => {
      if (this.#funding.get(accountId) === funding) this.#funding.delete(accountId)
    })
  }

  /**
   * The account's Solana address. An account made before Solana keys gets its key now (sealed as every key
   * is, and funded through {@link AccountServiceOptions.onSolanaKeyAdded}); a concurrent call keeps the first.
   */
  async solanaAddress(account: AccountRecord): Promise<string> {
    if (account.solana) return account.solana
    const solana = generateSolanaKey()
    const sealed = this.#o.vault.seal(solana.seed, account.id, 'solana')
    const { rows } = await this.#pg.query<{ solana_address: string }>(
      `UPDATE secure_accounts
       SET solana_address = $2, solana_key_iv = $3, solana_key_tag = $4, solana_key_ciphertext = $5
       WHERE id = $1 AND solana_address IS NULL RETURNING solana_address`,
      [account.id, solana.address, sealed.iv, sealed.tag, sealed.ciphertext],
    )
    if (rows[0]) {
      const added = this.#o.onSolanaKeyAdded
      if (added) this.#fund(account.id, solana.address, () => added(solana.address))
      return solana.address
    }
    const current = await this.#findAccount(this.#pg, 'id', account.id)
    if (!current?.solana) throw new ApiError(404, 'No such account')
    return current.solana
  }

  /** Waits for a new account's funding to land (its first transaction needs the gas). */
  async funded(accountId: string): Promise<void> {
    await this.#funding.get(accountId)
  }

  /** Funding still running, for a clean shutdown. */
  async settle(): Promise<void> {
    await Promise.all(this.#funding.values())
  }

  /** Opens the account's sealed key: only the signing path calls this, and the key never leaves the server. */
  async privateKey(accountId: string): Promise<Hex> {
    const { rows } = await this.#pg.query<{
      key_iv: Uint8Array
      key_tag: Uint8Array
      key_ciphertext: Uint8Array
    }>('SELECT key_iv, key_tag, key_ciphertext FROM secure_accounts WHERE id = $1', [accountId])
    const row = rows[0]
    if (!row) throw new ApiError(404, 'No such account')
    return this.#o.vault.open({ iv: row.key_iv, tag: row.key_tag, ciphertext: row.key_ciphertext }, accountId)
  }

  /** Opens the account's sealed Solana seed, as {@link privateKey} opens the EVM key. */
  async solanaSeed(accountId: string): Promise<Hex> {
    const { rows } = await this.#pg.query<{
      solana_key_iv: Uint8Array | null
      solana_key_tag: Uint8Array | null
      solana_key_ciphertext: Uint8Array | null
    }>('SELECT solana_key_iv, solana_key_tag, solana_key_ciphertext FROM secure_accounts WHERE id = $1', [
      accountId,
    ])
    const row = rows[0]
    if (!row) throw new ApiError(404, 'No such account')
    if (!row.solana_key_iv || !row.solana_key_tag || !row.solana_key_ciphertext) {
      throw new ApiError(409, 'The account has no Solana key yet')
    }
    const sealed: SealedKey = {
      iv: row.solana_key_iv,
      tag: row.solana_key_tag,
      ciphertext: row.solana_key_ciphertext,
    }
    return this.#o.vault.open(sealed, accountId, 'solana')
  }

  /** The account as the frame sees it (no key material). */
  async view(account: AccountRecord): Promise<AccountView> {
    return {
      ...(account.email ? { email: account.email } : {}),
      ...(account.farcasterName ? { userName: account.farcasterName } : {}),
      eoa: account.eoa,
      smartAccount: account.smartAccount,
      solana: await this.solanaAddress(account),
      preferredAccountType: account.preferredAccountType,
      smartAccountDeployed: await this.#o.isDeployed(account.smartAccount),
    }
  }

  async setPreferredAccount(account: AccountRecord, type: AccountType): Promise<AccountRecord> {
    await this.#pg.query('UPDATE secure_accounts SET preferred_account_type = $2 WHERE id = $1', [
      account.id,
      type,
    ])
    return { ...account, preferredAccountType: type }
  }

  // --- e-mail sign-in ------------------------------------------------------------------------------------

  /**
   * Starts an e-mail sign-in: finds or creates the account, then mails a code, or, for a device the account
   * has not seen (when it has seen others), a verification link first.
   */
  async startEmailLogin(
    email: string,
    deviceId: string,
  ): Promise<{ loginId: string; action: 'VERIFY_OTP' | 'VERIFY_DEVICE' }> {
    const purpose: MailPurpose = 'login-code'
    // Throttle before creating anything, so a refused request leaves no trace.
    const account = await this.#findAccount(this.#pg, 'email', email)
    const needsDevice =
      account !== undefined && this.#o.verifyNewDevices && (await this.#isNewDevice(account.id, deviceId))
    await this.#throttle(this.#pg, email, needsDevice ? 'device-link' : purpose)
    const record = account ?? (await this.#findOrCreate({ email }))
    const loginId = token()
    const now = new Date()
    const expires = new Date(now.getTime() + LOGIN_TTL_MS)
    if (needsDevice) {
      const linkToken = token()
      const link = `${this.#o.origin}/verify-device?token=${linkToken}`
      await this.#pg.transaction(async (tx) => {
        await tx.query(
          `INSERT INTO secure_logins (id, account_id, device_id, device_token_hash, created_at, expires_at)
           VALUES ($1, $2, $3, $4, $5, $6)`,
          [loginId, record.id, deviceId, digest(linkToken), now, expires],
        )
        await this.#send(tx, {
          to: email,
          purpose: 'device-link',
          subject: 'Approve a new device',
          text: `Someone is signing in to your wallet from a new device. If it was you, open this link to approve the device: ${link}\nThe link works once, for 10 minutes.`,
          link,
        })
      })
      return { loginId, action: 'VERIFY_DEVICE' }
    }
    const code = otp()
    await this.#pg.transaction(async (tx) => {
      await tx.query(
        `INSERT INTO secure_logins (id, account_id, device_id, code_hash, created_at, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6)`,
        [loginId, record.id, deviceId, digest(code), now, expires],
      )
      await this.#send(tx, codeMail(email, purpose, code, 'Your sign-in code'))
    })
    return { loginId, action: 'VERIFY_OTP' }
  }

  async #isNewDevice(accountId: string, deviceId: string): Promise<boolean> {
    const { rows } = await this.#pg.query<{ known: boolean; any: boolean }>(
      `SELECT bool_or(device_id = $2) AS known, count(*) > 0 AS any FROM secure_devices WHERE account_id = $1`,
      [accountId, deviceId],
    )
    const row = rows[0]
    return row?.any === true && row.known !== true
  }

  /**
   * Opens a device-verification link: approves the device and mails the sign-in code. Not throttled: only the
   * mailbox's owner holds the link, and it works once.
   */
  async verifyDevice(linkToken: string): Promise<{ email: string }> {
    const { rows } = await this.#pg.query<{
      id: string
      account_id: string
      device_id: string
      email: string | null
      expires_at: Date
      device_verified_at: Date | null
      finished_at: Date | null
    }>(
      `SELECT l.id, l.account_id, l.device_id, a.email, l.expires_at, l.device_verified_at, l.finished_at
       FROM secure_logins l JOIN secure_accounts a ON a.id = l.account_id WHERE l.device_token_hash = $1`,
      [digest(linkToken)],
    )
    const login = rows[0]
    if (!login?.email || login.finished_at || login.expires_at.getTime() < Date.now()) {
      throw new ApiError(410, 'This link is invalid or has expired: sign in again to get a new one')
    }
    if (login.device_verified_at) throw new ApiError(409, 'This device was already approved')
    const code = otp()
    const email = login.email
    await this.#pg.transaction(async (tx) => {
      const now = new Date()
      await tx.query('UPDATE secure_logins SET device_verified_at = $2, code_hash = $3 WHERE id = $1', [
        login.id,
        now,
        digest(code),
      ])
      await tx.query(
        'INSERT INTO secure_devices (account_id, device_id, verified_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
        [login.account_id, login.device_id, now],
      )
      await this.#send(tx, codeMail(email, 'login-code', code, 'Your sign-in code'))
    })
    return { email }
  }

  /** Whether the sign-in's device was approved (the frame polls this while the visitor reads the mail). */
  async deviceStatus(loginId: string): Promise<{ verified: boolean }> {
    const login = await this.#login(loginId)
    return { verified: login.device_token_hash === null || login.device_verified_at !== null }
  }

  async #login(loginId: string) {
    const { rows } = await this.#pg.query<{
      id: string
      account_id: string
      device_id: string
      code_hash: string | null
      attempts: number
      device_token_hash: string | null
      device_verified_at: Date | null
      expires_at: Date
      finished_at: Date | null
    }>('SELECT * FROM secure_logins WHERE id = $1', [loginId])
    const login = rows[0]
    if (!login || login.finished_at)
      throw new ApiError(404, 'No sign-in in progress: enter your e-mail first')
    if (login.expires_at.getTime() < Date.now())
      throw new ApiError(410, 'The sign-in expired: enter your e-mail again')
    return login
  }

  /** Checks the one-time code of an e-mail sign-in and opens a session. */
  async finishEmailLogin(loginId: string, code: string): Promise<{ token: string; account: AccountRecord }> {
    const login = await this.#login(loginId)
    if (login.code_hash === null) {
      throw new ApiError(403, 'Approve this device first: open the link we e-mailed you')
    }
    this.#takeCodeCheck(login.account_id)
    // The check and the count in one statement: parallel guesses cannot all read the count before any of
    // them raises it, so no more than MAX_CODE_ATTEMPTS wrong codes are ever checked.
    const { rows } = await this.#pg.query<{ ok: boolean }>(
      `UPDATE secure_logins
       SET attempts = attempts + CASE WHEN code_hash = $2 THEN 0 ELSE 1 END,
           finished_at = CASE WHEN code_hash = $2 THEN $3::timestamptz ELSE NULL END
       WHERE id = $1 AND finished_at IS NULL AND code_hash IS NOT NULL AND attempts < $4 AND expires_at >= $3
       RETURNING finished_at IS NOT NULL AS ok`,
      [loginId, digest(code), new Date(), MAX_CODE_ATTEMPTS],
    )
    const checked = rows[0]
    if (!checked) {
      // Nothing was checked: say why (finished or expired meanwhile, or out of attempts).
      const current = await this.#login(loginId)
      if (current.attempts >= MAX_CODE_ATTEMPTS)
        throw new ApiError(429, 'Too many wrong codes: request a new code')
      throw new ApiError(404, 'No sign-in in progress: enter your e-mail first')
    }
    if (!checked.ok) throw new ApiError(400, 'Invalid code')
    await this.#pg.query(
      'INSERT INTO secure_devices (account_id, device_id, verified_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
      [login.account_id, login.device_id, new Date()],
    )
    return this.#openSession(login.account_id, login.device_id, 'email')
  }

  // --- sessions ------------------------------------------------------------------------------------------

  async #openSession(
    accountId: string,
    deviceId: string,
    method: string,
  ): Promise<{ token: string; account: AccountRecord }> {
    const sessionToken = token()
    const now = new Date()
    await this.#pg.query(
      `INSERT INTO secure_sessions (token_hash, account_id, device_id, method, created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [digest(sessionToken), accountId, deviceId, method, now, new Date(now.getTime() + SESSION_TTL_MS)],
    )
    const account = await this.#findAccount(this.#pg, 'id', accountId)
    if (!account) throw new ApiError(404, 'No such account')
    return { token: sessionToken, account }
  }

  /** The account of a session token; 401 when the token is unknown, expired or signed out. */
  async authenticate(sessionToken: string | undefined): Promise<AccountRecord> {
    if (!sessionToken) throw new ApiError(401, 'Not signed in', 4100)
    const { rows } = await this.#pg.query<AccountRow & { expires_at: Date; revoked_at: Date | null }>(
      `SELECT a.id, a.email, a.farcaster_name, a.address, a.smart_account_address, a.solana_address,
              a.preferred_account_type, s.expires_at, s.revoked_at
       FROM secure_sessions s JOIN secure_accounts a ON a.id = s.account_id WHERE s.token_hash = $1`,
      [digest(sessionToken)],
    )
    const row = rows[0]
    if (!row || row.revoked_at || row.expires_at.getTime() < Date.now()) {
      throw new ApiError(401, 'The session has expired: sign in again', 4100)
    }
    return toRecord(row)
  }

  async signOut(sessionToken: string): Promise<void> {
    await this.#pg.query(
      'UPDATE secure_sessions SET revoked_at = $2 WHERE token_hash = $1 AND revoked_at IS NULL',
      [digest(sessionToken), new Date()],
    )
  }

  // --- social and Farcaster stand-ins --------------------------------------------------------------------

  /** Starts a stand-in identity request; answers its id (the social `state` or the Farcaster channel). */
  async startIdentityRequest(
    kind: 'social' | 'farcaster',
    provider: string,
    deviceId: string,
    returnTo?: string,
  ): Promise<string> {
    const id = token()
    const now = new Date()
    await this.#pg.query(
      `INSERT INTO secure_identity_requests (id, kind, provider, device_id, return_to, created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [id, kind, provider, deviceId, returnTo ?? null, now, new Date(now.getTime() + LOGIN_TTL_MS)],
    )
    return id
  }

  async #identityRequest(id: string, kind: 'social' | 'farcaster') {
    const { rows } = await this.#pg.query<{
      id: string
      provider: string
      device_id: string
      return_to: string | null
      email: string | null
      farcaster_name: string | null
      completed_at: Date | null
      used_at: Date | null
      expires_at: Date
    }>('SELECT * FROM secure_identity_requests WHERE id = $1 AND kind = $2', [id, kind])
    const request = rows[0]
    if (!request || request.used_at || request.expires_at.getTime() < Date.now()) {
      throw new ApiError(410, 'This sign-in request is invalid or has expired: start again from the app')
    }
    return request
  }

  /** Whether a stand-in page may be shown for `id` (for a clear error page instead of a dead form). */
  async identityRequestOpen(
    id: string,
    kind: 'social' | 'farcaster',
  ): Promise<{ provider: string; done: boolean }> {
    const request = await this.#identityRequest(id, kind)
    return { provider: request.provider, done: request.completed_at !== null }
  }

  /** The social stand-in's "Continue": records who signed in and answers the app URL to redirect back to. */
  async completeSocial(state: string, provider: string, email: string): Promise<string> {
    const request = await this.#identityRequest(state, 'social')
    if (request.provider !== provider) throw new ApiError(400, `This request is for ${request.provider}`)
    if (request.completed_at || !request.return_to)
      throw new ApiError(409, 'This sign-in was already completed')
    const oneTime = token()
    await this.#pg.query(
      'UPDATE secure_identity_requests SET email = $2, completed_at = $3, result_token_hash = $4 WHERE id = $1',
      [state, email, new Date(), digest(oneTime)],
    )
    const back = new URL(request.return_to)
    back.searchParams.set(SOCIAL_TOKEN_PARAM, oneTime)
    return back.toString()
  }

  /** Signs in with the one-time token the social stand-in put in the URL it redirected to. */
  async finishSocial(uri: string, deviceId: string): Promise<{ token: string; account: AccountRecord }> {
    let oneTime: string | null = null
    try {
      oneTime = new URL(uri).searchParams.get(SOCIAL_TOKEN_PARAM)
    } catch {
      throw new ApiError(400, 'The social sign-in URI is not a URL')
    }
    if (!oneTime || !/^[\w-]{16,128}$/.test(oneTime)) {
      throw new ApiError(400, `The social sign-in URI carries no ${SOCIAL_TOKEN_PARAM} token`)
    }
    const { rows } = await this.#pg.query<{ id: string }>(
      'SELECT id FROM secure_identity_requests WHERE result_token_hash = $1 AND kind = $2',
      [digest(oneTime), 'social'],
    )
    const request = await this.#identityRequest(rows[0]?.id ?? '', 'social')
    if (request.device_id !== deviceId) throw new ApiError(403, 'This sign-in was started on another device')
    if (!request.email) throw new ApiError(409, 'The social sign-in is not complete')
    const used = await this.#pg.query(
      'UPDATE secure_identity_requests SET used_at = $2 WHERE id = $1 AND used_at IS NULL',
      [request.id, new Date()],
    )
    if (used.affectedRows !== 1) throw new ApiError(410, 'This sign-in was already used')
    const account = await this.#findOrCreate({ email: request.email })
    // The identity provider vouched for the visitor: the device needs no e-mailed approval later.
    await this.#trustDevice(account.id, deviceId)
    return this.#openSession(account.id, deviceId, `social:${request.provider}`)
  }

  /** The Farcaster stand-in's "Continue": records the username; the frame's poll then signs in. */
  async completeFarcaster(channel: string, userName: string): Promise<void> {
    const request = await this.#identityRequest(channel, 'farcaster')
    if (request.completed_at) throw new ApiError(409, 'This sign-in was already completed')
    await this.#pg.query(
      'UPDATE secure_identity_requests SET farcaster_name = $2, completed_at = $3 WHERE id = $1',
      [channel, userName, new Date()],
    )
  }

  /** The frame's poll of a Farcaster channel: not yet, or a new session once the stand-in page was submitted. */
  async pollFarcaster(
    channel: string,
    deviceId: string,
  ): Promise<{ done: false } | { done: true; token: string; account: AccountRecord }> {
    const request = await this.#identityRequest(channel, 'farcaster')
    if (request.device_id !== deviceId) throw new ApiError(403, 'This sign-in was started on another device')
    if (!request.completed_at || !request.farcaster_name) return { done: false }
    const used = await this.#pg.query(
      'UPDATE secure_identity_requests SET used_at = $2 WHERE id = $1 AND used_at IS NULL',
      [channel, new Date()],
    )
    if (used.affectedRows !== 1) throw new ApiError(410, 'This sign-in was already used')
    const account = await this.#findOrCreate({ farcasterName: request.farcaster_name })
    await this.#trustDevice(account.id, deviceId)
    return { done: true, ...(await this.#openSession(account.id, deviceId, 'farcaster')) }
  }

  async #trustDevice(accountId: string, deviceId: string): Promise<void> {
    await this.#pg.query(
      'INSERT INTO secure_devices (account_id, device_id, verified_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
      [accountId, deviceId, new Date()],
    )
  }

  // --- e-mail change -------------------------------------------------------------------------------------

  /** Step 0: a code to the current address. */
  async startEmailUpdate(
    account: AccountRecord,
    newEmail: string,
  ): Promise<{ action: 'VERIFY_PRIMARY_OTP' }> {
    const current = account.email
    if (!current) throw new ApiError(403, 'Action not allowed')
    if (newEmail === current) throw new ApiError(400, 'The new e-mail is the current one')
    if (await this.#findAccount(this.#pg, 'email', newEmail)) {
      throw new ApiError(409, 'That e-mail belongs to another account')
    }
    await this.#throttle(this.#pg, current, 'update-primary')
    const code = otp()
    const now = new Date()
    await this.#pg.transaction(async (tx) => {
      await tx.query(
        `INSERT INTO secure_email_updates (account_id, new_email, primary_code_hash, created_at, expires_at)
         VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (account_id) DO UPDATE SET new_email = $2, primary_code_hash = $3, secondary_code_hash = NULL,
           attempts = 0, created_at = $4, expires_at = $5`,
        [account.id, newEmail, digest(code), now, new Date(now.getTime() + LOGIN_TTL_MS)],
      )
      await this.#send(
        tx,
        codeMail(current, 'update-primary', code, `Confirm changing your e-mail to ${newEmail}`),
      )
    })
    return { action: 'VERIFY_PRIMARY_OTP' }
  }

  async #emailUpdate(account: AccountRecord) {
    const { rows } = await this.#pg.query<{
      new_email: string
      primary_code_hash: string
      secondary_code_hash: string | null
      attempts: number
      expires_at: Date
    }>('SELECT * FROM secure_email_updates WHERE account_id = $1', [account.id])
    const update = rows[0]
    if (!update) throw new ApiError(404, 'No e-mail change in progress')
    if (update.expires_at.getTime() < Date.now())
      throw new ApiError(410, 'The e-mail change expired: start again')
    if (update.attempts >= MAX_CODE_ATTEMPTS)
      throw new ApiError(429, 'Too many wrong codes: start the change again')
    return update
  }

  /**
   * Checks the code of one step of an e-mail change, the check and the count in one statement (as for
   * sign-in codes), against the step's code column.
   */
  async #checkUpdateCode(
    account: AccountRecord,
    step: 'primary_code_hash' | 'secondary_code_hash',
    code: string,
  ): Promise<void> {
    this.#takeCodeCheck(account.id)
    // The primary step is checkable only before the secondary code exists, the secondary only after.
    const stepOpen =
      step === 'primary_code_hash' ? 'secondary_code_hash IS NULL' : 'secondary_code_hash IS NOT NULL'
    const { rows } = await this.#pg.query<{ ok: boolean }>(
      `UPDATE secure_email_updates
       SET attempts = attempts + CASE WHEN ${step} = $2 THEN 0 ELSE 1 END
       WHERE account_id = $1 AND ${stepOpen} AND attempts < $3 AND expires_at >= $4
       RETURNING ${step} = $2 AS ok`,
      [account.id, digest(code), MAX_CODE_ATTEMPTS, new Date()],
    )
    const checked = rows[0]
    if (!checked) {
      // Nothing was checked: #emailUpdate says why (gone, expired or out of attempts), else the step moved on.
      await this.#emailUpdate(account)
      throw new ApiError(409, 'The e-mail change moved on: start again')
    }
    if (!checked.ok) throw new ApiError(400, 'Invalid code')
  }

  /** Step 1: the current address's code is right; a code goes to the new address. */
  async confirmEmailUpdatePrimary(
    account: AccountRecord,
    code: string,
  ): Promise<{ action: 'VERIFY_SECONDARY_OTP' }> {
    const update = await this.#emailUpdate(account)
    if (update.secondary_code_hash !== null)
      throw new ApiError(409, 'The current e-mail is already confirmed')
    await this.#checkUpdateCode(account, 'primary_code_hash', code)
    await this.#throttle(this.#pg, update.new_email, 'update-secondary')
    const secondary = otp()
    await this.#pg.transaction(async (tx) => {
      await tx.query(
        'UPDATE secure_email_updates SET secondary_code_hash = $2, attempts = 0 WHERE account_id = $1',
        [account.id, digest(secondary)],
      )
      await this.#send(
        tx,
        codeMail(update.new_email, 'update-secondary', secondary, 'Confirm your new e-mail'),
      )
    })
    return { action: 'VERIFY_SECONDARY_OTP' }
  }

  /** Step 2: the new address's code is right; the account's e-mail changes. */
  async confirmEmailUpdateSecondary(
    account: AccountRecord,
    code: string,
  ): Promise<{ newEmail: string; account: AccountRecord }> {
    const update = await this.#emailUpdate(account)
    if (update.secondary_code_hash === null)
      throw new ApiError(409, 'Confirm the code sent to your current e-mail first')
    await this.#checkUpdateCode(account, 'secondary_code_hash', code)
    if (await this.#findAccount(this.#pg, 'email', update.new_email)) {
      throw new ApiError(409, 'That e-mail belongs to another account')
    }
    await this.#pg.transaction(async (tx) => {
      await tx.query('UPDATE secure_accounts SET email = $2 WHERE id = $1', [account.id, update.new_email])
      await tx.query('DELETE FROM secure_email_updates WHERE account_id = $1', [account.id])
    })
    return { newEmail: update.new_email, account: { ...account, email: update.new_email } }
  }
}

function toRecord(row: AccountRow): AccountRecord {
  const eoa = getAddress(row.address)
  return {
    id: row.id,
    email: row.email ?? undefined,
    farcasterName: row.farcaster_name ?? undefined,
    eoa,
    smartAccount: getAddress(row.smart_account_address),
    solana: row.solana_address ?? undefined,
    preferredAccountType: row.preferred_account_type,
  }
}

function toMail(row: {
  to_address: string
  subject: string
  body: string
  code: string | null
  link: string | null
  sent_at: Date
}): Mail {
  return {
    to: row.to_address,
    subject: row.subject,
    text: row.body,
    ...(row.code ? { code: row.code } : {}),
    ...(row.link ? { link: row.link } : {}),
    at: row.sent_at.toISOString(),
  }
}

function codeMail(to: string, purpose: MailPurpose, code: string, subject: string) {
  return {
    to,
    purpose,
    subject,
    text: `Your code is ${code}. It works once, for 10 minutes. If you did not ask for it, ignore this mail.`,
    code,
  }
}

/** 256 random bits, url-safe: session tokens, sign-in ids, link tokens. */
function token(): string {
  return randomBytes(32).toString('base64url')
}

/** Six random digits, uniformly. */
function otp(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0')
}

function digest(secret: string): string {
  return createHash('sha256').update(secret).digest('hex')
}
