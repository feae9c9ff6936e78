import * as v from 'valibot'
import { ANALYTICS_CONFIG_TIMEOUT_MS, TELEMETRY_ERRORS_PER_WINDOW, TELEMETRY_WINDOW_MS } from '../constants'
import { errorReportOf } from '../errors/base'
import { apiUrl } from './http'

/**
 * Telemetry (SPEC §7): `POST {telemetry}/e?projectId&st&sv` with `{ eventId, url, domain, timestamp, props }`.
 * Nothing is sent unless the project's analytics config (`GET {walletsApi}/getAnalyticsConfig`) says so; when
 * that call fails or takes longer than {@link ANALYTICS_CONFIG_TIMEOUT_MS}, analytics is off, and a 403 (the
 * page's origin is not allowed) is also reported (`onConfigRefused`) for the invalid-app-configuration alert. The page is sent
 * as its origin and path only ({@link pageUrl}): a query or fragment may hold tokens, e-mails or session ids.
 * Error events are capped at 5 per rolling 60 s (SPEC §9): a burst of
 * errors (a failing balance call retried by every view) reports its first five and drops the rest.
 */
export interface TelemetryEvent {
  type: 'track' | 'error'
  event: string
  properties?: Record<string, string | number | boolean>
  /** Error events: the error's name, message and stack (SPEC §7 props errorType, errorMessage, stackTrace). */
  errorType?: string
  errorMessage?: string
  stackTrace?: string
}

export interface TelemetryClientOptions {
  telemetryUrl: string
  walletsApiUrl: string
  projectId: string
  enabled: boolean
  fetch?: typeof fetch
  /** Clock of the error cap's rolling window; default `Date.now`. */
  now?: () => number
  /** How long the analytics config may take; default {@link ANALYTICS_CONFIG_TIMEOUT_MS}. */
  configTimeoutMs?: number
  /**
   * The analytics config answered 403: the provider refuses this page's origin for the project (SPEC §5, §8
   * "invalid app configuration … also on analytics 403"). Called once; analytics is off either way.
   */
  onConfigRefused?: (status: number) => void
}

/**
 * The page as telemetry reports it: origin and path, never the query or fragment (they may carry tokens, e-mail
 * addresses, session ids). `''` when there is no page or its URL cannot be read.
 *
 * @example
 * pageUrl(new URL('https://app.example/pay?token=x#y')) // 'https://app.example/pay'
 */
export function pageUrl(location: { href: string } | undefined): string {
  if (!location) return ''
  try {
    const url = new URL(location.href)
    return url.origin === 'null' ? '' : `${url.origin}${url.pathname}`
  } catch {
    return ''
  }
}

const AnalyticsConfigSchema = v.object({ isAnalyticsEnabled: v.boolean() })

/** The analytics config's refusal of this page's origin. */
const HTTP_FORBIDDEN = 403

/**
 * The SPEC §7 error props of anything thrown: its name, message (a kit error's short message first) and stack
 * (`errorReportOf`, src/errors/base.ts).
 *
 * @example
 * client.send({ type: 'error', event: 'BALANCE_FAILED', ...errorProps(error) })
 */
export function errorProps(
  error: unknown,
): Pick<TelemetryEvent, 'errorType' | 'errorMessage' | 'stackTrace'> {
  return errorReportOf(error)
}

/**
 * @example
 * const telemetry = createTelemetryClient({ telemetryUrl, walletsApiUrl, projectId, enabled: true })
 * await telemetry.send({ type: 'track', event: 'CONNECT_SUCCESS', properties: { method: 'qrcode' } })
 */
export function createTelemetryClient(options: TelemetryClientOptions) {
  const doFetch = options.fetch ?? ((...args: Parameters<typeof fetch>) => fetch(...args))
  const now = options.now ?? Date.now
  /** When the error events of the current window were accepted, oldest first. */
  const errorTimes: number[] = []

  let enabled: Promise<boolean> | undefined
  const isEnabled = () => {
    enabled ??= options.enabled
      ? doFetch(apiUrl(options.walletsApiUrl, 'getAnalyticsConfig', options.projectId), {
          // SPEC §7: on failure analytics is off, and a config that never answers is a failure.
          signal: AbortSignal.timeout(options.configTimeoutMs ?? ANALYTICS_CONFIG_TIMEOUT_MS),
        })
          .then(async (response) => {
            if (response.status === HTTP_FORBIDDEN) options.onConfigRefused?.(response.status)
            if (!response.ok) return false
            const parsed = v.safeParse(AnalyticsConfigSchema, await response.json())
            return parsed.success && parsed.output.isAnalyticsEnabled
          })
          .catch(() => false)
      : Promise.resolve(false)
    return enabled
  }

  /** Takes a place in the rolling window for an error event; false when the window is full. */
  const admitError = (): boolean => {
    const at = now()
    while (errorTimes.length > 0 && errorTimes[0]! <= at - TELEMETRY_WINDOW_MS) errorTimes.shift()
    if (errorTimes.length >= TELEMETRY_ERRORS_PER_WINDOW) return false
    errorTimes.push(at)
    return true
  }

  return {
    isEnabled,
    /**
     * Sends one event; answers whether it was sent. Never throws: telemetry must not break the kit. An error
     * event over the cap is dropped (false) without a request.
     */
    async send(event: TelemetryEvent): Promise<boolean> {
      // Counted when it happens, not when the config answers: a burst is capped however long that takes.
      if (event.type === 'error' && !admitError()) return false
      if (!(await isEnabled())) return false
      const location = typeof window === 'undefined' ? undefined : window.location
      const body = {
        eventId:
          typeof crypto !== 'undefined' && 'randomUUID' in crypto
            ? crypto.randomUUID()
            : `${Date.now()}-${Math.random()}`,
        url: pageUrl(location),
        domain: location?.hostname ?? '',
        timestamp: Date.now(),
        props: {
          type: event.type,
          event: event.event,
          ...(event.properties ? { properties: event.properties } : {}),
          ...(event.errorType === undefined ? {} : { errorType: event.errorType }),
          ...(event.errorMessage === undefined ? {} : { errorMessage: event.errorMessage }),
          ...(event.stackTrace === undefined ? {} : { stackTrace: event.stackTrace }),
        },
      }
      try {
        const response = await doFetch(apiUrl(options.telemetryUrl, 'e', options.projectId), {
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
