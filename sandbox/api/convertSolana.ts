import { randomBytes } from 'node:crypto'
import {
  createAssociatedTokenAccountIdempotentInstruction,
  createTransferCheckedInstruction,
  getAssociatedTokenAddressSync,
} from '@solana/spl-token'
import {
  Connection,
  Keypair,
  PublicKey,
  SystemProgram,
  type TransactionInstruction,
  TransactionMessage,
  VersionedTransaction,
} from '@solana/web3.js'
import * as v from 'valibot'
import { errorJson, type SandboxResponse } from '../shared/http.ts'
import { seedBytes } from '../solana/svm.ts'
import { parseBody, parseQuery, type Route, type RouteContext } from './common.ts'
import {
  DEFAULT_SLIPPAGE_PERCENT,
  MAX_SLIPPAGE_PERCENT,
  type SwapQuote,
  UNSUPPORTED_GAS_PRICE,
  UNSUPPORTED_SWAPS,
} from './convert.ts'
import { isSolanaAddress } from './solana.ts'

/**
 * The Data API's convert calls (SPEC §7) on the sandbox Solana chain, answered by a quote-and-fill (RFQ) maker:
 * the SVM has no AMM program, so the maker quotes from the Data API's fixed USD prices and builds one versioned
 * transaction that moves the visitor's token to the maker and the maker's token to the visitor, signed by the
 * maker; the visitor's wallet adds its signature (the fee payer's) and sends it. Both transfers land or neither.
 *
 * - `GET /v1/convert/tokens?chainId=<solana chain>`: SOL and the sandbox USDC.
 * - `GET /v1/convert/quotes`: one quote with an `id` and `expiresAt`: the maker fills it only until then.
 * - `POST /v1/convert/build-transaction` with the quote's `quoteId`: the transaction (base64, a v0 message, the
 *   visitor its fee payer, a recent blockhash), the maker's signature on it; the visitor's token account of the
 *   token bought is created in it (the maker paying its rent) when missing. A quote past its window answers
 *   410 {@link SOLANA_QUOTE_EXPIRED}.
 * - allowance '0', gas-price 400 'Network not supported for Gas Price', build-approve 400 'Network not supported
 *   for Swaps' (SPEC §8): an SPL transfer the owner signs needs no approval.
 */

/** How the native currency is named in Solana convert calls (the provider's clients' convention). */
export const SOLANA_NATIVE_ADDRESS = 'So11111111111111111111111111111111111111111'
/** The maker's spread on the amount paid, in percent (kept from what is paid, as the pools' fee is). */
export const SOLANA_MAKER_FEE_PERCENT = 0.3
/** How long a Solana quote is filled by default. */
export const SOLANA_QUOTE_WINDOW_MS = 30_000
/** Lamports per signature; a swap carries two (the visitor's, the fee payer's, and the maker's). */
export const SOLANA_SWAP_FEE_LAMPORTS = 10_000n
/** What the build answers (410) for a quote past its window. */
export const SOLANA_QUOTE_EXPIRED = 'Quote expired: ask for a fresh quote'

/**
 * The `hostile` fault's Solana builds, each well-formed and signed by the maker: `elsewhere` sends the visitor's
 * tokens to another owner than the maker, `overdraw` takes more than the amount, `short` gives less than the least
 * amount out.
 */
export type SolanaHostileBuild = 'elsewhere' | 'overdraw' | 'short'
/** Where `elsewhere` sends the visitor's tokens (no one holds its key). */
export const SOLANA_HOSTILE_OWNER = Keypair.fromSeed(
  seedBytes('walletstate solana hostile owner'),
).publicKey.toBase58()

/** The sandbox maker's fixed key (public, for the local sandbox only, as the dev keys are). */
export function solanaMakerKeypair(): Keypair {
  return Keypair.fromSeed(seedBytes('walletstate solana swap maker'))
}

/**
 * One quote of `GET /v1/convert/quotes` on Solana: the EVM quote's fields (its `fee` is the maker's spread, base
 * units of the token paid), with the maker's id and window instead of a pool.
 */
export interface SolanaSwapQuote extends Omit<SwapQuote, 'id' | 'pool'> {
  id: string
  /** Unix ms after which the maker refuses to build it. */
  expiresAt: number
  /** The maker's address (base58). */
  maker: string
  /** The network fee the visitor (the fee payer) pays, lamports. */
  networkFee: string
}

