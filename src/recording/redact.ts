import type { Json } from './format'

/**
 * The secrets rules a recorder applies (on by default). Each keeps the value's shape where a machine's guard
 * could look at it, so a redacted recording still replays: an e-mail becomes another valid e-mail, a one-time
 * code the same number of zeros.
 *
 * Every string is read as it is and URL-decoded (up to three times: a URI inside a deep link inside a URL), so
 * a secret is found however many times it was percent-encoded, and replaced where it stands, encoded as it was.
 */
export const REDACTION_RULES = [
  {
    name: 'email',
    rule: 'Every e-mail address, in any string, raw or URL-encoded (`user%40mail.com`): `user1@redacted.invalid` (the same address gets the same stand-in).',
  },
  {
    name: 'one-time code',
    rule: 'Properties named otp, otpCode, oneTimeCode, verificationCode and code (a string of any shape; a numeric `code` is an error code and stays, as does an alert name like `SESSION_EXPIRED`): every digit becomes 0 and every letter x, so the length and shape stay.',
  },
  {
    name: 'token',
    rule: 'Properties named like token, accessToken, idToken, refreshToken, secret, password, apiKey, authorization, cookie, jwt, mnemonic, seed, privateKey or sessionKey (a string that is not a 0x address): `{ $redacted: "token" }`.',
  },
  { name: 'jwt', rule: 'A JSON Web Token or a Bearer credential in any string: `[redacted jwt]`.' },
  {
    name: 'pairing key',
    rule: 'The `symKey` of a WalletConnect pairing URI in any string, raw or URL-encoded (a mobile deep link), and every property named symKey: zeros of the same length (the pairing topic stays).',
  },
  {
    name: 'JSON text',
    rule: 'In JSON text inside any string (raw or URL-encoded), the values of the properties symKey, code (not an alert name), id_token, access_token and refresh_token: every digit becomes 0 and every letter x (a symKey’s hex digits 0).',
  },
  {
    name: 'query parameter',
    rule: 'The values of the query or fragment parameters symKey, code, state, token, id_token, access_token, refresh_token and walletstate_social (the secure site’s one-time sign-in token) of any URL or query string in any string, raw or URL-encoded: every digit becomes 0 and every letter x.',
  },
] as const

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g
const JWT = /\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*/g
const BEARER = /\bBearer\s+[A-Za-z0-9._~+/=-]{8,}/g
/**
 * A secret query parameter, at the start of a string or after `?`, `&`, `#` or `;`: its name and `=` (group 1)
 * and its value (group 2).
 */
const SECRET_PARAM =
  /(?:^|[?&#;])((?:symKey|code|state|token|id_token|access_token|refresh_token|walletstate_social)=)([^&#;\s"'<>]+)/g
/**
 * A secret property in JSON text inside a string (a payload in an error message, a stored record): its name,
 * colon and opening quote (group 1) and its value (group 2).
 */
const JSON_SECRET = /("(?:symKey|code|id_token|access_token|refresh_token)"\s*:\s*")((?:[^"\\]|\\.)+)"/g
const OTP_KEY = /^(otp|otpCode|oneTimeCode|verificationCode)$/i
const CODE_KEY = /^code$/i
const SYM_KEY_KEY = /^symKey$/i
/** A `code` that names an alert or an error (`EMBEDDED_WALLET_LOAD_FAILED`), not a secret. */
const CODE_NAME = /^[A-Z]+(?:_[A-Z0-9]+)+$/
const SECRET_KEY =
  /^(token|accessToken|idToken|id_token|access_token|refresh_token|refreshToken|authToken|sessionToken|secret|clientSecret|password|passphrase|apiKey|authorization|cookie|jwt|mnemonic|seed|seedPhrase|privateKey|sessionKey)$/i
const ADDRESS = /^0x[0-9a-fA-F]{40}$/
/** Strings that may hold a secret found by its text (the rest are kept as they are, quickly). */
const MAY_HOLD_SECRET = /[@%=]|eyJ|Bearer|":/
/** One character of a (possibly several times) percent-encoded text: `%41`, `%2541`, or a character. */
const TOKEN = /%(?:25)*[0-9A-Fa-f]{2}|[\s\S]/gu
/** How many URL-decodings are tried (a pairing URI in a deep link in a URL is two). */
const DECODINGS = 3

/**
 * Every digit becomes 0 and every letter x (with `hex`, every hex digit 0: a key stays a hex string); the rest
 * stays: the length and shape a guard may look at.
 */
export function blankShape(value: string, { hex = false } = {}): string {
  return value.replace(hex ? /[0-9a-fA-F]/g : /[0-9]/g, '0').replace(/\p{L}/gu, 'x')
}

