import { createSiweMessage, generateSiweNonce, parseSiweMessage } from 'viem/siwe'
import { apiUrl, requestJson } from '../api/http'
import type { KitStorage } from '../config'
import { SIGN_IN_REQUEST_TIMEOUT_MS, SIWE_SESSION_TTL_MS } from '../constants'
import { SignInError } from '../errors/signIn'
import { memoryStorage } from '../storage'
import type { SiwxConfig, SiwxMessage, SiwxMessageData, SiwxSession } from './types'

/** Where the SIWE preset keeps sessions: the kit's storage (default), or the Data API's `/v1/sessions`. */
export interface SiweSessionsApi {
  /** The Data API's base URL (the kit's `endpoints.api`). */
  url: string
  projectId: string
}

export interface SiweOptions {
  /** The sentence the wallet shows above the message. */
  statement?: string
  /** How long a session lasts (EIP-4361 `expirationTime`); default {@link SIWE_SESSION_TTL_MS}. */
  expiresInMs?: number
  /** A visitor who declines to sign is disconnected. Default false. */
  required?: boolean
  /** Browser storage for the sessions (or, with `sessionsApi`, their ids); `localStorage` by default. */
  storage?: KitStorage
  /** Keep the sessions on the Data API (SPEC §7 `/v1/sessions`), which verifies them again, instead. */
  sessionsApi?: SiweSessionsApi
  /** The message's domain and URI; the page's host and origin by default. */
  domain?: string
  uri?: string
  /** A nonce from the app's server (recommended): by default a random one made here. */
  getNonce?: () => Promise<string>
  /** The clock (tests). */
  now?: () => Date
}

/** The storage key of the preset's sessions (session ids with `sessionsApi`). */
export const SIWE_STORAGE_KEY = 'walletstate.siwe.sessions'
/** At most this many sessions are kept (one per account and chain; older ones go first). */
const SESSIONS_KEPT = 20
const MESSAGE_MAX_LENGTH = 4_096

/**
 * A ready sign-in (SIWX) with EIP-4361 messages (viem's SIWE utilities): domain and URI of the page, a fresh
 * nonce, the chain, issued-at and expiry. Sessions are kept in the kit's storage, or on the Data API with
 * `sessionsApi`. The kit verifies every signature itself before `addSession`, and every kept session before it
 * trusts it (`getSessions` returns what storage holds; nothing read back is trusted).
 *
 * @example
 * ```ts
 * import { mainnet } from 'viem/chains'
 * import { createKitMachine } from 'walletstate'
 * import { createSiwe } from 'walletstate/siwx'
 *
 * const kit = createKitMachine({
 *   projectId: 'YOUR_PROJECT_ID',
 *   networks: [mainnet],
 *   siwx: createSiwe({ statement: 'Sign in to Acme' }),
 * })
 * ```
 */
export function createSiwe(options: SiweOptions = {}): SiwxConfig {
  const now = options.now ?? (() => new Date())
  const storage = options.storage ?? defaultStorage()
  const store = options.sessionsApi ? apiStore(options.sessionsApi, storage) : localStore(storage)
  const page = () => ({
    domain: options.domain ?? globalThis.location?.host,
    uri: options.uri ?? globalThis.location?.origin,
  })
  return {
    async createMessage({ accountAddress, chainId }) {
      const chain = eip155ChainNumber(chainId)
      const { domain, uri } = page()
      if (!domain || !uri) throw new SignInError('The sign-in message needs the page’s domain and URI')
      const nonce = options.getNonce ? await options.getNonce() : generateSiweNonce()
      const issuedAt = now()
      const expirationTime = new Date(issuedAt.getTime() + (options.expiresInMs ?? SIWE_SESSION_TTL_MS))
      const message = createSiweMessage({
        address: accountAddress,
        chainId: chain,
        domain,
        uri,
        version: '1',
        nonce,
        issuedAt,
        expirationTime,
        ...(options.statement ? { statement: options.statement } : {}),
      })
      return { message, data: messageData(message)! }
    },
    addSession: (session) => store.add(session),
    // Everything kept for the account, expired or not: the kit judges each (expiry, domain, origin) and drops
    // one it must not trust, which removes it here (`revokeSession`).
    getSessions: (chainId, address) => store.list(chainId, address),
    revokeSession: (chainId, address) => store.revoke(chainId, address),
    getRequired: () => options.required ?? false,
    getDomain() {
      const { domain, uri } = page()
      return domain && uri ? { domain, uri } : undefined
    },
  }
}

