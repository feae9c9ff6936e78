import * as v from 'valibot'
import type { KitStorage } from './config'

/**
 * The kit's browser storage (SPEC §3). Every value is JSON checked against a schema on the way in, so a value
 * written by an older version, by hand or by another script is ignored, never fatal. Storage that throws
 * (private mode, quota, blocked cookies) is only logged (SPEC §8). Nothing secret is ever stored here.
 */
export const STORAGE_PREFIX = 'walletstate.'

export const StorageSchemas = {
  walletId: v.pipe(v.string(), v.maxLength(200)),
  walletName: v.pipe(v.string(), v.maxLength(200)),
  connectorId: v.pipe(v.string(), v.maxLength(200)),
  activeNetwork: v.pipe(v.string(), v.regex(/^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}$/)),
  lastUsedChain: v.picklist(['eip155', 'solana']),
  connectionStatus: v.picklist(['connected', 'disconnected']),
  connectedSocial: v.pipe(v.string(), v.maxLength(40)),
  /** SPEC §3: the embedded wallet's login flag, its e-mail and the last login time (epoch ms). */
  emailLoginFlag: v.boolean(),
  email: v.pipe(v.string(), v.maxLength(320)),
  lastLoginTime: v.pipe(v.number(), v.integer(), v.minValue(0)),
  recentWallets: v.pipe(
    v.array(
      v.object({
        id: v.pipe(v.string(), v.maxLength(200)),
        name: v.pipe(v.string(), v.maxLength(200)),
        connectorId: v.pipe(v.string(), v.maxLength(200)),
        imageUrl: v.optional(v.pipe(v.string(), v.maxLength(4096))),
        rdns: v.optional(v.pipe(v.string(), v.maxLength(200))),
      }),
    ),
    v.maxLength(10),
  ),
} as const

export type StorageKey = keyof typeof StorageSchemas
export type StorageValue<K extends StorageKey> = v.InferOutput<(typeof StorageSchemas)[K]>

export interface KitStore {
  read<K extends StorageKey>(key: K): StorageValue<K> | undefined
  write<K extends StorageKey>(key: K, value: StorageValue<K>): void
  remove(key: StorageKey): void
}

type Log = (message: string, error?: unknown) => void
const defaultLog: Log = (message, error) => console.warn(`[walletstate] ${message}`, error ?? '')

/** The page's localStorage when it can be reached; `undefined` when even touching it throws. */
export function browserStorage(): KitStorage | undefined {
  try {
    return typeof window !== 'undefined' && window.localStorage ? window.localStorage : undefined
  } catch {
    return undefined
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
      const result = v.safeParse(StorageSchemas[key], parsed)
      if (!result.success) {
        log(`Ignored a stored ${key} of the wrong shape`)
        return undefined
      }
      return result.output as StorageValue<typeof key>
    },
    write(key, value) {
      if (!storage) return
      try {
        storage.setItem(STORAGE_PREFIX + key, JSON.stringify(value))
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
