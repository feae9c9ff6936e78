import * as v from 'valibot'
import {
  type Address,
  BaseError,
  ContractFunctionRevertedError,
  encodeFunctionData,
  erc20Abi,
  getAddress,
  type Hex,
  isAddress,
  maxUint256,
  type PublicClient,
} from 'viem'
import { constantProductPoolAbi, sandboxSwapRouterAbi } from '../chain/contracts/build/artifacts.gen.ts'
import { errorJson, type SandboxResponse } from '../shared/http.ts'
import { parseBody, parseQuery, type Route } from './common.ts'

/**
 * The Data API's convert (swap) calls (SPEC §7), answered from the sandbox's constant-product pools through the
 * sandbox swap router (`SandboxSwapRouter`): exact-in swaps over the one pool of a pair, native ETH traded through
 * WETH. Every amount is a decimal string of base units (wei for ETH, 10^-6 for USDC and USDT). Tokens are named
 * by CAIP-10 addresses (`eip155:31337:0x...`, as balances name them), native ETH by
 * `eip155:31337:0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee`; a bare `0x...` address is read as the sandbox chain's.
 *
 * Another network (a CAIP-2 or CAIP-10 of another chain, or an API started without a router) answers as SPEC §8
 * says: empty token and quote lists, allowance '0'; gas price and the two build calls refuse with 400
 * 'Network not supported for Gas Price' / 'Network not supported for Swaps'. Other refusals are 400 with a
 * message naming the parameter, in the Data API's error shape `{ error, status }`.
 */

/** The address that names native ETH in convert calls (lower case, as the provider's clients send it). */
export const CONVERT_NATIVE_ADDRESS = '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee'

/** The pools' fee on the amount swapped in, in percent (ConstantProductPool keeps 3/1000). */
export const POOL_FEE_PERCENT = 0.3

/** How long a built swap stays valid: its deadline is the latest block's time plus this. */
export const SWAP_DEADLINE_SECONDS = 20 * 60

/** Gas limits answered when `disableEstimate` is set (swap) or an estimate is not possible (approve). */
export const DEFAULT_SWAP_GAS = 300_000n
export const DEFAULT_APPROVE_GAS = 100_000n

/**
 * Where the `hostile` fault mode sends what it builds: the spender of its approvals and the "router" of its
 * swaps. No contract lives there; a kit that checks its builds never asks a wallet to sign for it.
 */
export const HOSTILE_ADDRESS: Address = getAddress('0x000000000000000000000000000000000000bad0')
/** What the `hostile` fault mode adds to the value of its builds: 3 ETH to an approval, 7 ETH to a swap. */
export const HOSTILE_APPROVE_VALUE = 3n * 10n ** 18n
export const HOSTILE_SWAP_EXTRA_VALUE = 7n * 10n ** 18n

/** Slippage the build call accepts, in percent of the quoted amount out; the default is SPEC §9's 1. */
export const MAX_SLIPPAGE_PERCENT = 50
export const DEFAULT_SLIPPAGE_PERCENT = 1

export const UNSUPPORTED_SWAPS = 'Network not supported for Swaps'
export const UNSUPPORTED_GAS_PRICE = 'Network not supported for Gas Price'

/** `GET /v1/convert/tokens` answers `{ tokens: SwapToken[] }`. */
export interface SwapToken {
  name: string
  symbol: string
  /** CAIP-10; native ETH is `eip155:31337:0xeeee...eeee`. */
  address: string
  decimals: number
  /** The Data API's icon of the symbol, `{origin}/icons/{SYMBOL}.svg`. */
  logoUri: string
  /** Whether the token takes EIP-2612 permits: never in the sandbox, so an approve is needed. */
  eip2612: boolean
}

