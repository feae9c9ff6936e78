import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { type DataApi, type TelemetryEvent as StoredEvent, startDataApi } from '../../sandbox/api/data.ts'
import { type ListingApi, startListingApi } from '../../sandbox/api/listing.ts'
import { createTelemetryClient, errorProps } from '../../src/api/telemetry'
import { SDK_TYPE, SDK_VERSION, TELEMETRY_ERRORS_PER_WINDOW, TELEMETRY_WINDOW_MS } from '../../src/constants'
import { DataApiError } from '../../src/errors/api'

const balanceError = () =>
  new DataApiError('balance', { kind: 'http', status: 500, details: 'HTTP 500: Internal error' })

describe('against the sandbox telemetry sink and analytics config', () => {
  let api: DataApi
  let listing: ListingApi

  beforeAll(async () => {
    // The sink needs no chain: telemetry never reads one.
    ;[api, listing] = await Promise.all([
      startDataApi({ rpcUrl: 'http://127.0.0.1:9', chainId: 31337, tokens: [] }),
      startListingApi(),
    ])
  })
  afterEach(async () => {
    await fetch(`${listing.origin}/__fault`, { method: 'POST', body: JSON.stringify({ mode: 'off' }) })
    await fetch(`${listing.origin}/__config`, {
      method: 'POST',
      body: JSON.stringify({ isAnalyticsEnabled: true }),
    })
  })
  afterAll(async () => {
    await api?.close()
    await listing?.close()
  })

  const client = (projectId: string, enabled = true) =>
    createTelemetryClient({ telemetryUrl: api.origin, walletsApiUrl: listing.origin, projectId, enabled })
  const arrived = async (projectId: string) => {
    const res = await fetch(`${api.origin}/__telemetry?projectId=${projectId}`)
    return ((await res.json()) as { events: StoredEvent[] }).events
  }

  it('behavior: 20 errors in a burst send at most 5; track events are not capped', async () => {
    const projectId = `burst-${crypto.randomUUID()}`
    const telemetry = client(projectId)
    const sent = await Promise.all(
      Array.from({ length: 20 }, () =>
        telemetry.send({ type: 'error', event: 'BALANCE_FAILED', ...errorProps(balanceError()) }),
      ),
    )
    expect(sent.filter(Boolean)).toHaveLength(TELEMETRY_ERRORS_PER_WINDOW)
    const tracked = await Promise.all(
      Array.from({ length: 7 }, () => telemetry.send({ type: 'track', event: 'MODAL_OPEN' })),
    )
    expect(tracked.every(Boolean)).toBe(true)

    const events = await arrived(projectId)
    const errors = events.filter((event) => event.props.type === 'error')
    expect(errors).toHaveLength(5)
    expect(events.filter((event) => event.props.type === 'track')).toHaveLength(7)
    expect(errors[0]).toMatchObject({
      projectId,
      st: SDK_TYPE,
      sv: SDK_VERSION,
      props: {
        type: 'error',
        event: 'BALANCE_FAILED',
        errorType: 'DataApiError',
        errorMessage: 'Token Balance Unavailable',
        stackTrace: expect.stringMatching(/DataApiError/),
      },
    })
  })

  it('behavior: analytics is off when the config call fails or says so, and when the kit turns it off', async () => {
    const failing = `config-fails-${crypto.randomUUID()}`
    await fetch(`${listing.origin}/__fault`, {
      method: 'POST',
      body: JSON.stringify({ mode: 'fail', path: '/getAnalyticsConfig' }),
    })
    const offline = client(failing)
    expect(await offline.isEnabled()).toBe(false)
    expect(await offline.send({ type: 'track', event: 'MODAL_OPEN' })).toBe(false)
    await fetch(`${listing.origin}/__fault`, { method: 'POST', body: JSON.stringify({ mode: 'off' }) })

    await fetch(`${listing.origin}/__config`, {
      method: 'POST',
      body: JSON.stringify({ isAnalyticsEnabled: false }),
    })
    const disabled = client(failing)
    expect(await disabled.send({ type: 'track', event: 'MODAL_OPEN' })).toBe(false)
    await fetch(`${listing.origin}/__config`, {
      method: 'POST',
      body: JSON.stringify({ isAnalyticsEnabled: true }),
    })

    const off = client(failing, false)
    expect(await off.send({ type: 'track', event: 'MODAL_OPEN' })).toBe(false)
    expect(await arrived(failing)).toEqual([])

    // The same project, analytics on: it arrives.
    expect(await client(failing).send({ type: 'track', event: 'MODAL_OPEN' })).toBe(true)
    expect(await arrived(failing)).toHaveLength(1)
  })
})

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
