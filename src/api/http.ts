import type * as v from 'valibot'
import { safeParse, summarize } from 'valibot'
import { HTTP_BODY_MAX_BYTES, HTTP_ERROR_BODY_MAX_BYTES, SDK_TYPE, SDK_VERSION } from '../constants'
import { safeText } from '../utils/links'

/**
 * What every client of the provider's HTTP APIs shares (SPEC §7): the SDK query parameters (projectId, st,
 * sv) on every call, URLs resolved against a base that may carry a path, and one JSON request with a timeout
 * and a byte limit on what it reads, whose failures are described the same way for every API.
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
  /** `tooLarge`: the body passed the byte limit, and its read was stopped there. */
  kind: 'network' | 'timeout' | 'http' | 'malformed' | 'tooLarge'
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
  /** The most bytes of body read; more fails with kind `tooLarge`. Defaults to {@link HTTP_BODY_MAX_BYTES}. */
  maxBytes?: number
}

/**
 * What a streaming reader of a body does with each piece: `'stop'` ends the read there (the rest of the body
 * is cancelled, never downloaded). A reader that finds the body unusable throws {@link BodyRejected}.
 */
export type BodySink = (chunk: Uint8Array) => 'stop' | undefined

/** Thrown by a {@link BodySink} to fail the request as `malformed` with this sentence as `details`. */
export class BodyRejected extends Error {
  override name = 'BodyRejected'
}

/** `1 MiB`, `16 KiB`, `300 bytes`: a byte limit as people read it. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`
  return `${bytes} bytes`
}

/**
 * One JSON call. Resolves with the parsed body of a 2xx answer; a network error, a timeout, a non-2xx answer,
 * a body over `maxBytes` or a body that is not JSON rejects with `fail(failure)`. An abort through `signal`
 * rejects with the abort reason, untouched, so callers (react-query) see a cancellation, not a failure.
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
  const decoder = new TextDecoder()
  const parts: string[] = []
  const { status } = await requestBody(url, parameters, fail, (chunk) => {
    parts.push(decoder.decode(chunk, { stream: true }))
    return undefined
  })
  parts.push(decoder.decode())
  try {
    return JSON.parse(parts.join(''))
  } catch (error) {
    throw fail({
      kind: 'malformed',
      cause: error,
      status,
      details: `${parameters.label} answered something that is not JSON`,
    })
  }
}

/**
 * One call whose 2xx body is handed to `sink` piece by piece as it arrives, at most `maxBytes` of it, so a
 * caller that needs only the start of a long answer (one page of a listing) never holds the rest. Fails like
 * {@link requestJson}; a `sink` that throws {@link BodyRejected} fails it as `malformed`. Resolves with the
 * answer's status once the body is read (or the sink stopped).
 *
 * @example
 * await requestBody(url, { timeoutMs: 15_000, label: 'The wallet listing' }, fail, (chunk) => parser.write(chunk))
 */
