import { QueryClient } from '@tanstack/react-query'

/**
 * The kit's one QueryClient. One layer retries (issue 13): the chain RPC transport does, as SPEC §7 says (3
 * retries, 150 ms doubling, Retry-After, then the next URL), so queries never do. react-query's default of 3
 * retries in a page would stack on the transport's and ask each URL 16 times. Data API calls are not retried
 * either: a failure is shown, and the machines own the rules for asking again (SPEC §9's 30 s balance block).
 *
 * @example
 * const queryClient = createKitQueryClient()
 */
export function createKitQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } })
}
