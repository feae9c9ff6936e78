import { useCallback, useMemo, useState } from 'react'
import { type PayError, payErrorOf } from '../errors/pay'
import type { KitSnapshot, PayRequest, PayStatus } from '../machines/kit'
import { useSelector } from './actor'
import { useKitActor } from './context'

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

/** Where the payment `id` stands in the kit's snapshot. */
function outcomeOf(snapshot: KitSnapshot, id: number | undefined) {
  const { pay, payRefused } = snapshot.context
  if (id === undefined) return undefined
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
 * const { pay, status } = useKitPay()
 * const { hash } = await pay({ recipient: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', amount: '0.01' })
 */
export function useKitPay(): UseKitPayReturnType {
  const kit = useKitActor()
  const [id, setId] = useState<number>()
  const outcome = useSelector(kit, (s) => outcomeOf(s as KitSnapshot, id), sameOutcome)
  const pay = useCallback(
    (request: PayRequest) => {
      const payId = ++lastPayId
      setId(payId)
      return new Promise<PayResult>((resolve, reject) => {
        const subscription = kit.subscribe((snapshot) => {
          const settled = outcomeOf(snapshot as KitSnapshot, payId)
          if (!settled || settled.status === 'paying') return
          subscription.unsubscribe()
          if (settled.status === 'succeeded') resolve({ hash: settled.hash! })
          else reject(payErrorOf(settled.error!))
        })
        kit.send({ type: 'pay.open', id: payId, request })
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
