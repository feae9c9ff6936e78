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
 * Seals and opens the embedded wallets' private keys with AES-256-GCM under one secret that lives only in
 * the server process (random per run unless given), so the database never holds a usable key. The account id
 * is bound in as additional data: a sealed key copied onto another account's row does not open.
 *
 * @example
 * const vault = new KeyVault()
 * const sealed = vault.seal(generatePrivateKey(), accountId)
 * const key = vault.open(sealed, accountId)
 */
export class KeyVault {
  readonly #secret: Buffer

  constructor(secret: Uint8Array = randomBytes(32)) {
    if (secret.length !== 32) throw new Error('KeyVault: the secret must be 32 bytes (AES-256)')
    this.#secret = Buffer.from(secret)
  }

  seal(privateKey: Hex, accountId: string): SealedKey {
    const iv = randomBytes(IV_BYTES)
    const cipher = createCipheriv('aes-256-gcm', this.#secret, iv, { authTagLength: TAG_BYTES })
    cipher.setAAD(Buffer.from(accountId, 'utf8'))
    const ciphertext = Buffer.concat([cipher.update(hexToBytes(privateKey)), cipher.final()])
    return { iv, tag: cipher.getAuthTag(), ciphertext }
  }

  /** Throws when the secret, the account id or any stored byte differs from what was sealed. */
  open(sealed: SealedKey, accountId: string): Hex {
    const decipher = createDecipheriv('aes-256-gcm', this.#secret, sealed.iv, { authTagLength: TAG_BYTES })
    decipher.setAAD(Buffer.from(accountId, 'utf8'))
    decipher.setAuthTag(sealed.tag)
    const plain = Buffer.concat([decipher.update(sealed.ciphertext), decipher.final()])
    return bytesToHex(plain)
  }
}
