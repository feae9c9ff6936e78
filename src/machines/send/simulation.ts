import type { Address } from 'viem'
import type { BalanceChange, BalanceSimulation } from '../../chains/eip155/simulate'
import { NATIVE_TOKEN_ADDRESS } from '../../constants'
import {
  type ExpectedChanges,
  type SimulationDisagreement,
  simulationDisagreement,
} from '../../utils/simulation'
import type { SendSimulation, SendSimulationRequest } from './types'

/**
 * "See before you sign", the send flow's part: what its preview says will move, and whether the
 * simulation of the transaction agrees.
 */

/**
 * The preview of a send: exactly the amount of the token leaves the account, nothing arrives. A send to the
 * account itself moves nothing.
 *
 * @example
 * expectedOfSend({ chainId: 1, to: bob, amount: 5_000_000n, token: usdc, symbol: 'USDC', decimals: 6 }, alice)
 * // { outflows: [{ token: usdc, symbol: 'USDC', decimals: 6, amount: 5_000_000n }], inflows: [] }
 * @internal
 */
export function expectedOfSend(request: SendSimulationRequest, account: Address): ExpectedChanges {
  if (request.to.toLowerCase() === account.toLowerCase()) return { outflows: [], inflows: [] }
  const token = (request.token ?? NATIVE_TOKEN_ADDRESS) as Address
  return {
    outflows: [{ token, symbol: request.symbol, decimals: request.decimals, amount: request.amount }],
    inflows: [],
  }
}

/** How the send's simulation disagrees with its preview, or undefined (agrees, or could not simulate). */
export function sendSimulationDisagreement(
  request: SendSimulationRequest,
  simulation: SendSimulation,
): SimulationDisagreement | undefined {
  return simulationDisagreement(expectedOfSend(request, simulation.account), simulationResultOf(simulation))
}

/** The slot's plain answer as the simulation module's result (deltas as bigints). */
export function simulationResultOf(simulation: SendSimulation): BalanceSimulation {
  const { result } = simulation
  if (result.status !== 'simulated') return result
  return { status: 'simulated', changes: result.changes.map((c) => ({ ...c, delta: BigInt(c.delta) })) }
}

/**
 * The balance changes a preview shows: the simulated ones, or undefined when there is no simulation to show (not
 * simulated yet, on Solana, or the node could not simulate: never a guessed line).
 */
export function simulatedChanges(simulation: SendSimulation | undefined): BalanceChange[] | undefined {
  if (simulation?.result.status !== 'simulated') return undefined
  const result = simulationResultOf(simulation)
  return result.status === 'simulated' ? result.changes : undefined
}

/**
 * The preview's `simulating` state, the send's and the swap's alike (see before you sign): what the preview
 * shows is simulated on the chain (`simulate`, given `input`) before confirm is offered. Agreeing → `ready`, the
 * balance changes kept (`setSimulation`); moving something other than the preview shows (`simulationDisagrees`)
 * → `disagrees`, and said (`showDisagreement`); a node that cannot simulate (an error, no answer within
 * `simulationTimeout`) → `ready` without the line (`clearSimulation`). The parent's setup names these.
 *
 * @example
 * simulating: simulatingState(({ context }: { context: SendContext }) => simulationRequestOf(context)),
 * @internal
 */
export function simulatingState<TContext, TRequest>(input: (args: { context: TContext }) => TRequest) {
  const simulated = ({ event }: { event: { output: SendSimulation } }) => event.output
  return {
    tags: 'busy',
    after: { simulationTimeout: { target: 'ready', actions: 'clearSimulation' } },
    invoke: {
      id: 'simulate',
      src: 'simulate',
      input,
      onDone: [
        {
          guard: { type: 'simulationDisagrees', params: simulated },
          target: 'disagrees',
          actions: { type: 'showDisagreement', params: simulated },
        },
        { target: 'ready', actions: { type: 'setSimulation', params: simulated } },
      ],
      onError: { target: 'ready', actions: 'clearSimulation' },
    },
  } as const
}
