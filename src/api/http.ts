import { SDK_TYPE, SDK_VERSION } from '../constants'
import { safeText } from '../utils/links'

/**
 * What every client of the provider's HTTP APIs shares (SPEC §7): the SDK query parameters (projectId, st,
 * sv) on every call, URLs resolved against a base that may carry a path, and one JSON request with a timeout
 * whose failures are described the same way for every API.
 */

/** Query values; `undefined` ones are left out. */
export type QueryValues = Record<string, string | number | boolean | undefined>

/**
 * Adds projectId, st and sv to a URL (in that order, before any other parameter the caller sets after).
 *
 * @example
 * withSdkParams(new URL('https://api.example/v1/supported-chains'), 'p1').search
 * // '?projectId=p1&st=walletstate&sv=0.1.0'
 */
export function withSdkParams(url: URL, projectId: string): URL {
  url.searchParams.set('projectId', projectId)
  url.searchParams.set('st', SDK_TYPE)
  url.searchParams.set('sv', SDK_VERSION)
  return url
}

/**
 * The URL of an API call: `path` resolved against `base` as a directory (so `https://host/listing` keeps
 * `/listing`), the SDK parameters, then `query` in its own order.
 *
 * @example
 * apiUrl('https://api.example', 'v1/identity/0xabc', 'p1', { sender: '0xdef' })
 */
export function apiUrl(base: string, path: string, projectId: string, query: QueryValues = {}): URL {
  const url = withSdkParams(
    new URL(path.replace(/^\/+/, ''), base.endsWith('/') ? base : `${base}/`),
    projectId,
  )
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined) url.searchParams.set(name, String(value))
  }
  return url
}

/** Why a request failed, for the caller to turn into its own error. */
export interface RequestFailure {
  kind: 'network' | 'timeout' | 'http' | 'malformed'
  /** A sentence for `details`. */
  details: string
  /** The HTTP status, when the API answered. */
  status?: number
  cause?: unknown
}

export interface RequestJsonParameters {
  method?: 'GET' | 'POST'
  /** Sent as JSON. */
  body?: unknown
  signal?: AbortSignal
  timeoutMs: number
  /** Names the API in `details` ("The Data API did not answer within 15 s"). */
  label: string
  fetch?: typeof fetch
}

/**
 * One JSON call. Resolves with the parsed body of a 2xx answer; a network error, a timeout, a non-2xx answer
 * or a body that is not JSON rejects with `fail(failure)`. An abort through `signal` rejects with the abort
 * reason, untouched, so callers (react-query) see a cancellation, not a failure.
 *
 * @example
 * const json = await requestJson(url, { timeoutMs: 15_000, label: 'The Data API' },
 *   (failure) => new DataApiError('Token Balance Unavailable', failure))
 */
export async function requestJson(
  url: URL,
  parameters: RequestJsonParameters,
  fail: (failure: RequestFailure) => Error,
): Promise<unknown> {
  const { signal, timeoutMs, label } = parameters
  const doFetch = parameters.fetch ?? ((...args: Parameters<typeof fetch>) => fetch(...args))
  const timeout = AbortSignal.timeout(timeoutMs)
  const combined = signal ? AbortSignal.any([signal, timeout]) : timeout
  const init: RequestInit = {
    method: parameters.method ?? 'GET',
    signal: combined,
    headers: { accept: 'application/json' },
  }
  if (parameters.body !== undefined) {
    init.body = JSON.stringify(parameters.body)
    init.headers = { accept: 'application/json', 'content-type': 'application/json' }
  }

  let response: Response
  let text: string
  try {
    response = await doFetch(url, init)
    text = await response.text()
  } catch (error) {
    if (signal?.aborted) throw signal.reason
    if (timeout.aborted) {
      throw fail({
        kind: 'timeout',
        cause: error,
        details: `${label} did not answer within ${Math.round(timeoutMs / 1000)} s`,
      })
    }
    throw fail({
      kind: 'network',
      cause: error,
      details: `Network error: ${error instanceof Error ? error.message : String(error)}`,
    })
  }
  if (!response.ok) {
    throw fail({
      kind: 'http',
      status: response.status,
      details: `HTTP ${response.status}${serverMessage(text)}`,
    })
  }
  try {
    return JSON.parse(text)
  } catch (error) {
    throw fail({
      kind: 'malformed',
      cause: error,
      status: response.status,
      details: `${label} answered something that is not JSON`,
    })
  }
}

/** `: {error}` of a JSON error body, bounded and display-safe, for `details`; '' otherwise. */
export function serverMessage(text: string): string {
  try {
    const body: unknown = JSON.parse(text)
    if (body && typeof body === 'object' && 'error' in body && typeof body.error === 'string') {
      return `: ${safeText(body.error, 200)}`
    }
  } catch {
    // Not JSON: the status says enough.
  }
  return ''
}

/**
 * Waits for a shared promise (a cached answer others may wait for too), stopping the wait, not the work, when
 * `signal` aborts.
 */
export function waitUnlessAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise
  if (signal.aborted) return Promise.reject(signal.reason)
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason)
    signal.addEventListener('abort', onAbort, { once: true })
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort)
        resolve(value)
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort)
        reject(error)
      },
    )
  })
}
