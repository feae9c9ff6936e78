import * as v from 'valibot'
import { type Address, getAddress, type Hex } from 'viem'
import { DATA_API_TIMEOUT_MS, NATIVE_TOKEN_ADDRESS } from '../constants'
import type { BaseErrorParameters } from '../errors/base'
import {
  GasPriceNetworkNotSupportedError,
  SwapAllowanceError,
  SwapBuildError,
  type SwapError,
  SwapNetworkNotSupportedError,
  SwapQuoteError,
  SwapTokensError,
} from '../errors/swap'
import type {
  SwapAllowanceRequest,
  SwapApproveRequest,
  SwapBuildRequest,
  SwapChainId,
  SwapQuote,
  SwapQuoteRequest,
  SwapToken,
  SwapTransaction,
} from '../machines/swap/types'
import { safeText } from '../utils/links'
import { safeImageUrl } from './dataApi'
import { dataApiCall, type RequestFailure } from './http'

/**
 * Client of the Data API's convert endpoints (SPEC §7: tokens, quotes, allowance, gas-price, build-approve,
 * build-transaction), loaded with the swap flow. Every answer is parsed with a schema; a body that does not fit
 * fails the call, a token that does not fit is dropped. Failures leave as the swap's errors (src/errors/swap.ts):
 * the SPEC's 'Network not supported for Swaps' / '… for Gas Price' when the API says so, else the error of the
 * step. Token references go out as CAIP-10 (`eip155:1:0x…`), as the API names them.
 */

export interface ConvertClientOptions {
  api: string
  projectId: string
  timeoutMs?: number
  fetch?: typeof fetch
}

const CAIP10 = /^eip155:(\d{1,16}):(0x[0-9a-fA-F]{40})$/
const BASE_UNITS = v.pipe(v.string(), v.regex(/^\d{1,78}$/, 'is not a whole number'))
const HEX_DATA = v.pipe(v.string(), v.regex(/^0x([0-9a-fA-F]{2}){0,20000}$/, 'is not hex data'))
const MAX_TOKENS = 200

const TokenSchema = v.object({
  name: v.string(),
  symbol: v.pipe(v.string(), v.minLength(1), v.maxLength(40)),
  address: v.pipe(v.string(), v.regex(CAIP10, 'is not a CAIP-10 address')),
  decimals: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(36)),
  logoUri: v.optional(v.unknown()),
})
const TokensSchema = v.object({ tokens: v.pipe(v.array(v.unknown()), v.maxLength(MAX_TOKENS)) })
const QuotesSchema = v.object({
  quotes: v.pipe(
    v.array(
      v.object({
        fromAmount: BASE_UNITS,
        toAmount: BASE_UNITS,
        priceImpact: v.optional(v.pipe(v.number(), v.finite())),
        fee: v.optional(BASE_UNITS),
      }),
    ),
    v.maxLength(10),
  ),
})
const AllowanceSchema = v.object({ allowance: BASE_UNITS })
const GasPriceSchema = v.object({ standard: BASE_UNITS, fast: BASE_UNITS, instant: BASE_UNITS })
const TxSchema = v.object({
  to: v.pipe(v.string(), v.regex(CAIP10, 'is not a CAIP-10 address')),
  data: HEX_DATA,
  eip155: v.optional(
    v.object({ gas: v.optional(v.union([v.number(), BASE_UNITS])), gasPrice: v.optional(BASE_UNITS) }),
  ),
})
const ApproveSchema = v.object({ tx: v.object({ ...TxSchema.entries, value: v.optional(BASE_UNITS) }) })
const BuildSchema = v.object({ tx: v.object({ ...TxSchema.entries, amount: v.optional(BASE_UNITS) }) })

/** A swap's gas limit for the quote's network fee, until the API builds the transaction with its own. */
export const SWAP_GAS_LIMIT_ESTIMATE = 300_000n

type Stage = 'tokens' | 'quote' | 'allowance' | 'gasPrice' | 'build'
const STAGE_ERRORS: Record<Stage, new (parameters: BaseErrorParameters) => SwapError> = {
  tokens: SwapTokensError,
  quote: SwapQuoteError,
  allowance: SwapAllowanceError,
  gasPrice: SwapQuoteError,
  build: SwapBuildError,
}

