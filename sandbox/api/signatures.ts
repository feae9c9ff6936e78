import * as v from 'valibot'
import type { Address, Hex, PublicClient } from 'viem'

/**
 * Signature checks the Data API shares (sign-in sessions, name registrations): one signed message, verified
 * on the sandbox's own chain whatever kind of account signed it.
 */

/** Generous bound: an ERC-6492 signature carries the smart account's creation code. */
export const MAX_SIGNATURE_CHARS = 100_000

/** A signature in a request body: 0x-prefixed hex bytes, bounded. */
export const SignatureSchema = v.pipe(
  v.string(),
  v.maxLength(MAX_SIGNATURE_CHARS, 'signature is too long'),
  v.regex(/^0x([0-9a-fA-F]{2})+$/, 'signature must be 0x-prefixed hex bytes'),
)

/** A personal message (EIP-191) as a wallet signed it, and the account it claims to be from. */
export interface SignedMessage {
  address: Address
  message: string
  signature: Hex
}

/**
 * Whether `signature` signs `message` for `address`, checked on the chain `client` reads: ecrecover for an EOA,
 * ERC-1271 (`isValidSignature`) for a deployed smart account, ERC-6492 for one not deployed yet (the signature
 * carries its factory call). Throws when the chain does not answer: viem reports a failed call as "not valid",
 * so a refusal is confirmed by asking the chain once.
 *
 * @example
 * if (!(await verifySignedMessage(client, { address, message, signature }))) return errorJson(401, 'Invalid signature')
 */
export async function verifySignedMessage(client: PublicClient, signed: SignedMessage): Promise<boolean> {
  const valid = await client.verifyMessage(signed)
  if (!valid) await client.getChainId()
  return valid
}
