import {
  PublicKey,
  SystemInstruction,
  SystemProgram,
  type TransactionInstruction,
  TransactionMessage,
  VersionedTransaction,
} from '@solana/web3.js'
import { type SolanaSwapMismatch, SolanaSwapMismatchError } from '../../errors/swap'
import {
  ASSOCIATED_TOKEN_PROGRAM_ID,
  associatedTokenAddress,
  isTokenProgram,
  TOKEN_PROGRAM_ID,
} from './token'

/**
 * The check between the maker's Solana swap transaction and the wallet (the EVM swaps' check,
 * src/chains/eip155/swapBuildCheck.ts, for an RFQ swap): the transaction is decoded with web3.js and compared with
 * what the visitor reviewed before any wallet is asked.
 *
 * - a v0 or legacy message with no address-table lookups (every account it touches is in the message);
 * - the fee payer is the one the preview shows (the visitor), and the signers are exactly the visitor and the
 *   maker, the maker's signature valid over the message;
 * - the visitor's outflow is one transfer of exactly the amount of the token paid, to the maker (its token
 *   account for an SPL token);
 * - the inflow is one transfer from the maker of at least the least amount shown, to the visitor (its
 *   associated token account for an SPL token);
 * - nothing else: the only other instruction allowed creates the visitor's token account of the token received,
 *   paid by the maker.
 *
 * The first difference is the answer, as a {@link SolanaSwapMismatchError}.
 */

/** One side of the pair: SOL (no mint) or an SPL token. */
export interface SolanaSwapSide {
  /** Base58 mint; absent for SOL. */
  mint?: string | undefined
}

/** What the swap the visitor reviewed is. */
export interface SolanaSwapExpectation {
  /** The visitor (base58): the account paying and receiving. */
  account: string
  /** The maker the quote named (base58). */
  maker: string
  /** Who pays the network fee, as the preview says (base58). */
  feePayer: string
  tokenIn: SolanaSwapSide
  tokenOut: SolanaSwapSide
  /** Base units of the token paid. */
  amountIn: bigint
  /** The least amount the preview shows, base units of the token received. */
  minAmountOut: bigint
}

type Transfer = { from: PublicKey; to: PublicKey; authority: PublicKey; mint?: PublicKey; amount: bigint }

const TRANSFER_CHECKED = 12
const SYSTEM_TRANSFER = 2
const U64 = 8

const refuse = (mismatch: SolanaSwapMismatch, details: string) =>
  new SolanaSwapMismatchError({ mismatch, details })

function base64Bytes(text: string): Uint8Array | undefined {
  try {
    const raw = atob(text)
    return Uint8Array.from(raw, (c) => c.charCodeAt(0))
  } catch {
    return undefined
  }
}

/** A system transfer or an SPL `TransferChecked`, as a transfer; undefined for any other instruction. */
function transferOf(ix: TransactionInstruction): Transfer | undefined {
  if (ix.programId.equals(SystemProgram.programId)) {
    if (ix.data.length !== 12 || ix.data.readUInt32LE(0) !== SYSTEM_TRANSFER) return undefined
    const { fromPubkey, toPubkey, lamports } = SystemInstruction.decodeTransfer(ix)
    return { from: fromPubkey, to: toPubkey, authority: fromPubkey, amount: BigInt(lamports) }
  }
  if (isTokenProgram(ix.programId)) {
    if (ix.data.length !== 2 + U64 || ix.data[0] !== TRANSFER_CHECKED || ix.keys.length < 4) return undefined
    const [source, mint, destination, owner] = ix.keys.map((k) => k.pubkey) as [
      PublicKey,
      PublicKey,
      PublicKey,
      PublicKey,
    ]
    return { from: source, to: destination, authority: owner, mint, amount: ix.data.readBigUInt64LE(1) }
  }
  return undefined
}

/** The account a side's tokens of `owner` sit in: the owner itself for SOL, its associated account for SPL. */
const holding = (side: SolanaSwapSide, owner: PublicKey) =>
  side.mint ? associatedTokenAddress(new PublicKey(side.mint), owner, TOKEN_PROGRAM_ID) : owner

/** Whether the ed25519 `signature` of `signer` over `message` is valid (WebCrypto). */
async function verifies(signer: PublicKey, signature: Uint8Array, message: Uint8Array): Promise<boolean> {
  try {
    const bytes = (view: Uint8Array) => Uint8Array.from(view)
    const key = await crypto.subtle.importKey('raw', bytes(signer.toBytes()), { name: 'Ed25519' }, false, [
      'verify',
    ])
    return await crypto.subtle.verify('Ed25519', key, bytes(signature), bytes(message))
  } catch {
    return false
  }
}

