import { Connection, VersionedTransaction } from '@solana/web3.js'
import * as v from 'valibot'
import { safeImageUrl } from '../api/dataApi'
import { dataApiCall, type RequestFailure } from '../api/http'
import { checkSolanaSwap } from '../chains/solana/swapCheck'
import type { KitNetwork } from '../config'
import { DATA_API_TIMEOUT_MS, NATIVE_TOKEN_ADDRESS, SOLANA_SEND_COMMITMENT } from '../constants'
import { SendAccountNotFoundError, UnsupportedChainError } from '../errors/send'
import { toSolanaError } from '../errors/solana'
import {
  SolanaSwapMismatchError,
  SwapBuildError,
  SwapNetworkNotSupportedError,
  SwapQuoteError,
  SwapQuoteExpiredError,
  SwapTokensError,
  toSwapError,
} from '../errors/swap'
import type {
  SwapBuildRequest,
  SwapCheckRequest,
  SwapPrepared,
  SwapQuote,
  SwapQuoteRequest,
  SwapSendRequest,
  SwapSimulation,
  SwapSimulationRequest,
  SwapToken,
  SwapTokensRequest,
  SwapTransaction,
} from '../machines/swap/types'
import { safeText } from '../utils/links'
import { solanaWalletClient } from './solanaConnection'

/*
 * The swap flow's slots on Solana (the chart is the eip155 swap's, src/machines/swap.ts): the Data API's convert
 * calls answered by its maker (a quote with an id and a window; a transaction the maker signs first), the check of
 * that transaction before any wallet is asked (src/chains/solana/swapCheck.ts), and the wallet's signature, send
 * and confirmation. Part of Solana's chunk: loaded on the first Solana swap only (src/kit/load/swap.ts).
 */

/** How the convert API names native SOL (the provider's clients' convention). */
export const SOLANA_CONVERT_NATIVE = 'So11111111111111111111111111111111111111111'

const BASE58 = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/
const BASE_UNITS = v.pipe(v.string(), v.regex(/^\d{1,30}$/, 'is not a whole number'))
const TokenSchema = v.object({
  name: v.string(),
  symbol: v.pipe(v.string(), v.minLength(1), v.maxLength(40)),
  address: v.string(),
  decimals: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(36)),
  logoUri: v.optional(v.unknown()),
})
const TokensSchema = v.object({ tokens: v.pipe(v.array(v.unknown()), v.maxLength(200)) })
const QuotesSchema = v.object({
  quotes: v.pipe(
    v.array(
      v.object({
        id: v.pipe(v.string(), v.regex(/^[\w-]{1,100}$/)),
        fromAmount: BASE_UNITS,
        toAmount: BASE_UNITS,
        priceImpact: v.optional(v.pipe(v.number(), v.finite())),
        fee: v.optional(BASE_UNITS),
        expiresAt: v.pipe(v.number(), v.integer(), v.minValue(0)),
        maker: v.pipe(v.string(), v.regex(BASE58)),
        networkFee: BASE_UNITS,
      }),
    ),
    v.maxLength(10),
  ),
})
const BuildSchema = v.object({
  tx: v.object({
    to: v.string(),
    data: v.pipe(v.string(), v.maxLength(4000), v.regex(/^[A-Za-z0-9+/]+={0,2}$/, 'is not base64')),
    solana: v.object({ feePayer: v.pipe(v.string(), v.regex(BASE58)), fee: BASE_UNITS }),
  }),
})

export interface SolanaSwapParameters {
  api: string
  projectId: string
  networks: readonly KitNetwork[]
  rpcMap?: Readonly<Record<string, string>>
}

