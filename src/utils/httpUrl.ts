/**
 * Safe `http:`/`https:` links from untrusted data, and the normalising every link check starts from (see
 * ./links.ts for deep links and display text). Its own module: the kit's first-click code (stored recent wallets'
 * icons) needs only this much.
 *
 * Links are normalised the way a browser's URL parser reads them before they are checked, so what is checked
 * is what would run: leading and trailing C0 controls and spaces are dropped and tabs and newlines anywhere
 * are removed (`java\tscript:` is `javascript:` to a browser).
 */

/** Longest link accepted; real wallet links are far shorter. */
export const MAX_LINK_LENGTH = 2048

/** A link's scheme, before its `:`. */
export const SCHEME = /^([a-z][a-z0-9+.-]*):/i

// C0 controls and space (stripped at the ends by the URL parser), and tab/LF/CR (removed anywhere).
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const EDGE_JUNK = /^[\u0000-\u0020]+|[\u0000-\u0020]+$/g
const TAB_OR_NEWLINE = /[\t\n\r]/g
// What may not remain inside a link after normalising: any control character, whitespace, and characters
// that only appear in links built to break out of an attribute or a string.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const FORBIDDEN_IN_LINK = /[\u0000-\u001f\u007f-\u009f\s"'`<>\\]/u

/** The link as a browser's URL parser reads it, or `undefined` when it is too long or holds what no link may. */
export function normaliseLink(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length > MAX_LINK_LENGTH * 2) return undefined
  const link = value.replace(EDGE_JUNK, '').replace(TAB_OR_NEWLINE, '')
  if (link === '' || link.length > MAX_LINK_LENGTH || FORBIDDEN_IN_LINK.test(link)) return undefined
  return link
}

/** An `http:`/`https:` URL without credentials, as the URL parser normalises it; else `undefined`. */
export function checkHttp(link: string): string | undefined {
  let url: URL
  try {
    url = new URL(link)
  } catch {
    return undefined
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined
  // Credentials in a link are a phishing device (`https://wallet.example@evil.example`).
  if (url.username !== '' || url.password !== '' || url.hostname === '') return undefined
  return url.href
}

/**
 * An absolute `http:`/`https:` URL without credentials, normalised by the URL parser; else `undefined`.
 *
 * @example
 * safeHttpUrl(' https://app.example/x ') // 'https://app.example/x'
 * safeHttpUrl('javascript:alert(1)') // undefined
 * safeHttpUrl('https://user:pw@host.example') // undefined
 */
export function safeHttpUrl(value: unknown): string | undefined {
  const link = normaliseLink(value)
  if (link === undefined) return undefined
  const scheme = SCHEME.exec(link)?.[1]?.toLowerCase()
  if (scheme !== 'http' && scheme !== 'https') return undefined
  return checkHttp(link)
}
