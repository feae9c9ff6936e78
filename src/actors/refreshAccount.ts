import type { QueryClient } from '@tanstack/react-query'
import { dataApiKeys, getDataApiClient } from '../api/dataApi'
import type { ResolvedKitConfig } from '../config'

/**
 * After a transaction (a swap, a purchase): the account's Data API reads (history, NFTs; SPEC §7, cached by react-query) and wagmi's native
 * balance are read again, whether or not a view shows them now. The kit refreshes the token balances itself.
 */
export function refreshAccountData({
  config,
  queryClient,
  address,
}: {
  config: Pick<ResolvedKitConfig, 'endpoints' | 'projectId'>
  queryClient: QueryClient
  address: string
}): void {
  const api = getDataApiClient(config, queryClient)
  void queryClient.invalidateQueries({ queryKey: dataApiKeys.account(api, address) })
  void queryClient.invalidateQueries({ queryKey: ['balance'] })
}
