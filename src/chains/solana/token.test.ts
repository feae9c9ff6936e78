import {
  getAssociatedTokenAddressSync,
  TOKEN_2022_PROGRAM_ID as SPL_TOKEN_2022,
  createAssociatedTokenAccountIdempotentInstruction as splCreateIdempotent,
  createTransferCheckedInstruction as splTransferChecked,
} from '@solana/spl-token'
import { Keypair, PublicKey, type TransactionInstruction } from '@solana/web3.js'
import { describe, expect, it } from 'vitest'
import {
  associatedTokenAddress,
  createAssociatedTokenAccountIdempotentInstruction,
  createTransferCheckedInstruction,
  TOKEN_2022_PROGRAM_ID,
  TOKEN_PROGRAM_ID,
} from './token'

// Our two instructions are the bytes @solana/spl-token builds (a dev dependency, used here as the reference).
const plain = (ix: TransactionInstruction) => ({
  programId: ix.programId.toBase58(),
  keys: ix.keys.map((k) => ({ ...k, pubkey: k.pubkey.toBase58() })),
  data: [...ix.data],
})

describe('SPL token instructions', () => {
  const mint = Keypair.generate().publicKey
  const owner = Keypair.generate().publicKey
  const payer = Keypair.generate().publicKey

  it('derives the associated token address as spl-token does, for both token programs', () => {
    for (const program of [TOKEN_PROGRAM_ID, TOKEN_2022_PROGRAM_ID]) {
      expect(associatedTokenAddress(mint, owner, program).toBase58()).toBe(
        getAssociatedTokenAddressSync(mint, owner, false, program).toBase58(),
      )
    }
    expect(TOKEN_2022_PROGRAM_ID.equals(SPL_TOKEN_2022)).toBe(true)
  })

  it('refuses an owner off the curve (a program address)', () => {
    const pda = PublicKey.findProgramAddressSync([Buffer.from('x')], TOKEN_PROGRAM_ID)[0]
    expect(() => associatedTokenAddress(mint, pda)).toThrow(/TokenOwnerOffCurve/)
  })

  it('builds CreateIdempotent and TransferChecked byte for byte', () => {
    const ata = associatedTokenAddress(mint, owner)
    expect(plain(createAssociatedTokenAccountIdempotentInstruction(payer, ata, owner, mint))).toEqual(
      plain(splCreateIdempotent(payer, ata, owner, mint)),
    )
    const source = associatedTokenAddress(mint, payer)
    for (const amount of [1n, 10_000_000n, 2n ** 64n - 1n]) {
      expect(plain(createTransferCheckedInstruction(source, mint, ata, payer, amount, 6))).toEqual(
        plain(splTransferChecked(source, mint, ata, payer, amount, 6)),
      )
    }
    expect(
      plain(createTransferCheckedInstruction(source, mint, ata, payer, 5n, 9, TOKEN_2022_PROGRAM_ID)),
    ).toEqual(plain(splTransferChecked(source, mint, ata, payer, 5n, 9, [], SPL_TOKEN_2022)))
    expect(() => createTransferCheckedInstruction(source, mint, ata, payer, 2n ** 64n, 6)).toThrow(RangeError)
  })
})
