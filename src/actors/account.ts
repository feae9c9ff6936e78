import { type QueryClient, queryOptions } from '@tanstack/react-query'
import type { Config } from 'wagmi'
import { fromPromise } from 'xstate'
import { type BalancesResult, type DataApiClient, dataApiKeys } from '../api/dataApi'
import { balancesQuery, balancesStaleTime, fetchQueryFor } from '../api/queries'
import { withChainAmounts } from '../chains/eip155/chainBalances'
import type { BalancesOwner } from '../machines/account'

/**
 * The account machine's actor slots over the Data API, cached in the kit's QueryClient: the QueryClient decides
 * whether a fetch becomes a request (SPEC §9: balances are fresh for 30 s) and shares one request between every
 * caller of the same account and network (the Account view, the send flow's token picker). A refresh after a
 * transaction (`forceUpdate`) takes nothing from the cache and asks the API to read fresh balances. With `wagmi`,
 * the amounts on the account's EVM chain are the chain's (`withChainAmounts`), cached with the answer they check.
 *
 * @example
 * const account = accountMachine.provide({ actors: createAccountActors({ api, queryClient }) })
 */
export interface AccountActorDependencies {
  api: DataApiClient
  /** The kit's one cache (the composition root's QueryClient, also the views'). */
  queryClient: QueryClient
  /** The kit's wagmi config: the chain that confirms each amount. Without it, the API's amounts are shown. */
  wagmi?: Config
}

export function createAccountActors({ api, queryClient, wagmi }: AccountActorDependencies) {
  /** The amounts checked on the chain are cached under a key of their own, beside the API's word. */
  const checkedQuery = (chain: Config, input: BalancesOwner & { forceUpdate: boolean }) =>
    queryOptions({
      queryKey: [...dataApiKeys.balances(api, input.address, input.chainId), 'onChain'] as const,
      queryFn: async ({ signal }) =>
        withChainAmounts(chain, input, await api.getBalances({ ...input, signal }), {
          queryClient,
          fresh: input.forceUpdate,
        }),
      staleTime: balancesStaleTime(input.forceUpdate),
      retry: false,
    })
  return {
    fetchBalances: fromPromise<BalancesResult, BalancesOwner & { forceUpdate: boolean }>(
      ({ input, signal }) =>
        wagmi
          ? fetchQueryFor(queryClient, checkedQuery(wagmi, input), signal)
          : fetchQueryFor(queryClient, balancesQuery(api, input), signal),
    ),
  }
}
