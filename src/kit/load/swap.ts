import type { QueryClient } from '@tanstack/react-query'
import type { Config } from 'wagmi'
import { createSwapActors } from '../../actors/swap'
import { createConvertClient } from '../../api/convert'
import type { ResolvedKitConfig } from '../../config'
import { swapMachine } from '../../machines/swap'

export { refreshAfterSwap } from '../../actors/swap'

/**
 * The swap flow with its slots: the convert endpoints of the Data API, the build check against the configured
 * routers, the pair's on-chain decimals cached in the kit's QueryClient, wagmi for the wallet. What the kit's
 * `loadSwap` loads, in one `import()` (see ./account.ts).
 */
export function swapLogic(config: ResolvedKitConfig, queryClient: QueryClient, wagmi: Config) {
  const convert = createConvertClient({ api: config.endpoints.api, projectId: config.projectId })
  return swapMachine.provide({
    actors: createSwapActors({ wagmi, convert, routers: config.swapRouters, queryClient }),
  })
}
