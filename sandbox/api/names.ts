import * as v from 'valibot'
import {
  type Address,
  getAddress,
  type Hex,
  isAddress,
  isAddressEqual,
  type PublicClient,
  recoverMessageAddress,
  size,
} from 'viem'
import {
  NAME_LEGACY_SUFFIX,
  NAME_MESSAGE_MAX_AGE_S,
  NAME_MIN_LENGTH,
  NAME_SUFFIX,
  NAME_ZONE,
} from '../../src/constants.ts'
import { errorJson, type SandboxResponse } from '../shared/http.ts'
import { chainUnavailable, parseBody } from './common.ts'
import type { SandboxDb } from './db.ts'
import { SignatureSchema, type SignedMessage, verifySignedMessage } from './signatures.ts'

/**
 * Account names in the sandbox database (table `profile_names`, migrations 2 and 6): the identity and profile
 * calls of the Data API read them, and `POST /v1/profile/account` registers them (issue 20). Dev account 0 is
 * seeded with {@link SEEDED_NAME}. The name rule (SPEC §5) and the suffixes come from `src/constants.ts`, shared
 * with the kit.
 */

/** The name dev account 0 holds from the start (SPEC §5 suffix `.reown.id`). */
export const SEEDED_NAME = 'sandbox-dev.reown.id'
/** SLIP-44 coin type of Ether: the key of an EVM address in a name record. */
export const ETH_COIN_TYPE = '60'
/** ENSIP-11: an EVM chain's coin type is this bit or'ed with its chain id. */
const EVM_COIN_TYPE_BASE = 0x80000000
/** The longest label: one DNS label. Ours: SPEC §5 names only the minimum; the profile look-ups take 63. */
export const NAME_MAX_LENGTH = 63
/** SPEC §5's rule for a name label, as the 400 for a label that breaks it says. */
export const NAME_RULE = `letters, digits and hyphens only, at least ${NAME_MIN_LENGTH} characters`
/** The LDH rules a label keeps beside SPEC §5's, as the 400 for a label that breaks one says. */
export const NAME_LDH_RULES = {
  punycode: 'no IDNA (xn--) labels',
  hyphenEdge: 'no hyphen at the start or the end',
  hyphen34: 'no hyphens in the 3rd and 4th positions',
} as const
/** How many alternatives the suggestions call offers beside the label itself (at most). */
export const NAME_ALTERNATIVES = 4
/** Bound of the signed registration message (one sentence). Ours. */
const MAX_REGISTRATION_MESSAGE_CHARS = 4_000

/**
 * A name record as `GET /v1/profile/reverse/{address}` and `GET /v1/profile/account/{name}` answer it (the
 * provider's shape): times in milliseconds since the epoch, addresses keyed by coin type.
 */
export interface NameRecord {
  name: string
  registered: number
  updated: number
  addresses: Record<string, { address: string; created: number }>
  attributes: { avatar?: string; bio?: string }
}

interface NameRow {
  name: string
  address: string
  /** BIGINT since migration 6: PGlite may answer it as a bigint. */
  coin_type: number | bigint
  avatar: string | null
  bio: string | null
  registered_at: Date
  updated_at: Date
}

const COLUMNS = 'name, address, coin_type, avatar, bio, registered_at, updated_at'

/** Resolves an avatar path ('/avatars/x.svg') against the serving origin; full URLs stay as they are. */
function avatarUrl(avatar: string | null, origin: string): string | undefined {
  if (!avatar) return undefined
  return avatar.startsWith('/') ? `${origin}${avatar}` : avatar
}

/** The record's addresses, under the coin type the name was registered with. */
function addressesOf(row: NameRow): NameRecord['addresses'] {
  return {
    [String(Number(row.coin_type))]: {
      address: getAddress(row.address),
      created: row.registered_at.getTime(),
    },
  }
}

function toRecord(row: NameRow, origin: string): NameRecord {
  const attributes: NameRecord['attributes'] = {}
  const avatar = avatarUrl(row.avatar, origin)
  if (avatar) attributes.avatar = avatar
  if (row.bio) attributes.bio = row.bio
  return {
    name: row.name,
    registered: row.registered_at.getTime(),
    updated: row.updated_at.getTime(),
    addresses: addressesOf(row),
    attributes,
  }
}

/** Every name an address holds, oldest first (the first is its primary name). */
export async function namesOf(db: SandboxDb, address: string, origin: string): Promise<NameRecord[]> {
  const { rows } = await db.pg.query<NameRow>(
    `SELECT ${COLUMNS} FROM profile_names
      WHERE address = $1 ORDER BY registered_at, name`,
    [address.toLowerCase()],
  )
  return rows.map((row) => toRecord(row, origin))
}

