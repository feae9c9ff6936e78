/**
 * SPEC §4: on Telegram's in-app browser, or Safari on iOS, a pairing URI is reused until it expires (opening a
 * wallet and coming back reloads or suspends the page, and a new URI would strand the pending pairing).
 */
export function reusesPairing(
  userAgent = typeof navigator === 'undefined' ? '' : navigator.userAgent,
): boolean {
  const telegram = typeof window !== 'undefined' && 'TelegramWebviewProxy' in window
  const iosSafari =
    /iP(hone|ad|od)/.test(userAgent) && /Safari\//.test(userAgent) && !/CriOS|FxiOS|EdgiOS/.test(userAgent)
  return telegram || /Telegram/i.test(userAgent) || iosSafari
}

/**
 * A device whose primary pointer cannot hover (a touch screen): nothing shows a visitor's intent before a tap,
 * so what would load on intent loads up front. False where there is no `matchMedia` (server, tests).
 */
export function withoutHover(): boolean {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function'
    ? window.matchMedia('(hover: none)').matches
    : false
}

/** The visitor's time zone (IANA, e.g. `Europe/Paris`), or undefined where `Intl` cannot say (SPEC §9 Buy). */
export function visitorTimeZone(): string | undefined {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || undefined
  } catch {
    return undefined
  }
}
