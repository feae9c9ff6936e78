import type { Config } from 'wagmi'
import { fromPromise } from 'xstate'
import { createPermissionsClient, type PermissionsClient } from '../chains/eip155/permissions'
import type {
  GrantedPermission,
  KitGrantRequest,
  SmartSessionsAccount,
} from '../machines/smartSessions/events'

/**
 * The smart-sessions machine's slots (src/machines/smartSessions.ts) over a permissions client.
 *
 * @example
 * const logic = smartSessionsMachine.provide({ actors: createSmartSessionsActors(createPermissionsClient(wagmi)) })
 */
export function createSmartSessionsActors(client: PermissionsClient) {
  return {
    accountKind: fromPromise<'smartAccount' | 'eoa', SmartSessionsAccount>(({ input }) =>
      client.accountKind(input),
    ),
    grant: fromPromise<GrantedPermission, { account: SmartSessionsAccount; request: KitGrantRequest }>(
      ({ input }) => client.grant(input),
    ),
    revoke: fromPromise<void, { account: SmartSessionsAccount; permissionId: string }>(({ input }) =>
      client.revoke(input),
    ),
  }
}

/** The slots over wagmi's connected wallet. */
export const smartSessionsActorsFor = (wagmi: Config) =>
  createSmartSessionsActors(createPermissionsClient(wagmi))
