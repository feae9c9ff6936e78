import { describe, expect, it } from 'vitest'
import { pairingExpiry, safeIcon } from './connection'

const NOW = 1_750_000_000_000

describe('pairingExpiry', () => {
  it('reads expiryTimestamp (seconds) from a WalletConnect URI, in milliseconds', () => {
    const uri = 'wc:7f6e1d@2?relay-protocol=irn&symKey=587d5484ce&expiryTimestamp=1750000300'
    expect(pairingExpiry(uri, NOW)).toBe(1_750_000_300_000)
  })

  it('finds it anywhere in the query, not only last', () => {
    expect(pairingExpiry('wc:ab@2?expiryTimestamp=1750000300&relay-protocol=irn', NOW)).toBe(
      1_750_000_300_000,
    )
    expect(pairingExpiry('wc:ab@2?symKey=1&expiryTimestamp=1750000300&methods=x', NOW)).toBe(
      1_750_000_300_000,
    )
  })

  it('without a usable expiry the URI is valid for five minutes from now', () => {
    const fiveMinutes = NOW + 5 * 60_000
    expect(pairingExpiry('wc:ab@2?relay-protocol=irn&symKey=587d', NOW)).toBe(fiveMinutes)
    // Not a timestamp in seconds: too short, too long, not digits, or another parameter's suffix.
    expect(pairingExpiry('wc:ab@2?expiryTimestamp=17500', NOW)).toBe(fiveMinutes)
    expect(pairingExpiry('wc:ab@2?expiryTimestamp=1750000000000', NOW)).toBe(fiveMinutes)
    expect(pairingExpiry('wc:ab@2?expiryTimestamp=17500003x0', NOW)).toBe(fiveMinutes)
    expect(pairingExpiry('wc:ab@2?oldexpiryTimestamp=1750000300', NOW)).toBe(fiveMinutes)
  })

  it('defaults to the current time', () => {
    const before = Date.now()
    const expiry = pairingExpiry('wc:ab@2?relay-protocol=irn')
    expect(expiry).toBeGreaterThanOrEqual(before + 5 * 60_000)
    expect(expiry).toBeLessThanOrEqual(Date.now() + 5 * 60_000)
  })
})

describe('safeIcon', () => {
  const png = 'data:image/png;base64,iVBORw0KGgo='

  it('keeps image data URIs (EIP-6963 icons)', () => {
    for (const icon of [
      png,
      'data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=',
      'data:image/svg+xml,%3Csvg%3E%3C/svg%3E',
      'data:image/jpeg;base64,/9j/4AAQ',
      'data:image/gif;base64,R0lGOD',
      'data:image/webp;base64,UklGR',
      'DATA:IMAGE/PNG;BASE64,iVBORw0KGgo=',
    ]) {
      expect(safeIcon(icon), icon).toBe(icon)
    }
  })

  it('drops anything a wallet could use to load or run something else', () => {
    for (const icon of [
      'https://evil.example/icon.png',
      '//evil.example/icon.png',
      'javascript:alert(1)',
      'data:text/html;base64,PHNjcmlwdD4=',
      'data:image/x-icon;base64,AAAB',
      'data:image/png', // no comma, no data
      ' data:image/png;base64,iVBORw0KGgo=',
      '',
    ]) {
      expect(safeIcon(icon), icon).toBeUndefined()
    }
    expect(safeIcon(undefined)).toBeUndefined()
  })

  it('drops oversized icons (over 200 000 characters)', () => {
    const prefix = 'data:image/png;base64,'
    const atLimit = prefix + 'A'.repeat(200_000 - prefix.length)
    expect(safeIcon(atLimit)).toBe(atLimit)
    expect(safeIcon(`${atLimit}A`)).toBeUndefined()
  })
})
