import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createActor } from 'xstate'
import { type ListingApi, startListingApi } from '../../sandbox/api/listing.ts'
import { createTelemetryActor } from '../../src/actors/telemetry'
import { ALERTS } from '../../src/errors/base'
import { kitMachine, selectAlerts } from '../../src/machines/kit'
import { kitTestInput } from '../model-based/kit.fixtures'

/**
 * SPEC §5, §8 "invalid app configuration (origin not allowed, also on analytics 403)": the sandbox listing
 * answers the analytics config only to pages on the project's allowed origins (as the provider does) and 403 to
 * any other; the kit, with its real telemetry slot, shows the INVALID_APP_CONFIGURATION alert (issue 13 item 11).
 * Node's fetch has no page: `asPage` sends the Origin header a browser sends for a page on that origin.
 */
const ALLOWED = 'https://shop.example'
let listing: ListingApi
beforeAll(async () => {
  listing = await startListingApi({ allowedOrigins: [ALLOWED] })
})
afterAll(async () => {
  await listing?.close()
})

/** The analytics config's answers, by status, as the kit's client received them. */
const configAnswers: number[] = []
const asPage =
  (origin: string): typeof fetch =>
  async (input, init) => {
    const response = await fetch(input, {
      ...init,
      headers: { ...(init?.headers as Record<string, string>), origin },
    })
    if (String(input).includes('/getAnalyticsConfig')) configAnswers.push(response.status)
    return response
  }

function kitOn(origin: string, enabled = true, open = true) {
  const telemetry = createTelemetryActor({
    telemetryUrl: 'http://127.0.0.1:9',
    walletsApiUrl: listing.origin,
    projectId: 'app-config',
    enabled,
    fetch: asPage(origin),
  })
  const kit = createActor(kitMachine.provide({ actors: { telemetry } }), {
    input: kitTestInput('app-config'),
  }).start()
  // Nothing is asked before the visitor opens the modal (issue 14); opening reads the config.
  if (open) kit.send({ type: 'modal.open' })
  return kit
}

const codes = (kit: ReturnType<typeof kitOn>) => selectAlerts(kit.getSnapshot()).map((a) => a.code)
const waitFor = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10))
}

describe('the analytics config refuses the page’s origin', () => {
  it('a page on an origin the project does not allow: analytics 403, and the kit shows INVALID_APP_CONFIGURATION', async () => {
    const kit = kitOn('https://elsewhere.example')
    await waitFor(() => codes(kit).includes('INVALID_APP_CONFIGURATION'))
    expect(configAnswers.at(-1)).toBe(403)
    expect(selectAlerts(kit.getSnapshot())).toContainEqual(ALERTS.INVALID_APP_CONFIGURATION)
    expect(ALERTS.INVALID_APP_CONFIGURATION.shortMessage).toBe('Invalid App Configuration')
    kit.stop()
  })

  it('a page on an allowed origin: the config answers, no alert', async () => {
    const before = configAnswers.length
    const kit = kitOn(ALLOWED)
    await waitFor(() => configAnswers.length > before)
    await new Promise((r) => setTimeout(r, 50))
    expect(configAnswers.slice(before)).toEqual([200])
    expect(codes(kit)).not.toContain('INVALID_APP_CONFIGURATION')
    kit.stop()
  })

  it('nothing is asked before the visitor opens the modal (issue 14); opening asks once', async () => {
    const before = configAnswers.length
    const kit = kitOn('https://elsewhere.example', true, false)
    await new Promise((r) => setTimeout(r, 100))
    expect(configAnswers.length).toBe(before)
    kit.send({ type: 'modal.open' })
    await waitFor(() => codes(kit).includes('INVALID_APP_CONFIGURATION'))
    kit.send({ type: 'modal.close' })
    kit.send({ type: 'modal.open' })
    await new Promise((r) => setTimeout(r, 50))
    expect(configAnswers.slice(before)).toEqual([403])
    kit.stop()
  })

  it('analytics off in the kit: the config is never asked for, so no alert', async () => {
    const before = configAnswers.length
    const kit = kitOn('https://elsewhere.example', false)
    await new Promise((r) => setTimeout(r, 100))
    expect(configAnswers.length).toBe(before)
    expect(codes(kit)).not.toContain('INVALID_APP_CONFIGURATION')
    kit.stop()
  })
})
