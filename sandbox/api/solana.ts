import type { Keypair } from '@solana/web3.js'
import * as v from 'valibot'
import { SANDBOX_GENESIS_HASH, TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID } from '../solana/rpc.ts'
import { decodePublicKey } from '../solana/svm.ts'

/**
 * The sandbox Solana chain's CAIP-2 id: `solana:` and the first 32 characters of its genesis hash (base58), as
 * the CAIP-2 profile for Solana names networks (mainnet is `solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp`). The
 * sandbox chain's `getGenesisHash` is fixed, so this id is the same on every start.
 */
export const SANDBOX_SOLANA_CHAIN_ID = `solana:${SANDBOX_GENESIS_HASH.slice(0, 32)}`

/** The native currency as the balance endpoint names it (9 decimals: lamports). */
export const SOL = { name: 'Solana', symbol: 'SOL', decimals: 9 } as const

/** The wrapped-SOL mint: a token account of it holds SOL as an SPL token. */
export const WRAPPED_SOL_MINT = 'So11111111111111111111111111111111111111112'

/** What the Data API needs of a Solana chain (`startSolana()` fits as it is). */
export interface DataApiSolanaOptions {
  /** The chain's JSON-RPC URL, read live on every balance call. */
  rpcUrl: string
  /** The SPL mints the API names: the sandbox USDC (6 decimals). */
  mints: { usdc: string }
  /** The CAIP-2 id the chain is served under; default {@link SANDBOX_SOLANA_CHAIN_ID}. */
  chainId?: string
  /**
   * The swap maker's key (funded with SOL and USDC on the chain): with it the convert calls answer this chain
   * (src: ./convertSolana.ts); without it they answer it as an unsupported network.
   */
  maker?: Keypair
  /** How long the maker fills a quote, ms (default 30 s). */
  quoteWindowMs?: number
}

/** Name, symbol and decimals of a holding. */
export interface SolanaAsset {
  name: string
  symbol: string
  decimals: number
}

/** One holding read from the chain: native SOL (`mint` absent) or the sum of the owner's accounts of one mint. */
export interface SolanaHolding {
  asset: SolanaAsset
  /** Base units (lamports for SOL). */
  raw: bigint
  /** Base58 mint address; absent for native SOL. */
  mint?: string
  /** False for a mint the API does not know: named after its address, priced at 0. */
  known: boolean
}

/** Whether `text` is a Solana address: base58 of exactly 32 bytes. */
export function isSolanaAddress(text: string): boolean {
  return decodePublicKey(text) !== undefined
}

const RpcAnswerSchema = v.object({
  result: v.optional(v.unknown()),
  error: v.optional(v.object({ code: v.number(), message: v.string() })),
})
const BalanceResultSchema = v.object({ value: v.pipe(v.number(), v.integer(), v.minValue(0)) })
const TokenAccountsResultSchema = v.object({
  value: v.array(
    v.object({
      pubkey: v.string(),
      account: v.object({
        data: v.object({
          parsed: v.object({
            type: v.string(),
            info: v.object({
              mint: v.string(),
              tokenAmount: v.object({
                amount: v.pipe(v.string(), v.regex(/^\d{1,30}$/)),
                decimals: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(30)),
              }),
            }),
          }),
        }),
      }),
    }),
  ),
})

/** The timeout of one RPC call: a dead chain should surface quickly (the eip155 reads use the same). */
const RPC_TIMEOUT_MS = 10_000
/** The commitment balances are read at: a transaction confirmed by web3.js shows at once. */
const COMMITMENT = 'confirmed'

/**
 * Reads an owner's SOL and SPL holdings from a Solana JSON-RPC with plain `fetch` (no retries: the kit's own
 * transport retries). SPL holdings come from `getTokenAccountsByOwner` (jsonParsed) over the Token and
 * Token-2022 programs, summed per mint; zero holdings are left out, as the provider's API does. Order: SOL,
 * the known mints in the order of `mints`, then unknown mints by address. Throws when the chain is unreachable
 * or answers an error.
 *
 * @example
 * const reader = solanaBalanceReader({ rpcUrl: solana.rpcUrl, mints: solana.mints })
 * await reader.holdings(solana.accounts[0].publicKey) // [{ asset: SOL, raw: 100_000_000_000n, known: true }, ...]
 */
export function solanaBalanceReader(options: DataApiSolanaOptions) {
  const known = new Map<string, SolanaAsset>([
    [options.mints.usdc, { name: 'USD Coin', symbol: 'USDC', decimals: 6 }],
    [WRAPPED_SOL_MINT, { name: 'Wrapped SOL', symbol: 'WSOL', decimals: SOL.decimals }],
  ])
  const order = [...known.keys()]
  let nextId = 1

  async function call<S extends v.GenericSchema>(method: string, params: unknown[], schema: S) {
    const response = await fetch(options.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }),
      signal: AbortSignal.timeout(RPC_TIMEOUT_MS),
    })
    if (!response.ok) throw new Error(`${method}: HTTP ${response.status}`)
    const answer = v.parse(RpcAnswerSchema, await response.json())
    if (answer.error) throw new Error(`${method}: ${answer.error.message} (${answer.error.code})`)
    const parsed = v.safeParse(schema, answer.result)
    if (!parsed.success) throw new Error(`${method}: unexpected answer: ${v.summarize(parsed.issues)}`)
    return parsed.output as v.InferOutput<S>
  }

  async function holdings(owner: string): Promise<SolanaHolding[]> {
    const tokenAccounts = (programId: string) =>
      call(
        'getTokenAccountsByOwner',
        [owner, { programId }, { encoding: 'jsonParsed', commitment: COMMITMENT }],
        TokenAccountsResultSchema,
      )
    const [lamports, ...programs] = await Promise.all([
      call('getBalance', [owner, { commitment: COMMITMENT }], BalanceResultSchema),
      tokenAccounts(TOKEN_PROGRAM_ID),
      tokenAccounts(TOKEN_2022_PROGRAM_ID),
    ])
    const byMint = new Map<string, { raw: bigint; decimals: number }>()
    for (const { account } of programs.flatMap((answer) => answer.value)) {
      const { type, info } = account.data.parsed
      if (type !== 'account') continue
      const held = byMint.get(info.mint) ?? { raw: 0n, decimals: info.tokenAmount.decimals }
      held.raw += BigInt(info.tokenAmount.amount)
      byMint.set(info.mint, held)
    }
    const out: SolanaHolding[] = []
    if (lamports.value > 0) out.push({ asset: SOL, raw: BigInt(lamports.value), known: true })
    const mints = [...byMint.keys()].sort((a, b) => {
      const [ia, ib] = [order.indexOf(a), order.indexOf(b)]
      if (ia !== ib) return (ia < 0 ? order.length : ia) - (ib < 0 ? order.length : ib)
      return a < b ? -1 : a > b ? 1 : 0
    })
    for (const mint of mints) {
      const { raw, decimals } = byMint.get(mint)!
      if (raw === 0n) continue
      const asset = known.get(mint)
      out.push(
        asset
          ? { asset: { ...asset, decimals }, raw, mint, known: true }
          : {
              asset: {
                name: `SPL token ${mint.slice(0, 4)}…${mint.slice(-4)}`,
                symbol: mint.slice(0, 4),
                decimals,
              },
              raw,
              mint,
              known: false,
            },
      )
    }
    return out
  }

  return { chainId: options.chainId ?? SANDBOX_SOLANA_CHAIN_ID, holdings }
}