/** The EIP-155 chain number of a CAIP-2 id (`eip155:1` → 1). */
export function eip155ChainNumber(chainId: string): number {
  const match = /^eip155:([1-9]\d{0,15})$/.exec(chainId)
  if (!match) throw new SignInError(`Sign-in with EIP-4361 needs an eip155 chain, not ${chainId}`)
  return Number(match[1])
}

/**
 * A message's fields, read back from its text (viem's parser): what a stored session says is never taken from
 * storage as is. Undefined for text that is not a complete EIP-4361 message.
 */
export function messageData(message: unknown): SiwxMessageData | undefined {
  if (typeof message !== 'string' || message.length > MESSAGE_MAX_LENGTH) return undefined
  const parsed = parseSiweMessage(message)
  const { address, chainId, domain, uri, nonce, issuedAt, version } = parsed
  if (!address || !chainId || !domain || !uri || !nonce || !issuedAt || version !== '1') return undefined
  return {
    accountAddress: address,
    chainId: `eip155:${chainId}`,
    domain,
    uri,
    version: '1',
    nonce,
    issuedAt: issuedAt.toISOString(),
    ...(parsed.statement ? { statement: parsed.statement } : {}),
    ...(parsed.expirationTime ? { expirationTime: parsed.expirationTime.toISOString() } : {}),
    ...(parsed.notBefore ? { notBefore: parsed.notBefore.toISOString() } : {}),
    ...(parsed.requestId ? { requestId: parsed.requestId } : {}),
    ...(parsed.resources ? { resources: parsed.resources } : {}),
  }
}

const HEX_SIGNATURE = /^0x[0-9a-fA-F]{130,}$/
const SESSION_ID = /^[0-9a-f]{32}$/

/** A session from anything (storage, an API answer): its fields from its message, or undefined. */
export function sessionFrom(value: unknown): SiwxSession | undefined {
  if (typeof value !== 'object' || value === null) return undefined
  const { message, signature, id } = value as Record<string, unknown>
  const data = messageData(message)
  if (!data || typeof signature !== 'string' || !HEX_SIGNATURE.test(signature) || signature.length > 20_000)
    return undefined
  return {
    message: message as string,
    data,
    signature: signature as `0x${string}`,
    ...(typeof id === 'string' && SESSION_ID.test(id) ? { id } : {}),
  }
}

const sameAccount = (data: SiwxMessageData, chainId: string, address: string) =>
  data.chainId === chainId && data.accountAddress.toLowerCase() === address.toLowerCase()

export interface SessionStore {
  add(session: SiwxSession): Promise<void>
  list(chainId: string, address: `0x${string}`): Promise<SiwxSession[]>
  revoke(chainId: string, address: `0x${string}`): Promise<void>
}

/** Storage that throws (private mode, quota) reads as empty and writes nothing; it never fails a sign-in flow. */
function readList(storage: KitStorage): unknown[] {
  try {
    const raw = storage.getItem(SIWE_STORAGE_KEY)
    const value = raw ? JSON.parse(raw) : []
    return Array.isArray(value) ? value.slice(-SESSIONS_KEPT) : []
  } catch {
    return []
  }
}

function writeList(storage: KitStorage, list: unknown[]): void {
  try {
    if (list.length === 0) storage.removeItem(SIWE_STORAGE_KEY)
    else storage.setItem(SIWE_STORAGE_KEY, JSON.stringify(list.slice(-SESSIONS_KEPT)))
  } catch (error) {
    console.warn('[walletstate] sign-in sessions could not be stored', error)
  }
}

