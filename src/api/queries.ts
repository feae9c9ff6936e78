import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query'
import type { Config } from 'wagmi'
import { getBalance } from 'wagmi/actions'
import { ACTIVITY_CACHE_MS, BALANCE_CACHE_MS, NAME_CACHE_MS, SUPPORTED_CHAINS_CACHE_MS } from '../constants'
import type { DataApiClient, HistoryPage, NftPage } from './dataApi'

/**
 * react-query option factories over the Data API client and the chain: each gives the query key, the query
 * function and the SPEC §9 cache time, so a view writes `useQuery(balancesQuery(api, { address, chainId }))`
 * and an actor `queryClient.fetchQuery(balancesQuery(...))`, and both share one cache and one request.
 * Keys start with `dataApiKeys.all(client)`, so `queryClient.invalidateQueries({ queryKey:
 * dataApiKeys.account(client, address) })` refreshes everything about an account after a transaction.
 */

const lower = (address: string) => address.toLowerCase()

export const dataApiKeys = {
  all: (client: DataApiClient) => ['walletstate', 'dataApi', client.api, client.projectId] as const,
  supportedChains: (client: DataApiClient) => [...dataApiKeys.all(client), 'supportedChains'] as const,
  /** Everything about one account (balances, history, NFTs, identity, names). */
  account: (client: DataApiClient, address: string) =>
    [...dataApiKeys.all(client), 'account', lower(address)] as const,
  balances: (client: DataApiClient, address: string, chainId: string) =>
    [...dataApiKeys.account(client, address), 'balances', chainId] as const,
  history: (client: DataApiClient, account: string, chainId: string) =>
    [...dataApiKeys.account(client, account), 'history', chainId] as const,
  nfts: (client: DataApiClient, account: string, chainId: string) =>
    [...dataApiKeys.account(client, account), 'nfts', chainId] as const,
  identity: (client: DataApiClient, address: string, chainId: string) =>
    [...dataApiKeys.account(client, address), 'identity', chainId] as const,
  names: (client: DataApiClient, address: string, chainId: string) =>
    [...dataApiKeys.account(client, address), 'names', chainId] as const,
  nameRecord: (client: DataApiClient, name: string) =>
    [...dataApiKeys.all(client), 'name', name.trim().toLowerCase()] as const,
  prices: (client: DataApiClient, addresses: readonly string[]) =>
    [...dataApiKeys.all(client), 'prices', [...addresses].map(lower).sort()] as const,
}

/** `GET /v1/supported-chains`. */
export function supportedChainsQuery(client: DataApiClient) {
  return queryOptions({
    queryKey: dataApiKeys.supportedChains(client),
    queryFn: ({ signal }) => client.getSupportedChains({ signal }),
    staleTime: SUPPORTED_CHAINS_CACHE_MS,
  })
}

/**
 * Token balances of an account on a network, cached 30 s (SPEC §9). `supported: false` means the API does not
 * serve the network: show 'Token Balance Unavailable' and an empty list (SPEC §8).
 *
 * @example
 * const { data, error } = useQuery(balancesQuery(api, { address, chainId: 'eip155:1' }))
 */
export function balancesQuery(
  client: DataApiClient,
  parameters: { address: string; chainId: string; forceUpdate?: boolean },
) {
  return queryOptions({
    queryKey: dataApiKeys.balances(client, parameters.address, parameters.chainId),
    queryFn: ({ signal }) => client.getBalances({ ...parameters, signal }),
    staleTime: BALANCE_CACHE_MS,
  })
}

/**
 * The native balance, read from the chain through wagmi (so through the kit's retrying RPC transport), cached
 * 30 s (SPEC §9).
 *
 * @example
 * const { data } = useQuery(nativeBalanceQuery(wagmiConfig, { address, chainId: 1 }))
 * // data: { value: 10n ** 18n, decimals: 18, symbol: 'ETH' }
 */
export function nativeBalanceQuery(wagmi: Config, parameters: { address: `0x${string}`; chainId: number }) {
  return queryOptions({
    queryKey: ['walletstate', 'nativeBalance', parameters.chainId, lower(parameters.address)] as const,
    queryFn: () => getBalance(wagmi, { address: parameters.address, chainId: parameters.chainId }),
    staleTime: BALANCE_CACHE_MS,
  })
}

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
  })
}

/** Profile name and image of an address (SPEC §3 profileName, profileImage), cached 5 min (SPEC §9). */
export function identityQuery(
  client: DataApiClient,
  parameters: { address: string; chainId: string; sender?: string },
) {
  return queryOptions({
    queryKey: dataApiKeys.identity(client, parameters.address, parameters.chainId),
    queryFn: ({ signal }) => client.getIdentity({ ...parameters, signal }),
    staleTime: NAME_CACHE_MS,
  })
}

/** Reverse look-up: the names an address holds, cached 5 min (SPEC §9). */
export function namesQuery(
  client: DataApiClient,
  parameters: { address: string; chainId: string; sender?: string },
) {
  return queryOptions({
    queryKey: dataApiKeys.names(client, parameters.address, parameters.chainId),
    queryFn: ({ signal }) => client.getNames({ ...parameters, signal }),
    staleTime: NAME_CACHE_MS,
  })
}

/** A name's record (`null` when nobody holds it: react-query keeps no `undefined`), cached 5 min. */
export function nameRecordQuery(client: DataApiClient, parameters: { name: string }) {
  return queryOptions({
    queryKey: dataApiKeys.nameRecord(client, parameters.name),
    queryFn: async ({ signal }) => (await client.getNameRecord({ name: parameters.name, signal })) ?? null,
    staleTime: NAME_CACHE_MS,
  })
}

/** USD prices of tokens (CAIP-10), cached like balances. */
export function pricesQuery(client: DataApiClient, parameters: { addresses: readonly string[] }) {
  return queryOptions({
    queryKey: dataApiKeys.prices(client, parameters.addresses),
    queryFn: ({ signal }) => client.getPrices({ addresses: parameters.addresses, signal }),
    staleTime: BALANCE_CACHE_MS,
  })
}
