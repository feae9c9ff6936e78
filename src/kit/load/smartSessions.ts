import { smartSessionsActorsFor } from '../../actors/smartSessions'
import type { CapabilityKit, CapabilityServices, LoadedCapability } from '../../machines/capability'
import { type SmartSessionsActorRef, smartSessionsMachine } from '../../machines/smartSessions'
import type { KitStore } from '../../storage'

/** The smart-sessions machine with its slots over wagmi's connected wallet and the kit's storage. */
export function smartSessionsLogic(services: CapabilityServices, store?: KitStore) {
  return smartSessionsMachine.provide({ actors: smartSessionsActorsFor(services.wagmi, store) })
}

/** The smart-sessions capability's code: its machine, and its glue beside the kit. */
export function smartSessionsCapabilityCode(
  services: CapabilityServices,
  store?: KitStore,
): LoadedCapability<ReturnType<typeof smartSessionsLogic>> {
  return { logic: smartSessionsLogic(services, store), glue: smartSessionsGlue }
}

/** Its glue: what was granted or revoked is said in a toast, and a failure says why. */
export function smartSessionsGlue(sessions: SmartSessionsActorRef, kit: CapabilityKit) {
  const subscriptions = [
    sessions.on('smartSessions.granted', () =>
      kit.send({ type: 'toast.show', variant: 'success', message: 'Permission granted' }),
    ),
    sessions.on('smartSessions.revoked', () =>
      kit.send({ type: 'toast.show', variant: 'success', message: 'Permission revoked' }),
    ),
    sessions.on('smartSessions.failed', ({ error }) =>
      kit.send({ type: 'toast.show', variant: 'error', message: error.message }),
    ),
  ]
  return () => {
    for (const subscription of subscriptions) subscription.unsubscribe()
  }
}
