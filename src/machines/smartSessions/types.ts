/** A permission asked for (ERC-7715 `erc20-token-transfer`): `signer` may transfer up to `limit` of `token` until `expiry` (unix s). */
export interface GrantRequest {
  signer: `0x${string}`
  token: `0x${string}`
  limit: bigint
  expiry: number
}

/** A permission granted; `id` is the wallet's `permissionsContext`. */
export interface GrantedPermission {
  id: `0x${string}`
  address: `0x${string}`
  chainId: number
  signer: `0x${string}`
  token: `0x${string}`
  /** In the token's smallest units, decimal. */
  limit: string
  expiry: number
}
