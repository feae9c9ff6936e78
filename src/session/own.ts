/**
 * Records keyed by what a peer sends (topics, ids) are looked up by their own keys only: `__proto__`,
 * `constructor` or `toString` from the relay name no record (issue 13 item 6), where `record[key]` or `key in
 * record` would find Object.prototype's members.
 *
 * @example
 * own({ a: 1 }, 'constructor') // undefined
 */
export function own<T>(record: Readonly<Record<string, T>> | undefined, key: string): T | undefined {
  return record !== undefined && Object.hasOwn(record, key) ? record[key] : undefined
}

/** `key` names one of `record`'s own entries. */
export const hasOwn = (record: Readonly<Record<string, unknown>> | undefined, key: string): boolean =>
  record !== undefined && Object.hasOwn(record, key)
