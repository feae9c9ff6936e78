import type { QueryClient } from '@tanstack/react-query'
import { createOnrampActors } from '../../actors/onramp'
import { getDataApiClient } from '../../api/dataApi'
import { createOnrampClient } from '../../api/onramp'
import type { ResolvedKitConfig } from '../../config'
import { onrampMachine } from '../../machines/onramp'

export { refreshAccountData } from '../../actors/refreshAccount'

/**
 * The Buy (onramp) flow with its slots: the Data API's onramp calls, its history for the provider's orders, and
 * a browser window for the partner page. What the kit's onramp loader loads, in one `import()` (see ./account.ts).
 * With the kit's QueryClient the Data API's network check is shared with the rest of the kit.
 */
export function onrampLogic(config: ResolvedKitConfig, queryClient?: QueryClient) {
  // The partner page is checked against the provider's origins twice: the URL answered, then the window's target.
  const partnerOrigins = config.onrampPartnerOrigins
  const onramp = createOnrampClient({
    api: config.endpoints.api,
    projectId: config.projectId,
    partnerOrigins,
  })
  const dataApi = getDataApiClient(config, queryClient)
  return onrampMachine.provide({ actors: createOnrampActors({ onramp, dataApi, partnerOrigins }) })
}