/**
 * Checks the maker's transaction (base64 wire bytes) against the swap reviewed; answers the decoded transaction,
 * or throws the first difference.
 *
 * @example
 * const tx = await checkSolanaSwap(built.transaction, { account, maker, feePayer: account, tokenIn, tokenOut, amountIn, minAmountOut })
 */
export async function checkSolanaSwap(
  wire: string,
  expected: SolanaSwapExpectation,
): Promise<VersionedTransaction> {
  const bytes = base64Bytes(wire)
  let tx: VersionedTransaction
  try {
    if (!bytes) throw new Error('not base64')
    tx = VersionedTransaction.deserialize(bytes)
  } catch (error) {
    throw refuse('transaction', `Not a Solana transaction: ${(error as Error).message}`)
  }
  const message = tx.message
  if (message.addressTableLookups.length > 0)
    throw refuse('transaction', 'The transaction loads accounts from lookup tables the check cannot see')
  const account = new PublicKey(expected.account)
  const maker = new PublicKey(expected.maker)
  const keys = message.staticAccountKeys
  if (!keys[0]?.equals(new PublicKey(expected.feePayer)))
    throw refuse('feePayer', `The fee payer is ${keys[0]?.toBase58()}, not ${expected.feePayer}`)
  const signers = keys.slice(0, message.header.numRequiredSignatures)
  if (
    signers.length !== 2 ||
    !signers.some((k) => k.equals(account)) ||
    !signers.some((k) => k.equals(maker))
  )
    throw refuse(
      'signers',
      `Signers ${signers.map((k) => k.toBase58()).join(', ')}: not the visitor and the maker`,
    )
  const makerIndex = signers.findIndex((k) => k.equals(maker))
  const makerSignature = tx.signatures[makerIndex]
  if (!makerSignature || !(await verifies(maker, makerSignature, message.serialize())))
    throw refuse('makerSignature', "The maker's signature is not valid for this transaction")

  let instructions: TransactionInstruction[]
  try {
    instructions = TransactionMessage.decompile(message).instructions
  } catch (error) {
    throw refuse('transaction', `Undecodable instructions: ${(error as Error).message}`)
  }
  const transfers = instructions.map(transferOf)

  // The visitor's outflow: one transfer the visitor signs, exactly the amount, to the maker.
  const outflows = transfers.filter((t): t is Transfer => t?.authority.equals(account) === true)
  const out = outflows[0]
  const mintIn = expected.tokenIn.mint
  if (!out || outflows.length > 1) throw refuse('amountIn', `${outflows.length} transfers from your account`)
  if ((out.mint?.toBase58() ?? undefined) !== mintIn || !out.from.equals(holding(expected.tokenIn, account)))
    throw refuse('amountIn', 'The transfer from your account is not of the token you pay')
  if (!out.to.equals(holding(expected.tokenIn, maker)))
    throw refuse('recipient', `Your tokens would go to ${out.to.toBase58()}, not to the maker`)
  if (out.amount !== expected.amountIn)
    throw refuse('amountIn', `It takes ${out.amount}, not the ${expected.amountIn} you pay`)

  // The inflow: one transfer from the maker, at least the least amount shown, to the visitor.
  const destination = holding(expected.tokenOut, account)
  const inflows = transfers.filter((t): t is Transfer => t?.authority.equals(maker) === true)
  const into = inflows[0]
  if (!into || inflows.length > 1) throw refuse('minAmountOut', `${inflows.length} transfers from the maker`)
  if ((into.mint?.toBase58() ?? undefined) !== expected.tokenOut.mint || !into.to.equals(destination))
    throw refuse('minAmountOut', 'The transfer from the maker is not of the token you receive, to you')
  if (into.amount < expected.minAmountOut)
    throw refuse(
      'minAmountOut',
      `It gives ${into.amount}, less than the least ${expected.minAmountOut} shown`,
    )

  // Nothing else, but the visitor's token account of the token received, created at the maker's cost.
  for (const [i, ix] of instructions.entries()) {
    if (transfers[i] === out || transfers[i] === into) continue
    const creates =
      ix.programId.equals(ASSOCIATED_TOKEN_PROGRAM_ID) &&
      (ix.data.length === 0 || (ix.data.length === 1 && (ix.data[0] === 0 || ix.data[0] === 1))) &&
      expected.tokenOut.mint !== undefined &&
      ix.keys[0]?.pubkey.equals(maker) &&
      ix.keys[1]?.pubkey.equals(destination) &&
      ix.keys[2]?.pubkey.equals(account) &&
      ix.keys[3]?.pubkey.toBase58() === expected.tokenOut.mint
    if (!creates)
      throw refuse(
        'instruction',
        `Instruction ${i} (${ix.programId.toBase58()}) is not part of the swap shown`,
      )
  }
  return tx
}
