import * as v from 'valibot'
import { SDK_TYPE, SDK_VERSION } from '../constants'

/**
 * Telemetry (SPEC §7): `POST {telemetry}/e?projectId&st&sv` with `{ eventId, url, domain, timestamp, props }`.
 * Nothing is sent unless the project's analytics config says so; when that call fails, analytics is off.
 */
export interface TelemetryEvent {
  type: 'track' | 'error'
  event: string
  properties?: Record<string, string | number | boolean>
}

export interface TelemetryClientOptions {
  telemetryUrl: string
  walletsApiUrl: string
  projectId: string
  enabled: boolean
  fetch?: typeof fetch
}

const AnalyticsConfigSchema = v.object({ isAnalyticsEnabled: v.boolean() })

/**
 * @example
 * const telemetry = createTelemetryClient({ telemetryUrl, walletsApiUrl, projectId, enabled: true })
 * await telemetry.send({ type: 'track', event: 'CONNECT_SUCCESS', properties: { method: 'qrcode' } })
 */
export function createTelemetryClient(options: TelemetryClientOptions) {
  const doFetch = options.fetch ?? ((...args: Parameters<typeof fetch>) => fetch(...args))
  const query = new URLSearchParams({
    projectId: options.projectId,
    st: SDK_TYPE,
    sv: SDK_VERSION,
  }).toString()
  let enabled: Promise<boolean> | undefined
  const isEnabled = () => {
    enabled ??= options.enabled
      ? doFetch(`${options.walletsApiUrl}/getAnalyticsConfig?${query}`)
          .then(async (response) => {
            if (!response.ok) return false
            const parsed = v.safeParse(AnalyticsConfigSchema, await response.json())
            return parsed.success && parsed.output.isAnalyticsEnabled
          })
          .catch(() => false)
      : Promise.resolve(false)
    return enabled
  }
  return {
    isEnabled,
    /** Sends one event; answers whether it was sent. Never throws: telemetry must not break the kit. */
    async send(event: TelemetryEvent): Promise<boolean> {
      if (!(await isEnabled())) return false
      const location = typeof window === 'undefined' ? undefined : window.location
      const body = {
        eventId:
          typeof crypto !== 'undefined' && 'randomUUID' in crypto
            ? crypto.randomUUID()
            : `${Date.now()}-${Math.random()}`,
        url: location?.href ?? '',
        domain: location?.hostname ?? '',
        timestamp: Date.now(),
        props: {
          type: event.type,
          event: event.event,
          ...(event.properties ? { properties: event.properties } : {}),
        },
      }
      try {
        const response = await doFetch(`${options.telemetryUrl}/e?${query}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
          keepalive: true,
        })
        return response.ok
      } catch {
        return false
      }
    },
  }
}

export type TelemetryClient = ReturnType<typeof createTelemetryClient>
