import * as v from 'valibot'

const Address = v.pipe(v.string(), v.regex(/^0x[0-9a-fA-F]{40}$/, 'an address (0x and 40 hex characters)'))
/** The host's grant request, checked before the wallet is asked. */
export const GrantRequestSchema = v.object({
  signer: Address,
  token: Address,
  limit: v.pipe(
    v.string(),
    v.regex(/^[1-9]\d{0,77}$/, 'limit: a whole number above 0'),
    // The pipe goes on past a failed regex: only a whole number is converted.
    v.check((limit) => !/^\d+$/.test(limit) || BigInt(limit) < 2n ** 256n, 'limit: below 2^256'),
  ),
  expiry: v.pipe(v.number(), v.integer('expiry: unix seconds'), v.minValue(1), v.maxValue(2 ** 48 - 1)),
})
/** A permission's id as the host gives it to a revoke: hex bytes. */
export const PermissionIdSchema = v.pipe(
  v.string(),
  v.regex(/^0x([0-9a-fA-F]{2})+$/, 'a permission id is hex'),
)

/** A permission still in force at `now` (unix ms): its expiry (unix s) is later. */
export const unexpired = (permission: { expiry: number }, now: number) => permission.expiry * 1000 > now

/** A permission of `account` (same address, any case, and chain). */
export const permissionOf = (
  permission: { address: string; chainId: number },
  account: { address: string; chainId: number },
) =>
  permission.address.toLowerCase() === account.address.toLowerCase() && permission.chainId === account.chainId
