import config from 'virtual:walletstate-wallets/wc-config'
import { Keypair, type VersionedTransaction } from '@solana/web3.js'
import bs58 from 'bs58'
import nacl from 'tweetnacl'
import * as v from 'valibot'
import type { RequestInfo } from '../../../src/session/types.ts'
import { ProviderRpcError, rpcErrors, toProviderError } from '../common/eth.ts'
import {
  NOT_CONFIGURED_MESSAGE,
  type SendOptions,
  sendRawTransaction,
  WalletRequestError,
} from '../solana/rpc.ts'
import {
  decodeTransaction,
  describeTransaction,
  fromBase64,
  requireSigner,
  toBase64,
} from '../solana/transaction.ts'
import { seedBytes } from '../solana-account.ts'
import type { Fact, RequestPlan } from './wallet.ts'

/*
 * The wallet's `solana` namespace: one account (the sandbox Solana chain's dev key 1, a fixed public key served in
 * the page's config) on the sandbox Solana chain, and its three methods in the shapes of WalletConnect's Solana
 * RPC reference: messages base58, transactions base64 wire bytes, signatures base58. Requests are planned like
 * the eip155 ones (wallet.ts): parsed first, shown on the page's card, signed only on Approve.
 */

const keypair = Keypair.fromSeed(seedBytes(config.solana.account.seedHex))

/** The account's public key (base58). */
export const solanaAddress = keypair.publicKey.toBase58()
if (solanaAddress !== config.solana.account.address) {
  throw new Error(`The configured Solana address ${config.solana.account.address} is not the dev key's`)
}

/** The one Solana chain this wallet serves (`SANDBOX_SOLANA_CHAIN_ID`). */
export const solanaChain = config.solana.chainId
export const solanaAccount = `${solanaChain}:${solanaAddress}`

/** What the wallet offers in every session with a `solana` namespace. */
export const SOLANA_METHODS = [
  'solana_signMessage',
  'solana_signTransaction',
  'solana_signAndSendTransaction',
]
/** The events it can send on that namespace: the SPEC §1 defaults a proposal asks for. */
export const SOLANA_EVENTS: string[] = ['accountsChanged', 'chainChanged']

/**
 * A declined Solana request: WalletConnect's USER_REJECTED (what its Solana wallets answer; the eip155 side keeps
 * EIP-1193's 4001, which wagmi and viem switch on).
 */
export const solanaUserRejected = () => new ProviderRpcError(5000, 'User rejected.')

/** Messages people sign are short; a bigger one is refused rather than shown. */
const MESSAGE_MAX_CHARS = 20_000
/** A Solana transaction is at most 1232 bytes; base64 of that is 1644 characters. */
const TRANSACTION_MAX_CHARS = 4_096

const Pubkey = v.pipe(
  v.string(),
  v.regex(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/, 'pubkey must be a base58 public key'),
)

const SignMessageSchema = v.object({
  message: v.pipe(
    v.string('message must be a base58 string'),
    v.minLength(1, 'message must not be empty'),
    v.maxLength(MESSAGE_MAX_CHARS, `message must be at most ${MESSAGE_MAX_CHARS} characters`),
    v.regex(/^[1-9A-HJ-NP-Za-km-z]+$/, 'message must be base58'),
  ),
  pubkey: Pubkey,
})

const TransactionField = v.pipe(
  v.string('transaction must be a base64 string'),
  v.minLength(1, 'transaction must not be empty'),
  v.maxLength(TRANSACTION_MAX_CHARS, `transaction must be at most ${TRANSACTION_MAX_CHARS} characters`),
)

const SignTransactionSchema = v.object({ transaction: TransactionField, pubkey: v.optional(Pubkey) })

const SendOptionsSchema = v.object({
  skipPreflight: v.optional(v.boolean()),
  preflightCommitment: v.optional(v.picklist(['processed', 'confirmed', 'finalized'])),
  maxRetries: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
  minContextSlot: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
})

const SignAndSendSchema = v.object({
  transaction: TransactionField,
  pubkey: v.optional(Pubkey),
  sendOptions: v.optional(SendOptionsSchema),
})

function parse<S extends v.GenericSchema>(schema: S, method: string, params: unknown): v.InferOutput<S> {
  const parsed = v.safeParse(schema, params)
  if (parsed.success) return parsed.output
  const deprecated = typeof params === 'object' && params !== null && 'instructions' in params
  throw rpcErrors.invalidParams(
    deprecated
      ? `Invalid ${method} params: only the base64 \`transaction\` form is supported, not the deprecated instructions`
      : `Invalid ${method} params: ${v.summarize(parsed.issues)}`,
  )
}

function requireOwnKey(pubkey: string | undefined): void {
  if (pubkey !== undefined && pubkey !== solanaAddress) {
    throw rpcErrors.invalidParams(
      `This wallet has no Solana account ${pubkey}; its account is ${solanaAddress}`,
    )
  }
}

