import { randomBytes, timingSafeEqual } from 'node:crypto'
import * as v from 'valibot'
import { type Address, getAddress, type Hex } from 'viem'
import { parseSiweMessage, validateSiweMessage } from 'viem/siwe'
import { errorJson, type SandboxResponse } from '../shared/http.ts'
import type { SandboxDb } from './db.ts'
import { MAX_SIGNATURE_CHARS, SignatureSchema } from './signatures.ts'

/**
 * Sign-in sessions (SIWE, EIP-4361) of the Data API, in table `siwe_sessions` (migration 4): an app posts the
 * message the wallet signed and its signature; the sandbox checks both against its own chain (EOAs by
 * ecrecover, smart accounts by ERC-1271, or ERC-6492 before they are deployed: `verifySignedMessage` of
 * `signatures.ts`) and keeps the session until it expires or whoever holds it revokes it.
 */

/** Session ids: 16 random bytes as lower-case hex. */
export const SESSION_ID = /^[0-9a-f]{32}$/

/** Generous bound: a SIWE message is well under 2 KiB. */
const MAX_MESSAGE_CHARS = 20_000

/** `POST /v1/sessions`. */
export const SessionBodySchema = v.object({
  message: v.pipe(
    v.string('message must be a string'),
    v.minLength(1, 'message must not be empty'),
    v.maxLength(MAX_MESSAGE_CHARS, 'message is too long'),
  ),
  signature: SignatureSchema,
})

/** `POST /v1/sessions/{id}/revoke` (SPEC §7: body pci, signature). */
export const RevokeBodySchema = v.object({
  pci: v.pipe(v.string('pci must be a string'), v.maxLength(200, 'pci is too long')),
  signature: v.pipe(v.string('signature must be a string'), v.maxLength(MAX_SIGNATURE_CHARS)),
})

/** What `POST /v1/sessions` answers with 201. Times are ISO 8601; `expiresAt` is null without an expiry. */
export interface SessionCreated {
  id: string
  address: Address
  /** CAIP-2 */
  chainId: string
  domain: string
  issuedAt: string
  expiresAt: string | null
}

/** What `GET /v1/sessions/{id}` answers for a live session. */
export interface Session extends SessionCreated {
  uri: string
  message: string
  signature: Hex
}

/** A SIWE message with every field a session needs, checked but not yet verified against the chain. */
export interface CheckedSiwe {
  message: string
  address: Address
  chainId: number
  domain: string
  uri: string
  nonce: string
  issuedAt: Date
  expirationTime: Date | undefined
}

const REQUIRED = ['address', 'chainId', 'domain', 'uri', 'nonce', 'issuedAt', 'version'] as const
const bad = (detail: string) => ({ error: errorJson(400, `Invalid SIWE message: ${detail}`) })

/**
 * Parses and checks a SIWE message (viem's parser): every field a session needs, version 1, the lifetime at
 * `now`, and a chain the sandbox serves. Answers the 400 to send when it falls short.
 *
 * @example
 * const checked = checkSiweMessage(body.message, { chainId: 31337 })
 * if ('error' in checked) return checked.error
 */
export function checkSiweMessage(
  message: string,
  options: { chainId: number; now?: Date },
): { value: CheckedSiwe } | { error: SandboxResponse } {
  const now = options.now ?? new Date()
  const parsed = parseSiweMessage(message)
  const missing = REQUIRED.filter((field) => parsed[field] === undefined || parsed[field] === '')
  if (missing.length > 0) return bad(`missing ${missing.join(', ')}`)
  if (parsed.version !== '1') return bad('version must be 1')
  if (!/^[a-zA-Z0-9]{8,}$/.test(parsed.nonce!)) return bad('nonce must be at least 8 letters or digits')
  for (const field of ['issuedAt', 'expirationTime', 'notBefore'] as const) {
    if (parsed[field] && Number.isNaN(parsed[field].getTime()))
      return bad(`${field} is not an RFC 3339 date-time`)
  }
  if (parsed.expirationTime && parsed.expirationTime <= now) {
    return { error: errorJson(400, `SIWE message expired at ${parsed.expirationTime.toISOString()}`) }
  }
  if (parsed.notBefore && parsed.notBefore > now) {
    return { error: errorJson(400, `SIWE message is not valid before ${parsed.notBefore.toISOString()}`) }
  }
  // The checks above name what is wrong; viem's own validation is the last word on the rest.
  if (!validateSiweMessage({ message: parsed, time: now }))
    return { error: errorJson(400, 'Invalid SIWE message') }
  if (parsed.chainId !== options.chainId) {
    return {
      error: errorJson(400, 'Unsupported chain', {
        chainId: `eip155:${parsed.chainId}`,
        supported: [`eip155:${options.chainId}`],
      }),
    }
  }
  return {
    value: {
      message,
      address: getAddress(parsed.address!),
      chainId: parsed.chainId,
      domain: parsed.domain!,
      uri: parsed.uri!,
      nonce: parsed.nonce!,
      issuedAt: parsed.issuedAt!,
      expirationTime: parsed.expirationTime,
    },
  }
}

