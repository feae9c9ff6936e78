import type { ErrorInfo } from '../../errors/base'
import type { GrantedPermission } from './types'

/** The eip155 account permissions are granted from. */
export interface SmartSessionsAccount {
  address: `0x${string}`
  chainId: number
}

/**
 * The wallet's account on the chain, from its `wallet_getCapabilities`: a smart account (it batches atomically) or
 * not, and whether it reports ERC-7715 permissions of the kind the kit asks for.
 */
export interface AccountKind {
  kind: 'smartAccount' | 'eoa'
  permissions: boolean
}

/** A grant as the kit carries it (plain data): its limit in decimal. */
export interface KitGrantRequest {
  signer: `0x${string}`
  token: `0x${string}`
  limit: string
  expiry: number
}

export type SmartSessionsEvent =
  /** The host asks for a permission (the request checked at the boundary: `validGrantRequest`). */
  | { type: 'smartSessions.grant'; id: number; request: unknown }
  /** The host revokes a permission by its id (`permissionsContext`). */
  | { type: 'smartSessions.revoke'; id: number; permissionId: string }
  /** The eip155 account shown changed (none: disconnected). */
  | { type: 'smartSessions.account'; account: SmartSessionsAccount | undefined }
  /**
   * The slot `permissionStore`: the permissions stored for `account` (checked records; expired ones included),
   * read at `now` (unix ms).
   */
  | {
      type: 'smartSessions.stored'
      account: SmartSessionsAccount
      permissions: readonly GrantedPermission[]
      now: number
    }

/** What the host reads of its last request, by the id it gave. */
export interface SmartSessionsOutcome {
  id: number
  kind: 'grant' | 'revoke'
  phase: 'pending' | 'succeeded' | 'failed'
  permission?: GrantedPermission | undefined
  error?: ErrorInfo | undefined
}

/** What the machine asks of the slot `permissionStore`: read an account's stored permissions, or replace them. */
export type PermissionStoreRequest =
  | { type: 'load'; account: SmartSessionsAccount | undefined }
  | { type: 'save'; account: SmartSessionsAccount; permissions: readonly GrantedPermission[] }

export type SmartSessionsNotice =
  | { type: 'smartSessions.granted'; permission: GrantedPermission }
  | { type: 'smartSessions.revoked'; id: `0x${string}` }
  | { type: 'smartSessions.failed'; error: ErrorInfo }
export type { GrantedPermission } from './types'