/** Sessions in browser storage, one per account and chain (a new one replaces the old). */
export function localStore(storage: KitStorage): SessionStore {
  const sessions = () => readList(storage).flatMap((v) => sessionFrom(v) ?? [])
  return {
    async add(session) {
      const kept = sessions().filter(
        (s) => !sameAccount(s.data, session.data.chainId, session.data.accountAddress),
      )
      writeList(
        storage,
        [...kept, session].map((s) => ({ message: s.message, signature: s.signature })),
      )
    },
    async list(chainId, address) {
      return sessions().filter((s) => sameAccount(s.data, chainId, address))
    },
    async revoke(chainId, address) {
      writeList(
        storage,
        sessions()
          .filter((s) => !sameAccount(s.data, chainId, address))
          .map((s) => ({ message: s.message, signature: s.signature })),
      )
    },
  }
}

/** Sessions on the Data API (`POST /v1/sessions`, `GET /v1/sessions/{id}`, `POST …/revoke`); their ids stored here. */
function apiStore(api: SiweSessionsApi, storage: KitStorage): SessionStore {
  type Ref = { id: string; chainId: string; address: string }
  const refs = (): Ref[] =>
    readList(storage).flatMap((v) => {
      const { id, chainId, address } = (v ?? {}) as Record<string, unknown>
      return typeof id === 'string' &&
        SESSION_ID.test(id) &&
        typeof chainId === 'string' &&
        typeof address === 'string'
        ? [{ id, chainId, address }]
        : []
    })
  const fail = (label: string) => (failure: { details: string; status?: number }) =>
    new SignInError(label, { details: failure.details })
  const request = (path: string, init: { method?: 'GET' | 'POST'; body?: unknown } = {}) =>
    requestJson(
      apiUrl(api.url, path, api.projectId),
      { ...init, timeoutMs: SIGN_IN_REQUEST_TIMEOUT_MS, label: 'The sessions API' },
      fail('The sign-in session could not be reached'),
    )
  const matches = (r: Ref, chainId: string, address: string) =>
    r.chainId === chainId && r.address.toLowerCase() === address.toLowerCase()
  return {
    async add(session) {
      const created = (await request('v1/sessions', {
        method: 'POST',
        body: { message: session.message, signature: session.signature },
      })) as { id?: unknown }
      if (typeof created?.id !== 'string' || !SESSION_ID.test(created.id))
        throw new SignInError('The sessions API answered without a session id')
      const { chainId, accountAddress } = session.data
      writeList(storage, [
        ...refs().filter((r) => !matches(r, chainId, accountAddress)),
        { id: created.id, chainId, address: accountAddress },
      ])
    },
    async list(chainId, address) {
      const out: SiwxSession[] = []
      for (const ref of refs().filter((r) => matches(r, chainId, address))) {
        // A session the API no longer has (revoked, expired: 404) is forgotten here too.
        const answer = await request(`v1/sessions/${ref.id}`).catch(() => undefined)
        const session = sessionFrom({ ...(answer as object), id: ref.id })
        if (session && sameAccount(session.data, chainId, address)) out.push(session)
      }
      return out
    },
    async revoke(chainId, address) {
      const mine = refs().filter((r) => matches(r, chainId, address))
      writeList(
        storage,
        refs().filter((r) => !matches(r, chainId, address)),
      )
      for (const ref of mine) {
        const answer = await request(`v1/sessions/${ref.id}`).catch(() => undefined)
        const session = sessionFrom(answer)
        if (session)
          await request(`v1/sessions/${ref.id}/revoke`, {
            method: 'POST',
            body: { pci: ref.id, signature: session.signature },
          })
      }
    },
  }
}

export function defaultStorage(): KitStorage {
  try {
    if (globalThis.localStorage) return globalThis.localStorage
  } catch {
    // Storage blocked (a sandboxed frame, cookies off): sessions last for the page only.
  }
  return memoryStorage()
}

export type { SiwxConfig, SiwxMessage, SiwxSession }
