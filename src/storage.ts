import type { KitStorage } from './config'
import {
  RECENT_WALLET_ICON_MAX_LENGTH,
  RECENT_WALLETS_MAX,
  SMART_ACCOUNT_NETWORKS_MAX,
  STORED_PERMISSIONS_MAX,
} from './constants'
import { safeHttpUrl } from './utils/httpUrl'

/**
 * The kit's browser storage (SPEC §3). Every value is JSON checked against its key's check (STORED_VALUES) on the way in, so a value
 * written by an older version, by hand or by another script is ignored, never fatal. Storage that throws
 * (private mode, quota, blocked cookies) is only logged (SPEC §8). Nothing secret is ever stored here. Values
 * pass the same check on the way out, so what is written is bounded too (recent wallets: at most
 * RECENT_WALLETS_MAX, icons within RECENT_WALLET_ICON_MAX_LENGTH).
 */
export const STORAGE_PREFIX = 'walletstate.'

/** One remembered wallet (the connection machine's `RecentWallet`). */
export interface StoredRecentWallet {
  id: string
  name: string
  connectorId: string
  imageUrl?: string
  rdns?: string
}

/** The stored deep link (the connection machine's `WalletLinking`). */
export interface StoredWalletLinking {
  id: string
  name: string
  connectorId: string
  href: string
}

/** A wallet link's shape: `scheme://`, no whitespace, within a link's length (MAX_LINK_LENGTH). */
const LINK = /^[a-z][a-z0-9+.-]{0,63}:\/\/\S{1,2040}$/i

/** Raw entries looked at when reading recent wallets: a stored list is short, a planted one is not read whole. */
const RECENT_WALLETS_SCANNED = 20
const RECENT_WALLET_FIELD_MAX = 200
const DATA_IMAGE = /^data:image\/(png|jpeg|gif|webp|avif|svg\+xml)(;base64)?,/i

const boundedId = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' && value.length <= RECENT_WALLET_FIELD_MAX ? value : undefined

/** An icon worth keeping: a bounded data:image URI (an injected wallet's EIP-6963 icon) or a safe http(s) URL. */
function storableIcon(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length > RECENT_WALLET_ICON_MAX_LENGTH) return undefined
  return DATA_IMAGE.test(value) ? value : safeHttpUrl(value)
}

/**
 * Recent wallets from anything: each entry checked on its own (issue 13 item 7). An entry without a usable id,
 * name or connector is dropped; a name too long is cut; an icon or rdns that is too long or unsafe is left
 * out, the wallet kept. Duplicates (same id) keep the first; at most RECENT_WALLETS_MAX are kept.
 *
 * @example
 * recentWalletsFrom([{ id: 'a', name: 'A', connectorId: 'io.a', imageUrl: 'x'.repeat(100_000) }, 42])
 * // [{ id: 'a', name: 'A', connectorId: 'io.a' }]
 */
export function recentWalletsFrom(items: readonly unknown[]): StoredRecentWallet[] {
  const out: StoredRecentWallet[] = []
  for (const item of items.slice(0, RECENT_WALLETS_SCANNED)) {
    if (out.length >= RECENT_WALLETS_MAX) break
    if (typeof item !== 'object' || item === null || Array.isArray(item)) continue
    const entry = item as Record<string, unknown>
    const id = boundedId(entry.id)
    const connectorId = boundedId(entry.connectorId)
    const name = typeof entry.name === 'string' ? entry.name.slice(0, RECENT_WALLET_FIELD_MAX) : ''
    if (!id || !connectorId || name === '' || out.some((wallet) => wallet.id === id)) continue
    const imageUrl = storableIcon(entry.imageUrl)
    const rdns = boundedId(entry.rdns)
    out.push({ id, name, connectorId, ...(imageUrl ? { imageUrl } : {}), ...(rdns ? { rdns } : {}) })
  }
  return out
}