/** What the swap's Solana slots do, as plain functions (src/actors/swapChains.ts makes them the slots). */
export interface SolanaSwapSlots {
  fetchTokens(input: SwapTokensRequest, signal: AbortSignal): Promise<SwapToken[]>
  fetchQuote(input: SwapQuoteRequest, signal: AbortSignal): Promise<SwapQuote>
  buildSwap(input: SwapBuildRequest, signal: AbortSignal): Promise<SwapTransaction>
  checkBuild(input: SwapCheckRequest): Promise<SwapPrepared>
  simulate(input: SwapSimulationRequest): Promise<SwapSimulation>
  sendTransaction(input: SwapSendRequest): Promise<string>
}

/** A token reference as the convert API takes it: `solana:<ref>:<mint>`, SOL by its marker. */
const refOf = (chainId: string, address: string) =>
  `${chainId}:${address === NATIVE_TOKEN_ADDRESS || address === '' ? SOLANA_CONVERT_NATIVE : address}`

/**
 * @example
 * const slots = createSolanaSwapSlots({ api, projectId, networks: config.networks })
 * const quote = await slots.fetchQuote({ chainId, userAddress, from, to, amount }, signal)
 */
export function createSolanaSwapSlots({
  api,
  projectId,
  networks,
  rpcMap = {},
}: SolanaSwapParameters): SolanaSwapSlots {
  const target = { api, projectId, timeoutMs: DATA_API_TIMEOUT_MS }
  const fail = (make: (p: { details: string }) => Error) => (failure: RequestFailure) => {
    const parameters = { details: failure.details }
    if (/Network not supported for Swaps/.test(failure.details))
      return new SwapNetworkNotSupportedError(parameters)
    return make(parameters)
  }
  const connections = new Map<string, Connection>()
  const connectionOf = (chainId: string) => {
    const network = networks.find((n) => n.chainNamespace === 'solana' && n.caipNetworkId === chainId)
    const url = network && (rpcMap[network.caipNetworkId] ?? network.rpcUrls.default.http[0])
    if (!url) throw new UnsupportedChainError({ details: `${chainId} is not a configured network` })
    let connection = connections.get(chainId)
    if (!connection) {
      connection = new Connection(url, SOLANA_SEND_COMMITMENT)
      connections.set(chainId, connection)
    }
    return connection
  }
  const chainOf = (chainId: SwapTokensRequest['chainId']) => String(chainId)

  return {
    async fetchTokens({ chainId }, signal) {
      const chain = chainOf(chainId)
      const { tokens } = await dataApiCall(
        target,
        { path: 'v1/convert/tokens', query: { chainId: chain }, signal },
        TokensSchema,
        fail((p) => new SwapTokensError(p)),
      )
      return tokens.flatMap((item): SwapToken[] => {
        const parsed = v.safeParse(TokenSchema, item)
        if (!parsed.success || !parsed.output.address.startsWith(`${chain}:`)) return []
        const address = parsed.output.address.slice(chain.length + 1)
        if (!BASE58.test(address)) return []
        const logo = safeImageUrl(parsed.output.logoUri)
        return [
          {
            // SOL as the kit names every native currency, so balances and Max read it as native.
            address: address === SOLANA_CONVERT_NATIVE ? NATIVE_TOKEN_ADDRESS : address,
            symbol: safeText(parsed.output.symbol, 40),
            name: safeText(parsed.output.name, 80) || parsed.output.symbol,
            decimals: parsed.output.decimals,
            chainId: chain,
            ...(logo ? { logoUri: logo } : {}),
          },
        ]
      })
    },

    async fetchQuote(input, signal) {
      const chain = chainOf(input.chainId)
      const { quotes } = await dataApiCall(
        target,
        {
          path: 'v1/convert/quotes',
          query: {
            amount: input.amount,
            userAddress: `${chain}:${input.userAddress}`,
            from: refOf(chain, input.from),
            to: refOf(chain, input.to),
          },
          signal,
        },
        QuotesSchema,
        fail((p) => new SwapQuoteError(p)),
      )
      const [best] = quotes
      if (!best) throw new SwapQuoteError({ details: 'The Data API has no quote for this pair' })
      if (best.fromAmount !== input.amount)
        throw new SwapQuoteError({ details: `A quote for ${best.fromAmount}, not ${input.amount}` })
      return {
        fromAmount: best.fromAmount,
        toAmount: best.toAmount,
        ...(best.priceImpact === undefined ? {} : { priceImpact: best.priceImpact }),
        ...(best.fee === undefined ? {} : { fee: best.fee }),
        gasFee: best.networkFee,
        id: best.id,
        maker: best.maker,
        expiresAt: best.expiresAt,
      }
    },

    async buildSwap(input, signal) {
      const chain = chainOf(input.chainId)
      const { tx } = await dataApiCall(
        target,
        {
          path: 'v1/convert/build-transaction',
          body: {
            amount: input.amount,
            eip155: { slippage: input.slippage },
            projectId,
            from: refOf(chain, input.from),
            to: refOf(chain, input.to),
            userAddress: `${chain}:${input.userAddress}`,
            ...(input.quoteId ? { quoteId: input.quoteId } : {}),
          },
          signal,
        },
        BuildSchema,
        (failure) =>
          failure.status === 410
            ? new SwapQuoteExpiredError({ details: failure.details })
            : fail((p) => new SwapBuildError(p))(failure),
      )
      const maker = tx.to.startsWith(`${chain}:`) ? tx.to.slice(chain.length + 1) : tx.to
      return {
        to: '0x',
        data: '0x',
        value: '0',
        solana: { transaction: tx.data, maker, feePayer: tx.solana.feePayer, fee: tx.solana.fee },
      }
    },

    async checkBuild(input) {
      const built = input.swap.solana
      if (!built || !input.maker)
        throw new SolanaSwapMismatchError({
          mismatch: 'transaction',
          details: 'No maker transaction to check',
        })
      if (built.maker !== input.maker)
        throw new SolanaSwapMismatchError({
          mismatch: 'signers',
          details: `Built by ${built.maker}, quoted by ${input.maker}`,
        })
      const side = (address: string) =>
        address === NATIVE_TOKEN_ADDRESS || address === '' ? {} : { mint: address }
      await checkSolanaSwap(built.transaction, {
        account: input.account,
        maker: input.maker,
        // The preview says the visitor pays the network fee.
        feePayer: input.account,
        tokenIn: side(input.tokenIn),
        tokenOut: side(input.tokenOut),
        amountIn: BigInt(input.amountIn),
        minAmountOut: BigInt(input.minAmountOut),
      })
      return { approvals: [], swap: input.swap, validForMs: 0 }
    },

    // Solana swaps are not simulated yet: the slot says so, and the preview shows no simulated line (never a
    // guess); what the wallet signs was checked transfer by transfer.
    async simulate() {
      throw new Error('Solana swaps are checked, not simulated')
    },

    async sendTransaction(input) {
      const built = input.solana
      if (!built)
        throw new SolanaSwapMismatchError({ mismatch: 'transaction', details: 'Nothing checked to send' })
      if (!input.connectorId || !input.from) throw new SendAccountNotFoundError()
      const client = solanaWalletClient(input.connectorId)
      // The wallet's account changed since the kit last heard: nothing is signed by another account.
      if (client.account?.address !== input.from)
        throw new SendAccountNotFoundError({ details: `${input.from} is not the wallet's account` })
      const connection = connectionOf(String(input.chainId))
      const transaction = VersionedTransaction.deserialize(
        Uint8Array.from(atob(built.transaction), (c) => c.charCodeAt(0)),
      )
      try {
        const signature = await client.signAndSendTransaction(transaction, connection, {
          preflightCommitment: SOLANA_SEND_COMMITMENT,
        })
        const outcome = await connection.confirmTransaction(signature, SOLANA_SEND_COMMITMENT)
        if (outcome.value.err)
          throw new Error(`The swap failed on chain: ${JSON.stringify(outcome.value.err)}`)
        return signature
      } catch (error) {
        throw toSwapError(toSolanaError(error, 'send'), 'send')
      }
    },
  }
}