interface SessionRow {
  id: string
  address: string
  chain_id: string
  domain: string
  uri: string
  message: string
  signature: string
  issued_at: Date
  expires_at: Date | null
}

function created(row: SessionRow): SessionCreated {
  return {
    id: row.id,
    address: getAddress(row.address),
    chainId: row.chain_id,
    domain: row.domain,
    issuedAt: row.issued_at.toISOString(),
    expiresAt: row.expires_at?.toISOString() ?? null,
  }
}

/**
 * Stores a verified session; `undefined` when its nonce was already used for the same domain (a replay).
 * The unique key decides, so two posts of one message at once cannot both succeed.
 */
export async function storeSession(
  db: SandboxDb,
  checked: CheckedSiwe,
  signature: Hex,
): Promise<SessionCreated | undefined> {
  const { rows } = await db.pg.query<SessionRow>(
    `INSERT INTO siwe_sessions
       (id, address, chain_id, domain, uri, nonce, message, signature, issued_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
     ON CONFLICT (domain, nonce) DO NOTHING
     RETURNING id, address, chain_id, domain, uri, message, signature, issued_at, expires_at`,
    [
      randomBytes(16).toString('hex'),
      checked.address,
      `eip155:${checked.chainId}`,
      checked.domain,
      checked.uri,
      checked.nonce,
      checked.message,
      signature,
      checked.issuedAt,
      checked.expirationTime ?? null,
    ],
  )
  return rows[0] ? created(rows[0]) : undefined
}

/** A session that exists, is not revoked and has not expired at `now`; `undefined` otherwise. */
export async function liveSession(
  db: SandboxDb,
  id: string,
  now: Date = new Date(),
): Promise<Session | undefined> {
  const { rows } = await db.pg.query<SessionRow>(
    `SELECT id, address, chain_id, domain, uri, message, signature, issued_at, expires_at FROM siwe_sessions
      WHERE id = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > $2)`,
    [id, now],
  )
  const row = rows[0]
  if (!row) return undefined
  return { ...created(row), uri: row.uri, message: row.message, signature: row.signature as Hex }
}

/** Equal hex strings, whatever their case, compared in constant time. */
function sameHex(a: string, b: string): boolean {
  const left = Buffer.from(a.toLowerCase())
  const right = Buffer.from(b.toLowerCase())
  return left.length === right.length && timingSafeEqual(left, right)
}

/**
 * Ends a session for whoever holds it: `pci` must be its id and `signature` its own signature. Revoking again
 * answers the same (the first revocation's time is kept).
 */
export async function revokeSession(
  db: SandboxDb,
  id: string,
  proof: v.InferOutput<typeof RevokeBodySchema>,
): Promise<SandboxResponse> {
  const { rows } = await db.pg.query<{ signature: string }>(
    'SELECT signature FROM siwe_sessions WHERE id = $1',
    [id],
  )
  const row = rows[0]
  if (!row) return errorJson(404, 'Session not found')
  if (proof.pci !== id) return errorJson(403, 'pci does not match the session')
  if (!sameHex(proof.signature, row.signature)) return errorJson(403, 'Signature does not match the session')
  await db.pg.query('UPDATE siwe_sessions SET revoked_at = COALESCE(revoked_at, now()) WHERE id = $1', [id])
  return { json: { id, revoked: true } }
}