/**
 * The eip155 reference of a swap's chain: this client serves eip155 chains (Solana's swaps go through their own
 * slots, src/actors/solanaSwap.ts); another namespace is SPEC §8's unsupported network.
 */
export function eip155Chain(chainId: SwapChainId): number {
  if (typeof chainId !== 'number')
    throw new SwapNetworkNotSupportedError({ details: `${chainId} is not an eip155 chain` })
  return chainId
}

/** The CAIP-10 reference of a token on a chain (the native currency as 0xeee…). */
export function tokenRef(chainId: number, address: string): string {
  const plain = address.toLowerCase() === NATIVE_TOKEN_ADDRESS ? NATIVE_TOKEN_ADDRESS : address
  return `eip155:${chainId}:${plain}`
}

/** The address of a CAIP-10 reference, checksummed (the native currency stays 0xeee…). */
function addressOf(ref: string): Address {
  const address = CAIP10.exec(ref)?.[2] ?? ''
  return address.toLowerCase() === NATIVE_TOKEN_ADDRESS ? NATIVE_TOKEN_ADDRESS : getAddress(address)
}

function transactionOf(
  tx: v.InferOutput<typeof TxSchema> & { value?: string | undefined; amount?: string | undefined },
): SwapTransaction {
  const gas = tx.eip155?.gas
  return {
    to: addressOf(tx.to),
    data: tx.data as Hex,
    value: tx.value ?? tx.amount ?? '0',
    ...(gas === undefined ? {} : { gas: String(gas) }),
    ...(tx.eip155?.gasPrice ? { gasPrice: tx.eip155.gasPrice } : {}),
  }
}

/**
 * SPEC §8 "Unsupported network: empty results (no quotes or tokens, allowance '0')": the API said it does not
 * serve the network ('Network not supported for Swaps' / '… for Gas Price'); the read answers `empty` instead.
 */
async function emptyWhenNotServed<T>(read: Promise<T>, empty: T): Promise<T> {
  try {
    return await read
  } catch (error) {
    if (error instanceof SwapNetworkNotSupportedError || error instanceof GasPriceNetworkNotSupportedError)
      return empty
    throw error
  }
}