/*
 * What each key may hold, checked by hand (not with valibot, which checks the API answers and frame messages in
 * the chunks that load with them): storage is read at start, on the host page's first-click path, where
 * valibot's core would cost ~3 KiB gzip (issue 14's budget). Each check returns the value to use, or undefined.
 */
const EIP155_NETWORK = /^eip155:[1-9]\d{0,15}$/
const boundedString = (max: number) => (value: unknown) =>
  typeof value === 'string' && value.length <= max ? value : undefined
const matching = (pattern: RegExp) => (value: unknown) =>
  typeof value === 'string' && pattern.test(value) ? value : undefined
const oneOf =
  <const T extends readonly string[]>(...values: T) =>
  (value: unknown): T[number] | undefined =>
    values.find((allowed) => allowed === value)

export const STORED_VALUES = {
  walletId: boundedString(200),
  walletName: boundedString(200),
  connectorId: boundedString(200),
  activeNetwork: matching(/^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}$/),
  lastUsedChain: oneOf('eip155', 'solana', 'bip122'),
  connectionStatus: oneOf('connected', 'disconnected'),
  /** Solana's connection (issue 17), beside eip155's: its wallet, status and network (SPEC §3 per chain). */
  solanaConnectorId: boundedString(200),
  solanaConnectionStatus: oneOf('connected', 'disconnected'),
  solanaNetwork: matching(/^solana:[1-9A-HJ-NP-Za-km-z]{32}$/),
  /** A multichain WalletConnect session's Bitcoin account is connected (restored from that session on a reload). */
  bip122ConnectionStatus: oneOf('connected', 'disconnected'),
  connectedSocial: boundedString(40),
  /** SPEC §3: the embedded wallet's login flag, its e-mail and the last login time (epoch ms). */
  emailLoginFlag: (value: unknown) => (typeof value === 'boolean' ? value : undefined),
  email: boundedString(320),
  lastLoginTime: (value: unknown) =>
    typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined,
  /**
   * SPEC §3's stored deep link (issue 18 item 5): the wallet opened by its mobile link while its pairing is
   * pending. Checked for shape here; the link is checked again (`safeDeepLink`) before anything opens it.
   */
  wcLinking: (value: unknown): StoredWalletLinking | undefined => {
    if (typeof value !== 'object' || value === null) return undefined
    const { id, name, connectorId, href } = value as Record<string, unknown>
    const bounded = [id, name, connectorId].map(boundedId)
    if (bounded.includes(undefined) || typeof href !== 'string' || !LINK.test(href)) return undefined
    const [i, n, c] = bounded as string[]
    return { id: i!, name: n!, connectorId: c!, href }
  },
  /** Each entry checked on its own: one bad wallet never makes the list unreadable. */
  recentWallets: (value: unknown): StoredRecentWallet[] | undefined =>
    Array.isArray(value) ? recentWalletsFrom(value) : undefined,
  /**
   * SPEC §3 "smart-account networks": the eip155 networks (CAIP-2 ids) where the embedded wallet has a smart
   * account, as the login frame last said. All entries well-formed, or the whole list is ignored.
   */
  smartAccountNetworks: (value: unknown): string[] | undefined =>
    Array.isArray(value) &&
    value.length <= SMART_ACCOUNT_NETWORKS_MAX &&
    value.every((id) => typeof id === 'string' && EIP155_NETWORK.test(id))
      ? [...new Set(value as string[])]
      : undefined,
  /**
   * ERC-7715 permissions granted through the kit (`features.smartSessions`), their public records only (id, account,
   * chain, signer, token, limit, expiry; never a key), so they are listed again after a reload. Bounded here; each
   * record is read through its schema by the smart-sessions code when it starts (src/actors/smartSessions.ts).
   */
  grantedPermissions: (value: unknown): object[] | undefined =>
    Array.isArray(value) &&
    value.length <= STORED_PERMISSIONS_MAX &&
    value.every((entry) => typeof entry === 'object' && entry !== null && !Array.isArray(entry))
      ? (value as object[])
      : undefined,
} as const