/** One name's record, or `undefined` when nobody holds it. */
export async function nameRecord(
  db: SandboxDb,
  name: string,
  origin: string,
): Promise<NameRecord | undefined> {
  const { rows } = await db.pg.query<NameRow>(
    `SELECT ${COLUMNS} FROM profile_names
      WHERE name = $1`,
    [name.toLowerCase()],
  )
  return rows[0] ? toRecord(rows[0], origin) : undefined
}

/** What `GET /v1/identity/{address}` answers: the primary name and its avatar, `null` when there is none. */
export async function identityOf(
  db: SandboxDb,
  address: string,
  origin: string,
): Promise<{ name: string | null; avatar: string | null }> {
  const [primary] = await namesOf(db, address, origin)
  return { name: primary?.name ?? null, avatar: primary?.attributes.avatar ?? null }
}

/** Whether an avatar slug (`/avatars/{slug}.svg`) belongs to a stored name, so only those are served. */
export async function avatarLabel(db: SandboxDb, path: string): Promise<string | undefined> {
  const { rows } = await db.pg.query<{ name: string }>('SELECT name FROM profile_names WHERE avatar = $1', [
    path,
  ])
  return rows[0]?.name
}

/** ENSIP-11 coin type of an EVM chain, `(0x80000000 | chainId) >>> 0` (for chain 1 too, as the kit signs it). */
export function coinTypeOf(chainId: number): number {
  return (EVM_COIN_TYPE_BASE | chainId) >>> 0
}

/**
 * What is wrong with a label (a name without its suffix, lower-cased) under SPEC §5, as the text that follows
 * 'Invalid name: '; `undefined` when it may be registered.
 *
 * @example
 * nameLabelProblem('bob') // 'letters, digits and hyphens only, at least 4 characters'
 */
export function nameLabelProblem(label: string): string | undefined {
  if (label.length < NAME_MIN_LENGTH || !/^[a-z0-9-]+$/.test(label)) return NAME_RULE
  if (label.length > NAME_MAX_LENGTH) return `at most ${NAME_MAX_LENGTH} characters`
  // The LDH rules (RFC 5891 §4.2.3.1): no IDNA label (a look-alike of another script), no hyphen at an end, none
  // in the 3rd and 4th positions.
  if (label.startsWith('xn--')) return NAME_LDH_RULES.punycode
  if (label.startsWith('-') || label.endsWith('-')) return NAME_LDH_RULES.hyphenEdge
  if (label.slice(2, 4) === '--') return NAME_LDH_RULES.hyphen34
  return undefined
}

/** What is wrong with a full name to register (suffix included, lower-cased); `undefined` when it may be. */
function registrableNameProblem(name: string): string | undefined {
  if (name.endsWith(NAME_LEGACY_SUFFIX))
    return `${NAME_LEGACY_SUFFIX} names are resolved, not registered: register under ${NAME_SUFFIX}`
  if (!name.endsWith(NAME_SUFFIX)) return `a name ends with ${NAME_SUFFIX}`
  return nameLabelProblem(name.slice(0, -NAME_SUFFIX.length))
}

/** The 400 for a name that breaks the rule, naming the rule and (bounded) what was sent. */
export function invalidName(problem: string, sent: string): SandboxResponse {
  return errorJson(400, `Invalid name: ${problem}`, { name: sent.slice(0, 100) })
}

/** `GET /v1/profile/suggestions/{label}?zone=`: the one zone served. */
export const SuggestionsQuerySchema = v.object({
  zone: v.picklist([NAME_ZONE], `only '${NAME_ZONE}' is served`),
})

/** The label a suggestions call asks about: lower-cased, a trailing `.reown.id` stripped. */
export function suggestionLabel(sent: string): string {
  const lower = sent.toLowerCase()
  return lower.endsWith(NAME_SUFFIX) ? lower.slice(0, -NAME_SUFFIX.length) : lower
}

/** One entry of the suggestions call. */
export interface NameSuggestion {
  /** The full name, suffix included. */
  name: string
  registered: boolean
}

/** Alternatives to a label, in the order they are offered: a few words, then numbers (always some that fit). */
function alternativeLabels(label: string): string[] {
  const words = [`${label}1`, `${label}-wallet`, `my-${label}`, `${label}2`, `the-${label}`, `${label}-id`]
  const numbers = Array.from({ length: 40 }, (_, i) => `${label}${i + 3}`)
  return [...words, ...numbers].filter((alt) => nameLabelProblem(alt) === undefined)
}

/**
 * The suggestions for a valid label: first the label itself with whether someone holds it, then up to
 * {@link NAME_ALTERNATIVES} alternatives nobody holds, the same for the same database (no clock, no chance).
 *
 * @example
 * await nameSuggestions(db, 'sandbox-dev')
 * // [{ name: 'sandbox-dev.reown.id', registered: true }, { name: 'sandbox-dev1.reown.id', registered: false }, ...]
 */
