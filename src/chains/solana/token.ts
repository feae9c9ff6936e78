import { type AccountInfo, PublicKey, SystemProgram, TransactionInstruction } from '@solana/web3.js'
import { Buffer } from 'buffer'

/*
 * The two SPL Token instructions a send needs, written out: @solana/spl-token builds the same bytes (the unit
 * test compares them) but needs a global `Buffer` in browsers and ships bigint-buffer, a native addon with an
 * open advisory, so the kit does not depend on it.
 */

export const TOKEN_PROGRAM_ID = new PublicKey('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA')
export const TOKEN_2022_PROGRAM_ID = new PublicKey('TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb')
export const ASSOCIATED_TOKEN_PROGRAM_ID = new PublicKey('ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL')

/** The token instruction `TransferChecked` (SPL Token and Token-2022 alike). */
const TRANSFER_CHECKED = 12
/** The associated token program's `CreateIdempotent`: no error when the account exists already. */
const CREATE_IDEMPOTENT = 1
/** A mint account's `decimals` byte (after the authority option, the authority and the u64 supply). */
const MINT_DECIMALS_OFFSET = 44
const MINT_MIN_SIZE = 82
const U64_MAX = 2n ** 64n - 1n

/** Whether `program` is one of the two token programs. */
export function isTokenProgram(program: PublicKey): boolean {
  return program.equals(TOKEN_PROGRAM_ID) || program.equals(TOKEN_2022_PROGRAM_ID)
}

/**
 * The associated token account of `owner` for `mint` under `tokenProgram`. Throws for an owner off the ed25519
 * curve (a program address): a token sent there may be out of anyone's reach.
 *
 * @example associatedTokenAddress(mint, owner) // PublicKey
 */
export function associatedTokenAddress(
  mint: PublicKey,
  owner: PublicKey,
  tokenProgram: PublicKey = TOKEN_PROGRAM_ID,
): PublicKey {
  if (!PublicKey.isOnCurve(owner.toBytes()))
    throw new Error('TokenOwnerOffCurve: the owner is not a wallet address')
  return PublicKey.findProgramAddressSync(
    [owner.toBuffer(), tokenProgram.toBuffer(), mint.toBuffer()],
    ASSOCIATED_TOKEN_PROGRAM_ID,
  )[0]
}

/** Creates `owner`'s associated token account for `mint`, paid by `payer`; a no-op when it exists. */
export function createAssociatedTokenAccountIdempotentInstruction(
  payer: PublicKey,
  account: PublicKey,
  owner: PublicKey,
  mint: PublicKey,
  tokenProgram: PublicKey = TOKEN_PROGRAM_ID,
): TransactionInstruction {
  return new TransactionInstruction({
    programId: ASSOCIATED_TOKEN_PROGRAM_ID,
    keys: [
      { pubkey: payer, isSigner: true, isWritable: true },
      { pubkey: account, isSigner: false, isWritable: true },
      { pubkey: owner, isSigner: false, isWritable: false },
      { pubkey: mint, isSigner: false, isWritable: false },
      { pubkey: SystemProgram.programId, isSigner: false, isWritable: false },
      { pubkey: tokenProgram, isSigner: false, isWritable: false },
    ],
    data: Buffer.from([CREATE_IDEMPOTENT]),
  })
}

/** Moves `amount` base units from `source` to `destination`; the program checks `mint` and `decimals`. */
export function createTransferCheckedInstruction(
  source: PublicKey,
  mint: PublicKey,
  destination: PublicKey,
  owner: PublicKey,
  amount: bigint,
  decimals: number,
  tokenProgram: PublicKey = TOKEN_PROGRAM_ID,
): TransactionInstruction {
  if (amount < 0n || amount > U64_MAX) throw new RangeError('amount is not a u64')
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > 255)
    throw new RangeError('decimals is not a u8')
  const data = Buffer.alloc(10)
  data.writeUInt8(TRANSFER_CHECKED, 0)
  data.writeBigUInt64LE(amount, 1)
  data.writeUInt8(decimals, 9)
  return new TransactionInstruction({
    programId: tokenProgram,
    keys: [
      { pubkey: source, isSigner: false, isWritable: true },
      { pubkey: mint, isSigner: false, isWritable: false },
      { pubkey: destination, isSigner: false, isWritable: true },
      { pubkey: owner, isSigner: true, isWritable: false },
    ],
    data,
  })
}

/** The decimals of a mint account, or `undefined` when the account is not a mint of a token program. */
export function mintDecimals(account: AccountInfo<Uint8Array> | null): number | undefined {
  if (!account || !isTokenProgram(account.owner) || account.data.length < MINT_MIN_SIZE) return undefined
  return account.data[MINT_DECIMALS_OFFSET]
}