export type StorageKey = keyof typeof STORED_VALUES
export type StorageValue<K extends StorageKey> = NonNullable<ReturnType<(typeof STORED_VALUES)[K]>>

export interface KitStore {
  read<K extends StorageKey>(key: K): StorageValue<K> | undefined
  write<K extends StorageKey>(key: K, value: StorageValue<K>): void
  remove(key: StorageKey): void
}

type Log = (message: string, error?: unknown) => void
const defaultLog: Log = (message, error) => console.warn(`[walletstate] ${message}`, error ?? '')

/** A storage that lasts as long as the page: where the browser's is blocked, and in tests (`map` holds it). */
export function memoryStorage(): KitStorage & { map: Map<string, string> } {
  const map = new Map<string, string>()
  return {
    map,
    getItem: (key) => map.get(key) ?? null,
    setItem: (key, value) => void map.set(key, value),
    removeItem: (key) => void map.delete(key),
  }
}

/** The page's localStorage when it can be reached; `undefined` when even touching it throws. */
export function browserStorage(): KitStorage | undefined {
  try {
    return typeof window !== 'undefined' && window.localStorage ? window.localStorage : undefined
  } catch {
    return undefined
  }
}

/**
 * A storage whose failures are only logged (SPEC §8): a read that throws answers `null`, a write or removal that
 * throws does nothing. For libraries handed the kit's storage directly (wagmi's own keys), which would otherwise
 * reject on a full or blocked storage.
 *
 * @example
 * createStorage({ key: 'walletstate.wagmi', storage: guardStorage(localStorage) })
 */
export function guardStorage(storage: KitStorage, log: Log = defaultLog): KitStorage {
  return {
    getItem(key) {
      try {
        return storage.getItem(key)
      } catch (error) {
        log(`Could not read ${key} from storage`, error)
        return null
      }
    },
    setItem(key, value) {
      try {
        storage.setItem(key, value)
      } catch (error) {
        log(`Could not write ${key} to storage`, error)
      }
    },
    removeItem(key) {
      try {
        storage.removeItem(key)
      } catch (error) {
        log(`Could not remove ${key} from storage`, error)
      }
    },
  }
}

/**
 * @example
 * const store = createKitStore(config.storage ?? browserStorage())
 * store.write('walletId', 'io.metamask')
 */
export function createKitStore(storage: KitStorage | undefined, log: Log = defaultLog): KitStore {
  return {
    read(key) {
      if (!storage) return undefined
      let raw: string | null
      try {
        raw = storage.getItem(STORAGE_PREFIX + key)
      } catch (error) {
        log(`Could not read ${key} from storage`, error)
        return undefined
      }
      if (raw === null) return undefined
      let parsed: unknown
      try {
        parsed = JSON.parse(raw)
      } catch {
        log(`Ignored a malformed stored ${key}`)
        return undefined
      }
      const value = STORED_VALUES[key](parsed)
      if (value === undefined) {
        log(`Ignored a stored ${key} of the wrong shape`)
        return undefined
      }
      return value as StorageValue<typeof key>
    },
    write(key, value) {
      if (!storage) return
      // The check bounds what is written as it bounds what is read (a list capped, an icon left out).
      const checked = STORED_VALUES[key](value)
      if (checked === undefined) {
        log(`Did not store a ${key} of the wrong shape`)
        return
      }
      try {
        storage.setItem(STORAGE_PREFIX + key, JSON.stringify(checked))
      } catch (error) {
        log(`Could not write ${key} to storage`, error)
      }
    },
    remove(key) {
      if (!storage) return
      try {
        storage.removeItem(STORAGE_PREFIX + key)
      } catch (error) {
        log(`Could not remove ${key} from storage`, error)
      }
    },
  }
}