/** One quote of `GET /v1/convert/quotes`, which answers `{ quotes: [SwapQuote] }` (or `[]` on another network). */
export interface SwapQuote {
  /** The sandbox keeps no quote ids. */
  id: null
  /** The amount in, base units of the `from` token (the `amount` asked for). */
  fromAmount: string
  /** CAIP-10 of the token sold. */
  fromAccount: string
  /** The amount out the pool pays now (its `getAmountOut`), base units of the `to` token. */
  toAmount: string
  /** CAIP-10 of the token bought. */
  toAccount: string
  /**
   * How far the pool's price moves against the trade, in percent, fee left out: 100 * (ideal - toAmount) / ideal,
   * where ideal is what the amount after fee would buy at the pool's current price. Six decimals at most.
   */
  priceImpact: number
  /** The pool's fee, base units of the `from` token (0.3% of `fromAmount`, rounded down). */
  fee: string
  /** The fee rate in percent: {@link POOL_FEE_PERCENT}. */
  feePercent: number
  /** CAIP-10 of the pool the swap goes through. */
  pool: string
}

/** `GET /v1/convert/allowance` answers `{ allowance }`: base units the router may pull; native ETH: 2^256-1. */
export interface SwapAllowance {
  allowance: string
}

/** `GET /v1/convert/gas-price` answers wei per gas as decimal strings: the chain's price, +25%, +50%. */
export interface SwapGasPrice {
  standard: string
  fast: string
  instant: string
}

/**
 * `GET /v1/convert/build-approve` answers `{ tx }`: an `approve(router, amount)` call on the token sold, to sign
 * and send from the user. The calldata is the same for USDT-style tokens, whose approve returns no value.
 */
export interface SwapApproveTx {
  tx: {
    /** CAIP-10 of the user who sends it. */
    from: string
    /** CAIP-10 of the token contract the call goes to. */
    to: string
    data: Hex
    /** Always '0'. */
    value: string
    /** `gas`: the estimate (or {@link DEFAULT_APPROVE_GAS}); `gasPrice` in wei. */
    eip155: { gas: number; gasPrice: string }
  }
  /** The router's address (the spender) and the amount approved, base units (2^256-1 unless `amount` is given). */
  spender: Address
  amount: string
}

/**
 * `POST /v1/convert/build-transaction` answers `{ tx, quote }`: a `swapExactIn` call on the router to sign and
 * send from the user, with `minAmountOut` the quote less the slippage and a deadline
 * {@link SWAP_DEADLINE_SECONDS} after the latest block.
 */
export interface SwapBuiltTx {
  tx: {
    /** CAIP-10 of the user who sends it. */
    from: string
    /** CAIP-10 of the router. */
    to: string
    data: Hex
    /** The value to send, wei: the amount when ETH is sold, '0' otherwise. */
    amount: string
    /** `gas`: the estimate, or {@link DEFAULT_SWAP_GAS} with `disableEstimate`; `gasPrice` in wei. */
    eip155: { gas: string; gasPrice: string }
  }
  quote: {
    fromAmount: string
    /** What the pool pays now. */
    toAmount: string
    /** The least the swap accepts: toAmount * (100 - slippage) / 100, rounded down. */
    minAmountOut: string
    /** Unix seconds. */
    deadline: string
    /** Percent. */
    slippage: number
  }
}

/** What the convert routes need from the Data API. */
export interface ConvertContext {
  client: PublicClient
  /** EIP-155 chain id of the chain served. */
  chainId: number
  /** The swap router; without it every network is unsupported. */
  router: Address | undefined
  /** The Data API's ERC-20 tokens: those with a pool through the router are swappable. */
  tokens: ReadonlyArray<{ address: Address; name: string; symbol: string; decimals: number }>
  iconUrl(symbol: string): string
  /**
   * Whether the request on `path` gets a hostile build (the Data API's fault switch in `hostile` mode, counted
   * as it applies): an approval of 2^256-1 to {@link HOSTILE_ADDRESS} with 3 ETH of value, a swap sent to it
   * with 7 ETH more than its value and a least amount out of 0, each well-formed.
   */
  hostile?: (path: string) => boolean
}

const CAIP2 = /^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}$/
const CAIP10 = /^([-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}):([-.%a-zA-Z0-9]{1,128})$/
const HEX_ADDRESS = /^0x[0-9a-fA-F]{40}$/
const AMOUNT = /^\d{1,78}$/
/** Larger amounts would overflow the pool's arithmetic (amount * 997 * reserve); no token has that much. */
const MAX_AMOUNT = 2n ** 128n - 1n

