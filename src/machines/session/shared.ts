import { type SessionError, type SessionErrorInfo, sessionErrorInfo } from '../../errors/session'
import type { Clock } from './types'

/** What every session machine shares: its default clock, its unfilled slots, and event params. */

/** The default clock. Called each time (not captured), so tests' fake timers apply. */
export const systemClock: Clock = () => Date.now()

/** An actor slot the host must fill with `.provide()`. */
export const notProvided = (machine: string, slot: string) => () => {
  throw new Error(`${machine}: the "${slot}" actor slot was not provided`)
}

/** Milliseconds until `expiry` on `clock`, never negative (for delays). */
export const remaining = (clock: Clock, expiry: number) => Math.max(0, expiry - clock())

export const info = (error: SessionError): SessionErrorInfo => sessionErrorInfo(error)

/** Action params from an invoked actor's error and done events. */
export const errorOf = ({ event }: { event: { error: unknown } }) => event.error
export const outputOf = ({ event }: { event: { output: unknown } }) => event.output
