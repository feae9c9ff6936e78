import type { QueryClient } from '@tanstack/react-query'
import type { Config } from 'wagmi'
import { createAccountActors } from '../../actors/account'
import { getDataApiClient } from '../../api/dataApi'
import type { ResolvedKitConfig } from '../../config'
import { accountMachine } from '../../machines/account'

/**
 * The account machine with its slots: the Data API client, whose balance call fills them, and wagmi, through
 * which the chain confirms each amount. What the kit's
 * `loadAccount` loads, in one `import()`: each `import()` of the composition root is written in the host's
 * first-click JS with its preload list, so one per capability (issue 14's budget).
 */
export function accountLogic(config: ResolvedKitConfig, queryClient: QueryClient, wagmi: Config) {
  const api = getDataApiClient(config, queryClient)
  return accountMachine.provide({ actors: createAccountActors({ api, queryClient, wagmi }) })
}
