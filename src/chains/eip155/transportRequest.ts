import { HttpRequestError, RpcRequestError, TimeoutError } from 'viem'
import {
  RPC_INTERNAL_ERROR_CODE,
  RPC_RETRY_AFTER_MAX_MS,
  RPC_RETRY_BASE_MS,
  RPC_RETRY_COUNT,
  RPC_TIMEOUT_MS,
} from '../../constants'

/**
 * The request logic of the kit's chain RPC transport (`./transport.ts` says the policy): retries, Retry-After,
 * URL fallback and the strict reading of answers. Its own chunk: `kitTransport` loads it on the first RPC call,
 * so a page that makes none before its first click never fetches it.
 */

/** HTTP statuses a call is retried on (SPEC §7). */
export const RETRY_STATUSES: ReadonlySet<number> = new Set([403, 408, 413, 429, 500, 502, 503, 504])
/** JSON-RPC error codes a call is retried on: unknown (-1) and "unsupported method" (-32004, 4200). */
export const RETRY_RPC_CODES: ReadonlySet<number> = new Set([-1, -32004, 4200])

/**
 * Milliseconds a `Retry-After` value asks to wait: delay-seconds (`"2"`) or an HTTP date; `undefined` when
 * absent or unreadable. A date in the past asks for no wait.
 *
 * @example
 * parseRetryAfter('2') // 2000
 * parseRetryAfter('Wed, 21 Oct 2037 07:28:00 GMT', Date.parse('Wed, 21 Oct 2037 07:27:58 GMT')) // 2000
 */
export function parseRetryAfter(
  value: string | null | undefined,
  now: number = Date.now(),
): number | undefined {
  if (value == null) return undefined
  const trimmed = value.trim()
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000)
  // Only the date forms HTTP allows start with a letter (IMF-fixdate, RFC 850, asctime); "1e3" is no date.
  if (!/^[A-Za-z]/.test(trimmed)) return undefined
  const at = Date.parse(trimmed)
  if (Number.isNaN(at)) return undefined
  return Math.max(0, at - now)
}

/** The wait before retry number `retry` (0-based) without a Retry-After: 150 ms doubling. */
export function backoffDelay(retry: number, baseMs: number = RPC_RETRY_BASE_MS): number {
  return baseMs * 2 ** retry
}

/** One retry, as `onRetry` reports it. */
export interface RpcRetryEvent {
  url: string
  method: string
  /** 1 for the first retry. */
  retry: number
  delayMs: number
  /** Whether the delay came from a Retry-After header. */
  retryAfter: boolean
  status?: number
  code?: number
}

export interface KitTransportParameters {
  /** Where calls go, in order of preference (at least one). */
  urls: readonly [string, ...string[]]
  /** Retries per URL; default {@link RPC_RETRY_COUNT}. */
  retryCount?: number
  /** First backoff; default {@link RPC_RETRY_BASE_MS}. */
  retryDelayMs?: number
  /** One attempt's limit; default {@link RPC_TIMEOUT_MS}. */
  timeoutMs?: number
  /** Longest Retry-After honoured; default {@link RPC_RETRY_AFTER_MAX_MS}. */
  maxRetryAfterMs?: number
  fetch?: typeof fetch
  /** Called before each wait (tests and the inspector read it). */
  onRetry?: (event: RpcRetryEvent) => void
  /** viem transport key and name. */
  key?: string
  name?: string
}

type RpcRequestBody = {
  jsonrpc: '2.0'
  id: number
  method: string
  params?: unknown
}

/** Longest error message kept from an answer: enough for a revert reason, not a megabyte of text. */
const MAX_RPC_ERROR_MESSAGE = 1_000

/** What an answer body is, read strictly (JSON-RPC 2.0 §5). */
export type RpcAnswerReading =
  | { kind: 'result'; result: unknown }
  | { kind: 'error'; error: { code: number; message: string; data?: unknown } }
  /** Not an answer to this request: not JSON-RPC 2.0, another id, a batch, not an object. */
  | { kind: 'foreign'; details: string }

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * Reads the body of a 2xx answer to the request with id `id`. An answer must be a JSON-RPC 2.0 object with the
 * request's id (or id `null` beside an error, when the server could not read the id). Then any `error` member
 * that is not `null` is an RPC error, and so is an answer without `result`: never a success with `undefined`.
 * The error keeps its code when it is a safe integer, else it is SPEC §8's -32603 internal error.
 *
 * @example
 * readAnswer({ jsonrpc: '2.0', id: 7, result: '0x1' }, 7) // { kind: 'result', result: '0x1' }
 * readAnswer({ jsonrpc: '2.0', id: 7, error: { code: '-32000' } }, 7).kind // 'error' (code -32603)
 * readAnswer({ jsonrpc: '2.0', id: 8, result: '0x1' }, 7).kind // 'foreign'
 */
export function readAnswer(answer: unknown, id: number): RpcAnswerReading {
  if (!isRecord(answer)) {
    return {
      kind: 'foreign',
      details: Array.isArray(answer)
        ? 'The RPC answered a batch to a single request'
        : 'The RPC answered something that is not a JSON-RPC response',
    }
  }
  if (answer.jsonrpc !== '2.0') return { kind: 'foreign', details: 'The RPC answer is not JSON-RPC 2.0' }
  const hasError = 'error' in answer && answer.error !== null && answer.error !== undefined
  if (answer.id !== id && !(hasError && answer.id === null)) {
    return { kind: 'foreign', details: 'The RPC answered another request (its id is not the one sent)' }
  }
  if (hasError) {
    const error = isRecord(answer.error) ? answer.error : {}
    const code = Number.isSafeInteger(error.code) ? (error.code as number) : RPC_INTERNAL_ERROR_CODE
    const message =
      typeof error.message === 'string' && error.message !== ''
        ? error.message.slice(0, MAX_RPC_ERROR_MESSAGE)
        : 'The RPC answered an error without a usable code or message'
    return { kind: 'error', error: { code, message, ...('data' in error ? { data: error.data } : {}) } }
  }
  if (!('result' in answer)) {
    return {
      kind: 'error',
      error: { code: RPC_INTERNAL_ERROR_CODE, message: 'The RPC answered neither a result nor an error' },
    }
  }
  return { kind: 'result', result: answer.result }
}