export async function nameSuggestions(db: SandboxDb, label: string): Promise<NameSuggestion[]> {
  const own = `${label}${NAME_SUFFIX}`
  const others = alternativeLabels(label).map((alt) => `${alt}${NAME_SUFFIX}`)
  const { rows } = await db.pg.query<{ name: string }>(
    'SELECT name FROM profile_names WHERE name = ANY($1::text[])',
    [[own, ...others]],
  )
  const held = new Set(rows.map((row) => row.name))
  return [
    { name: own, registered: held.has(own) },
    ...others
      .filter((name) => !held.has(name))
      .slice(0, NAME_ALTERNATIVES)
      .map((name) => ({ name, registered: false })),
  ]
}

/** `POST /v1/profile/account` (SPEC §7: body coin_type, address, message, signature). */
export const RegistrationBodySchema = v.object({
  coin_type: v.pipe(
    v.number('coin_type must be a number'),
    v.integer('coin_type must be an integer'),
    v.minValue(0, 'coin_type must not be negative'),
    v.maxValue(0xffffffff, 'coin_type must fit 32 bits'),
  ),
  address: v.pipe(
    v.string('address must be a string'),
    v.check(
      (value) => isAddress(value, { strict: false }),
      'address must be a 0x address of 40 hex characters',
    ),
  ),
  message: v.pipe(
    v.string('message must be a string'),
    v.minLength(1, 'message must not be empty'),
    v.maxLength(MAX_REGISTRATION_MESSAGE_CHARS, 'message is too long'),
  ),
  signature: SignatureSchema,
})

/**
 * The signed message: one sentence that names the app's domain, the purpose, the name, the account, the chain and
 * the time (ISO 8601, UTC, whole seconds), what the kit builds (src/utils/names.ts) and the wallet shows:
 * `app.example.com asks you to register the name alice.reown.id for the account 0x… on chain 1 at
 * 2026-01-01T00:00:00Z.` Read here on its own terms (not with the kit's parser), so the two must agree.
 */
export const REGISTRATION_MESSAGE_FORMAT =
  '{domain} asks you to register the name {name} for the account {address} on chain {chainId} at {YYYY-MM-DDTHH:MM:SSZ}.'
const REGISTRATION_SENTENCE =
  /^(?<domain>\S+) asks you to register the name (?<name>\S+) for the account (?<address>0x[0-9a-fA-F]{40}) on chain (?<chainId>[1-9][0-9]{0,15}) at (?<time>\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z)\.$/
/** A page's host as a sign-in message's domain is: a DNS name or IPv4 address, or a bracketed IPv6 one, a port. */
const DOMAIN =
  /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::[0-9]{1,5})?$/i

interface RegistrationMessage {
  domain: string
  name: string
  address: Address
  chainId: number
  /** Unix seconds. */
  timestamp: number
}

function parseRegistrationMessage(text: string): { value: RegistrationMessage } | { error: SandboxResponse } {
  const invalid = (why: string) => ({
    error: errorJson(400, `Invalid registration message: ${why}`, { format: REGISTRATION_MESSAGE_FORMAT }),
  })
  const groups = REGISTRATION_SENTENCE.exec(text)?.groups
  if (!groups) return invalid(`must read "${REGISTRATION_MESSAGE_FORMAT}"`)
  const { domain = '', name = '', address = '', chainId = '', time = '' } = groups
  if (!DOMAIN.test(domain)) return invalid('the domain is not a host')
  if (!isAddress(address, { strict: true })) return invalid('the account is not a checksummed address')
  const ms = Date.parse(time)
  // A real instant: `2026-02-30T00:00:00Z` does not come back as itself.
  if (Number.isNaN(ms) || new Date(ms).toISOString() !== time.replace('Z', '.000Z'))
    return invalid('the time is not a UTC instant')
  const chain = Number(chainId)
  if (!Number.isSafeInteger(chain)) return invalid('the chain is not a chain id')
  return { value: { domain, name, address: getAddress(address), chainId: chain, timestamp: ms / 1000 } }
}

/**
 * Whether `signature` is `address`'s over `message`: a 65-byte signature is recovered here first, and when it
 * recovers to another key only an account with code (ERC-1271) may still accept it; any other signature (an
 * ERC-6492 one, a contract's) is judged on the chain ({@link verifySignedMessage}). So a plain account's
 * signature is never taken on the node's word.
 */
async function signatureSpeaksFor(client: PublicClient, signed: SignedMessage): Promise<boolean> {
  if (size(signed.signature) === 65) {
    const recovered = await recoverMessageAddress(signed).catch(() => undefined)
    if (recovered && isAddressEqual(recovered, signed.address)) return true
    const code = await client.getCode({ address: signed.address })
    if (!code || code === '0x') return false
  }
  return verifySignedMessage(client, signed)
}

