/**
 * Safe values from untrusted data (the wallet listing, peer metadata): links a page may put in an `href` or
 * open, and text it may show. Each function answers a clean value or `undefined`/`''`, never throws.
 * Every link is first normalised as a browser's URL parser reads it (./httpUrl.ts).
 */
import { checkHttp, normaliseLink, SCHEME } from './httpUrl'

export { MAX_LINK_LENGTH, safeHttpUrl } from './httpUrl'

/**
 * Schemes that run code, read local or browser-internal resources, or smuggle a document in: never a
 * wallet's deep link, whatever the listing says.
 */
const BLOCKED_SCHEMES = new Set([
  'javascript',
  'vbscript',
  'livescript',
  'mocha',
  'data',
  'file',
  'blob',
  'filesystem',
  'about',
  'chrome',
  'chrome-extension',
  'chrome-untrusted',
  'chrome-search',
  'devtools',
  'edge',
  'brave',
  'opera',
  'vivaldi',
  'view-source',
  'jar',
  'resource',
  'moz-extension',
  'ms-browser-extension',
  'safari-extension',
  'safari-web-extension',
  'webkit-extension',
])

/**
 * The operating system's own URL handlers and the desktop apps a click on a web page can start, refused as deep
 * links even in the `name://` form a wallet's scheme has: each opens something on the visitor's machine that is
 * not a wallet, and several have been used to run code or leak credentials from a click on a web page. One rule,
 * by kind; a wallet's own scheme is none of these.
 */
const OS_HANDLERS_BY_KIND = {
  /** Explorer search and shell, the help and document handlers (`ms-*` is refused whole, below). */
  windows: ['search-ms', 'search', 'shell', 'mk', 'its', 'mhtml', 'hcp', 'help', 'res', 'microsoft-edge'],
  /** Network shares and local files: a click mounts a share or opens a file. */
  files: ['smb', 'cifs', 'webdav', 'dav', 'file', 'afp', 'nfs'],
  /** macOS and iOS installers and automation (`x-apple-*` is refused whole, below). */
  apple: [
    'itms',
    'itms-services',
    'itms-apps',
    'itms-appss',
    'shortcuts',
    'workflow',
    'applescript',
    'x-man-page',
    'facetime',
    'facetime-audio',
  ],
  /** Android: start any app component, not the wallet's. */
  android: ['intent', 'android-app'],
  /** Remote access and file transfer. */
  remote: ['ftp', 'ftps', 'sftp', 'ssh', 'telnet', 'rdp', 'vnc', 'ldap', 'ldaps', 'gopher', 'ws', 'wss'],
  /** Code launchers: Java Web Start downloads and runs an application. */
  javaWebStart: ['jnlp', 'jnlps'],
  /** Calls, meetings and messengers: join a call, open a chat, send a message in the visitor's name. */
  messaging: [
    'tel',
    'sms',
    'mailto',
    'callto',
    'sip',
    'sips',
    'skype',
    'zoommtg',
    'zoomus',
    'zoomphonecall',
    'msteams',
    'tg',
    'whatsapp',
    'viber',
    'slack',
    'discord',
    'irc',
    'ircs',
    'xmpp',
  ],
  /** Developer tools that clone, open or run what the link names. */
  developer: [
    'sourcetree',
    'github-windows',
    'github-mac',
    'x-github-client',
    'git',
    'svn',
    'vscode',
    'vscode-insiders',
    'vscodium',
    'jetbrains',
    'txmt',
    'subl',
  ],
  /** Game and app stores' launchers, torrents and media players, calendar and feed subscriptions, VPNs. */
  otherApps: [
    'steam',
    'com.epicgames.launcher',
    'magnet',
    'ed2k',
    'rtsp',
    'rtmp',
    'mms',
    'webcal',
    'webcals',
    'feed',
    'news',
    'nntp',
    'snews',
    'openvpn',
  ],
} as const
const OS_HANDLER_SCHEMES: ReadonlySet<string> = new Set(Object.values(OS_HANDLERS_BY_KIND).flat())
/** Whole families of OS handlers, by prefix. */
const OS_HANDLER_PREFIXES = ['ms-', 'x-apple-', 'x-apple.', 'vscode-']

/**
 * Whether a URL scheme (without `:`) is one of the operating system's handlers that a deep link may never
 * name (see the list above), or a scheme that runs code or reads local data.
 *
 * @example
 * isOsHandlerScheme('search-ms') // true
 * isOsHandlerScheme('metamask') // false
 */
