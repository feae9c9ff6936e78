import type { Json } from './format'

/**
 * The secrets rules a recorder applies (on by default). Each keeps the value's shape where a machine's guard
 * could look at it, so a redacted recording still replays: an e-mail becomes another valid e-mail, a one-time
 * code the same number of zeros.
 */
export const REDACTION_RULES = [
  {
    name: 'email',
    rule: 'Every e-mail address, in any string: `user1@redacted.invalid` (the same address gets the same stand-in).',
  },
  {
    name: 'one-time code',
    rule: 'Properties named otp, otpCode, oneTimeCode, verificationCode, and `code` when it is 4 to 10 digits: the same number of zeros.',
  },
  {
    name: 'token',
    rule: 'Properties named like token, accessToken, idToken, refreshToken, secret, password, apiKey, authorization, cookie, jwt, mnemonic, seed, privateKey or sessionKey (a string that is not a 0x address): `{ $redacted: "token" }`.',
  },
  { name: 'jwt', rule: 'A JSON Web Token or a Bearer credential in any string: `[redacted jwt]`.' },
  {
    name: 'pairing key',
    rule: 'The `symKey` of a WalletConnect pairing URI in any string: 64 zeros (the pairing topic stays).',
  },
] as const

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g
const JWT = /\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*/g
const BEARER = /\bBearer\s+[A-Za-z0-9._~+/=-]{8,}/g
const SYM_KEY = /symKey=[0-9a-fA-F]{64}/g
const OTP_KEY = /^(otp|otpCode|oneTimeCode|verificationCode)$/i
const CODE_DIGITS = /^\d{4,10}$/
const SECRET_KEY =
  /^(token|accessToken|idToken|refreshToken|authToken|sessionToken|secret|clientSecret|password|passphrase|apiKey|authorization|cookie|jwt|mnemonic|seed|seedPhrase|privateKey|sessionKey)$/i
const ADDRESS = /^0x[0-9a-fA-F]{40}$/

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
  return {
    string(value: string, key: string | undefined): string | Json {
      if (key !== undefined && (OTP_KEY.test(key) || (key === 'code' && CODE_DIGITS.test(value)))) {
        return '0'.repeat(value.length)
      }
      if (key !== undefined && SECRET_KEY.test(key) && !ADDRESS.test(value)) return { $redacted: 'token' }
      if (
        !value.includes('@') &&
        !value.includes('eyJ') &&
        !value.includes('Bearer') &&
        !value.includes('symKey')
      ) {
        return value
      }
      return value
        .replace(EMAIL, (email) => (email.endsWith('@redacted.invalid') ? email : emailStandIn(email)))
        .replace(JWT, '[redacted jwt]')
        .replace(BEARER, 'Bearer [redacted]')
        .replace(SYM_KEY, `symKey=${'0'.repeat(64)}`)
    },
    property(key: string, value: unknown): Json | undefined {
      // A one-time code as a number (`{ otp: 123456 }`). A numeric `code` is an error code (4001), kept.
      if (typeof value === 'number' && OTP_KEY.test(key)) return 0
      return undefined
    },
  }
}
