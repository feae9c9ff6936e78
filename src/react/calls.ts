import { useCallback, useMemo, useState } from 'react'
import { numberToHex } from 'viem'
import { type CallsError, CallsFailedError, callsErrorOf } from '../errors/calls'
import type { CallsActorRef, CallsContext } from '../machines/calls'
import type { BatchCall, CallsPhase, CallsReceipt, KitBatchCall } from '../machines/calls/types'
import { useSelector } from './actor'
import { requestOfCapability } from './capabilityRequest'
import { useKitActor } from './context'
import { useCapability } from './hooks'

/** A batch that landed. */
export interface CallsResult {
  /** The batch's id: `wallet_getCallsStatus` (wagmi's `getCallsStatus`) takes it. */
  id: string
  /** Executed atomically by the wallet (one confirmation), or as separate transactions. */
  atomic: boolean
  /** Sent as separate transactions because the wallet cannot batch atomically (it asked for each call). */
  sequential: boolean
  /** One receipt per transaction mined. */
  receipts: readonly CallsReceipt[]
}

export interface UseKitSendCallsReturnType {
  /**
   * Sends `calls` from the connected eip155 account (EIP-5792 `wallet_sendCalls`). A call that breaks SPEC §5
   * ("Batched calls need a 'to' starting 0x; data, if present, starts 0x") is refused before any wallet is asked
   * (`InvalidBatchedCallError`). A wallet with atomic batching on the chain confirms them once; one without asks
   * for each call separately (the visitor is told so). Resolves once every call is mined; rejects with a
   * `CallsError` otherwise (declined, reverted, not connected, another batch on its way).
   */
  sendCalls: (calls: readonly BatchCall[], options?: { chainId?: number }) => Promise<CallsResult>
  /**
   * Shows the status of the batch `id` (EIP-5792 `wallet_showCallsStatus`): an external wallet shows it itself
   * (one without the method: `ShowCallsStatusUnsupportedError`); for the embedded wallet the kit reads it and shows
   * it in words (pending, confirmed, reverted). Resolves once shown; rejects with a `CallsError` otherwise.
   */
  showCallsStatus: (id: string) => Promise<void>
  /** This hook's last batch: none yet (`idle`), `sending`, `succeeded` or `failed`. */
  status: 'idle' | CallsPhase
  /** Its outcome. */
  result: { calls: CallsResult; error?: undefined } | { calls?: undefined; error: CallsError } | undefined
}

/** A batch refused because the capability's code did not load (the next one loads it again). */
const callsUnavailable = () => new CallsFailedError({ details: 'Batched calls could not load. Try again.' })

/** The ids of `calls.send`: each call's own, so its outcome is told apart from another's. */
let lastCallsId = 0

function outcomeOf(context: CallsContext | undefined, id: number | undefined) {
  if (!context || id === undefined) return undefined
  const { calls, refused } = context
  if (refused?.id === id) return { phase: 'failed' as const, error: refused.error }
  if (calls?.id !== id) return undefined
  if (calls.phase !== 'succeeded') return { phase: calls.phase, error: calls.error }
  const result: CallsResult = {
    id: calls.batchId!,
    atomic: calls.result?.atomic ?? false,
    sequential: calls.sequential === true,
    receipts: calls.result?.receipts ?? [],
  }
  return { phase: calls.phase, result }
}

/** A call as the kit carries it: its value a hex quantity (anything else is left for SPEC §5's check to refuse). */
const kitCall = (call: BatchCall): KitBatchCall => {
  if (typeof call !== 'object' || call === null) return call
  const { value, ...rest } = call
  if (value === undefined) return rest
  return {
    ...rest,
    value: (typeof value === 'bigint' && value >= 0n ? numberToHex(value) : value) as `0x${string}`,
  }
}

type Outcome = ReturnType<typeof outcomeOf>
const sameOutcome = (a: Outcome, b: Outcome) =>
  a?.phase === b?.phase && a?.error === b?.error && a?.result?.id === b?.result?.id

/**
 * Batched calls (EIP-5792) through the kit: its code is fetched with the first batch, never before. The batch's
 * id works with wagmi's own `getCallsStatus` / `useCallsStatus` as well.
 *
 * @example
 * ```tsx
 * import { useKitSendCalls } from 'walletstate/react'
 *
 * export function SendBoth() {
 *   const { sendCalls, status } = useKitSendCalls()
 *   const send = async () => {
 *     const { receipts } = await sendCalls([
 *       { to: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', value: 1_000_000_000_000_000n },
 *       { to: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC', value: 1_000_000_000_000_000n },
 *     ])
 *     console.log(receipts.length, 'transactions mined')
 *   }
 *   return (
 *     <button type="button" onClick={send} disabled={status === 'sending'}>
 *       Send both
 *     </button>
 *   )
 * }
 * ```
 */
export function useKitSendCalls(): UseKitSendCallsReturnType {
  const kit = useKitActor()
  const [id, setId] = useState<number>()
  const [failed, setFailed] = useState<{ id: number; error: CallsError }>()
  const callsActor = useCapability<CallsActorRef>('calls').actor
  const recorded = useSelector(callsActor, (s) => outcomeOf(s?.context, id), sameOutcome)
  const sendCalls = useCallback(
    (calls: readonly BatchCall[], options: { chainId?: number } = {}) => {
      const callsId = ++lastCallsId
      setId(callsId)
      return requestOfCapability<CallsContext | undefined, CallsResult>(kit, {
        capability: 'calls',
        send: () =>
          kit.send({
            type: 'calls.send',
            id: callsId,
            request: {
              calls: calls.map(kitCall),
              ...(options.chainId === undefined ? {} : { chainId: options.chainId }),
            },
          }),
        answer: (context) => {
          const settled = outcomeOf(context, callsId)
          if (!settled || settled.phase === 'sending') return undefined
          return settled.result ? { value: settled.result } : { error: callsErrorOf(settled.error!) }
        },
        unavailable: () => {
          const unavailable = callsUnavailable()
          setFailed({ id: callsId, error: unavailable })
          return unavailable
        },
      })
    },
    [kit],
  )
  const showCallsStatus = useCallback(
    (batchId: string) => {
      const showId = ++lastCallsId
      return requestOfCapability<CallsContext | undefined, void>(kit, {
        capability: 'calls',
        send: () => kit.send({ type: 'calls.showStatus', id: showId, batchId }),
        answer: (context) => {
          const shown = context?.shown
          if (shown?.id !== showId || shown.phase === 'showing') return undefined
          return shown.phase === 'shown' ? { value: undefined } : { error: callsErrorOf(shown.error!) }
        },
        unavailable: callsUnavailable,
      })
    },
    [kit],
  )
  const outcome =
    failed && failed.id === id ? { phase: 'failed' as const, error: undefined, result: undefined } : recorded
  const result = useMemo<UseKitSendCallsReturnType['result']>(() => {
    if (failed && failed.id === id) return { error: failed.error }
    if (outcome?.result) return { calls: outcome.result }
    if (outcome?.phase === 'failed' && outcome.error) return { error: callsErrorOf(outcome.error) }
    return undefined
  }, [outcome, failed, id])
  return { sendCalls, showCallsStatus, status: outcome?.phase ?? 'idle', result }
}
