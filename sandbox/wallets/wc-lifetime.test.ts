import { describe, expect, it } from 'vitest'
import { sessionExpiryOf } from './wc/lifetime.ts'

describe('the WalletConnect wallet page: ?sessionExpiry=', () => {
  it('whole seconds from 5 to 3600; anything else leaves the library lifetime', () => {
    expect(sessionExpiryOf('30')).toBe(30)
    expect(sessionExpiryOf('5')).toBe(5)
    expect(sessionExpiryOf('3600')).toBe(3_600)
    for (const bad of [null, '', '4', '3601', '1.5', '-30', '30s', ' 30'])
      expect(sessionExpiryOf(bad)).toBeUndefined()
  })
})
