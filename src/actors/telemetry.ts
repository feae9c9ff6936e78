import { fromCallback } from 'xstate'
import { createTelemetryClient, type TelemetryClientOptions, type TelemetryEvent } from '../api/telemetry'
import type { KitEvent } from '../machines/kit'

/**
 * The kit's `telemetry` slot (SPEC §7): posts each `telemetry.send` it receives, never failing the kit. With
 * analytics on it reads the project's analytics config at once, so a refusal of this page's origin (403) is
 * told to the kit (`telemetry.configRefused`: SPEC §8's invalid-app-configuration alert) when the kit starts,
 * not at its first tracked event.
 *
 * @example
 * kitMachine.provide({ actors: { telemetry: createTelemetryActor({ telemetryUrl, walletsApiUrl, projectId, enabled: true }) } })
 */
export function createTelemetryActor(options: Omit<TelemetryClientOptions, 'onConfigRefused'>) {
  return fromCallback<KitEvent>(({ receive, sendBack }) => {
    const client = createTelemetryClient({
      ...options,
      onConfigRefused: (status) => sendBack({ type: 'telemetry.configRefused', status }),
    })
    if (options.enabled) void client.isEnabled()
    receive((message) => {
      // The kit sends this slot `telemetry.send` only (a request to it, not one of the kit's own events).
      const request = message as unknown as TelemetryRequest
      if (request.type === 'telemetry.send') void client.send(request.event)
    })
  })
}

/** What the kit sends its telemetry slot. */
export type TelemetryRequest = { type: 'telemetry.send'; event: TelemetryEvent }