const TokenRefSchema = v.pipe(
  v.string(),
  v.check(
    (value) => HEX_ADDRESS.test(value) || CAIP10.test(value),
    'must be a CAIP-10 address like eip155:31337:0x... or a 0x address',
  ),
)
const AmountSchema = v.pipe(
  v.string(),
  v.regex(AMOUNT, 'must be a whole number of base units'),
  // Validations run on after a failed one, so each checks the format again before BigInt.
  v.check((value) => !AMOUNT.test(value) || BigInt(value) > 0n, 'must be more than 0'),
  v.check((value) => !AMOUNT.test(value) || BigInt(value) <= MAX_AMOUNT, 'is too large'),
)
const ChainIdSchema = v.pipe(v.string(), v.regex(CAIP2, 'must be a CAIP-2 chain id like eip155:31337'))
const REQUIRED = 'is required'

const TokensQuerySchema = v.object({ chainId: v.optional(ChainIdSchema) })
const QuotesQuerySchema = v.object({
  amount: v.pipe(v.string(REQUIRED), AmountSchema),
  userAddress: v.pipe(v.string(REQUIRED), TokenRefSchema),
  from: v.pipe(v.string(REQUIRED), TokenRefSchema),
  to: v.pipe(v.string(REQUIRED), TokenRefSchema),
  gasPrice: v.optional(v.pipe(v.string(), v.regex(AMOUNT, 'must be a whole number of wei'))),
})
const AllowanceQuerySchema = v.object({
  tokenAddress: v.pipe(v.string(REQUIRED), TokenRefSchema),
  userAddress: v.pipe(v.string(REQUIRED), TokenRefSchema),
})
const GasPriceQuerySchema = v.object({ chainId: v.pipe(v.string(REQUIRED), ChainIdSchema) })
const ApproveQuerySchema = v.object({
  userAddress: v.pipe(v.string(REQUIRED), TokenRefSchema),
  from: v.pipe(v.string(REQUIRED), TokenRefSchema),
  to: v.pipe(v.string(REQUIRED), TokenRefSchema),
  // Zero too: a USDT-style token's allowance is set to zero before it is changed.
  amount: v.optional(
    v.pipe(
      v.string(),
      v.regex(AMOUNT, 'must be a whole number of base units'),
      v.check((value) => !AMOUNT.test(value) || BigInt(value) <= MAX_AMOUNT, 'is too large'),
    ),
  ),
})
const SlippageSchema = v.pipe(
  v.union(
    [
      v.number(),
      v.pipe(
        v.string(),
        v.regex(/^\d{1,3}(\.\d{1,4})?$/, 'eip155.slippage must be a number of percent'),
        v.transform(Number),
      ),
    ],
    'eip155.slippage must be a number of percent',
  ),
  v.number(),
  v.check(
    (value) => Number.isFinite(value) && value >= 0 && value <= MAX_SLIPPAGE_PERCENT,
    `eip155.slippage must be between 0 and ${MAX_SLIPPAGE_PERCENT} (percent)`,
  ),
)
/** `POST /v1/convert/build-transaction` (SPEC §7). */
export const BuildTransactionBodySchema = v.object({
  amount: v.pipe(v.string('amount must be a string of base units'), AmountSchema),
  eip155: v.optional(v.object({ slippage: v.optional(SlippageSchema) }, 'eip155 must be an object')),
  projectId: v.optional(v.pipe(v.string('projectId must be a string'), v.maxLength(200))),
  from: v.pipe(v.string('from must be a string'), TokenRefSchema),
  to: v.pipe(v.string('to must be a string'), TokenRefSchema),
  userAddress: v.pipe(v.string('userAddress must be a string'), TokenRefSchema),
  disableEstimate: v.optional(v.boolean('disableEstimate must be a boolean')),
})

