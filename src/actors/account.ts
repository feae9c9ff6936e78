import type { QueryClient } from '@tanstack/react-query'
import { fromPromise } from 'xstate'
import type { BalancesResult, DataApiClient } from '../api/dataApi'
import { balancesQuery, fetchQueryFor } from '../api/queries'
import type { BalancesOwner } from '../machines/account'

/**
 * The account machine's actor slots over the Data API, cached in the kit's QueryClient: the QueryClient decides
 * whether a fetch becomes a request (SPEC §9: balances are fresh for 30 s) and shares one request between every
 * caller of the same account and network (the Account view, the send flow's token picker). A refresh after a
 * transaction (`forceUpdate`) takes nothing from the cache and asks the API to read fresh balances.
 *
 * @example
 * const account = accountMachine.provide({ actors: createAccountActors({ api, queryClient }) })
 */
export interface AccountActorDependencies {
  api: DataApiClient
  /** The kit's one cache (the composition root's QueryClient, also the views'). */
  queryClient: QueryClient
}

export function createAccountActors({ api, queryClient }: AccountActorDependencies) {
  return {
    fetchBalances: fromPromise<BalancesResult, BalancesOwner & { forceUpdate: boolean }>(
      ({ input, signal }) => fetchQueryFor(queryClient, balancesQuery(api, input), signal),
    ),
  }
}
