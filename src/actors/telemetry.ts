import { fromCallback } from 'xstate'
import type { TelemetryClient, TelemetryClientOptions, TelemetryEvent } from '../api/telemetry'
import type { KitEvent } from '../machines/kit'

/**
 * The kit's `telemetry` slot (SPEC §7): posts each `telemetry.send` it receives, never failing the kit. With
 * analytics on it reads the project's analytics config when the modal first opens (`telemetry.check`), so a
 * refusal of this page's origin (403) is told to the kit (`telemetry.configRefused`: SPEC §8's
 * invalid-app-configuration alert) where the visitor sees it, not at the first tracked event, and nothing is
 * fetched before the visitor opens the modal.
 *
 * @example
 * kitMachine.provide({ actors: { telemetry: createTelemetryActor({ telemetryUrl, walletsApiUrl, projectId, enabled: true }) } })
 */
export function createTelemetryActor(options: Omit<TelemetryClientOptions, 'onConfigRefused'>) {
  return fromCallback<KitEvent>(({ receive, sendBack }) => {
    // The client is fetched with the first request (the modal's first open), not with the host's page
    // (issue 14: the first-click bundle); with analytics off it is never fetched.
    let client: Promise<TelemetryClient> | undefined
    const ready = () =>
      (client ??= import('../api/telemetry').then(({ createTelemetryClient }) =>
        createTelemetryClient({
          ...options,
          onConfigRefused: (status) => sendBack({ type: 'telemetry.configRefused', status }),
        }),
      ))
    receive((message) => {
      // The kit sends this slot requests (not one of the kit's own events): `telemetry.send`, and
      // `telemetry.check` when the modal opens (the config is read once; nothing is asked before the visitor
      // opens the modal, issue 14: no request to the provider's hosts before the first click).
      const request = message as unknown as TelemetryRequest
      if (!options.enabled) return
      if (request.type === 'telemetry.send') void ready().then((c) => c.send(request.event))
      else if (request.type === 'telemetry.check') void ready().then((c) => c.isEnabled())
    })
  })
}

/** What the kit sends its telemetry slot. */
export type TelemetryRequest = { type: 'telemetry.send'; event: TelemetryEvent } | { type: 'telemetry.check' }
