import {
  type Connection,
  PublicKey,
  SystemProgram,
  Transaction,
  type TransactionSignature,
} from '@solana/web3.js'
import {
  SolanaInsufficientFundsError,
  SolanaInvalidAddressError,
  SolanaInvalidAmountError,
  SolanaRpcUnavailableError,
  toSolanaError,
} from '../../errors/solana'
import type { PreflightCommitment } from './commitment'
import {
  associatedTokenAddress,
  createAssociatedTokenAccountIdempotentInstruction,
  createTransferCheckedInstruction,
  mintDecimals,
} from './token'

/*
 * SOL and SPL transfers for any Solana wallet client (Wallet Standard, WalletConnect): built and checked here,
 * signed and sent by the client's own `signAndSendTransaction`, then confirmed.
 */

/** How a transaction is sent (web3.js' `SendOptions`, the preflight commitment checked against SPEC §5). */
export interface SolanaSendOptions {
  preflightCommitment?: PreflightCommitment
  skipPreflight?: boolean
  maxRetries?: number
  minContextSlot?: number
}

export interface SendSolParameters {
  /** The recipient's public key, base58. */
  to: string
  /** Whole lamports (1 SOL = 10^9). */
  lamports: bigint | number
  connection: Connection
  options?: SolanaSendOptions
}

export interface SendSplParameters {
  /** The token's mint, base58. */
  mint: string
  /** The recipient's wallet address (its associated token account is created when missing), base58. */
  to: string
  /** Whole base units of the token (10 USDC with 6 decimals is `10_000_000n`). */
  amount: bigint | number
  /** The mint's decimals; checked by the token program (a wrong value fails the transfer). */
  decimals: number
  connection: Connection
  options?: SolanaSendOptions
}

/** What a transfer needs of a wallet client. */
export interface TransferSigner {
  /** The connected account's key; throws `SolanaNotConnectedError` when none. */
  payer(): PublicKey
  signAndSendTransaction(
    transaction: Transaction,
    connection: Connection,
    options?: SolanaSendOptions,
  ): Promise<TransactionSignature>
}

/** What a send waits for before it answers. */
export const CONFIRM_COMMITMENT = 'confirmed'
const U64_MAX = 2n ** 64n - 1n

/** Builds, signs, sends and confirms a SOL transfer; the signature. */
export async function sendSol(
  signer: TransferSigner,
  { to, lamports, connection, options }: SendSolParameters,
): Promise<TransactionSignature> {
  const from = signer.payer()
  const recipient = publicKeyOf(to)
  const amount = baseUnits(lamports)
  const balance = BigInt(await rpc(() => connection.getBalance(from, CONFIRM_COMMITMENT)))
  if (balance < amount)
    throw new SolanaInsufficientFundsError({
      details: `Balance ${balance} lamports, sending ${amount}`,
    })
  const transaction = new Transaction().add(
    SystemProgram.transfer({ fromPubkey: from, toPubkey: recipient, lamports: amount }),
  )
  return sendAndConfirm(signer, transaction, connection, options)
}

/** Builds, signs, sends and confirms an SPL transfer (creating the recipient's token account); the signature. */
export async function sendSpl(
  signer: TransferSigner,
  { mint, to, amount, decimals, connection, options }: SendSplParameters,
): Promise<TransactionSignature> {
  const owner = signer.payer()
  const mintKey = publicKeyOf(mint)
  const recipient = publicKeyOf(to)
  const units = baseUnits(amount)
  const mintAccount = await rpc(() => connection.getAccountInfo(mintKey, CONFIRM_COMMITMENT))
  const onChainDecimals = mintDecimals(mintAccount)
  if (!mintAccount || onChainDecimals === undefined)
    throw new SolanaInvalidAddressError({ details: `${mint} is not a token mint` })
  if (onChainDecimals !== decimals)
    throw new SolanaInvalidAmountError({
      details: `The mint has ${onChainDecimals} decimals, not ${decimals}`,
    })
  const program = mintAccount.owner
  const source = associatedTokenAddress(mintKey, owner, program)
  let destination: PublicKey
  try {
    destination = associatedTokenAddress(mintKey, recipient, program)
  } catch (error) {
    throw new SolanaInvalidAddressError({ cause: error })
  }
  const [sourceBalance, destinationAccount] = await Promise.all([
    rpc(() => connection.getTokenAccountBalance(source, CONFIRM_COMMITMENT)).catch((error: unknown) => {
      // No token account: nothing to send from. Anything else (the RPC down) is itself.
      if (error instanceof SolanaRpcUnavailableError) throw error
      return null
    }),
    rpc(() => connection.getAccountInfo(destination, CONFIRM_COMMITMENT)),
  ])
  const held = sourceBalance ? BigInt(sourceBalance.value.amount) : 0n
  if (held < units)
    throw new SolanaInsufficientFundsError({ details: `Token balance ${held}, sending ${units}` })
  const transaction = new Transaction()
  if (!destinationAccount)
    transaction.add(
      createAssociatedTokenAccountIdempotentInstruction(owner, destination, recipient, mintKey, program),
    )
  transaction.add(
    createTransferCheckedInstruction(source, mintKey, destination, owner, units, decimals, program),
  )
  return sendAndConfirm(signer, transaction, connection, options)
}

/** Signs, sends and waits for `confirmed`; a transaction the chain ran and failed throws. */
async function sendAndConfirm(
  signer: TransferSigner,
  transaction: Transaction,
  connection: Connection,
  options: SolanaSendOptions | undefined,
): Promise<TransactionSignature> {
  const payer = signer.payer()
  const latest = await rpc(() => connection.getLatestBlockhash(CONFIRM_COMMITMENT))
  transaction.feePayer = payer
  transaction.recentBlockhash = latest.blockhash
  const signature = await signer.signAndSendTransaction(transaction, connection, options)
  const result = await rpc(() => connection.confirmTransaction({ signature, ...latest }, CONFIRM_COMMITMENT))
  if (result.value.err) {
    // The chain's error object (e.g. `{InstructionError: [0, {Custom: 1}]}`) as text, for the mapping.
    throw toSolanaError(
      new Error(`Transaction ${signature} failed: ${JSON.stringify(result.value.err)}`),
      'send',
    )
  }
  return signature
}

/** A base58 public key, or `SolanaInvalidAddressError`. */
export function publicKeyOf(address: string): PublicKey {
  if (typeof address !== 'string' || !/^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(address))
    throw new SolanaInvalidAddressError({ details: 'Not a base58 public key' })
  try {
    return new PublicKey(address)
  } catch (error) {
    throw new SolanaInvalidAddressError({ cause: error })
  }
}

/** A positive whole number of base units that fits a u64, or `SolanaInvalidAmountError`. */
function baseUnits(value: bigint | number): bigint {
  const units = typeof value === 'bigint' ? value : Number.isSafeInteger(value) ? BigInt(value) : -1n
  if (units <= 0n || units > U64_MAX)
    throw new SolanaInvalidAmountError({
      details: `${String(value)} is not a positive whole number of base units`,
    })
  return units
}

/** An RPC read, its failure mapped (an unreachable RPC is `SolanaRpcUnavailableError`). */
export async function rpc<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read()
  } catch (error) {
    throw toSolanaError(error, 'send')
  }
}