/** Failed as a transport on one URL: the next URL may answer. */
class TransportFailure extends Error {
  constructor(readonly error: Error) {
    super(error.message)
  }
}

/** The request function of one `kitTransport`: its URL preference and request ids live as long as it does. */
export function createRpcRequest(
  parameters: KitTransportParameters,
): (
  args: { method: string; params?: unknown },
  options?: { signal?: AbortSignal | undefined },
) => Promise<unknown> {
  const {
    urls,
    retryCount = RPC_RETRY_COUNT,
    retryDelayMs = RPC_RETRY_BASE_MS,
    timeoutMs = RPC_TIMEOUT_MS,
    maxRetryAfterMs = RPC_RETRY_AFTER_MAX_MS,
    onRetry,
  } = parameters
  const doFetch = parameters.fetch ?? ((...args: Parameters<typeof fetch>) => fetch(...args))
  const list = [...new Set(urls)]
  /** The URL that answered last is asked first. */
  let preferred = 0
  let id = 0

  async function attempt(
    url: string,
    body: RpcRequestBody,
    signal: AbortSignal | undefined,
  ): Promise<unknown> {
    const timeout = AbortSignal.timeout(timeoutMs)
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout
    let response: Response
    let text: string
    try {
      response = await doFetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: combined,
      })
      text = await response.text()
    } catch (error) {
      if (signal?.aborted) throw signal.reason
      if (timeout.aborted)
        throw new TransportFailure(new TimeoutError({ body: body as Record<string, unknown>, url }))
      throw new TransportFailure(
        new HttpRequestError({
          body: body as Record<string, unknown>,
          cause: error as Error,
          details: 'Network error',
          url,
        }),
      )
    }
    let answer: unknown
    try {
      answer = JSON.parse(text)
    } catch {
      answer = undefined
    }
    if (!response.ok) {
      const message = isRecord(answer) && isRecord(answer.error) ? answer.error.message : undefined
      const httpError = new HttpRequestError({
        body: body as Record<string, unknown>,
        details:
          typeof message === 'string' ? message.slice(0, 200) : text.slice(0, 200) || response.statusText,
        headers: response.headers,
        status: response.status,
        url,
      })
      throw new TransportFailure(httpError)
    }
    const read = readAnswer(answer, body.id)
    if (read.kind === 'foreign') {
      throw new TransportFailure(
        new HttpRequestError({
          body: body as Record<string, unknown>,
          details: read.details,
          status: response.status,
          url,
        }),
      )
    }
    if (read.kind === 'error') {
      throw new RpcRequestError({ body: body as Record<string, unknown>, error: read.error, url })
    }
    return read.result
  }

  /** The wait before retrying `error` on the same URL, or `undefined` when it is not retried. */
  function retryWait(error: unknown, retry: number): { delayMs: number; retryAfter: boolean } | undefined {
    const inner = error instanceof TransportFailure ? error.error : error
    if (inner instanceof RpcRequestError) {
      return RETRY_RPC_CODES.has(inner.code)
        ? { delayMs: backoffDelay(retry, retryDelayMs), retryAfter: false }
        : undefined
    }
    if (inner instanceof HttpRequestError && inner.status !== undefined && RETRY_STATUSES.has(inner.status)) {
      const asked = parseRetryAfter(inner.headers?.get('retry-after'))
      if (asked === undefined) return { delayMs: backoffDelay(retry, retryDelayMs), retryAfter: false }
      return asked <= maxRetryAfterMs ? { delayMs: asked, retryAfter: true } : undefined
    }
    return undefined
  }

  async function onUrl(url: string, method: string, params: unknown, signal: AbortSignal | undefined) {
    for (let retry = 0; ; retry++) {
      id += 1
      try {
        return await attempt(
          url,
          { jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) },
          signal,
        )
      } catch (error) {
        const wait = retry < retryCount ? retryWait(error, retry) : undefined
        if (!wait) throw error
        const inner = error instanceof TransportFailure ? error.error : error
        onRetry?.({
          url,
          method,
          retry: retry + 1,
          delayMs: wait.delayMs,
          retryAfter: wait.retryAfter,
          ...(inner instanceof HttpRequestError && inner.status !== undefined
            ? { status: inner.status }
            : {}),
          ...(inner instanceof RpcRequestError ? { code: inner.code } : {}),
        })
        await sleep(wait.delayMs, signal)
      }
    }
  }

  /** Each URL in turn, from the preferred one, until one answers as a transport. */
  async function request(
    { method, params }: { method: string; params?: unknown },
    options?: { signal?: AbortSignal | undefined },
  ): Promise<unknown> {
    const signal = options?.signal
    let last: unknown
    for (let step = 0; step < list.length; step++) {
      const index = (preferred + step) % list.length
      try {
        const result = await onUrl(list[index]!, method, params, signal)
        preferred = index
        return result
      } catch (error) {
        if (!(error instanceof TransportFailure)) throw error
        last = error.error
      }
    }
    throw last
  }

  return request
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason)
      return
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    const onAbort = () => {
      clearTimeout(timer)
      reject(signal?.reason)
    }
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}
