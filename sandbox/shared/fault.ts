import * as v from 'valibot'

/**
 * The one fault-switch interface every sandbox service shares: `POST /__fault` on the service's own origin
 * with JSON `{ mode, times?, retryAfterSeconds?, path? }` (DESIGN.md, "The sandbox").
 *
 * - `fail`: answer 500 with a JSON error body.
 * - `stall`: accept the request and never answer (the socket is closed when the service stops).
 * - `429`: answer 429 with a `Retry-After` header.
 * - `drop`: destroy the socket without an answer.
 * - `hostile`: the Data API's convert builds (build-approve, build-transaction) answer a well-formed but hostile
 *   transaction: another spender, another router, extra value, no least amount out. Every other request, and
 *   every other service, answers as usual (the switch is left to the service's routes to apply).
 * - `off`: clear the switch.
 *
 * `times` limits the fault to that many matching requests, then it switches itself off; `path` limits it to
 * requests whose path starts with the prefix.
 */
export const FaultSchema = v.strictObject({
  mode: v.picklist(['fail', 'stall', '429', 'drop', 'off', 'hostile']),
  times: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
  retryAfterSeconds: v.optional(v.pipe(v.number(), v.minValue(0), v.maxValue(3600))),
  path: v.optional(v.pipe(v.string(), v.startsWith('/'))),
  /** `hostile` on a Solana swap build: what the maker's transaction does wrong (default `elsewhere`). */
  build: v.optional(v.picklist(['elsewhere', 'overdraw', 'short'])),
})

export type Fault = v.InferOutput<typeof FaultSchema>
export type FaultMode = Fault['mode']

/** Holds the current fault of one service and decides, request by request, whether it applies. */
export class FaultSwitch {
  #fault: Fault = { mode: 'off' }
  #remaining = Number.POSITIVE_INFINITY
  /** How many requests the fault has been applied to since it was set (tests read it). */
  applied = 0

  set(input: unknown): Fault {
    const fault = v.parse(FaultSchema, input)
    this.#fault = fault
    this.#remaining = fault.times ?? Number.POSITIVE_INFINITY
    this.applied = 0
    return fault
  }

  get current(): Fault {
    return this.#fault
  }

  /** The fault to apply to a request on `path`, counting it; `undefined` when none applies. */
  take(path: string): Exclude<Fault, { mode: 'off' }> | undefined {
    const fault = this.#fault
    if (fault.mode === 'off') return undefined
    if (fault.path !== undefined && !path.startsWith(fault.path)) return undefined
    this.#remaining -= 1
    this.applied += 1
    if (this.#remaining <= 0) {
      this.#fault = { mode: 'off' }
      this.#remaining = Number.POSITIVE_INFINITY
    }
    return fault as Exclude<Fault, { mode: 'off' }>
  }
}
