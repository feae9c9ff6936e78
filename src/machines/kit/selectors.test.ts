import { describe, expect, it } from 'vitest'
import { selectAlerts, selectCapability } from '../kit'

const value = {
  embedded: 'running',
  remoteSessions: 'idle',
  account: { loading: {} },
  wallets: 'failed',
}

describe('kit selectors', () => {
  it('selectCapability reads each region built by onDemand', () => {
    expect(selectCapability({ value }, 'embedded')).toBe('running')
    expect(selectCapability({ value }, 'remoteSessions')).toBe('idle')
    expect(selectCapability({ value }, 'account')).toBe('loading')
    expect(selectCapability({ value }, 'wallets')).toBe('failed')
  })

  it('selectAlerts gives the alerts as they are', () => {
    const alerts = [{ code: 'PROJECT_ID_NOT_CONFIGURED', message: 'x' }] as never
    expect(selectAlerts({ context: { alerts } })).toBe(alerts)
  })
})
