import { useCallback, useState } from 'react'
import {
  type PermissionsError,
  PermissionsFailedError,
  permissionsErrorOf,
  SmartSessionsDisabledError,
} from '../errors/permissions'
import { type CapabilityHostRef, capabilityStatus } from '../machines/capability'
import { selectCapabilityHost } from '../machines/kit'
import type { SmartSessionsActorRef, SmartSessionsContext } from '../machines/smartSessions'
import type { GrantedPermission, GrantRequest } from '../machines/smartSessions/types'
import { useSelector } from './actor'
import { useKitActor } from './context'
import { useCapability } from './hooks'

export interface UseKitSmartSessionsReturnType {
  /**
   * Asks the connected smart account (ERC-7715 `wallet_grantPermissions`) to let `signer` transfer up to `limit`
   * of `token` (its smallest units) until `expiry` (unix seconds); the visitor approves it in the wallet.
   * Resolves with the permission (its `id` is the wallet's `permissionsContext`); rejects with a
   * `PermissionsError`: smart sessions off (`SmartSessionsDisabledError`, nothing fetched), not connected, not a
   * smart account (`NotSmartAccountError`), a malformed request, declined or failed in the wallet.
   */
  grant: (request: GrantRequest) => Promise<GrantedPermission>
  /** Revokes a permission by its id (`wallet_revokePermissions`). */
  revoke: (id: string) => Promise<void>
  /** The permissions granted through the kit in this page and not revoked (ids and terms; never a key). */
  granted: readonly GrantedPermission[]
  /** This hook's last request: none yet (`idle`), `pending`, `succeeded` or `failed`. */
  status: 'idle' | 'pending' | 'succeeded' | 'failed'
  /** Its error, when it failed. */
  error: PermissionsError | undefined
}

/** A grant as the kit carries it: its limit in decimal (anything else is left for the kit's check to refuse). */
const kitRequest = (request: GrantRequest): unknown =>
  typeof request === 'object' && request !== null && typeof request.limit === 'bigint'
    ? { ...request, limit: request.limit.toString() }
    : request

/** The ids of the requests: each call's own, so its outcome is told apart from another's. */
let lastId = 0
const NONE: readonly GrantedPermission[] = []

function outcomeOf(context: SmartSessionsContext | undefined, id: number | undefined) {
  if (!context || id === undefined) return undefined
  if (context.refused?.id === id) return { phase: 'failed' as const, error: context.refused.error }
  return context.outcome?.id === id ? context.outcome : undefined
}

/**
 * ERC-7715 permissions through the kit (`features.smartSessions`, off by default): its code is fetched with the
 * first request, never before.
 *
 * @example
 * ```tsx
 * import { useKitSmartSessions } from 'walletstate/react'
 *
 * // With `features: { smartSessions: true }` in the kit's config; the app holds the signer's key.
 * export function AllowSpending({ signer }: { signer: `0x${string}` }) {
 *   const { grant, granted } = useKitSmartSessions()
 *   const allow = () =>
 *     grant({
 *       signer,
 *       token: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
 *       limit: 10_000_000n,
 *       expiry: Math.floor(Date.now() / 1000) + 3600,
 *     })
 *   return (
 *     <button type="button" onClick={allow}>
 *       Allow 10 USDC ({granted.length} granted)
 *     </button>
 *   )
 * }
 * ```
 */
export function useKitSmartSessions(): UseKitSmartSessionsReturnType {
  const kit = useKitActor()
  const [id, setId] = useState<number>()
  const [refusedHere, setRefusedHere] = useState<{ id: number; error: PermissionsError }>()
  const actor = useCapability<SmartSessionsActorRef>('smartSessions').actor
  const recorded = useSelector(actor, (s) => outcomeOf(s?.context, id))
  const granted = useSelector(actor, (s) => s?.context.granted ?? NONE)

  const ask = useCallback(
    <T>(send: (requestId: number) => void, pick: (context: SmartSessionsContext) => T): Promise<T> => {
      const requestId = ++lastId
      setId(requestId)
      // Smart sessions off (their default): refused here, nothing fetched.
      if (!kit.getSnapshot().context.config.features.smartSessions) {
        const error = new SmartSessionsDisabledError()
        setRefusedHere({ id: requestId, error })
        return Promise.reject(error)
      }
      return new Promise<T>((resolve, reject) => {
        const stops: Array<() => void> = []
        const stop = () => {
          for (const each of stops.splice(0)) each()
        }
        const settle = (context: SmartSessionsContext | undefined) => {
          const settled = outcomeOf(context, requestId)
          if (!settled || settled.phase === 'pending') return
          stop()
          if (settled.phase === 'succeeded') resolve(pick(context!))
          else reject(permissionsErrorOf(settled.error!))
        }
        const host = selectCapabilityHost(kit.getSnapshot(), 'smartSessions') as CapabilityHostRef | undefined
        let followed: SmartSessionsActorRef | undefined
        const onHost = (snapshot: ReturnType<CapabilityHostRef['getSnapshot']>) => {
          if (capabilityStatus(snapshot) === 'failed') {
            stop()
            const unavailable = new PermissionsFailedError({
              details: 'Smart sessions could not load. Try again.',
            })
            setRefusedHere({ id: requestId, error: unavailable })
            reject(unavailable)
            return
          }
          const running = snapshot.context.actor as SmartSessionsActorRef | undefined
          if (!running || running === followed) return
          followed = running
          const subscription = running.subscribe((s) => settle(s.context))
          stops.push(() => subscription.unsubscribe())
          settle(running.getSnapshot().context)
        }
        if (host) {
          const subscription = host.subscribe(onHost)
          stops.push(() => subscription.unsubscribe())
        }
        send(requestId)
        if (host) onHost(host.getSnapshot())
      })
    },
    [kit],
  )
  const grant = useCallback(
    (request: GrantRequest) =>
      ask(
        (requestId) => kit.send({ type: 'smartSessions.grant', id: requestId, request: kitRequest(request) }),
        (context) => context.outcome!.permission!,
      ),
    [ask, kit],
  )
  const revoke = useCallback(
    (permissionId: string) =>
      ask(
        (requestId) => kit.send({ type: 'smartSessions.revoke', id: requestId, permissionId }),
        () => undefined,
      ),
    [ask, kit],
  )
  const local = refusedHere && refusedHere.id === id ? refusedHere.error : undefined
  const status = local ? 'failed' : (recorded?.phase ?? 'idle')
  const error =
    local ?? (recorded?.phase === 'failed' && recorded.error ? permissionsErrorOf(recorded.error) : undefined)
  return { grant, revoke, granted, status, error }
}