/** `POST /v1/convert/build-transaction` on Solana answers `{ tx, quote }`. */
export interface SolanaSwapBuiltTx {
  tx: {
    from: string
    to: string
    /** The versioned transaction, base64 of its wire bytes, signed by the maker. */
    data: string
    amount: '0'
    solana: {
      feePayer: string
      recentBlockhash: string
      lastValidBlockHeight: number
      /** Lamports. */
      fee: string
      /** Whether it creates the visitor's token account of the token bought. */
      createsTokenAccount: boolean
    }
  }
  quote: {
    id: string
    fromAmount: string
    toAmount: string
    minAmountOut: string
    /** Unix seconds: the quote's end. */
    deadline: string
    slippage: number
  }
}

export interface SolanaConvertOptions {
  /** The chain's CAIP-2 id. */
  chainId: string
  rpcUrl: string
  /** The sandbox USDC mint. */
  usdc: string
  /** The maker's key (funded with SOL and USDC); default {@link solanaMakerKeypair}. */
  maker?: Keypair
  /** Default {@link SOLANA_QUOTE_WINDOW_MS}. */
  quoteWindowMs?: number
  priceOf(symbol: string): number
  iconUrl(symbol: string): string
  /** The hostile build due for this request, if the fault switch says so (counted as it applies). */
  hostile?: (path: string) => SolanaHostileBuild | undefined
  /** Now, in ms (tests may move it). */
  now?: () => number
}

interface Token {
  address: string
  symbol: string
  name: string
  decimals: number
  /** Absent for SOL. */
  mint?: PublicKey
}

interface StoredQuote {
  user: string
  from: string
  to: string
  amount: bigint
  toAmount: bigint
  expiresAt: number
}

const AMOUNT = /^\d{1,20}$/
const Amount = v.pipe(
  v.string('amount must be a string of base units'),
  v.regex(AMOUNT, 'must be a whole number of base units'),
  v.check((value) => !AMOUNT.test(value) || BigInt(value) > 0n, 'must be more than 0'),
  v.check((value) => !AMOUNT.test(value) || BigInt(value) < 2n ** 64n, 'is too large'),
)
const Ref = v.pipe(v.string(), v.maxLength(200))
const QuotesQuery = v.object({
  amount: Amount,
  userAddress: Ref,
  from: Ref,
  to: Ref,
  gasPrice: v.optional(v.string()),
})
const BuildBody = v.object({
  amount: Amount,
  from: Ref,
  to: Ref,
  userAddress: Ref,
  quoteId: v.optional(v.pipe(v.string('quoteId must be a string'), v.maxLength(100))),
  eip155: v.optional(v.object({ slippage: v.optional(v.number()) })),
  projectId: v.optional(v.string()),
  disableEstimate: v.optional(v.boolean()),
})
/** Quotes kept at most (the oldest go first): a sandbox maker is not a store. */
const MAX_QUOTES = 1_000

/** Base units of `to` that `amount` of `from` buys at the USD prices, the maker's spread kept. */
export function solanaQuoteAmount(
  amount: bigint,
  from: { decimals: number; price: number },
  to: { decimals: number; price: number },
): { toAmount: bigint; fee: bigint } {
  const fee = (amount * BigInt(Math.round(SOLANA_MAKER_FEE_PERCENT * 1000))) / 100_000n
  const micro = (price: number) => BigInt(Math.round(price * 1_000_000))
  const toAmount =
    ((amount - fee) * micro(from.price) * 10n ** BigInt(to.decimals)) /
    (micro(to.price) * 10n ** BigInt(from.decimals))
  return { toAmount, fee }
}

/**
 * The maker's convert routes for one Solana chain. Each answers only requests that name that chain (`claims`);
 * the Data API asks it before its eip155 routes.
 */
