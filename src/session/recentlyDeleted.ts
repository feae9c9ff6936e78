import { RECENTLY_DELETED_LIMIT } from '../constants'
import type { RecordKind } from './types'

/**
 * SPEC §4 and §9: recently deleted topics and ids are remembered so that reusing one is refused, in a capped
 * map trimmed by half when full. Immutable (a machine keeps it in context) and JSON-safe (the inspector shows
 * it); entries keep insertion order, oldest first.
 */
export interface RecentlyDeleted {
  readonly limit: number
  readonly entries: readonly (readonly [key: string, kind: RecordKind])[]
}

/**
 * An empty map.
 *
 * @example
 * let deleted = createRecentlyDeleted()
 * deleted = rememberDeleted(deleted, topic, 'session')
 * wasRecentlyDeleted(deleted, topic) // 'session'
 */
export function createRecentlyDeleted(limit: number = RECENTLY_DELETED_LIMIT): RecentlyDeleted {
  if (!Number.isInteger(limit) || limit < 2)
    throw new RangeError('The recently-deleted limit must be 2 or more')
  return { limit, entries: [] }
}

/** Remembers a deleted topic or id; when the map is full, the older half is dropped. */
export function rememberDeleted(
  map: RecentlyDeleted,
  key: string | number,
  kind: RecordKind,
): RecentlyDeleted {
  const id = String(key)
  const entries = [...map.entries.filter(([existing]) => existing !== id), [id, kind] as const]
  return {
    limit: map.limit,
    entries: entries.length >= map.limit ? entries.slice(Math.floor(map.limit / 2)) : entries,
  }
}

/** The kind of record a topic or id was, if it was deleted recently. */
export function wasRecentlyDeleted(map: RecentlyDeleted, key: string | number): RecordKind | undefined {
  const id = String(key)
  return map.entries.find(([existing]) => existing === id)?.[1]
}
