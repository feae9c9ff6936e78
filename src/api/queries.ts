import {
  type FetchQueryOptions,
  infiniteQueryOptions,
  type QueryClient,
  type QueryKey,
  queryOptions,
} from '@tanstack/react-query'
import { ACTIVITY_CACHE_MS, BALANCE_CACHE_MS, NAME_CACHE_MS } from '../constants'
import { type DataApiClient, dataApiKeys, getDataApiClient, type HistoryPage, type NftPage } from './dataApi'
import { waitUnlessAborted } from './http'

/**
 * react-query option factories over the Data API client: each gives the query key, the query function and the
 * SPEC §9 stale time, so a view writes `useQuery(identityQuery(api, { address, chainId }))` and an actor
 * `fetchQueryFor(queryClient, balancesQuery(...), signal)`, and both share the kit's one QueryClient: one cache,
 * one request at a time per key. Keys come from {@link dataApiKeys}. None retries (see `createKitQueryClient` in `./queryClient`),
 * even in a host's own QueryClient.
 */

export { dataApiKeys }

/**
 * The Data API client the queries run against, for views: one per config and QueryClient (its network checks
 * cached in that QueryClient), the same the kit's actors use.
 *
 * @example
 * const api = dataApiClientFor(config, useQueryClient())
 * useQuery(historyQuery(api, { account, chainId }))
 */
export const dataApiClientFor: typeof getDataApiClient = (config, queryClient) =>
  getDataApiClient(config, queryClient)

/**
 * Token balances of an account on a network, stale after 30 s (SPEC §9). `forceUpdate` (after a transaction)
 * asks the API to read fresh balances and takes nothing from the cache. `supported: false` means the API does
 * not serve the network: show 'Token Balance Unavailable' and an empty list (SPEC §8).
 *
 * @example
 * const { balances, supported } = await queryClient.fetchQuery(balancesQuery(api, { address, chainId: 'eip155:1' }))
 */
export function balancesQuery(
  client: DataApiClient,
  parameters: { address: string; chainId: string; forceUpdate?: boolean },
) {
  return queryOptions({
    queryKey: dataApiKeys.balances(client, parameters.address, parameters.chainId),
    queryFn: ({ signal }) => client.getBalances({ ...parameters, signal }),
    staleTime: balancesStaleTime(parameters.forceUpdate),
    retry: false,
  })
}

/** SPEC §9: balances are fresh for 30 s; after a transaction (`forceUpdate`) nothing is taken from the cache. */
export const balancesStaleTime = (forceUpdate?: boolean) => (forceUpdate ? 0 : BALANCE_CACHE_MS)

/**
 * Transfer history, one page per cursor, newest first (`useInfiniteQuery`; `fetchNextPage` follows `next`).
 *
 * @example
 * const { data, fetchNextPage, hasNextPage } = useInfiniteQuery(historyQuery(api, { account, chainId }))
 * const items = data?.pages.flatMap((page) => page.data) ?? []
 */
export function historyQuery(client: DataApiClient, parameters: { account: string; chainId: string }) {
  return infiniteQueryOptions({
    queryKey: dataApiKeys.history(client, parameters.account, parameters.chainId),
    queryFn: ({ pageParam, signal }): Promise<HistoryPage> =>
      client.getHistory({ ...parameters, cursor: pageParam, signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next ?? undefined,
    staleTime: ACTIVITY_CACHE_MS,
    retry: false,
  })
}

/** The NFTs an account holds, paged like {@link historyQuery}; items flagged `is_spam` are for the view to hide. */
export function nftsQuery(client: DataApiClient, parameters: { account: string; chainId: string }) {
  return infiniteQueryOptions({
    queryKey: dataApiKeys.nfts(client, parameters.account, parameters.chainId),
    queryFn: ({ pageParam, signal }): Promise<NftPage> =>
      client.getNfts({ ...parameters, cursor: pageParam, signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next ?? undefined,
    staleTime: ACTIVITY_CACHE_MS,
    retry: false,
  })
}

/** Profile name and image of an address (SPEC §3 profileName, profileImage), stale after 5 min (SPEC §9). */
export function identityQuery(
  client: DataApiClient,
  parameters: { address: string; chainId: string; sender?: string },
) {
  return queryOptions({
    queryKey: dataApiKeys.identity(client, parameters.address, parameters.chainId),
    queryFn: ({ signal }) => client.getIdentity({ ...parameters, signal }),
    staleTime: NAME_CACHE_MS,
    retry: false,
  })
}

/** Reverse look-up: the names an address holds, stale after 5 min (SPEC §9). */
export function namesQuery(
  client: DataApiClient,
  parameters: { address: string; chainId: string; sender?: string },
) {
  return queryOptions({
    queryKey: dataApiKeys.names(client, parameters.address, parameters.chainId),
    queryFn: ({ signal }) => client.getNames({ ...parameters, signal }),
    staleTime: NAME_CACHE_MS,
    retry: false,
  })
}

/**
 * A name to its EVM address (the send flow's receiver; `null` when it names no one: react-query keeps no
 * `undefined`), stale after 5 min (SPEC §9).
 */
export function resolvedNameQuery(client: DataApiClient, parameters: { name: string }) {
  return queryOptions({
    queryKey: dataApiKeys.resolvedName(client, parameters.name),
    queryFn: async ({ signal }) => (await client.resolveName(parameters.name, { signal })) ?? null,
    staleTime: NAME_CACHE_MS,
    retry: false,
  })
}

/**
 * `queryClient.fetchQuery` for an actor: the answer is the cache's (shared with every other caller of the key),
 * so the actor's `signal` stops only its own wait, never the request others may be waiting for.
 *
 * @example
 * fromPromise(({ input, signal }) => fetchQueryFor(queryClient, balancesQuery(api, input), signal))
 */
export function fetchQueryFor<TData, TKey extends QueryKey>(
  queryClient: QueryClient,
  options: FetchQueryOptions<TData, Error, TData, TKey>,
  signal?: AbortSignal,
): Promise<TData> {
  return waitUnlessAborted(queryClient.fetchQuery(options), signal)
}
