import * as v from 'valibot'
import { type Address, createPublicClient, erc20Abi, formatUnits, getAddress, http, isAddress } from 'viem'
import { errorJson, type SandboxService, startService } from '../shared/http.ts'
import { createRouter, parseBody, parseQuery, type Route } from './common.ts'
import { openDatabase, type SandboxDb } from './db.ts'
import { badgeSvg, SVG_HEADERS } from './images.ts'
import { listTelemetry, storeTelemetry, TelemetryBodySchema, type TelemetryEvent } from './telemetry.ts'

export type { TelemetryEvent } from './telemetry.ts'

/** An ERC-20 token the Data API reports balances and prices for. */
export interface DataApiToken {
  address: string
  symbol: string
  name: string
  decimals: number
}

/** Fixed USD prices by symbol: the sandbox has no market, so prices never move. */
export const PRICES_USD: Readonly<Record<string, number>> = {
  ETH: 3000,
  WETH: 3000,
  USDC: 1,
  USDT: 1,
  STK: 2.5,
}

/** The address that names the native currency in price calls (the convention the provider's clients use). */
export const NATIVE_TOKEN_ADDRESS = '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee'

export interface DataApiOptions {
  /** 0 (the default) binds a free port. */
  port?: number
  /** JSON-RPC URL of the chain balances are read from, live, on every call. */
  rpcUrl: string
  /** EIP-155 chain id of that chain (31337 for the sandbox's anvil). */
  chainId: number
  /** ERC-20 tokens to report (from `startChain().tokens`). */
  tokens: DataApiToken[]
  /** A database to share with other services; when absent an in-memory one is opened and closed with the API. */
  db?: SandboxDb
  /** `GET /v1/supported-chains`; default `{ http: ['eip155:<chainId>'], ws: [] }`. */
  supportedChains?: { http: string[]; ws: string[] }
  /** Extra or overriding USD prices by symbol, merged over `PRICES_USD`. */
  prices?: Record<string, number>
  /** When set, calls with any other project id are refused with 403 "Invalid project id". */
  projectIds?: string[]
}

export interface DataApi extends SandboxService {
  /** The database the API writes to (the one passed in, or its own). */
  db: SandboxDb
  /** Stored telemetry events in arrival order, optionally one project's only. */
  telemetry(projectId?: string): Promise<TelemetryEvent[]>
}

/** One balance as the Data API answers it (SPEC §3, "Token balance"). */
export interface BalanceItem {
  name: string
  symbol: string
  /** CAIP-2 */
  chainId: string
  /** CAIP-10 for tokens; absent for the native currency. */
  address?: string
  /** In USD: quantity times price. */
  value: number
  price: number
  quantity: { decimals: string; numeric: string }
  iconUrl: string
}

const CAIP2 = /^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}$/
const CAIP10 = /^([-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}):([-.%a-zA-Z0-9]{1,128})$/
const MAX_PRICE_ADDRESSES = 100

const BalanceQuerySchema = v.object({
  currency: v.optional(v.picklist(['usd'], "Unsupported currency: only 'usd' is served"), 'usd'),
  chainId: v.optional(v.pipe(v.string(), v.regex(CAIP2, 'must be a CAIP-2 chain id like eip155:1'))),
  forceUpdate: v.optional(v.string()),
})

const PriceBodySchema = v.object({
  currency: v.picklist(['usd'], "Unsupported currency: only 'usd' is served"),
  addresses: v.pipe(
    v.array(v.pipe(v.string(), v.regex(CAIP10, 'addresses must be CAIP-10 like eip155:1:0x...'))),
    v.maxLength(MAX_PRICE_ADDRESSES, `at most ${MAX_PRICE_ADDRESSES} addresses`),
  ),
  projectId: v.optional(v.pipe(v.string(), v.maxLength(200))),
})

const round = (n: number) => Math.round(n * 1e8) / 1e8

/**
 * Starts the Data API's first slice (SPEC §7): `GET /v1/supported-chains`, `GET /v1/account/{address}/balance`
 * (read live from the chain), `POST /v1/fungible/price` (fixed prices) and the telemetry sink `POST /e`, each
 * requiring projectId, st and sv. Sandbox-only: `GET /__telemetry` lists stored events and `GET
 * /icons/{SYMBOL}.svg` serves the token icons balances point at.
 *
 * @example
 * const chain = await startChain()
 * const api = await startDataApi({ rpcUrl: chain.rpcUrl, chainId: chain.chainId, tokens: chain.tokens })
 * await fetch(`${api.origin}/v1/account/${addr}/balance?projectId=p&st=appkit&sv=0.1.0&currency=usd&chainId=eip155:31337`)
 */
