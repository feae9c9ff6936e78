import { afterEach, describe, expect, it, vi } from 'vitest'
import { TELEMETRY_WINDOW_MS } from '../constants'
import { createTelemetryClient } from './telemetry'

// What needs no server; the client against the sandbox sink is in test/integration/telemetry.test.ts.
describe('the error cap is a rolling 60 s window', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  it('admits 5 errors in any 60 s, freeing a place as each ages out', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    const t0 = Date.parse('2030-01-01T00:00:00Z')
    vi.setSystemTime(t0)
    // Records what reaches the network; the count of POST /e calls is what the cap governs.
    const posted: number[] = []
    const recorder: typeof fetch = async (input) => {
      if (String(input).includes('/getAnalyticsConfig')) return Response.json({ isAnalyticsEnabled: true })
      posted.push(Date.now() - t0)
      return new Response(null, { status: 202 })
    }
    const telemetry = createTelemetryClient({
      telemetryUrl: 'http://telemetry.invalid',
      walletsApiUrl: 'http://wallets.invalid',
      projectId: 'window',
      enabled: true,
      fetch: recorder,
    })
    const error = async (at: number) => {
      vi.setSystemTime(t0 + at)
      return telemetry.send({ type: 'error', event: 'E', errorMessage: `at ${at}` })
    }

    expect([await error(0), await error(0)]).toEqual([true, true])
    expect([await error(40_000), await error(40_000), await error(40_000)]).toEqual([true, true, true])
    expect(await error(59_999)).toBe(false)
    // At 60 s the two from 0 s have aged out: two places, not more.
    expect([await error(TELEMETRY_WINDOW_MS), await error(TELEMETRY_WINDOW_MS)]).toEqual([true, true])
    expect(await error(TELEMETRY_WINDOW_MS)).toBe(false)
    // At 100 s the three from 40 s have aged out.
    expect([await error(100_000), await error(100_000), await error(100_000)]).toEqual([true, true, true])
    expect(await error(100_000)).toBe(false)
    expect(await telemetry.send({ type: 'track', event: 'NOT_CAPPED' })).toBe(true)

    expect(posted).toEqual([0, 0, 40_000, 40_000, 40_000, 60_000, 60_000, 100_000, 100_000, 100_000, 100_000])
  })
})