export function createConvertClient(options: ConvertClientOptions) {
  const timeoutMs = options.timeoutMs ?? DATA_API_TIMEOUT_MS
  const fail =
    (stage: Stage) =>
    (failure: RequestFailure): SwapError => {
      const parameters = { details: failure.details }
      if (/Network not supported for Swaps/.test(failure.details))
        return new SwapNetworkNotSupportedError(parameters)
      if (/Network not supported for Gas Price/.test(failure.details))
        return new GasPriceNetworkNotSupportedError(parameters)
      return new STAGE_ERRORS[stage](parameters)
    }
  async function call<S extends v.GenericSchema>(
    stage: Stage,
    path: string,
    schema: S,
    {
      query,
      body,
      signal,
    }: { query?: Record<string, string>; body?: unknown; signal?: AbortSignal | undefined },
  ): Promise<v.InferOutput<S>> {
    return dataApiCall({ ...options, timeoutMs }, { path, query, body, signal }, schema, fail(stage))
  }

  return {
    /** The tokens the API swaps on a chain (empty on a network it does not serve). */
    async tokens(chainId: number, signal?: AbortSignal): Promise<SwapToken[]> {
      const { tokens } = await emptyWhenNotServed(
        call('tokens', 'v1/convert/tokens', TokensSchema, {
          query: { chainId: `eip155:${chainId}` },
          signal,
        }),
        { tokens: [] },
      )
      return tokens.flatMap((item) => {
        const parsed = v.safeParse(TokenSchema, item)
        if (!parsed.success) return []
        const { name, symbol, address, decimals, logoUri } = parsed.output
        const [, chain] = CAIP10.exec(address) ?? []
        if (Number(chain) !== chainId) return []
        const logo = safeImageUrl(logoUri)
        return [
          {
            address: addressOf(address),
            symbol: safeText(symbol, 40),
            name: safeText(name, 80) || symbol,
            decimals,
            chainId: `eip155:${chainId}`,
            ...(logo ? { logoUri: logo } : {}),
          },
        ]
      })
    },

    /** Wei per gas the API advises (its `standard`). */
    async gasPrice(chainId: number, signal?: AbortSignal): Promise<bigint> {
      const answer = await call('gasPrice', 'v1/convert/gas-price', GasPriceSchema, {
        query: { chainId: `eip155:${chainId}` },
        signal,
      })
      return BigInt(answer.standard)
    },

    /** The best quote for the amount, with its network fee at `gasPrice`; the API's other fields dropped. */
    async quote(request: SwapQuoteRequest, gasPrice: bigint, signal?: AbortSignal): Promise<SwapQuote> {
      // A network the API does not serve has no quotes (SPEC §8): the same answer as a pair without one.
      const { quotes } = await emptyWhenNotServed(
        call('quote', 'v1/convert/quotes', QuotesSchema, {
          query: {
            amount: request.amount,
            userAddress: tokenRef(eip155Chain(request.chainId), request.userAddress),
            from: tokenRef(eip155Chain(request.chainId), request.from),
            to: tokenRef(eip155Chain(request.chainId), request.to),
            gasPrice: gasPrice.toString(),
          },
          signal,
        }),
        { quotes: [] },
      )
      const [best] = quotes
      if (!best) throw new SwapQuoteError({ details: 'The Data API has no quote for this pair' })
      return {
        fromAmount: best.fromAmount,
        toAmount: best.toAmount,
        ...(best.priceImpact === undefined ? {} : { priceImpact: best.priceImpact }),
        ...(best.fee === undefined ? {} : { fee: best.fee }),
        gasFee: (SWAP_GAS_LIMIT_ESTIMATE * gasPrice).toString(),
      }
    },

    /** Base units the router may take from the account ('0' on a network the API does not serve). */
    async allowance(request: SwapAllowanceRequest, signal?: AbortSignal): Promise<string> {
      const { allowance } = await emptyWhenNotServed(
        call('allowance', 'v1/convert/allowance', AllowanceSchema, {
          query: {
            tokenAddress: tokenRef(eip155Chain(request.chainId), request.tokenAddress),
            userAddress: tokenRef(eip155Chain(request.chainId), request.userAddress),
          },
          signal,
        }),
        { allowance: '0' },
      )
      return allowance
    },

    /** The approve transaction for `amount` (the token contract's call). */
    async buildApprove(request: SwapApproveRequest, signal?: AbortSignal): Promise<SwapTransaction> {
      const { tx } = await call('build', 'v1/convert/build-approve', ApproveSchema, {
        query: {
          userAddress: tokenRef(eip155Chain(request.chainId), request.userAddress),
          from: tokenRef(eip155Chain(request.chainId), request.from),
          to: tokenRef(eip155Chain(request.chainId), request.to),
          amount: request.amount,
        },
        signal,
      })
      return transactionOf(tx)
    },

    /**
     * The swap transaction, its least amount out set by the slippage; with `disableEstimate` (built before its
     * approval is mined) without the API's gas figure.
     */
    async buildSwap(request: SwapBuildRequest, signal?: AbortSignal): Promise<SwapTransaction> {
      const { tx } = await call('build', 'v1/convert/build-transaction', BuildSchema, {
        body: {
          amount: request.amount,
          eip155: { slippage: request.slippage },
          projectId: options.projectId,
          from: tokenRef(eip155Chain(request.chainId), request.from),
          to: tokenRef(eip155Chain(request.chainId), request.to),
          userAddress: tokenRef(eip155Chain(request.chainId), request.userAddress),
          ...(request.disableEstimate ? { disableEstimate: true } : {}),
        },
        signal,
      })
      const transaction = transactionOf(tx)
      // Not estimated (its approval not mined yet): the wallet estimates the gas when it sends.
      if (request.disableEstimate) delete transaction.gas
      return transaction
    },
  }
}

export type ConvertClient = ReturnType<typeof createConvertClient>
