import type { QueryClient } from '@tanstack/react-query'
import type { Config } from 'wagmi'
import { createNamesActors } from '../../actors/names'
import { createNamesClient } from '../../api/names'
import type { ResolvedKitConfig } from '../../config'
import type { CapabilityKit, CapabilityServices, LoadedCapability } from '../../machines/capability'
import { type NamesActorRef, namesMachine } from '../../machines/names'

/**
 * The account names flow with its slots: the Data API's name calls (suggestions cached in the kit's QueryClient),
 * the connected wallet (wagmi) for the registration's signature. What the kit's names loader loads, in one
 * `import()` (see ./account.ts). A registration also has the account's profile read again (src/actors/names.ts).
 */
export function namesLogic(config: ResolvedKitConfig, wagmi: Config, queryClient: QueryClient) {
  const client = createNamesClient({ api: config.endpoints.api, projectId: config.projectId })
  return namesMachine.provide({ actors: createNamesActors({ wagmi, client, queryClient }) })
}

/** The names capability's code: its flow, and its glue beside the kit. */
export function namesCapabilityCode(
  services: CapabilityServices,
): LoadedCapability<ReturnType<typeof namesLogic>> {
  return { logic: namesLogic(services.config, services.wagmi, services.queryClient()), glue: namesGlue }
}

/**
 * The names flow's glue: a name registered on the form shows its success (a failure stays on the form); the
 * registration reads the account's profile again itself.
 */
export function namesGlue(names: NamesActorRef, kit: CapabilityKit) {
  const subscription = names.on('names.registered', () => {
    if (kit.view() === 'RegisterAccountName')
      kit.send({ type: 'router.push', view: 'RegisterAccountNameSuccess' })
  })
  return () => subscription.unsubscribe()
}
