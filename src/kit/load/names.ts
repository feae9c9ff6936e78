import type { QueryClient } from '@tanstack/react-query'
import type { Config } from 'wagmi'
import { createNamesActors } from '../../actors/names'
import { createNamesClient } from '../../api/names'
import type { ResolvedKitConfig } from '../../config'
import { namesMachine } from '../../machines/names'

/**
 * The account names flow with its slots: the Data API's name calls (suggestions cached in the kit's QueryClient),
 * the connected wallet (wagmi) for the registration's signature. What the kit's names loader loads, in one
 * `import()` (see ./account.ts). A registration also has the account's profile read again (src/actors/names.ts).
 */
export function namesLogic(config: ResolvedKitConfig, wagmi: Config, queryClient: QueryClient) {
  const client = createNamesClient({ api: config.endpoints.api, projectId: config.projectId })
  return namesMachine.provide({ actors: createNamesActors({ wagmi, client, queryClient }) })
}
