import {
  createTransport,
  type EIP1193RequestFn,
  HttpRequestError,
  RpcRequestError,
  TimeoutError,
  type Transport,
} from 'viem'
import { RPC_RETRY_AFTER_MAX_MS, RPC_RETRY_BASE_MS, RPC_RETRY_COUNT, RPC_TIMEOUT_MS } from '../../constants'

/**
 * The kit's chain RPC transport (SPEC §7): JSON-RPC over HTTP POST to the provider's RPC host,
 * `{rpc}/v1/?chainId=eip155:{id}&projectId={id}`, or to a custom URL of an `rpcMap`. A call is retried on
 * HTTP 403, 408, 413, 429, 500, 502, 503 and 504, on JSON-RPC code -1 and on "unsupported method" (EIP-1474
 * -32004, EIP-1193 4200): 3 retries, 150 ms doubling (150, 300, 600), or as long as a `Retry-After` header
 * asks (seconds or an HTTP date). A Retry-After beyond {@link RPC_RETRY_AFTER_MAX_MS} is not waited for.
 *
 * Several URLs may be given (the provider's host, then the network's own): when one fails as a transport
 * (an HTTP error after its retries, a network error, a timeout) the next is tried, and the one that answered
 * is tried first from then on. A JSON-RPC error in an answer (a revert, a refused method) is the chain's
 * answer: it is thrown as it is, never retried elsewhere. Network errors and timeouts are not retried on the
 * same URL (SPEC §7 does not list them).
 *
 * viem's own retry layer is switched off (`retryCount: 0`) so the policy above is the only one.
 */

/** HTTP statuses a call is retried on (SPEC §7). */
export const RETRY_STATUSES: ReadonlySet<number> = new Set([403, 408, 413, 429, 500, 502, 503, 504])
/** JSON-RPC error codes a call is retried on: unknown (-1) and "unsupported method" (-32004, 4200). */
export const RETRY_RPC_CODES: ReadonlySet<number> = new Set([-1, -32004, 4200])

export interface RpcUrlParameters {
  /** EIP-155 chain id. */
  chainId: number
  projectId: string
  /** `endpoints.rpc`: the provider's RPC host. */
  rpc: string
  /** Custom URLs by CAIP-2 id (`eip155:1`) or chain id (`1`); an entry wins over the provider's host. */
  rpcMap?: Readonly<Record<string, string>> | undefined
}

/**
 * The URL calls for a chain go to: its `rpcMap` entry, else the provider's RPC host.
 *
 * @example
 * rpcUrlFor({ chainId: 1, projectId: 'p1', rpc: 'https://rpc.walletstate.io' })
 * // 'https://rpc.walletstate.io/v1/?chainId=eip155%3A1&projectId=p1'
 */
export function rpcUrlFor({ chainId, projectId, rpc, rpcMap }: RpcUrlParameters): string {
  const custom = rpcMap?.[`eip155:${chainId}`] ?? rpcMap?.[String(chainId)]
  if (custom) return custom
  const url = new URL('v1/', rpc.endsWith('/') ? rpc : `${rpc}/`)
  url.searchParams.set('chainId', `eip155:${chainId}`)
  url.searchParams.set('projectId', projectId)
  return url.toString()
}

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

type RpcAnswer = {
  jsonrpc?: string
  id?: unknown
  result?: unknown
  error?: { code: number; message: string; data?: unknown }
}

/** Failed as a transport on one URL: the next URL may answer. */
class TransportFailure extends Error {
  constructor(readonly error: Error) {
    super(error.message)
  }
}

/**
 * A viem transport with the kit's retry policy; pass it to wagmi's `transports` or any viem client.
 *
 * @example
 * const transport = kitTransport({ urls: [rpcUrlFor({ chainId: 1, projectId, rpc: endpoints.rpc })] })
 * const client = createPublicClient({ chain: mainnet, transport })
 */
export function kitTransport(parameters: KitTransportParameters): Transport<'http'> {
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

  async function attempt(url: string, body: object, signal: AbortSignal | undefined): Promise<unknown> {
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
    let answer: RpcAnswer | undefined
    try {
      answer = JSON.parse(text) as RpcAnswer
    } catch {
      answer = undefined
    }
    if (!response.ok) {
      const httpError = new HttpRequestError({
        body: body as Record<string, unknown>,
        details: answer?.error?.message ?? (text.slice(0, 200) || response.statusText),
        headers: response.headers,
        status: response.status,
        url,
      })
      throw new TransportFailure(httpError)
    }
    if (!answer || typeof answer !== 'object' || Array.isArray(answer)) {
      throw new TransportFailure(
        new HttpRequestError({
          body: body as Record<string, unknown>,
          details: 'The RPC answered something that is not a JSON-RPC response',
          status: response.status,
          url,
        }),
      )
    }
    if (answer.error && typeof answer.error.code === 'number') {
      throw new RpcRequestError({ body: body as Record<string, unknown>, error: answer.error, url })
    }
    return answer.result
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

  return (({ chain } = {}) =>
    createTransport(
      {
        key: parameters.key ?? 'walletstate',
        name: parameters.name ?? 'Walletstate RPC',
        // `http`: viem polls for new blocks and logs, as it does over plain HTTP.
        type: 'http',
        retryCount: 0,
        timeout: timeoutMs,
        request: request as EIP1193RequestFn,
      },
      { url: list[0], chainId: chain?.id, urls: list },
    )) as Transport<'http'>
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

export interface ChainTransportParameters extends RpcUrlParameters {
  /** The network's own RPC URLs, tried after the provider's host when it fails as a transport. */
  fallbackUrls?: readonly string[]
  onRetry?: (event: RpcRetryEvent) => void
}

/**
 * The transport wagmi uses for one eip155 network: its `rpcMap` URL alone when it has one, else the provider's
 * RPC host first and the network's own URLs after it.
 *
 * @example
 * transports: { [chain.id]: chainTransport({ chainId: chain.id, projectId, rpc: endpoints.rpc,
 *   fallbackUrls: chain.rpcUrls.default.http }) }
 */
export function chainTransport(parameters: ChainTransportParameters): Transport<'http'> {
  const primary = rpcUrlFor(parameters)
  const custom = primary !== rpcUrlFor({ ...parameters, rpcMap: undefined })
  const urls: [string, ...string[]] = custom ? [primary] : [primary, ...(parameters.fallbackUrls ?? [])]
  return kitTransport({ urls, ...(parameters.onRetry ? { onRetry: parameters.onRetry } : {}) })
}
