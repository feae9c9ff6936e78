import { Keypair, PublicKey } from '@solana/web3.js'
import bs58 from 'bs58'
import nacl from 'tweetnacl'
import * as v from 'valibot'
import { bytesToHex, type Hex, hexToBytes } from 'viem'
import { decodeTransaction, describeTransaction, requireSigner } from '../wallets/solana/transaction.ts'
import type { SolanaSigningMethod } from './shared.ts'
import { callJsonRpc, describe, invalidParams, preview, RpcFailure } from './wallet.ts'

/*
 * The embedded wallet's Solana side: one ed25519 key per account (its 32-byte seed sealed by the KeyVault as
 * the EVM key is), messages and transactions signed here, signed transactions sent to the sandbox Solana RPC.
 * What the frame asks, per method (each in `rpcRequest.params[0]`):
 * - solana_signMessage { message: base58 bytes, pubkey? } → { signature: base58 }
 * - solana_signTransaction { transaction: base64 wire, pubkey? } → { transaction: base64 wire, signed }
 * - solana_signAndSendTransaction { transaction: base64 wire, options?, pubkey? } → { signature: base58 }
 */

/** What a new embedded Solana account is given by the sandbox chain's airdrop: 10 SOL. */
export const SOLANA_AIRDROP_LAMPORTS = 10_000_000_000n

/** Longest base58 message taken (base58 decoding is quadratic): about 10 KB of message. */
const MAX_MESSAGE_CHARS = 14_000
/** Longest base64 transaction taken: Solana's packet is 1,232 bytes; versioned ones with tables stay under. */
const MAX_TRANSACTION_CHARS = 4_096

/** A new Solana key: the seed to seal and the address it gives. */
export function generateSolanaKey(): { seed: Hex; address: string } {
  const pair = Keypair.generate()
  return { seed: bytesToHex(pair.secretKey.slice(0, 32)), address: pair.publicKey.toBase58() }
}

/** The keypair of a sealed seed, once opened. */
export function solanaKeypair(seed: Hex): Keypair {
  const bytes = hexToBytes(seed)
  if (bytes.length !== 32) throw new Error('A Solana seed is 32 bytes')
  return Keypair.fromSeed(bytes)
}

const Base58Key = v.pipe(
  v.string(),
  v.check((text) => {
    try {
      return new PublicKey(text).toBase58() === text
    } catch {
      return false
    }
  }, 'must be a base58 public key'),
)
const MessageParams = v.object({
  message: v.pipe(v.string(), v.minLength(1), v.maxLength(MAX_MESSAGE_CHARS)),
  pubkey: v.optional(Base58Key),
})
const TransactionParams = v.object({
  transaction: v.pipe(v.string(), v.minLength(1), v.maxLength(MAX_TRANSACTION_CHARS)),
  pubkey: v.optional(Base58Key),
})
const Commitment = v.picklist(['processed', 'confirmed', 'finalized'])
const SendParams = v.object({
  ...TransactionParams.entries,
  options: v.optional(
    v.object({
      skipPreflight: v.optional(v.boolean()),
      preflightCommitment: v.optional(Commitment),
      commitment: v.optional(Commitment),
      maxRetries: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(100))),
      minContextSlot: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
    }),
  ),
})
type SendOptions = NonNullable<v.InferOutput<typeof SendParams>['options']>

/** A Solana signing request checked and ready to run, with what the approval view shows. */
export type PreparedSolanaSigning = {
  from: string
  summary: {
    title: string
    from: string
    accountType: 'eoa'
    details: Array<{ label: string; value: string }>
  }
} & (
  | { method: 'solana_signMessage'; message: Uint8Array }
  | { method: 'solana_signTransaction'; wire: Uint8Array }
  | { method: 'solana_signAndSendTransaction'; wire: Uint8Array; options: SendOptions }
)

/** The answer of a Solana signing request (what the frame replies to `rpcRequest`). */
export type SolanaSigningResult = { signature: string } | { transaction: string }

export interface SolanaWalletOptions {
  /** The Solana JSON-RPC URL (the sandbox chain's): airdrops and sends go there. */
  rpcUrl: string
  /** The CAIP-2 id the chain is served under (the frame's `switchNetwork` takes it). */
  chainId: string
  /** Lamports airdropped to each new embedded account; 0 funds none. Default {@link SOLANA_AIRDROP_LAMPORTS}. */
  airdropLamports?: bigint
}

/** The embedded wallet's Solana chain: its id, the new accounts' airdrop, signing and sending. */
export class SolanaWallet {
  readonly chainId: string
  readonly #rpcUrl: string
  readonly #airdrop: bigint

  constructor(options: SolanaWalletOptions) {
    this.chainId = options.chainId
    this.#rpcUrl = options.rpcUrl
    this.#airdrop = options.airdropLamports ?? SOLANA_AIRDROP_LAMPORTS
  }