export interface RegistrationContext {
  db: SandboxDb
  /** Reads the chain signatures are verified on. */
  client: PublicClient
  /** That chain's id: the one coin type accepted is {@link coinTypeOf} it. */
  chainId: number
  /** The serving origin, for avatar paths in the record. */
  origin: string
  /** When the request is judged (tests move it); default now. */
  now?: Date
  /**
   * The request's `Origin` header, when a page sent it: the message must then name that page's host as its
   * domain (one app cannot have a visitor sign a registration that says another app asked for it).
   */
  requestOrigin?: string | undefined
}

/**
 * `POST /v1/profile/account`: registers the name the message signs, for `address`. Checks, in order, each
 * answered with its own refusal: the body's shape and the message's, the sentence of
 * {@link REGISTRATION_MESSAGE_FORMAT} (400 'Invalid registration message: …'); the coin type, that of the chain
 * the sandbox serves (400 'Unsupported coin type'); the chain the message names, the same (400 'Message is for
 * another chain'); the account it names, the body's address (400 'Message is for another account'); its
 * domain, the requesting page's host when the request has an Origin (400 'Message is for another domain'); the
 * name, SPEC §5 and the LDH rules under `.reown.id` (400 'Invalid name: {rule}'); the time, at most
 * {@link NAME_MESSAGE_MAX_AGE_S} from now (400 'Message expired'); the signature, recovered to the account, or
 * for a contract account ERC-1271 or ERC-6492 on the chain (401 'Invalid signature'; 502 when the chain does not
 * answer); the name free (409 'Name is already registered', decided by the table's primary key, so of two
 * registrations at once exactly one wins). 201 with the new {@link NameRecord}.
 */
export async function registerName(ctx: RegistrationContext, body: string): Promise<SandboxResponse> {
  const parsed = parseBody(body, RegistrationBodySchema, 'registration')
  if ('error' in parsed) return parsed.error
  const { coin_type: coinType, message, signature } = parsed.value
  const address = getAddress(parsed.value.address)
  const signed = parseRegistrationMessage(message)
  if ('error' in signed) return signed.error
  const supported = coinTypeOf(ctx.chainId)
  if (coinType !== supported)
    return errorJson(400, 'Unsupported coin type', { coin_type: coinType, supported: [supported] })
  if (signed.value.chainId !== ctx.chainId)
    return errorJson(400, 'Message is for another chain', {
      chainId: signed.value.chainId,
      supported: [ctx.chainId],
    })
  if (!isAddressEqual(signed.value.address, address))
    return errorJson(400, 'Message is for another account', { account: signed.value.address, address })
  const pageHost = hostOf(ctx.requestOrigin)
  if (pageHost !== undefined && signed.value.domain.toLowerCase() !== pageHost)
    return errorJson(400, 'Message is for another domain', {
      domain: signed.value.domain,
      origin: ctx.requestOrigin,
    })

  const name = signed.value.name.toLowerCase()
  const problem = registrableNameProblem(name)
  if (problem) return invalidName(problem, signed.value.name)

  const now = Math.floor((ctx.now ?? new Date()).getTime() / 1000)
  const { timestamp } = signed.value
  if (now - timestamp > NAME_MESSAGE_MAX_AGE_S)
    return errorJson(400, 'Message expired', { timestamp, maxAgeSeconds: NAME_MESSAGE_MAX_AGE_S })
  if (timestamp - now > NAME_MESSAGE_MAX_AGE_S)
    return errorJson(400, 'Message timestamp is in the future', { timestamp })

  try {
    if (!(await signatureSpeaksFor(ctx.client, { address, message, signature: signature as Hex })))
      return errorJson(401, 'Invalid signature')
  } catch (error) {
    return chainUnavailable(error)
  }

  const { rows } = await ctx.db.pg.query<NameRow>(
    `INSERT INTO profile_names (name, address, coin_type, avatar, bio, message, signature)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (name) DO NOTHING
     RETURNING ${COLUMNS}`,
    [name, address.toLowerCase(), coinType, null, null, message, signature.toLowerCase()],
  )
  const row = rows[0]
  if (!row) return errorJson(409, 'Name is already registered', { name })
  return { status: 201, json: toRecord(row, ctx.origin) }
}

/** The host of a page's origin (`http://127.0.0.1:5173` → `127.0.0.1:5173`), lower-cased; undefined without one. */
function hostOf(origin: string | undefined): string | undefined {
  if (!origin || origin === 'null') return undefined
  try {
    return new URL(origin).host.toLowerCase()
  } catch {
    return undefined
  }
}
