import type { Config } from 'wagmi'
import { fromPromise } from 'xstate'
import { type CallsClient, createCallsClient } from '../chains/eip155/calls'
import type { SendCallsRequest } from '../machines/calls/batch'
import type { AtomicStatus, CallsStatus } from '../machines/calls/types'

/**
 * The calls machine's slots (src/machines/calls.ts) over the wallet wagmi has connected: its capabilities, the
 * batch sent, and its status (src/chains/eip155/calls.ts). The swap's batch takes the same (src/actors/swap.ts).
 *
 * @example
 * const logic = callsMachine.provide({ actors: createCallsActors(createCallsClient(wagmi)) })
 */
export function createCallsActors(client: CallsClient) {
  return {
    capabilities: fromPromise<AtomicStatus, { address: `0x${string}`; chainId: number }>(({ input }) =>
      client.capabilities(input),
    ),
    sendCalls: fromPromise<string, SendCallsRequest>(({ input }) => client.send(input)),
    callsStatus: fromPromise<CallsStatus, { id: string; chainId: number }>(({ input }) =>
      client.status(input),
    ),
    showCallsStatus: fromPromise<CallsStatus | null, { id: string; chainId: number }>(({ input }) =>
      client.showStatus(input),
    ),
  }
}

/** The slots over wagmi's connected wallet. */
export const callsActorsFor = (wagmi: Config) => createCallsActors(createCallsClient(wagmi))