/** A CAIP-10 or 0x reference: an address on the served chain, another network, or the 400 to send. */
type Resolved = { address: Address } | { otherNetwork: true } | { error: SandboxResponse }

interface Swappable {
  /** As the router names it: the ERC-20's address, or the 0xEeee... sentinel for ETH. */
  address: Address
  name: string
  symbol: string
  decimals: number
}

/** A revert's reason when there is one, else the error's short message: the text for error answers. */
function detail(error: unknown): string {
  if (error instanceof BaseError) {
    const revert = error.walk((e) => e instanceof ContractFunctionRevertedError)
    if (revert instanceof ContractFunctionRevertedError && revert.reason) return revert.reason
    const reason = /reverted with reason string '([^']*)'|execution reverted: ([^\n]*)/.exec(error.message)
    if (reason) return reason[1] ?? reason[2] ?? error.shortMessage
    return error.shortMessage
  }
  return error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error)
}

/** 400 when the chain refused the call (a revert), 502 when it could not be asked. */
function chainUnavailable(error: unknown): SandboxResponse {
  if (error instanceof BaseError && error.walk((e) => e instanceof ContractFunctionRevertedError))
    return errorJson(400, `Swap not possible: ${detail(error)}`)
  return errorJson(502, `Chain RPC unavailable: ${detail(error)}`)
}

/**
 * The convert routes of the Data API: tokens, quotes, allowance, gas-price, build-approve and build-transaction
 * under `/v1/convert/`. Answer shapes: {@link SwapToken}, {@link SwapQuote}, {@link SwapAllowance},
 * {@link SwapGasPrice}, {@link SwapApproveTx}, {@link SwapBuiltTx}.
 */
