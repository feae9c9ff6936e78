import { TIMER_DELAY_MAX_MS } from '../../constants'
import { type SessionError, type SessionErrorInfo, sessionErrorInfo } from '../../errors/session'
import type { Clock } from './types'

/** What every session machine shares: its default clock, its unfilled slots, and event params. */

/** The default clock. Called each time (not captured), so tests' fake timers apply. */
export const systemClock: Clock = () => Date.now()

/** An actor slot the host must fill with `.provide()`. */
export const notProvided = (machine: string, slot: string) => () => {
  throw new Error(`${machine}: the "${slot}" actor slot was not provided`)
}

/**
 * Milliseconds until `expiry` on `clock`, for delays: never negative, and never more than a timer can hold
 * (TIMER_DELAY_MAX_MS): a longer delay would fire after 1 ms (issue 13 item 6). A state whose expiry lies
 * further out re-arms when the clamped delay ends (the session's lifetime) or, for the short-lived records,
 * ends early rather than never.
 */
export const remaining = (clock: Clock, expiry: number) =>
  Math.min(TIMER_DELAY_MAX_MS, Math.max(0, expiry - clock()))

/** The expiry has come (a clamped delay may end before it). */
export const reached = (clock: Clock, expiry: number) => clock() >= expiry

export const info = (error: SessionError): SessionErrorInfo => sessionErrorInfo(error)

/** Action params from an invoked actor's error and done events. */
export const errorOf = ({ event }: { event: { error: unknown } }) => event.error
export const outputOf = ({ event }: { event: { output: unknown } }) => event.output

/**
 * When to extend a session that expires at `expiry`, seen at `now` (epoch ms): `margin` before its expiry, or
 * halfway through what remains when that is less than twice the margin (a wallet may grant a short session);
 * never before `now`. After an extension the expiry moves, and so does the next extension.
 */
export const extendAt = (now: number, expiry: number, margin: number) => {
  const left = Math.max(0, expiry - now)
  return expiry - Math.min(margin, left / 2)
}