export function isOsHandlerScheme(scheme: string): boolean {
  const lower = scheme.toLowerCase()
  return (
    OS_HANDLER_SCHEMES.has(lower) ||
    BLOCKED_SCHEMES.has(lower) ||
    OS_HANDLER_PREFIXES.some((prefix) => lower.startsWith(prefix))
  )
}

/** A wallet's own scheme, as deep links give it: `name://` (SPEC §7's wallet links), a letter first. */
const WALLET_SCHEME_LINK = /^([a-z][a-z0-9+.-]{0,63}):\/\//i
/** Hosts plain http may reach as a deep link: the machine itself (the sandbox's wallet pages). */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]'])

/**
 * A link a wallet can be opened with, from an allow-list of forms (issue 13 item 5): `https:` (as
 * {@link safeHttpUrl}), `http:` on the loopback host only (the local sandbox's wallet pages), or a wallet's own
 * scheme in the form `name://` that is not an OS handler ({@link isOsHandlerScheme}: `search-ms:`, `smb:`,
 * `ms-*:`, `intent:`, ...) nor a scheme that runs code or reads local data (`javascript:`, `data:`, `file:`,
 * `blob:`, ...), in any case and however padded. Anything else is `undefined`.
 *
 * @example
 * safeDeepLink('metamask://wc?uri=x') // 'metamask://wc?uri=x'
 * safeDeepLink('search-ms://query=x') // undefined
 * safeDeepLink('JaVaScRiPt:alert(1)') // undefined
 * safeDeepLink('java\tscript:alert(1)') // undefined
 */
export function safeDeepLink(value: unknown): string | undefined {
  const link = normaliseLink(value)
  if (link === undefined) return undefined
  const scheme = SCHEME.exec(link)?.[1]?.toLowerCase()
  if (scheme === undefined) return undefined
  if (scheme === 'https') return checkHttp(link)
  if (scheme === 'http') {
    const checked = checkHttp(link)
    return checked && LOOPBACK_HOSTS.has(new URL(checked).hostname) ? checked : undefined
  }
  if (!WALLET_SCHEME_LINK.test(link) || isOsHandlerScheme(scheme)) return undefined
  return `${scheme}${link.slice(scheme.length)}`
}

// Controls (C0, DEL, C1); bidirectional marks, embeddings, overrides and isolates (they can reverse how a name
// reads: U+061C, U+200E-U+200F, U+202A-U+202E, U+2066-U+2069); invisible characters that make two names look
// alike (zero-width space, soft hyphen, word joiner and invisible operators, BOM, interlinear annotation); and,
// with the `u` flag, lone surrogates: a UTF-16 half whose pair was split (a name cut by code units upstream) is
// no character at all, and renders as a replacement box or not at all. Zero-width joiners stay: emoji need them.
const INVISIBLE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
  /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\ufff9-\ufffb\ud800-\udfff]/gu

/**
 * "…", decoded when a text is cut. A literal, an escape or `String.fromCharCode` (bundlers fold each back into
 * the character) would be a non-ASCII character in the host's first-click script, and Chromium keeps a script
 * holding one as UTF-16: twice its size in memory. Decoded here, not at the top of the module: a top-level call
 * stays in every host's bundle. The consumer test checks that script stays ASCII.
 */
const ellipsis = (): string => JSON.parse('"\\u2026"')

/**
 * Text for display: strings only, invisible, bidi-control and control characters and lone surrogates removed,
 * whitespace collapsed, trimmed, and at most `maxLength` characters (code points), ending in an ellipsis when
 * cut. Every name from outside goes through it: the wallet listing's, EIP-6963 announcements', injected and
 * Wallet Standard wallets', a host's custom wallets'. Render it as text (React escapes it); it is not HTML-safe
 * by itself.
 *
 * @example
 * safeText('  Rainbow\u0000 Wallet ', 40) // 'Rainbow Wallet'
 * safeText('Wallet\u202Eniarb', 40) // 'Walletniarb'
 * safeText('x'.repeat(50), 10) // 'xxxxxxxxx…'
 * safeText(42, 10) // ''
 */
export function safeText(value: unknown, maxLength: number): string {
  if (typeof value !== 'string' || maxLength <= 0) return ''
  // Bound the work before normalising: a megabyte of name is not a name.
  const bounded = value.length > maxLength * 8 + 64 ? value.slice(0, maxLength * 8 + 64) : value
  const text = bounded
    .normalize('NFC')
    .replace(/[\t\n\r\v\f]/g, ' ')
    .replace(INVISIBLE, '')
    .replace(/\s+/gu, ' ')
    .trim()
  const chars = Array.from(text)
  if (chars.length <= maxLength) return text
  return `${chars
    .slice(0, maxLength - 1)
    .join('')
    .trimEnd()}${ellipsis()}`
}
