import { ONRAMP_RESTRICTED_TIMEZONES } from '../constants'

const RESTRICTED: ReadonlySet<string> = new Set(ONRAMP_RESTRICTED_TIMEZONES.map((zone) => zone.toLowerCase()))

/**
 * Whether Buy is hidden in a time zone (SPEC §9: the restricted time zones of the China region). Takes the IANA
 * name, as `Intl.DateTimeFormat().resolvedOptions().timeZone` gives it; compared without regard to case or
 * surrounding space. Anything that is not a string is not restricted.
 *
 * @example
 * isOnrampRestricted(Intl.DateTimeFormat().resolvedOptions().timeZone)
 * isOnrampRestricted('Asia/Shanghai') // true
 * isOnrampRestricted('Asia/Tokyo') // false
 */
export function isOnrampRestricted(timeZone: unknown): boolean {
  return typeof timeZone === 'string' && RESTRICTED.has(timeZone.trim().toLowerCase())
}
