import bs58 from 'bs58'
import * as v from 'valibot'
import { bytesToHex, concat, type Hex, hexToBytes, ripemd160, sha256, stringToBytes, toBytes } from 'viem'
import { privateKeyToAccount, sign } from 'viem/accounts'
import type { RequestInfo } from '../../../src/session/types.ts'
import { ProviderRpcError, rpcErrors, toProviderError } from '../common/eth.ts'
import type { Fact, RequestPlan } from './wallet.ts'

/*
 * The wallet's `bip122` namespace: one Bitcoin account on regtest, a legacy (P2PKH) address of a fixed dev key,
 * and WalletConnect's Bitcoin `signMessage` in Bitcoin Core's message format (`signmessage`: the double SHA-256 of
 * "\x18Bitcoin Signed Message:\n" + a varint length + the message, a 65-byte compact signature, base64), which
 * `verifymessage` and the usual libraries check. There is no Bitcoin node in the sandbox: no balance, no sends.
 */

/** CAIP-2 id of Bitcoin's regtest: its genesis block hash's first 32 hex characters. */
export const BIP122_CHAIN = 'bip122:0f9188f13cb7b2c71f2a335e3a4fc328'
/** What the wallet offers in a session with a `bip122` namespace (WalletConnect's Bitcoin RPC). */
export const BIP122_METHODS = ['signMessage', 'getAccountAddresses']
/** The events it can send there: the SPEC §1 defaults a proposal asks for. */
export const BIP122_EVENTS: string[] = ['accountsChanged', 'chainChanged']

/** The dev key: fixed, so the tests know its address; never a real one (it is derived from a public phrase). */
const PRIVATE_KEY = sha256(stringToBytes('walletstate sandbox bip122 dev key'))

/** regtest's (and testnet's) P2PKH version byte. */
const P2PKH_TESTNET = 0x6f

/** The 33-byte compressed form of an uncompressed (0x04…) secp256k1 public key. */
export function compressPublicKey(uncompressed: Hex): Uint8Array {
  const bytes = hexToBytes(uncompressed)
  if (bytes.length !== 65 || bytes[0] !== 4) throw new Error('not an uncompressed public key')
  const prefix = (bytes[64]! & 1) === 0 ? 2 : 3
  return Uint8Array.from([prefix, ...bytes.subarray(1, 33)])
}

/** The base58check P2PKH address of a compressed public key, for a version byte (regtest's by default). */
export function p2pkhAddress(compressed: Uint8Array, version = P2PKH_TESTNET): string {
  const payload = Uint8Array.from([version, ...hexToBytes(ripemd160(sha256(compressed)))])
  const checksum = hexToBytes(sha256(sha256(payload))).subarray(0, 4)
  return bs58.encode(Uint8Array.from([...payload, ...checksum]))
}

/** Bitcoin's variable-length integer (the message length before the message). */
function varint(n: number): Uint8Array {
  if (n < 0xfd) return Uint8Array.from([n])
  if (n <= 0xffff) return Uint8Array.from([0xfd, n & 0xff, n >> 8])
  return Uint8Array.from([0xfe, n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff, (n >>> 24) & 0xff])
}

/** The hash Bitcoin Core's `signmessage` signs: SHA-256 twice over the prefixed message. */
export function bitcoinMessageHash(message: string): Hex {
  const text = toBytes(message)
  const prefix = toBytes('\x18Bitcoin Signed Message:\n')
  return sha256(sha256(concat([prefix, varint(text.length), text])))
}

const account = privateKeyToAccount(PRIVATE_KEY)
/** The wallet's Bitcoin address on regtest (m… or n…). */
export const bip122Address = p2pkhAddress(compressPublicKey(account.publicKey))
export const bip122Account = `${BIP122_CHAIN}:${bip122Address}`

/**
 * Signs `message` as Bitcoin Core's `signmessage` does for a compressed-key P2PKH address: header 31 + the
 * recovery id, then r and s; base64.
 */
export async function signBitcoinMessage(message: string, privateKey: Hex = PRIVATE_KEY): Promise<string> {
  const { r, s, yParity } = await sign({ hash: bitcoinMessageHash(message), privateKey })
  const compact = Uint8Array.from([31 + (yParity ?? 0), ...hexToBytes(r), ...hexToBytes(s)])
  return btoa(String.fromCharCode(...compact))
}

const MESSAGE_MAX_CHARS = 20_000
const SignMessageSchema = v.object({
  message: v.pipe(
    v.string('message must be a string'),
    v.minLength(1, 'message must not be empty'),
    v.maxLength(MESSAGE_MAX_CHARS, `message must be at most ${MESSAGE_MAX_CHARS} characters`),
  ),
  account: v.optional(v.string()),
  address: v.optional(v.string()),
  protocol: v.optional(v.picklist(['ecdsa'], 'only the ecdsa (legacy message) protocol is supported')),
})

/** A declined Bitcoin request: WalletConnect's USER_REJECTED, as its non-EVM wallets answer. */
const userRejected = () => new ProviderRpcError(5000, 'User rejected.')

/**
 * Plans the answer to a request on the Bitcoin chain: `getAccountAddresses` at once, `signMessage` on the card.
 * Params come from the dapp: parsed, and a malformed or foreign-account request is refused (-32602).
 */
export function planBip122Request(request: RequestInfo, peer: string): RequestPlan {
  const { method } = request.request
  const base = { method, peer }
  const facts: Fact[] = [
    { label: 'Account', value: bip122Address },
    { label: 'Network', value: `Bitcoin regtest (${BIP122_CHAIN})` },
  ]
  try {
    if (request.chainId !== BIP122_CHAIN)
      throw rpcErrors.invalidParams(`This wallet serves ${BIP122_CHAIN} only, not ${request.chainId}`)
    if (method === 'getAccountAddresses')
      return {
        ...base,
        kind: 'answer',
        run: async () => [
          {
            address: bip122Address,
            publicKey: bytesToHex(compressPublicKey(account.publicKey)).slice(2),
            purpose: 'payment',
          },
        ],
      }
    if (method === 'signMessage') {
      const parsed = v.safeParse(SignMessageSchema, request.request.params)
      if (!parsed.success)
        throw rpcErrors.invalidParams(`Invalid signMessage params: ${v.summarize(parsed.issues)}`)
      const named = parsed.output.address ?? parsed.output.account
      if (named !== undefined && named !== bip122Address)
        throw rpcErrors.invalidParams(
          `This wallet has no Bitcoin account ${named}; its account is ${bip122Address}`,
        )
      const { message } = parsed.output
      return {
        ...base,
        kind: 'ask',
        rejection: userRejected,
        title: 'Signature request',
        asks: 'asks for a Bitcoin signature',
        facts,
        detail: { label: 'Message', text: message },
        run: async () => ({ address: bip122Address, signature: await signBitcoinMessage(message) }),
      }
    }
    throw rpcErrors.unsupportedMethod(method)
  } catch (error) {
    return { ...base, kind: 'refuse', error: toProviderError(error) }
  }
}