export async function requestBody(
  url: URL,
  parameters: RequestJsonParameters,
  fail: (failure: RequestFailure) => Error,
  sink: BodySink,
): Promise<{ status: number }> {
  const { signal, timeoutMs, label } = parameters
  const maxBytes = parameters.maxBytes ?? HTTP_BODY_MAX_BYTES
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

  const ioFailure = (error: unknown): unknown => {
    if (signal?.aborted) return signal.reason
    if (timeout.aborted) {
      return fail({
        kind: 'timeout',
        cause: error,
        details: `${label} did not answer within ${Math.round(timeoutMs / 1000)} s`,
      })
    }
    return fail({
      kind: 'network',
      cause: error,
      details: `Network error: ${error instanceof Error ? error.message : String(error)}`,
    })
  }

  let response: Response
  try {
    response = await doFetch(url, init)
  } catch (error) {
    throw ioFailure(error)
  }

  if (!response.ok) {
    // Only the start of an error body is read: its message is a sentence, the status says the rest.
    const decoder = new TextDecoder()
    let text = ''
    const limit = Math.min(maxBytes, HTTP_ERROR_BODY_MAX_BYTES)
    try {
      await readLimited(response, limit, (chunk) => {
        text += decoder.decode(chunk, { stream: true })
        return undefined
      })
    } catch (error) {
      if (signal?.aborted) throw signal.reason
      // A failed or overlong error body: the status alone describes the failure.
      if (!(error instanceof BodyTooLarge)) text = ''
    }
    throw fail({
      kind: 'http',
      status: response.status,
      details: `HTTP ${response.status}${serverMessage(text)}`,
    })
  }

  try {
    await readLimited(response, maxBytes, sink)
    return { status: response.status }
  } catch (error) {
    if (error instanceof BodyTooLarge) {
      throw fail({
        kind: 'tooLarge',
        status: response.status,
        details: `${label} answered more than ${formatBytes(maxBytes)}, the most the kit reads`,
      })
    }
    if (error instanceof BodyRejected) {
      throw fail({ kind: 'malformed', status: response.status, cause: error, details: error.message })
    }
    throw ioFailure(error)
  }
}

class BodyTooLarge extends Error {}

/**
 * Feeds a response body to `sink` until it ends, the sink says `'stop'`, or more than `maxBytes` arrive
 * (throws {@link BodyTooLarge}); the body is cancelled whenever the read ends early.
 */
async function readLimited(response: Response, maxBytes: number, sink: BodySink): Promise<void> {
  const body = response.body
  if (!body) return
  const reader = body.getReader()
  let received = 0
  let done = false
  try {
    for (;;) {
      const next = await reader.read()
      if (next.done) {
        done = true
        return
      }
      received += next.value.byteLength
      if (received > maxBytes) {
        // Hand over what fits, so a sink that stops within the limit still succeeds.
        const fits = next.value.byteLength - (received - maxBytes)
        if (fits > 0 && sink(next.value.subarray(0, fits)) === 'stop') return
        throw new BodyTooLarge()
      }
      if (sink(next.value) === 'stop') return
    }
  } finally {
    if (!done) reader.cancel().catch(() => undefined)
    reader.releaseLock()
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

/**
 * {@link requestJson}, then the answer checked against `schema`: one that does not match is `malformed`, its
 * problems summarised in `details`.
 */
export async function requestParsed<S extends v.GenericSchema>(
  url: URL,
  parameters: RequestJsonParameters,
  schema: S,
  fail: (failure: RequestFailure) => Error,
): Promise<v.InferOutput<S>> {
  const parsed = safeParse(schema, await requestJson(url, parameters, fail))
  if (!parsed.success)
    throw fail({
      kind: 'malformed',
      details: `${parameters.label} answered an unexpected body: ${summarize(parsed.issues)}`,
    })
  return parsed.output
}

/** Where a Data API client sends its calls, and how long it waits for each. */
export interface DataApiTarget {
  api: string
  projectId: string
  timeoutMs: number
  fetch?: typeof fetch | undefined
}

/**
 * One call of the Data API (SPEC §7): the path with the project's query parameters, a POST when there is a body,
 * and the answer checked against `schema` ({@link requestParsed}).
 */
export function dataApiCall<S extends v.GenericSchema>(
  target: DataApiTarget,
  request: { path: string; query?: QueryValues; body?: unknown; signal?: AbortSignal | undefined },
  schema: S,
  fail: (failure: RequestFailure) => Error,
): Promise<v.InferOutput<S>> {
  const { body, signal } = request
  return requestParsed(
    apiUrl(target.api, request.path, target.projectId, request.query),
    {
      timeoutMs: target.timeoutMs,
      label: 'The Data API',
      ...(body === undefined ? {} : { method: 'POST' as const, body }),
      ...(signal ? { signal } : {}),
      ...(target.fetch ? { fetch: target.fetch } : {}),
    },
    schema,
    fail,
  )
}
