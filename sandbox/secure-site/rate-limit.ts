/**
 * A sliding-window limit per key, kept in memory. `take` checks and counts in one synchronous step, so
 * parallel requests cannot all read "under the limit" before any of them is counted.
 *
 * @example
 * const limit = new RateLimit({ limit: 10, windowMs: 600_000, now: Date.now })
 * const wait = limit.take('account-1') // 0: allowed and counted; > 0: refused, ms until a slot frees
 */
export class RateLimit {
  readonly #hits = new Map<string, number[]>()
  readonly #limit: number
  readonly #windowMs: number
  readonly #now: () => number

  constructor(options: { limit: number; windowMs: number; now?: () => number }) {
    this.#limit = options.limit
    this.#windowMs = options.windowMs
    this.#now = options.now ?? Date.now
  }

  /** Counts one hit for `key` and answers 0, or answers how many ms until one is allowed (nothing counted). */
  take(key: string): number {
    const now = this.#now()
    const recent = (this.#hits.get(key) ?? []).filter((at) => at > now - this.#windowMs)
    if (recent.length >= this.#limit) {
      this.#hits.set(key, recent)
      return Math.max(1, (recent[0] ?? now) + this.#windowMs - now)
    }
    recent.push(now)
    this.#hits.set(key, recent)
    // Keys whose window has passed are dropped now and then, so the map stays as small as the live keys.
    if (this.#hits.size > 10_000) {
      for (const [other, hits] of this.#hits) {
        if (hits.every((at) => at <= now - this.#windowMs)) this.#hits.delete(other)
      }
    }
    return 0
  }
}
