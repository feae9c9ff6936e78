import { useCallback, useState } from 'react'
import {
  type PermissionsError,
  PermissionsFailedError,
  permissionsErrorOf,
  SmartSessionsDisabledError,
} from '../errors/permissions'
import type { SmartSessionsActorRef, SmartSessionsContext } from '../machines/smartSessions'
import type { GrantedPermission, GrantRequest } from '../machines/smartSessions/types'
import { useSelector } from './actor'
import { requestOfCapability } from './capabilityRequest'
import { useKitActor } from './context'
import { useCapability } from './hooks'

export interface UseKitSmartSessionsReturnType {
  /**
   * Asks the connected smart account to let `signer` spend up to `limit` of `token` until `expiry`
   * (`wallet_grantPermissions`; the visitor approves). Rejects with a `PermissionsError`.
   */
  grant: (request: GrantRequest) => Promise<GrantedPermission>
  /** Revokes a permission by its id (`wallet_revokePermissions`). */
  revoke: (id: string) => Promise<void>
  /**
   * Granted through the kit and not revoked (no keys): in this page, and, for the account shown, in earlier ones
   * (kept in the kit's storage; expired ones dropped).
   */
  granted: readonly GrantedPermission[]
  status: 'idle' | 'pending' | 'succeeded' | 'failed'
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
 * ERC-7715 permissions (`features.smartSessions`, off by default); the code loads with the first request.
 *
 * @example
 * ```tsx
 * import { useKitSmartSessions } from 'walletstate/react'
 *
 * export function Allow({ signer, token }: { signer: `0x${string}`; token: `0x${string}` }) {
 *   const { grant } = useKitSmartSessions()
 *   const expiry = Math.floor(Date.now() / 1000) + 3600
 *   return (
 *     <button type="button" onClick={() => grant({ signer, token, limit: 10_000_000n, expiry })}>
 *       Allow 10 USDC
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
      return requestOfCapability<SmartSessionsContext | undefined, T>(kit, {
        capability: 'smartSessions',
        send: () => send(requestId),
        answer: (context) => {
          const settled = outcomeOf(context, requestId)
          if (!settled || settled.phase === 'pending') return undefined
          return settled.phase === 'succeeded'
            ? { value: pick(context!) }
            : { error: permissionsErrorOf(settled.error!) }
        },
        unavailable: () => {
          const unavailable = new PermissionsFailedError({
            details: 'Smart sessions could not load. Try again.',
          })
          setRefusedHere({ id: requestId, error: unavailable })
          return unavailable
        },
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
