import bs58 from 'bs58'
import { type Hex, hexToBytes, recoverPublicKey, ripemd160, sha256, toHex } from 'viem'

/*
 * Checks a Bitcoin legacy message signature (Bitcoin Core's `verifymessage` for a compressed-key P2PKH regtest
 * address), for the tests: written from the format's definition, apart from the wallet page's signer, with viem's
 * secp256k1 key recovery (the @noble/curves it wraps).
 */

/** Bitcoin Core's message hash, written here from its definition (not the page's): the check stays independent. */
export function legacyMessageHash(message: string): Hex {
  const text = new TextEncoder().encode(message)
  if (text.length >= 0xfd) throw new Error('the test keeps to short messages')
  const magic = new TextEncoder().encode('Bitcoin Signed Message:\n')
  return sha256(sha256(Uint8Array.from([magic.length, ...magic, text.length, ...text])))
}

/** The address a legacy message signature recovers to (null when it does not parse). */
export async function recoveredBitcoinAddress(message: string, base64: string): Promise<string | null> {
  const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))
  if (bytes.length !== 65) return null
  const header = bytes[0]!
  if (header < 31 || header > 34) return null // compressed-key P2PKH only
  const signature = {
    r: toHex(bytes.subarray(1, 33)),
    s: toHex(bytes.subarray(33, 65)),
    yParity: header - 31,
  }
  const publicKey = await recoverPublicKey({ hash: legacyMessageHash(message), signature })
  const payload = Uint8Array.from([0x6f, ...hexToBytes(ripemd160(sha256(compressed(publicKey as Hex))))])
  const checksum = hexToBytes(sha256(sha256(payload))).subarray(0, 4)
  return bs58.encode(Uint8Array.from([...payload, ...checksum]))
}

/** The 33-byte compressed form of an uncompressed (0x04…) public key. */
function compressed(uncompressed: Hex): Uint8Array {
  const bytes = hexToBytes(uncompressed)
  return Uint8Array.from([(bytes[64]! & 1) === 0 ? 2 : 3, ...bytes.subarray(1, 33)])
}