export async function startDataApi(options: DataApiOptions): Promise<DataApi> {
  const ownsDb = options.db === undefined
  const db = options.db ?? (await openDatabase())
  const caip2 = `eip155:${options.chainId}`
  const supported = options.supportedChains ?? { http: [caip2], ws: [] }
  const prices: Record<string, number> = { ...PRICES_USD, ...options.prices }
  const tokens = options.tokens.map((token) => ({ ...token, address: getAddress(token.address) }))
  const client = createPublicClient({
    // No retries here: the kit's own transport retries, and a dead chain should surface quickly.
    transport: http(options.rpcUrl, { retryCount: 0, timeout: 10_000 }),
  })
  const iconSymbols = new Set(
    ['ETH', ...Object.keys(prices), ...tokens.map((t) => t.symbol)].map((s) => s.toUpperCase()),
  )
  let origin = ''
  const iconUrl = (symbol: string) => `${origin}/icons/${encodeURIComponent(symbol.toUpperCase())}.svg`
  const priceOf = (symbol: string) => prices[symbol.toUpperCase()] ?? 0

  async function balances(address: Address): Promise<BalanceItem[]> {
    const [native, ...tokenRaw] = await Promise.all([
      client.getBalance({ address }),
      ...tokens.map((token) =>
        client.readContract({
          address: token.address,
          abi: erc20Abi,
          functionName: 'balanceOf',
          args: [address],
        }),
      ),
    ])
    const item = (
      raw: bigint,
      t: { name: string; symbol: string; decimals: number },
      tokenAddress?: string,
    ) => {
      const numeric = formatUnits(raw, t.decimals)
      const price = priceOf(t.symbol)
      const entry: BalanceItem = {
        name: t.name,
        symbol: t.symbol,
        chainId: caip2,
        value: round(Number(numeric) * price),
        price,
        quantity: { decimals: String(t.decimals), numeric },
        iconUrl: iconUrl(t.symbol),
      }
      if (tokenAddress) entry.address = `${caip2}:${tokenAddress}`
      return entry
    }
    const out: BalanceItem[] = []
    // Like the provider's API, only holdings are listed: zero balances are left out.
    if (native! > 0n) out.push(item(native!, { name: 'Ether', symbol: 'ETH', decimals: 18 }))
    tokens.forEach((token, i) => {
      const raw = tokenRaw[i]!
      if (raw > 0n) out.push(item(raw, token, token.address))
    })
    return out
  }

  const routes: Route[] = [
    {
      method: 'GET',
      pattern: /^\/v1\/supported-chains$/,
      handle: () => ({ json: { http: [...supported.http], ws: [...supported.ws] } }),
    },
    {
      method: 'GET',
      pattern: /^\/v1\/account\/([^/]+)\/balance$/,
      handle: async ({ req, params: [account = ''] }) => {
        const parsed = parseQuery(req.url, ['currency', 'chainId', 'forceUpdate'], BalanceQuerySchema)
        if ('error' in parsed) return parsed.error
        const chainId = parsed.value.chainId ?? caip2
        if (chainId !== caip2) return { json: { balances: [] } }
        if (!isAddress(account, { strict: false }))
          return errorJson(400, `Invalid address: ${account.slice(0, 100)}`)
        try {
          return { json: { balances: await balances(getAddress(account)) } }
        } catch (error) {
          const detail = error instanceof Error ? error.message.split('\n')[0] : String(error)
          return errorJson(502, `Chain RPC unavailable: ${detail}`)
        }
      },
    },
    {
      method: 'POST',
      pattern: /^\/v1\/fungible\/price$/,
      handle: ({ req }) => {
        const parsed = parseBody(req.body, PriceBodySchema, 'price request')
        if ('error' in parsed) return parsed.error
        const fungibles: Array<{ name: string; symbol: string; iconUrl: string; price: number }> = []
        for (const caip10 of parsed.value.addresses) {
          const [, chain, address = ''] = CAIP10.exec(caip10) ?? []
          if (chain !== caip2) continue
          if (address.toLowerCase() === NATIVE_TOKEN_ADDRESS) {
            fungibles.push({ name: 'Ether', symbol: 'ETH', iconUrl: iconUrl('ETH'), price: priceOf('ETH') })
            continue
          }
          const token = tokens.find((t) => t.address.toLowerCase() === address.toLowerCase())
          if (token) {
            fungibles.push({
              name: token.name,
              symbol: token.symbol,
              iconUrl: iconUrl(token.symbol),
              price: priceOf(token.symbol),
            })
          }
        }
        return { json: { fungibles } }
      },
    },
    {
      method: 'POST',
      pattern: /^\/e$/,
      handle: async ({ req, sdk }) => {
        const parsed = parseBody(req.body, TelemetryBodySchema, 'telemetry')
        if ('error' in parsed) return parsed.error
        const stored = await storeTelemetry(db, sdk, parsed.value)
        return { status: 202, json: { ok: true, duplicate: !stored } }
      },
    },
    {
      method: 'GET',
      pattern: /^\/__telemetry$/,
      sdkParams: false,
      handle: async ({ req }) => {
        const projectId = req.url.searchParams.get('projectId') ?? undefined
        return { json: { events: await listTelemetry(db, projectId) } }
      },
    },
    {
      method: 'GET',
      pattern: /^\/icons\/([A-Za-z0-9._-]{1,32})\.svg$/,
      sdkParams: false,
      handle: ({ params: [symbol = ''] }) => {
        const upper = symbol.toUpperCase()
        if (!iconSymbols.has(upper)) return errorJson(404, `No icon for ${upper}`)
        return { headers: SVG_HEADERS, body: badgeSvg(upper, upper, 'circle') }
      },
    },
  ]

  let service: SandboxService
  try {
    service = await startService({
      name: 'data-api',
      port: options.port ?? 0,
      handler: createRouter(routes, options.projectIds ? { projectIds: options.projectIds } : {}),
      onClose: async () => {
        if (ownsDb) await db.close()
      },
    })
  } catch (error) {
    if (ownsDb) await db.close()
    throw error
  }
  origin = service.origin
  return Object.assign(service, { db, telemetry: (projectId?: string) => listTelemetry(db, projectId) })
}
