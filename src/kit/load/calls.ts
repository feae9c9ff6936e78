import { callsActorsFor } from '../../actors/calls'
import { type CallsActorRef, callsMachine } from '../../machines/calls'
import type { CapabilityKit, CapabilityServices, LoadedCapability } from '../../machines/capability'

/** The calls machine with its slots over wagmi's connected wallet. */
export function callsLogic(services: CapabilityServices) {
  return callsMachine.provide({ actors: callsActorsFor(services.wagmi) })
}

/** The calls capability's code: its flow, and its glue beside the kit. */
export function callsCapabilityCode(
  services: CapabilityServices,
): LoadedCapability<ReturnType<typeof callsLogic>> {
  return { logic: callsLogic(services), glue: callsGlue }
}

/**
 * Batched calls' glue: a wallet without atomic batching will ask for each call separately, and the visitor is told
 * so before its first prompt; a batch that landed refreshes the balances and says so; one that failed says why; a
 * batch's status the host asked to show (and the wallet does not show itself) is shown in words.
 */
export function callsGlue(calls: CallsActorRef, kit: CapabilityKit) {
  const subscriptions = [
    calls.on('calls.sequential', ({ count }) =>
      kit.send({
        type: 'toast.show',
        variant: 'loading',
        message: `Your wallet will ask for each call separately (${count} calls)`,
      }),
    ),
    calls.on('calls.succeeded', ({ count }) => {
      kit.send({ type: 'account.refreshBalances' })
      kit.send({ type: 'toast.show', variant: 'success', message: `Calls confirmed (${count} calls)` })
    }),
    // The batch's status, shown by the kit for a wallet that does not show it itself (`wallet_showCallsStatus`).
    calls.on('calls.status', ({ status, receipts }) =>
      kit.send({
        type: 'toast.show',
        // A pending batch's toast closes by itself too (a loading one would stay until the next).
        variant: status === 'reverted' ? 'error' : 'success',
        message: `Batch status: ${status} (${receipts} ${receipts === 1 ? 'receipt' : 'receipts'})`,
      }),
    ),
    calls.on('calls.failed', ({ error }) =>
      kit.send({ type: 'toast.show', variant: 'error', message: error.message }),
    ),
  ]
  return () => {
    for (const subscription of subscriptions) subscription.unsubscribe()
  }
}
