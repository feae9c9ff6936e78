import { describe, expect, it } from 'vitest'
import { BaseError, ConfigError } from './base'

describe('BaseError', () => {
  it('keeps the short message, details and cause chain', () => {
    const root = new Error('socket closed')
    const middle = new BaseError('Request failed', { cause: root })
    const top = new ConfigError('Could not load', { cause: middle, metaMessages: ['projectId: abc'] })
    expect(top.name).toBe('ConfigError')
    expect(top.shortMessage).toBe('Could not load')
    expect(top.message).toMatchInlineSnapshot(`
      "Could not load

      projectId: abc

      Details: socket closed"
    `)
    expect(top.walk()).toBe(root)
    expect(top.walk((e) => e instanceof BaseError && e.shortMessage === 'Request failed')).toBe(middle)
    expect(top.walk(() => false)).toBeNull()
  })
})