/** A base64 wire transaction this wallet must sign, decoded and checked. */
function transactionFrom(base64: string): VersionedTransaction {
  const bytes = fromBase64(base64)
  if (!bytes) throw rpcErrors.invalidParams('Invalid transaction: not base64')
  try {
    const tx = decodeTransaction(bytes)
    requireSigner(tx, keypair.publicKey)
    return tx
  } catch (error) {
    throw rpcErrors.invalidParams(error instanceof Error ? error.message : String(error))
  }
}

/** Signs in place; answers this wallet's signature (base58). */
function sign(tx: VersionedTransaction): string {
  tx.sign([keypair])
  const index = tx.message.staticAccountKeys.findIndex((key) => key.equals(keypair.publicKey))
  const signature = tx.signatures[index]
  if (!signature) throw rpcErrors.internal('The signed transaction has no signature of this wallet')
  return bs58.encode(signature)
}

/** UTF-8 text when the bytes are printable UTF-8, else hex: the card shows what is really signed. */
function displayMessage(bytes: Uint8Array): string {
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what we look for
    if (!/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(text)) return text
  } catch {
    // not UTF-8: shown as hex below
  }
  return `0x${[...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('')}`
}

/** The node's error (preflight failure, bad blockhash) keeps its JSON-RPC code for the app. */
async function send(tx: VersionedTransaction, options: SendOptions, rpcUrl: string): Promise<string> {
  try {
    return await sendRawTransaction(rpcUrl, tx.serialize(), options)
  } catch (error) {
    if (error instanceof WalletRequestError) throw new ProviderRpcError(error.code, error.message)
    throw toProviderError(error)
  }
}

/**
 * Plans the answer to a request on the Solana chain. Its params come from the dapp: each is parsed, and a
 * malformed request is refused with invalid params (-32602) rather than shown.
 */
export function planSolanaRequest(request: RequestInfo, peer: string): RequestPlan {
  const { method } = request.request
  const params: unknown = request.request.params
  const base = { method, peer }
  const accountFact: Fact = { label: 'Account', value: solanaAddress }
  const networkFact: Fact = { label: 'Network', value: `${config.solana.chainName} (${solanaChain})` }
  const ask = { kind: 'ask' as const, rejection: solanaUserRejected }
  try {
    if (request.chainId !== solanaChain) {
      throw rpcErrors.invalidParams(`This wallet serves ${solanaChain} only, not ${request.chainId}`)
    }
    switch (method) {
      case 'solana_signMessage': {
        const { message, pubkey } = parse(SignMessageSchema, method, params)
        requireOwnKey(pubkey)
        const bytes = bs58.decodeUnsafe(message)
        if (!bytes || bytes.length === 0) throw rpcErrors.invalidParams('Invalid message: not base58')
        return {
          ...base,
          ...ask,
          title: 'Signature request',
          asks: 'asks for a Solana signature',
          facts: [accountFact, networkFact],
          detail: { label: 'Message', text: displayMessage(bytes) },
          run: async () => ({ signature: bs58.encode(nacl.sign.detached(bytes, keypair.secretKey)) }),
        }
      }
      case 'solana_signTransaction': {
        const { transaction, pubkey } = parse(SignTransactionSchema, method, params)
        requireOwnKey(pubkey)
        const tx = transactionFrom(transaction)
        return {
          ...base,
          ...ask,
          title: 'Transaction signature request',
          asks: 'asks to sign a Solana transaction',
          facts: [accountFact, networkFact, ...describeTransaction(tx)],
          // Both forms of the reference's answer: the signature (older apps add it themselves) and the signed tx.
          run: async () => {
            const signature = sign(tx)
            return { signature, transaction: toBase64(tx.serialize()) }
          },
        }
      }
      case 'solana_signAndSendTransaction': {
        const { transaction, pubkey, sendOptions } = parse(SignAndSendSchema, method, params)
        requireOwnKey(pubkey)
        // Checked before asking: the person is never asked to approve what cannot be sent.
        const { rpcUrl } = config.solana
        if (!rpcUrl) throw rpcErrors.internal(NOT_CONFIGURED_MESSAGE)
        const tx = transactionFrom(transaction)
        return {
          ...base,
          ...ask,
          title: 'Transaction request',
          asks: 'asks to send a Solana transaction',
          facts: [accountFact, networkFact, ...describeTransaction(tx)],
          run: async () => {
            sign(tx)
            return { signature: await send(tx, sendOptions, rpcUrl) }
          },
        }
      }
    }
    throw rpcErrors.unsupportedMethod(method)
  } catch (error) {
    return { ...base, kind: 'refuse', error: toProviderError(error) }
  }
}
