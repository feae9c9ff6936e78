import { type ActorRefFrom, assertEvent, assign, forwardTo, type SnapshotFrom, setup } from 'xstate'
import { type KitConfig, type ResolvedKitConfig, resolveConfig } from '../config'
import type { KitAlert } from '../errors/base'
import { type ModalEvent, modalMachine } from './modal'
import { type ToastEvent, toastMachine } from './toast'

/**
 * The root of the kit: validates the host's config once, then composes the child machines. Each child has a
 * `systemId`, so views and tests reach it with `kit.system.get('modal')`. Later capabilities (connection,
 * frame, send, ...) add their children here.
 */
export interface KitContext {
  config: ResolvedKitConfig
  /** Alerts shown at the top of the modal (SPEC §8); the visitor may dismiss them. */
  alerts: readonly KitAlert[]
}

export type KitEvent = ModalEvent | ToastEvent | { type: 'kit.dismissAlert'; code: KitAlert['code'] }

/**
 * Builds the kit's root machine from the host's config. Call it once, at module level.
 *
 * @example
 * const kit = createKitMachine({ projectId: 'abc', networks: [defineEvmNetwork(mainnet)] })
 * root.render(<KitRoot machine={kit}><App /></KitRoot>)
 */
export function createKitMachine(config: KitConfig) {
  const resolved = resolveConfig(config)
  return setup({
    types: {
      context: {} as KitContext,
      events: {} as KitEvent,
    },
    actors: {
      modal: modalMachine,
      toast: toastMachine,
    },
    actions: {
      dismissAlert: assign(({ context, event }) => {
        assertEvent(event, 'kit.dismissAlert')
        return { alerts: context.alerts.filter((alert) => alert.code !== event.code) }
      }),
    },
  }).createMachine({
    id: 'kit',
    context: { config: resolved, alerts: resolved.alerts },
    invoke: [
      { id: 'modal', systemId: 'modal', src: 'modal', input: { connected: false } },
      { id: 'toast', systemId: 'toast', src: 'toast' },
    ],
    on: {
      'modal.*': { actions: forwardTo('modal') },
      'router.*': { actions: forwardTo('modal') },
      'toast.*': { actions: forwardTo('toast') },
      'kit.dismissAlert': { actions: 'dismissAlert' },
    },
  })
}

export type KitMachine = ReturnType<typeof createKitMachine>
export type KitActorRef = ActorRefFrom<KitMachine>
export type KitSnapshot = SnapshotFrom<KitMachine>
export type ModalActorRef = ActorRefFrom<typeof modalMachine>
export type ToastActorRef = ActorRefFrom<typeof toastMachine>
