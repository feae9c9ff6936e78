import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'
import type { Hex } from 'viem'
import { bytesToHex, hexToBytes } from 'viem'

/** An embedded wallet key as the database keeps it: AES-256-GCM ciphertext, its nonce and its tag. */
export interface SealedKey {
  iv: Uint8Array
  tag: Uint8Array
  ciphertext: Uint8Array
}

const IV_BYTES = 12
const TAG_BYTES = 16

/**
 * Which of an account's keys a sealed key is: the secp256k1 key of its EVM accounts, or the ed25519 seed of its
 * Solana account. Both are 32 bytes; the kind is bound in with the account id, so one cannot stand in for the
 * other.
 */
export type KeyKind = 'eip155' | 'solana'

/** The additional data a key is sealed with: the account id, prefixed for every kind but the first. */
function boundData(accountId: string, kind: KeyKind): Buffer {
  return Buffer.from(kind === 'eip155' ? accountId : `${kind}:${accountId}`, 'utf8')
}

/**
 * Seals and opens the embedded wallets' private keys with AES-256-GCM under one secret that lives only in
 * the server process (random per run unless given), so the database never holds a usable key. The account id
 * and the key's kind are bound in as additional data: a sealed key copied onto another account's row, or into
 * the other key's columns, does not open.
 *
 * @example
 * const vault = new KeyVault()
 * const sealed = vault.seal(generatePrivateKey(), accountId)
 * const key = vault.open(sealed, accountId)
 * const solanaSeed = vault.open(vault.seal(seedHex, accountId, 'solana'), accountId, 'solana')
 */
export class KeyVault {
  readonly #secret: Buffer

  constructor(secret: Uint8Array = randomBytes(32)) {
    if (secret.length !== 32) throw new Error('KeyVault: the secret must be 32 bytes (AES-256)')
    this.#secret = Buffer.from(secret)
  }

  seal(privateKey: Hex, accountId: string, kind: KeyKind = 'eip155'): SealedKey {
    const iv = randomBytes(IV_BYTES)
    const cipher = createCipheriv('aes-256-gcm', this.#secret, iv, { authTagLength: TAG_BYTES })
    cipher.setAAD(boundData(accountId, kind))
    const ciphertext = Buffer.concat([cipher.update(hexToBytes(privateKey)), cipher.final()])
    return { iv, tag: cipher.getAuthTag(), ciphertext }
  }

  /** Throws when the secret, the account id, the kind or any stored byte differs from what was sealed. */
  open(sealed: SealedKey, accountId: string, kind: KeyKind = 'eip155'): Hex {
    const decipher = createDecipheriv('aes-256-gcm', this.#secret, sealed.iv, { authTagLength: TAG_BYTES })
    decipher.setAAD(boundData(accountId, kind))
    decipher.setAuthTag(sealed.tag)
    const plain = Buffer.concat([decipher.update(sealed.ciphertext), decipher.final()])
    return bytesToHex(plain)
  }
}
