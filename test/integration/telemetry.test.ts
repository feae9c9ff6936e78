import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { type DataApi, type TelemetryEvent as StoredEvent, startDataApi } from '../../sandbox/api/data.ts'
import { type ListingApi, startListingApi } from '../../sandbox/api/listing.ts'
import { createTelemetryClient, errorProps } from '../../src/api/telemetry'
import { SDK_TYPE, SDK_VERSION, TELEMETRY_ERRORS_PER_WINDOW } from '../../src/constants'
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

  it('behavior: the page URL is sent as origin and path only: no query, no fragment', async () => {
    const projectId = `url-${crypto.randomUUID()}`
    vi.stubGlobal('window', {
      location: new URL(
        'https://shop.example:8443/checkout/pay;v=1?token=s3cret&email=a%40b.example#access_token=xyz',
      ),
    })
    try {
      expect(await client(projectId).send({ type: 'track', event: 'MODAL_OPEN' })).toBe(true)
    } finally {
      vi.unstubAllGlobals()
    }
    const [event] = await arrived(projectId)
    expect(event?.url).toBe('https://shop.example:8443/checkout/pay;v=1')
    expect(event?.domain).toBe('shop.example')
    expect(JSON.stringify(event)).not.toMatch(/s3cret|access_token|a%40b/)
  })

  it('behavior: a stalled analytics config times out and analytics is off', async () => {
    const projectId = `config-stalls-${crypto.randomUUID()}`
    await fetch(`${listing.origin}/__fault`, {
      method: 'POST',
      body: JSON.stringify({ mode: 'stall', path: '/getAnalyticsConfig' }),
    })
    const telemetry = createTelemetryClient({
      telemetryUrl: api.origin,
      walletsApiUrl: listing.origin,
      projectId,
      enabled: true,
      configTimeoutMs: 300,
    })
    const started = performance.now()
    const stalled = new Promise<'still waiting'>((resolve) =>
      setTimeout(() => resolve('still waiting'), 5_000),
    )
    expect(await Promise.race([telemetry.isEnabled(), stalled])).toBe(false)
    expect(performance.now() - started).toBeGreaterThanOrEqual(290)
    expect(await telemetry.send({ type: 'track', event: 'MODAL_OPEN' })).toBe(false)
    expect(await arrived(projectId)).toEqual([])
  })
})