  /** Airdrops the new account its SOL through the RPC's `requestAirdrop` (as on a local validator). */
  async fund(address: string): Promise<void> {
    if (this.#airdrop <= 0n) return
    await callJsonRpc(this.#rpcUrl, 'requestAirdrop', [address, Number(this.#airdrop)])
  }

  /**
   * Checks a signing request's params against the account and describes it for the approval view. Throws
   * {@link RpcFailure}: -32602 for params of the wrong shape, 4100 for another account's key.
   */
  prepare(method: SolanaSigningMethod, params: unknown[], address: string): PreparedSolanaSigning {
    const [first] = params
    if (params.length !== 1 || typeof first !== 'object' || first === null || Array.isArray(first)) {
      throw invalidParams(`${method} needs params [${paramsHint(method)}]`)
    }
    const network = { label: 'Network', value: `Solana (${this.chainId})` }
    const summary = (title: string, details: Array<{ label: string; value: string }>) => ({
      title,
      from: address,
      accountType: 'eoa' as const,
      details: [...details, network],
    })
    const ownKey = (pubkey: string | undefined) => {
      if (pubkey !== undefined && pubkey !== address) {
        throw new RpcFailure(`The address ${pubkey} is not an account of this wallet`, 4100)
      }
    }

    if (method === 'solana_signMessage') {
      const parsed = v.safeParse(MessageParams, first)
      if (!parsed.success) throw invalidParams(`${method}: ${v.summarize(parsed.issues)}`)
      ownKey(parsed.output.pubkey)
      let message: Uint8Array
      try {
        message = bs58.decode(parsed.output.message)
      } catch {
        throw invalidParams(`${method}: message must be base58`)
      }
      return {
        method,
        from: address,
        message,
        summary: summary('Sign message', [{ label: 'Message', value: preview(readable(message)) }]),
      }
    }

    const parsed = v.safeParse(
      method === 'solana_signAndSendTransaction' ? SendParams : TransactionParams,
      first,
    )
    if (!parsed.success) throw invalidParams(`${method}: ${v.summarize(parsed.issues)}`)
    ownKey(parsed.output.pubkey)
    const text = parsed.output.transaction
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text) || text.length % 4 !== 0) {
      throw invalidParams(`${method}: transaction must be base64`)
    }
    const wire = new Uint8Array(Buffer.from(text, 'base64'))
    let details: Array<{ label: string; value: string }>
    try {
      const tx = decodeTransaction(wire)
      requireSigner(tx, new PublicKey(address))
      details = describeTransaction(tx)
    } catch (error) {
      throw invalidParams(`${method}: ${describe(error)}`)
    }
    if (method === 'solana_signTransaction') {
      return { method, from: address, wire, summary: summary('Sign transaction', details) }
    }
    const options = 'options' in parsed.output ? (parsed.output.options ?? {}) : {}
    return { method, from: address, wire, options, summary: summary('Send transaction', details) }
  }

  /** Runs a prepared request with the account's seed: the signature, the signed transaction, or the sent one's signature. */
  async execute(prepared: PreparedSolanaSigning, seed: Hex): Promise<SolanaSigningResult> {
    const keypair = solanaKeypair(seed)
    if (keypair.publicKey.toBase58() !== prepared.from)
      throw new Error('The stored key does not match the account')
    if (prepared.method === 'solana_signMessage') {
      return { signature: bs58.encode(nacl.sign.detached(prepared.message, keypair.secretKey)) }
    }
    const tx = decodeTransaction(prepared.wire)
    try {
      tx.sign([keypair])
    } catch (error) {
      throw new RpcFailure(describe(error), -32603)
    }
    const signed = tx.serialize()
    if (prepared.method === 'solana_signTransaction') {
      return { transaction: Buffer.from(signed).toString('base64') }
    }
    const { commitment, ...sendOptions } = prepared.options
    const config = {
      encoding: 'base64',
      ...sendOptions,
      ...(sendOptions.preflightCommitment === undefined && commitment !== undefined
        ? { preflightCommitment: commitment }
        : {}),
    }
    const signature = await callJsonRpc(this.#rpcUrl, 'sendTransaction', [
      Buffer.from(signed).toString('base64'),
      config,
    ])
    if (typeof signature !== 'string')
      throw new RpcFailure('The Solana RPC answered no signature', -32603, 502)
    return { signature }
  }
}

function paramsHint(method: SolanaSigningMethod): string {
  if (method === 'solana_signMessage') return '{ message: base58 }'
  if (method === 'solana_signTransaction') return '{ transaction: base64 }'
  return '{ transaction: base64, options? }'
}

/** The message as text when it is printable UTF-8, else its base58. */
function readable(bytes: Uint8Array): string {
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is tested
    if (!/[\u0000-\u0008\u000e-\u001f\ufffd]/.test(text)) return text
  } catch {
    // not UTF-8
  }
  return bs58.encode(bytes)
}