/** A redactor keeps its e-mail stand-ins, so one address is one stand-in through a whole recording. */
export function createRedactor() {
  const emails = new Map<string, string>()
  const emailStandIn = (email: string) => {
    const known = emails.get(email.toLowerCase())
    if (known) return known
    const standIn = `user${emails.size + 1}@redacted.invalid`
    emails.set(email.toLowerCase(), standIn)
    return standIn
  }

  /** A secret found in a decoding of the string: its decoded text, how many leading characters stay, its stand-in. */
  interface Needle {
    text: string
    keep: number
    replace: (tokens: string[]) => string
  }
  const blankTokens = (tokens: string[]) => tokens.map(blankToken).join('')
  const needlesOf = (text: string): Needle[] => {
    const needles: Needle[] = []
    for (const match of text.matchAll(EMAIL)) {
      const email = match[0]
      if (email.toLowerCase().endsWith('@redacted.invalid')) continue
      const standIn = emailStandIn(email)
      // The stand-in keeps the original's `@` as it was written there (`@`, `%40`, `%2540`).
      needles.push({
        text: email,
        keep: 0,
        replace: (tokens) => standIn.replace('@', tokens.find((t) => decodeToken(t) === '@') ?? '@'),
      })
    }
    for (const match of text.matchAll(SECRET_PARAM)) {
      const name = match[1]!
      needles.push({
        text: name + match[2]!,
        keep: [...name].length,
        replace: name === 'symKey=' ? (tokens) => tokens.map(blankHexToken).join('') : blankTokens,
      })
    }
    for (const match of text.matchAll(JSON_SECRET)) {
      const [, prefix = '', secret = ''] = match
      if (prefix.startsWith('"code"') && CODE_NAME.test(secret)) continue
      needles.push({
        text: prefix + secret,
        keep: [...prefix].length,
        replace: prefix.startsWith('"symKey"') ? (tokens) => tokens.map(blankHexToken).join('') : blankTokens,
      })
    }
    return needles
  }

  const redactText = (value: string): string => {
    let out = value.replace(JWT, '[redacted jwt]').replace(BEARER, 'Bearer [redacted]')
    if (!MAY_HOLD_SECRET.test(out)) return out
    const needles: Needle[] = []
    let layer = out
    for (let i = 0; i <= DECODINGS; i++) {
      needles.push(...needlesOf(layer))
      const next = decodeOnce(layer)
      if (next === layer) break
      layer = next
    }
    // Longest first, so a secret inside another (a parameter in an e-mail-like text) is replaced whole.
    needles.sort((a, b) => b.text.length - a.text.length)
    for (const needle of needles) {
      out = out.replace(encodedPattern(needle.text), (found) => {
        const tokens = found.match(TOKEN) ?? []
        return tokens.slice(0, needle.keep).join('') + needle.replace(tokens.slice(needle.keep))
      })
    }
    return out
  }

  return {
    string(value: string, key: string | undefined): string | Json {
      if (key !== undefined) {
        if (SYM_KEY_KEY.test(key)) return blankShape(value, { hex: true })
        if (OTP_KEY.test(key)) return blankShape(value)
        if (CODE_KEY.test(key) && !CODE_NAME.test(value)) return blankShape(value)
        if (SECRET_KEY.test(key) && !ADDRESS.test(value)) return { $redacted: 'token' }
      }
      return redactText(value)
    },
    property(key: string, value: unknown): Json | undefined {
      // A one-time code as a number (`{ otp: 123456 }`). A numeric `code` is an error code (4001), kept.
      if (typeof value === 'number' && OTP_KEY.test(key)) return 0
      // A pairing key as bytes.
      if (value instanceof Uint8Array && SYM_KEY_KEY.test(key)) return { $bytes: '00'.repeat(value.length) }
      return undefined
    },
  }
}

/** A token of a matched secret, blanked: a letter or digit, written as it is or percent-encoded. */
function blankToken(token: string): string {
  const char = decodeToken(token)
  if (/[0-9]/.test(char)) return '0'
  if (/\p{L}/u.test(char)) return 'x'
  return token
}

/** A pairing key's token: a hex digit becomes 0 (the key stays 64 hex digits). */
function blankHexToken(token: string): string {
  return /^[0-9a-fA-F]$/.test(decodeToken(token)) ? '0' : blankToken(token)
}

/** The character a token stands for (`%2540` → `@`). */
function decodeToken(token: string): string {
  return token.length > 1 && token.startsWith('%')
    ? String.fromCharCode(Number.parseInt(token.slice(-2), 16))
    : token
}

/** One URL-decoding: `%XX` sequences (a malformed one stays as it is, the rest still decode). */
function decodeOnce(text: string): string {
  if (!text.includes('%')) return text
  try {
    return decodeURIComponent(text)
  } catch {
    return text.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
      try {
        return decodeURIComponent(run)
      } catch {
        return run
      }
    })
  }
}

/** The text as written raw or percent-encoded any number of times, character by character (`@` or `%40` …). */
function encodedPattern(text: string): RegExp {
  let source = ''
  for (const char of text) {
    const bytes = [...new TextEncoder().encode(char)]
    const encoded = bytes.map((byte) => `%(?:25)*${hexPattern(byte)}`).join('')
    source += `(?:${escapeRegExp(char)}|${encoded})`
  }
  return new RegExp(source, 'g')
}

function hexPattern(byte: number): string {
  return [...byte.toString(16).padStart(2, '0')]
    .map((digit) => (/[a-f]/.test(digit) ? `[${digit}${digit.toUpperCase()}]` : digit))
    .join('')
}

function escapeRegExp(char: string): string {
  return char.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&')
}
