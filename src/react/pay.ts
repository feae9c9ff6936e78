import { useCallback, useMemo, useState } from 'react'
import { PAY_UNAVAILABLE, PayDisabledError, type PayError, PayFailedError, payErrorOf } from '../errors/pay'
import type { PayActorRef, PayContext, PayRequest, PayStatus } from '../machines/pay'
import { useSelector } from './actor'
import { requestOfCapability } from './capabilityRequest'
import { useKitActor } from './context'
import { useCapability } from './hooks'

/** A payment made: the transaction hash (a Solana transaction's base58 signature). */
export interface PayResult {
  hash: string
}

export interface UseKitPayReturnType {
  /**
   * Opens Pay for `request`: the visitor reviews it and approves it in the connected wallet. Resolves with the
   * hash once the transfer is confirmed; rejects with a `PayError` when it does not happen: Pay is off
   * (`PayDisabledError`, nothing fetched), no account is connected on its network, the request is malformed,
   * the visitor left Pay (`PayCancelledError`, or `PayFailedError` with the wallet's or the chain's reason).
   */
  pay: (request: PayRequest) => Promise<PayResult>
  /** This hook's last payment: none yet (`idle`), `paying`, `succeeded` or `failed`. */
  status: 'idle' | PayStatus
  /** Its outcome: the hash, or the error. */
  result: { hash: string; error?: undefined } | { hash?: undefined; error: PayError } | undefined
}

/** The ids of `pay.open`: each call's own, so its outcome is told apart from another's. */
let lastPayId = 0

/** Where the payment `id` stands in Pay's records (src/machines/pay.ts). */
function outcomeOf(context: PayContext | undefined, id: number | undefined) {
  if (!context || id === undefined) return undefined
  const { pay, payRefused } = context
  if (payRefused?.id === id) return { status: 'failed' as const, error: payRefused.error }
  if (pay?.id === id) return { status: pay.status, hash: pay.hash, error: pay.error }
  return undefined
}

/**
 * Pay (SPEC §1 `features.pay`, off by default): asks the connected wallet to pay a fixed amount of a token (the
 * network's native currency without `asset`) to a fixed recipient. The Pay view's code is fetched when a payment
 * opens, never before.
 *
 * @example
 * ```tsx
 * import { useKitPay } from 'walletstate/react'
 *
 * // With `features: { pay: true }` in the kit's config.
 * export function Tip() {
 *   const { pay, status } = useKitPay()
 *   const tip = async () => {
 *     const { hash } = await pay({ recipient: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', amount: '0.01' })
 *     console.log('paid in', hash)
 *   }
 *   return (
 *     <button type="button" onClick={tip} disabled={status === 'paying'}>
 *       Tip 0.01 ETH
 *     </button>
 *   )
 * }
 * ```
 */
export function useKitPay(): UseKitPayReturnType {
  const kit = useKitActor()
  const [id, setId] = useState<number>()
  const [failed, setFailed] = useState<{ id: number; error: PayError }>()
  const payActor = useCapability<PayActorRef>('pay').actor
  const recorded = useSelector(payActor, (s) => outcomeOf(s?.context, id), sameOutcome)
  const outcome = failed && failed.id === id ? { status: 'failed' as const, error: failed.error } : recorded
  const pay = useCallback(
    (request: PayRequest) => {
      const payId = ++lastPayId
      setId(payId)
      // Pay off (SPEC §1, its default): refused here, nothing fetched.
      if (!kit.getSnapshot().context.config.features.pay) {
        const error = new PayDisabledError()
        setFailed({ id: payId, error })
        return Promise.reject(error)
      }
      return requestOfCapability<PayContext | undefined, PayResult>(kit, {
        capability: 'pay',
        send: () => kit.send({ type: 'pay.open', id: payId, request }),
        answer: (context) => {
          const settled = outcomeOf(context, payId)
          if (!settled || settled.status === 'paying') return undefined
          return settled.status === 'succeeded'
            ? { value: { hash: settled.hash! } }
            : { error: payErrorOf(settled.error!) }
        },
        unavailable: () => {
          const unavailable = new PayFailedError(PAY_UNAVAILABLE)
          setFailed({ id: payId, error: unavailable })
          return unavailable
        },
      })
    },
    [kit],
  )
  const result = useMemo<UseKitPayReturnType['result']>(() => {
    if (outcome?.status === 'succeeded') return { hash: outcome.hash! }
    if (outcome?.status === 'failed') return { error: payErrorOf(outcome.error!) }
    return undefined
  }, [outcome])
  return { pay, status: outcome?.status ?? 'idle', result }
}

const sameOutcome = (a: ReturnType<typeof outcomeOf>, b: ReturnType<typeof outcomeOf>) =>
  a?.status === b?.status && a?.hash === b?.hash && a?.error === b?.error
