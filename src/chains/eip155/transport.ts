import { createTransport, type EIP1193RequestFn, type Transport } from 'viem'
import { RPC_TIMEOUT_MS } from '../../constants'
import type { createRpcRequest, KitTransportParameters, RpcRetryEvent } from './transportRequest'

export type { KitTransportParameters, RpcAnswerReading, RpcRetryEvent } from './transportRequest'

/**
 * The kit's chain RPC transport (SPEC §7): JSON-RPC over HTTP POST to the provider's RPC host,
 * `{rpc}/v1/?chainId=eip155:{id}&projectId={id}`, or to a custom URL of an `rpcMap`. A call is retried on
 * HTTP 403, 408, 413, 429, 500, 502, 503 and 504, on JSON-RPC code -1 and on "unsupported method" (EIP-1474
 * -32004, EIP-1193 4200): 3 retries, 150 ms doubling (150, 300, 600), or as long as a `Retry-After` header
 * asks (seconds or an HTTP date). A Retry-After beyond `RPC_RETRY_AFTER_MAX_MS` is not waited for.
 *
 * Several URLs may be given (the provider's host, then the network's own): when one fails as a transport
 * (an HTTP error after its retries, a network error, a timeout) the next is tried, and the one that answered
 * is tried first from then on. A JSON-RPC error in an answer (a revert, a refused method) is the chain's
 * answer: it is thrown as it is, never retried elsewhere. Network errors and timeouts are not retried on the
 * same URL (SPEC §7 does not list them).
 *
 * An answer is read strictly (`readAnswer`): a JSON-RPC 2.0 object with the request's id; any `error`
 * member, or no `result`, is an RPC error (never a success with `undefined`). An answer to another request (a
 * foreign id, a batch, not JSON-RPC 2.0) fails the URL as a transport. The transport sends no batches.
 *
 * viem's own retry layer is switched off (`retryCount: 0`) and the kit's QueryClient does not retry
 * (`createKitQueryClient`), so the policy above is the only one: at most 1 + `RPC_RETRY_COUNT` attempts per URL.
 *
 * This module is what wagmi needs at config time (the URLs, the transport's factory). The request logic is
 * `./transportRequest.ts`, its own chunk, loaded on a transport's first call.
 */

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

/** The bundler the provider's host fronts (SPEC §7 `bundler` query parameter). */
export const BUNDLER_NAME = 'pimlico'

export interface BundlerUrlParameters {
  chainId: number
  projectId: string
  /** `endpoints.bundler`: the provider's bundler host. */
  bundler: string
}

/**
 * The bundler's URL for a chain: `{bundler}/v1/bundler?chainId=eip155:{id}&projectId={id}&bundler=pimlico`.
 *
 * @example
 * bundlerUrlFor({ chainId: 1, projectId: 'p1', bundler: 'https://rpc.walletstate.io' })
 * // 'https://rpc.walletstate.io/v1/bundler?chainId=eip155%3A1&projectId=p1&bundler=pimlico'
 */
export function bundlerUrlFor({ chainId, projectId, bundler }: BundlerUrlParameters): string {
  const url = new URL('v1/bundler', bundler.endsWith('/') ? bundler : `${bundler}/`)
  url.searchParams.set('chainId', `eip155:${chainId}`)
  url.searchParams.set('projectId', projectId)
  url.searchParams.set('bundler', BUNDLER_NAME)
  return url.toString()
}

type RpcRequest = ReturnType<typeof createRpcRequest>

/**
 * A viem transport with the kit's retry policy; pass it to wagmi's `transports` or any viem client. Its request
 * logic is imported on its first call (concurrent first calls share the import); a failed import is tried again
 * on the next call.
 *
 * @example
 * const transport = kitTransport({ urls: [rpcUrlFor({ chainId: 1, projectId, rpc: endpoints.rpc })] })
 * const client = createPublicClient({ chain: mainnet, transport })
 */
export function kitTransport(parameters: KitTransportParameters): Transport<'http'> {
  const list = [...new Set(parameters.urls)]
  const timeoutMs = parameters.timeoutMs ?? RPC_TIMEOUT_MS
  let loading: Promise<RpcRequest> | undefined
  const load = (): Promise<RpcRequest> => {
    loading ??= import('./transportRequest').then(
      ({ createRpcRequest }) => createRpcRequest(parameters),
      (error: unknown) => {
        loading = undefined
        throw error
      },
    )
    return loading
  }
  const request: RpcRequest = async (args, options) => (await load())(args, options)

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
