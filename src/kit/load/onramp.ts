import type { QueryClient } from '@tanstack/react-query'
import { createOnrampActors } from '../../actors/onramp'
import { refreshAccountData } from '../../actors/refreshAccount'
import { getDataApiClient } from '../../api/dataApi'
import { createOnrampClient } from '../../api/onramp'
import type { ResolvedKitConfig } from '../../config'
import type { CapabilityKit, CapabilityServices, LoadedCapability } from '../../machines/capability'
import { type OnrampActorRef, onrampMachine } from '../../machines/onramp'

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

/** The Buy capability's code: its flow, and its glue beside the kit. */
export function onrampCapabilityCode(
  services: CapabilityServices,
): LoadedCapability<ReturnType<typeof onrampLogic>> {
  return { logic: onrampLogic(services.config, services.queryClient()), glue: onrampGlue(services) }
}

/**
 * The Buy flow's glue: a provider chosen on the providers' list shows the purchase; a purchase landed shows
 * "Purchase complete: …" and has the balances and the account's history read again.
 */
export function onrampGlue({ config, queryClient }: Pick<CapabilityServices, 'config' | 'queryClient'>) {
  return (onramp: OnrampActorRef, kit: CapabilityKit) => {
    const subscriptions = [
      onramp.on('onramp.opening', () => {
        if (kit.view() === 'OnRampProviders') kit.send({ type: 'router.push', view: 'OnRampPurchase' })
      }),
      onramp.on('onramp.succeeded', (notice) => {
        kit.send({ type: 'account.refreshBalances' })
        kit.send({ type: 'toast.show', variant: 'success', message: notice.message })
        refreshAccountData({
          config,
          queryClient: queryClient(),
          address: onramp.getSnapshot().context.address,
        })
      }),
    ]
    return () => {
      for (const subscription of subscriptions) subscription.unsubscribe()
    }
  }
}