export function convertRoutes(ctx: ConvertContext): Route[] {
  const caip2 = `eip155:${ctx.chainId}`
  const native = getAddress(CONVERT_NATIVE_ADDRESS)
  const caip10 = (address: string) =>
    `${caip2}:${address.toLowerCase() === CONVERT_NATIVE_ADDRESS ? CONVERT_NATIVE_ADDRESS : getAddress(address)}`
  const router = ctx.router ? getAddress(ctx.router) : undefined

  /** Pools by `a|b` (router names, both orders), read from the router once and kept (pools never leave it). */
  let poolsRead: Promise<{ weth: Address; tokens: Swappable[]; pools: Map<string, Address> }> | undefined
  const pairKey = (a: Address, b: Address) => `${a.toLowerCase()}|${b.toLowerCase()}`
  async function readPools(target: Address) {
    const weth = await ctx.client.readContract({
      address: target,
      abi: sandboxSwapRouterAbi,
      functionName: 'weth',
    })
    const candidates: Swappable[] = [
      { address: native, name: 'Ether', symbol: 'ETH', decimals: 18 },
      ...ctx.tokens.map((t) => ({ ...t, address: getAddress(t.address) })),
    ]
    const wrapped = (token: Swappable) => (token.address === native ? weth : token.address)
    const pools = new Map<string, Address>()
    for (const [i, a] of candidates.entries()) {
      for (const b of candidates.slice(i + 1)) {
        const pool = await ctx.client.readContract({
          address: target,
          abi: sandboxSwapRouterAbi,
          functionName: 'poolFor',
          args: [wrapped(a), wrapped(b)],
        })
        if (BigInt(pool) === 0n) continue
        pools.set(pairKey(a.address, b.address), pool)
        pools.set(pairKey(b.address, a.address), pool)
      }
    }
    const tokens = candidates.filter((t) => candidates.some((o) => pools.has(pairKey(t.address, o.address))))
    return { weth, tokens, pools }
  }
  function market() {
    if (!router) throw new Error('no swap router')
    poolsRead ??= readPools(router).catch((error: unknown) => {
      poolsRead = undefined
      throw error
    })
    return poolsRead
  }

  /** Resolves a CAIP-10 or 0x reference on the served chain. */
  function resolve(value: string, name: string): Resolved {
    const parts = CAIP10.exec(value)
    const chain = parts ? parts[1] : caip2
    const address = parts ? (parts[2] ?? '') : value
    if (chain !== caip2 || !router) return { otherNetwork: true }
    if (!isAddress(address, { strict: false }))
      return { error: errorJson(400, `Invalid ${name}: ${value.slice(0, 100)} is not an address`) }
    return { address: getAddress(address) }
  }

  /** Resolves several references; the first refusal or another network wins. */
  function resolveAll(pairs: Array<[string, string]>):
    | { addresses: Address[] }
    | { otherNetwork: true }
    | {
        error: SandboxResponse
      } {
    const addresses: Address[] = []
    for (const [value, name] of pairs) {
      const resolved = resolve(value, name)
      if (!('address' in resolved)) return resolved
      addresses.push(resolved.address)
    }
    return { addresses }
  }

  /** The swappable token at `address`, or the 400 naming the parameter. */
  function swappable(
    tokens: Swappable[],
    address: Address,
    name: string,
  ): Swappable | { error: SandboxResponse } {
    const token = tokens.find((t) => t.address === address)
    if (token) return token
    return {
      error: errorJson(
        400,
        `Invalid ${name}: ${caip10(address)} is not a swappable token (${tokens.map((t) => t.symbol).join(', ')})`,
      ),
    }
  }

  /** The pair's tokens and pool, or the 400 to send. */
  async function pair(
    fromAddress: Address,
    toAddress: Address,
  ): Promise<{ from: Swappable; to: Swappable; pool: Address } | { error: SandboxResponse }> {
    const { tokens, pools } = await market()
    const from = swappable(tokens, fromAddress, 'from')
    if ('error' in from) return from
    const to = swappable(tokens, toAddress, 'to')
    if ('error' in to) return to
    if (from.address === to.address)
      return { error: errorJson(400, 'Invalid pair: from and to are the same token') }
    const pool = pools.get(pairKey(from.address, to.address))
    if (!pool)
      return { error: errorJson(400, `No pool for ${from.symbol} → ${to.symbol}: swap through USDC`) }
    return { from, to, pool }
  }

  const amountOut = (from: Address, to: Address, amount: bigint) =>
    ctx.client.readContract({
      address: router!,
      abi: sandboxSwapRouterAbi,
      functionName: 'getAmountOut',
      args: [from, to, amount],
    })

  async function quote(from: Swappable, to: Swappable, pool: Address, amount: bigint): Promise<SwapQuote> {
    const [{ weth }, out, token0, [reserve0, reserve1]] = await Promise.all([
      market(),
      amountOut(from.address, to.address, amount),
      ctx.client.readContract({ address: pool, abi: constantProductPoolAbi, functionName: 'token0' }),
      ctx.client.readContract({ address: pool, abi: constantProductPoolAbi, functionName: 'getReserves' }),
    ])
    // WETH stands for ETH in the pool.
    const fromIsToken0 = (from.address === native ? weth : from.address) === getAddress(token0)
    const [reserveIn, reserveOut] = fromIsToken0 ? [reserve0, reserve1] : [reserve1, reserve0]
    const afterFee = (amount * 997n) / 1000n
    const ideal = (afterFee * reserveOut) / reserveIn
    const impact = ideal === 0n ? 0 : Number(((ideal - out) * 100_000_000n) / ideal) / 1_000_000
    return {
      id: null,
      fromAmount: amount.toString(),
      fromAccount: caip10(from.address),
      toAmount: out.toString(),
      toAccount: caip10(to.address),
      priceImpact: impact,
      fee: ((amount * 3n) / 1000n).toString(),
      feePercent: POOL_FEE_PERCENT,
      pool: caip10(pool),
    }
  }

  return [
    {
      method: 'GET',
      pattern: /^\/v1\/convert\/tokens$/,
      handle: async ({ req }) => {
        const parsed = parseQuery(req.url, ['chainId'], TokensQuerySchema)
        if ('error' in parsed) return parsed.error
        const chainId = parsed.value.chainId ?? caip2
        if (chainId !== caip2 || !router) return { json: { tokens: [] } }
        try {
          const { tokens } = await market()
          const list: SwapToken[] = tokens.map((t) => ({
            name: t.name,
            symbol: t.symbol,
            address: caip10(t.address),
            decimals: t.decimals,
            logoUri: ctx.iconUrl(t.symbol),
            eip2612: false,
          }))
          return { json: { tokens: list } }
        } catch (error) {
          return chainUnavailable(error)
        }
      },
    },
    {
      method: 'GET',
      pattern: /^\/v1\/convert\/quotes$/,
      handle: async ({ req }) => {
        const names = ['amount', 'userAddress', 'from', 'to', 'gasPrice']
        const parsed = parseQuery(req.url, names, QuotesQuerySchema)
        if ('error' in parsed) return parsed.error
        const { amount, userAddress, from, to } = parsed.value
        const resolved = resolveAll([
          [userAddress, 'userAddress'],
          [from, 'from'],
          [to, 'to'],
        ])
        if ('otherNetwork' in resolved) return { json: { quotes: [] } }
        if ('error' in resolved) return resolved.error
        const [, fromAddress, toAddress] = resolved.addresses as [Address, Address, Address]
        try {
          const found = await pair(fromAddress, toAddress)
          if ('error' in found) return found.error
          return { json: { quotes: [await quote(found.from, found.to, found.pool, BigInt(amount))] } }
        } catch (error) {
          return chainUnavailable(error)
        }
      },
    },
    {
      method: 'GET',
      pattern: /^\/v1\/convert\/allowance$/,
      handle: async ({ req }) => {
        const parsed = parseQuery(req.url, ['tokenAddress', 'userAddress'], AllowanceQuerySchema)
        if ('error' in parsed) return parsed.error
        const resolved = resolveAll([
          [parsed.value.tokenAddress, 'tokenAddress'],
          [parsed.value.userAddress, 'userAddress'],
        ])
        if ('otherNetwork' in resolved) return { json: { allowance: '0' } }
        if ('error' in resolved) return resolved.error
        const [token, user] = resolved.addresses as [Address, Address]
        try {
          const found = swappable((await market()).tokens, token, 'tokenAddress')
          if ('error' in found) return found.error
          if (found.address === native) return { json: { allowance: maxUint256.toString() } }
          const allowance = await ctx.client.readContract({
            address: token,
            abi: erc20Abi,
            functionName: 'allowance',
            args: [user, router!],
          })
          return { json: { allowance: allowance.toString() } satisfies SwapAllowance }
        } catch (error) {
          return chainUnavailable(error)
        }
      },
    },
    {
      method: 'GET',
      pattern: /^\/v1\/convert\/gas-price$/,
      handle: async ({ req }) => {
        const parsed = parseQuery(req.url, ['chainId'], GasPriceQuerySchema)
        if ('error' in parsed) return parsed.error
        if (parsed.value.chainId !== caip2 || !router) return errorJson(400, UNSUPPORTED_GAS_PRICE)
        try {
          const price = await ctx.client.getGasPrice()
          const answer: SwapGasPrice = {
            standard: price.toString(),
            fast: ((price * 5n) / 4n).toString(),
            instant: ((price * 3n) / 2n).toString(),
          }
          return { json: answer }
        } catch (error) {
          return chainUnavailable(error)
        }
      },
    },
    {
      method: 'GET',
      pattern: /^\/v1\/convert\/build-approve$/,
      handle: async ({ req }) => {
        const parsed = parseQuery(req.url, ['userAddress', 'from', 'to', 'amount'], ApproveQuerySchema)
        if ('error' in parsed) return parsed.error
        const { userAddress, from, to, amount } = parsed.value
        const resolved = resolveAll([
          [userAddress, 'userAddress'],
          [from, 'from'],
          [to, 'to'],
        ])
        if ('otherNetwork' in resolved) return errorJson(400, UNSUPPORTED_SWAPS)
        if ('error' in resolved) return resolved.error
        const [user, fromAddress, toAddress] = resolved.addresses as [Address, Address, Address]
        try {
          const found = await pair(fromAddress, toAddress)
          if ('error' in found) return found.error
          if (found.from.address === native)
            return errorJson(400, 'Invalid from: native ETH is sent with the swap and needs no approval')
          const hostile = ctx.hostile?.(req.url.pathname) ?? false
          const value = amount === undefined || hostile ? maxUint256 : BigInt(amount)
          const spender = hostile ? HOSTILE_ADDRESS : router!
          const data = encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [spender, value] })
          const [gas, gasPrice] = await Promise.all([
            ctx.client.estimateGas({ account: user, to: fromAddress, data }).catch(() => DEFAULT_APPROVE_GAS),
            ctx.client.getGasPrice(),
          ])
          const answer: SwapApproveTx = {
            tx: {
              from: caip10(user),
              to: caip10(fromAddress),
              data,
              value: hostile ? HOSTILE_APPROVE_VALUE.toString() : '0',
              eip155: { gas: Number(gas), gasPrice: gasPrice.toString() },
            },
            spender,
            amount: value.toString(),
          }
          return { json: answer }
        } catch (error) {
          return chainUnavailable(error)
        }
      },
    },
    {
      method: 'POST',
      pattern: /^\/v1\/convert\/build-transaction$/,
      handle: async ({ req }) => {
        const parsed = parseBody(req.body, BuildTransactionBodySchema, 'build-transaction')
        if ('error' in parsed) return parsed.error
        const { amount, from, to, userAddress, disableEstimate } = parsed.value
        const slippage = parsed.value.eip155?.slippage ?? DEFAULT_SLIPPAGE_PERCENT
        const resolved = resolveAll([
          [userAddress, 'userAddress'],
          [from, 'from'],
          [to, 'to'],
        ])
        if ('otherNetwork' in resolved) return errorJson(400, UNSUPPORTED_SWAPS)
        if ('error' in resolved) return resolved.error
        const [user, fromAddress, toAddress] = resolved.addresses as [Address, Address, Address]
        const amountIn = BigInt(amount)
        try {
          const found = await pair(fromAddress, toAddress)
          if ('error' in found) return found.error
          const [out, block, gasPrice] = await Promise.all([
            amountOut(fromAddress, toAddress, amountIn),
            ctx.client.getBlock(),
            ctx.client.getGasPrice(),
          ])
          const hostile = ctx.hostile?.(req.url.pathname) ?? false
          // Slippage in hundredths of a basis point, so 0.0001% steps are exact.
          const keep = 1_000_000n - BigInt(Math.round(slippage * 10_000))
          const minAmountOut = hostile ? 0n : (out * keep) / 1_000_000n
          // From the later of the latest block and now: an idle chain's last block may be long past.
          const now = BigInt(Math.floor(Date.now() / 1000))
          const deadline = (block.timestamp > now ? block.timestamp : now) + BigInt(SWAP_DEADLINE_SECONDS)
          const data = encodeFunctionData({
            abi: sandboxSwapRouterAbi,
            functionName: 'swapExactIn',
            args: [fromAddress, toAddress, amountIn, minAmountOut, user, deadline],
          })
          const value = (fromAddress === native ? amountIn : 0n) + (hostile ? HOSTILE_SWAP_EXTRA_VALUE : 0n)
          const target = hostile ? HOSTILE_ADDRESS : router!
          let gas = DEFAULT_SWAP_GAS
          if (!disableEstimate && !hostile) {
            try {
              gas = await ctx.client.estimateGas({ account: user, to: router!, data, value })
            } catch (error) {
              return errorJson(400, `Swap would revert: ${detail(error)}`)
            }
          }
          const answer: SwapBuiltTx = {
            tx: {
              from: caip10(user),
              to: caip10(target),
              data,
              amount: value.toString(),
              eip155: { gas: gas.toString(), gasPrice: gasPrice.toString() },
            },
            quote: {
              fromAmount: amountIn.toString(),
              toAmount: out.toString(),
              minAmountOut: minAmountOut.toString(),
              deadline: deadline.toString(),
              slippage,
            },
          }
          return { json: answer }
        } catch (error) {
          return chainUnavailable(error)
        }
      },
    },
  ]
}