export function solanaConvert(options: SolanaConvertOptions) {
  const maker = options.maker ?? solanaMakerKeypair()
  const connection = new Connection(options.rpcUrl, 'confirmed')
  const windowMs = options.quoteWindowMs ?? SOLANA_QUOTE_WINDOW_MS
  const now = options.now ?? Date.now
  const chain = options.chainId
  const usdcMint = new PublicKey(options.usdc)
  const tokens: Token[] = [
    { address: `${chain}:${SOLANA_NATIVE_ADDRESS}`, symbol: 'SOL', name: 'Solana', decimals: 9 },
    { address: `${chain}:${options.usdc}`, symbol: 'USDC', name: 'USD Coin', decimals: 6, mint: usdcMint },
  ]
  const quotes = new Map<string, StoredQuote>()

  /** A base58 address of this chain, from CAIP-10 of it or bare. */
  const addressOf = (ref: string): string | undefined => {
    const bare = ref.startsWith(`${chain}:`) ? ref.slice(chain.length + 1) : ref
    return isSolanaAddress(bare) ? bare : undefined
  }
  const onChain = (ref: string | null | undefined) => ref?.startsWith(`${chain}:`) ?? false
  const tokenOf = (ref: string) => {
    const address = addressOf(ref)
    return tokens.find((t) => t.address === `${chain}:${address}`)
  }

  type Checked = { user: PublicKey; from: Token; to: Token } | { error: SandboxResponse }
  function check(userAddress: string, from: string, to: string): Checked {
    const user = addressOf(userAddress)
    if (!user) return { error: errorJson(400, `Invalid userAddress: ${userAddress.slice(0, 100)}`) }
    const list = tokens.map((t) => t.symbol).join(', ')
    const a = tokenOf(from)
    if (!a)
      return {
        error: errorJson(400, `Invalid from: ${from.slice(0, 100)} is not a swappable token (${list})`),
      }
    const b = tokenOf(to)
    if (!b)
      return { error: errorJson(400, `Invalid to: ${to.slice(0, 100)} is not a swappable token (${list})`) }
    if (a === b) return { error: errorJson(400, 'Invalid pair: from and to are the same token') }
    return { user: new PublicKey(user), from: a, to: b }
  }

  const price = (token: Token) => ({ decimals: token.decimals, price: options.priceOf(token.symbol) })

  /** The instruction moving `amount` of `token` from `owner` to `recipient` (system transfer or SPL). */
  const transfer = (token: Token, owner: PublicKey, recipient: PublicKey, amount: bigint) =>
    token.mint
      ? createTransferCheckedInstruction(
          getAssociatedTokenAddressSync(token.mint, owner),
          token.mint,
          getAssociatedTokenAddressSync(token.mint, recipient),
          owner,
          amount,
          token.decimals,
        )
      : SystemProgram.transfer({ fromPubkey: owner, toPubkey: recipient, lamports: amount })

  async function build(ctx: RouteContext): Promise<SandboxResponse> {
    const parsed = parseBody(ctx.req.body, BuildBody, 'build-transaction')
    if ('error' in parsed) return parsed.error
    const body = parsed.value
    const checked = check(body.userAddress, body.from, body.to)
    if ('error' in checked) return checked.error
    const { user, from, to } = checked
    if (!body.quoteId) return errorJson(400, 'quoteId is required: the maker fills its own quotes')
    const quote = quotes.get(body.quoteId)
    const amount = BigInt(body.amount)
    if (
      !quote ||
      quote.user !== user.toBase58() ||
      quote.from !== from.address ||
      quote.to !== to.address ||
      quote.amount !== amount
    )
      return errorJson(400, 'Invalid quoteId: no quote of this maker for this swap')
    if (now() > quote.expiresAt) return errorJson(410, SOLANA_QUOTE_EXPIRED)
    const slippage = Math.min(
      Math.max(body.eip155?.slippage ?? DEFAULT_SLIPPAGE_PERCENT, 0),
      MAX_SLIPPAGE_PERCENT,
    )
    const keep = 1_000_000n - BigInt(Math.round(slippage * 10_000))
    const minAmountOut = (quote.toAmount * keep) / 1_000_000n

    const hostile = options.hostile?.(ctx.req.url.pathname)
    const paid = hostile === 'overdraw' ? amount + amount / 2n : amount
    const payee = hostile === 'elsewhere' ? new PublicKey(SOLANA_HOSTILE_OWNER) : maker.publicKey
    const given = hostile === 'short' ? minAmountOut / 2n : quote.toAmount
    try {
      const instructions: TransactionInstruction[] = []
      let createsTokenAccount = false
      if (to.mint) {
        const account = getAssociatedTokenAddressSync(to.mint, user)
        if (!(await connection.getAccountInfo(account))) {
          createsTokenAccount = true
          instructions.push(
            createAssociatedTokenAccountIdempotentInstruction(maker.publicKey, account, user, to.mint),
          )
        }
      }
      if (from.mint && hostile === 'elsewhere') {
        // The hostile owner's token account, so the transaction would land.
        instructions.push(
          createAssociatedTokenAccountIdempotentInstruction(
            maker.publicKey,
            getAssociatedTokenAddressSync(from.mint, payee),
            payee,
            from.mint,
          ),
        )
      }
      instructions.push(transfer(from, user, payee, paid), transfer(to, maker.publicKey, user, given))
      const { blockhash, lastValidBlockHeight } = await connection.getLatestBlockhash()
      const message = new TransactionMessage({
        payerKey: user,
        recentBlockhash: blockhash,
        instructions,
      }).compileToV0Message()
      const tx = new VersionedTransaction(message)
      tx.sign([maker])
      const answer: SolanaSwapBuiltTx = {
        tx: {
          from: `${chain}:${user.toBase58()}`,
          to: `${chain}:${maker.publicKey.toBase58()}`,
          data: Buffer.from(tx.serialize()).toString('base64'),
          amount: '0',
          solana: {
            feePayer: user.toBase58(),
            recentBlockhash: blockhash,
            lastValidBlockHeight,
            fee: SOLANA_SWAP_FEE_LAMPORTS.toString(),
            createsTokenAccount,
          },
        },
        quote: {
          id: body.quoteId,
          fromAmount: amount.toString(),
          toAmount: quote.toAmount.toString(),
          minAmountOut: minAmountOut.toString(),
          deadline: Math.floor(quote.expiresAt / 1000).toString(),
          slippage,
        },
      }
      return { json: answer }
    } catch (error) {
      return errorJson(
        502,
        `Solana RPC unavailable: ${error instanceof Error ? error.message : String(error)}`,
      )
    }
  }

  const routes: Record<string, { claims: (ctx: RouteContext) => boolean; handle: Route['handle'] }> = {
    tokens: {
      claims: ({ req }) => req.url.searchParams.get('chainId') === chain,
      handle: () => ({
        json: {
          tokens: tokens.map((t) => ({
            name: t.name,
            symbol: t.symbol,
            address: t.address,
            decimals: t.decimals,
            logoUri: options.iconUrl(t.symbol),
            eip2612: false,
          })),
        },
      }),
    },
    quotes: {
      claims: ({ req }) => onChain(req.url.searchParams.get('from')),
      handle: ({ req }) => {
        const parsed = parseQuery(req.url, ['amount', 'userAddress', 'from', 'to', 'gasPrice'], QuotesQuery)
        if ('error' in parsed) return parsed.error
        const { amount, userAddress, from, to } = parsed.value
        const checked = check(userAddress, from, to)
        if ('error' in checked) return checked.error
        const raw = BigInt(amount)
        const { toAmount, fee } = solanaQuoteAmount(raw, price(checked.from), price(checked.to))
        if (toAmount === 0n) return errorJson(400, 'Invalid amount: too small to quote')
        const id = randomBytes(16).toString('hex')
        const expiresAt = now() + windowMs
        quotes.set(id, {
          user: checked.user.toBase58(),
          from: checked.from.address,
          to: checked.to.address,
          amount: raw,
          toAmount,
          expiresAt,
        })
        if (quotes.size > MAX_QUOTES) quotes.delete(quotes.keys().next().value as string)
        const quote: SolanaSwapQuote = {
          id,
          fromAmount: raw.toString(),
          fromAccount: checked.from.address,
          toAmount: toAmount.toString(),
          toAccount: checked.to.address,
          priceImpact: 0,
          fee: fee.toString(),
          feePercent: SOLANA_MAKER_FEE_PERCENT,
          expiresAt,
          maker: maker.publicKey.toBase58(),
          networkFee: SOLANA_SWAP_FEE_LAMPORTS.toString(),
        }
        return { json: { quotes: [quote] } }
      },
    },
    allowance: {
      claims: ({ req }) => onChain(req.url.searchParams.get('tokenAddress')),
      handle: () => ({ json: { allowance: '0' } }),
    },
    'gas-price': {
      claims: ({ req }) => req.url.searchParams.get('chainId') === chain,
      handle: () => errorJson(400, UNSUPPORTED_GAS_PRICE),
    },
    'build-approve': {
      claims: ({ req }) => onChain(req.url.searchParams.get('from')),
      handle: () => errorJson(400, UNSUPPORTED_SWAPS),
    },
    'build-transaction': {
      claims: ({ req }) => {
        try {
          const body = JSON.parse(req.body) as { from?: unknown }
          return typeof body.from === 'string' && onChain(body.from)
        } catch {
          return false
        }
      },
      handle: build,
    },
  }

  /**
   * The eip155 convert routes with this chain's requests answered by the maker: a route whose request names
   * this chain is the maker's, any other the route's own.
   */
  function over(evmRoutes: Route[]): Route[] {
    return evmRoutes.map((route) => {
      const name = /convert\\\/([a-z-]+)/.exec(route.pattern.source)?.[1]
      const own = name ? routes[name] : undefined
      if (!own) return route
      return { ...route, handle: (ctx) => (own.claims(ctx) ? own.handle(ctx) : route.handle(ctx)) }
    })
  }

  /** Every quote given so far left past its window (the sandbox's way to test a stale quote without waiting). */
  function expireAll(): number {
    const past = now() - 1
    for (const quote of quotes.values()) quote.expiresAt = Math.min(quote.expiresAt, past)
    return quotes.size
  }

  /** The sandbox-only route: `POST /__solana-maker/expire` ends every quote's window now. */
  const controlRoutes: Route[] = [
    {
      method: 'POST',
      pattern: /^\/__solana-maker\/expire$/,
      sdkParams: false,
      handle: () => ({ json: { expired: expireAll() } }),
    },
  ]

  return { over, controlRoutes, expireAll, maker: maker.publicKey.toBase58(), quotes }
}
