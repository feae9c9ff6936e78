import type { ErrorInfo } from '../../errors/base'

/** The eip155 account permissions are granted from. */
export interface SmartSessionsAccount {
  address: `0x${string}`
  chainId: number
}

/**
 * A permission the host asks for (ERC-7715, one `erc20-token-transfer`): `signer` (an address the app holds the key
 * of) may transfer up to `limit` of `token` (its smallest units) from the account, until `expiry` (unix seconds).
 */
export interface GrantRequest {
  signer: `0x${string}`
  token: `0x${string}`
  limit: bigint
  expiry: number
}

/** A grant as the kit carries it (plain data): its limit in decimal. */
export interface KitGrantRequest {
  signer: `0x${string}`
  token: `0x${string}`
  limit: string
  expiry: number
}

/** A permission granted: `id` is the wallet's `permissionsContext` (what a revoke and the signer name it by). */
export interface GrantedPermission {
  id: `0x${string}`
  /** The account it was granted from. */
  address: `0x${string}`
  chainId: number
  signer: `0x${string}`
  token: `0x${string}`
  /** The limit, in the token's smallest units (decimal). */
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

/** What the host reads of its last request, by the id it gave. */
export interface SmartSessionsOutcome {
  id: number
  kind: 'grant' | 'revoke'
  phase: 'pending' | 'succeeded' | 'failed'
  permission?: GrantedPermission | undefined
  error?: ErrorInfo | undefined
}

export type SmartSessionsNotice =
  | { type: 'smartSessions.granted'; permission: GrantedPermission }
  | { type: 'smartSessions.revoked'; id: `0x${string}` }
  | { type: 'smartSessions.failed'; error: ErrorInfo }
