/**
 * Mobile browsers (issue 18 item 5): where a wallet is an app on the same device, so choosing one opens it by
 * its mobile link with the pairing URI instead of showing a QR code to scan. Decided once, at the kit's edge
 * (createKit reads the browser and hands the answer to the machines as input); the machines never look.
 */

/** What the browser says about itself; each is optional (a server, an older browser or a test says less). */
export interface MobileSignals {
  /** `navigator.userAgent`. */
  userAgent?: string
  /** `navigator.userAgentData.mobile` (User-Agent Client Hints, Chromium): the browser's own answer. */
  userAgentDataMobile?: boolean
  /** `matchMedia('(pointer: coarse)')`: the primary pointer is a finger. */
  coarsePointer?: boolean
  /** The viewport's width in CSS pixels. */
  width?: number
}

/** Phones and tablets by their user agent: Android, iOS and iPadOS devices, and the other mobile platforms. */
const MOBILE_AGENT = /Android|iPhone|iPad|iPod|webOS|BlackBerry|IEMobile|Opera Mini|Mobi/i
/** A touch screen narrower than this is a phone or a small tablet, whatever its user agent says. */
const MOBILE_MAX_WIDTH = 768

/**
 * Whether the page runs in a mobile browser: the client hint says so, or the user agent names a phone or tablet
 * (an Android tablet's hint says `mobile: false`, yet its wallets are apps on it), or the pointer is a finger
 * on a narrow screen (an iPad in desktop mode says "Macintosh"; a desktop window made narrow has a mouse).
 *
 * @example
 * isMobileBrowser({ userAgentDataMobile: true }) // true
 * isMobileBrowser({ userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) …' }) // true
 * isMobileBrowser({ userAgent: 'Mozilla/5.0 (X11; Linux x86_64) …', coarsePointer: false, width: 375 }) // false
 */
export function isMobileBrowser(signals: MobileSignals): boolean {
  if (signals.userAgentDataMobile === true) return true
  if (signals.userAgent && MOBILE_AGENT.test(signals.userAgent)) return true
  return signals.coarsePointer === true && signals.width !== undefined && signals.width < MOBILE_MAX_WIDTH
}

/** The signals of the browser the code runs in; none on a server. */
export function browserMobileSignals(): MobileSignals {
  if (typeof navigator === 'undefined' || typeof window === 'undefined') return {}
  const hints = (navigator as Navigator & { userAgentData?: { mobile?: unknown } }).userAgentData
  return {
    userAgent: navigator.userAgent,
    ...(typeof hints?.mobile === 'boolean' ? { userAgentDataMobile: hints.mobile } : {}),
    ...(typeof window.matchMedia === 'function'
      ? { coarsePointer: window.matchMedia('(pointer: coarse)').matches }
      : {}),
    ...(typeof window.innerWidth === 'number' ? { width: window.innerWidth } : {}),
  }
}
