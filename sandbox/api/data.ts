import * as v from 'valibot'
import {
  type Address,
  createPublicClient,
  erc20Abi,
  formatUnits,
  getAddress,
  type Hex,
  http,
  isAddress,
} from 'viem'
import { deliveriesTo } from '../onramp/orders.ts'
import { errorJson, type SandboxResponse, type SandboxService, startService } from '../shared/http.ts'
import { ChainIndex } from './chainIndex.ts'
import { chainUnavailable, createRouter, parseBody, parseQuery, type Route } from './common.ts'
import { convertRoutes } from './convert.ts'
import { solanaConvert } from './convertSolana.ts'
import { openDatabase, type SandboxDb } from './db.ts'
import { decodeCursor, historyPage, nftPage, type Presenter } from './history.ts'
import { badgeSvg, SVG_HEADERS } from './images.ts'
import {
  avatarLabel,
  identityOf,
  invalidName,
  nameLabelProblem,
  nameRecord,
  nameSuggestions,
  namesOf,
  registerName,
  SuggestionsQuerySchema,
  suggestionLabel,
} from './names.ts'
import { OnrampProviderQuerySchema, onrampHistoryPage, onrampRoutes } from './onramp.ts'
import {
  checkSiweMessage,
  liveSession,
  RevokeBodySchema,
  revokeSession,
  SESSION_ID,
  SessionBodySchema,
  storeSession,
} from './sessions.ts'
import { verifySignedMessage } from './signatures.ts'
import { type DataApiSolanaOptions, isSolanaAddress, solanaBalanceReader } from './solana.ts'
import { listTelemetry, storeTelemetry, TelemetryBodySchema, type TelemetryEvent } from './telemetry.ts'

export type {
  SwapAllowance,
  SwapApproveTx,
  SwapBuiltTx,
  SwapGasPrice,
  SwapQuote,
  SwapToken,
} from './convert.ts'
export { CONVERT_NATIVE_ADDRESS, UNSUPPORTED_GAS_PRICE, UNSUPPORTED_SWAPS } from './convert.ts'
export type { HistoryItem, HistoryTransfer, NftItem, OperationType, Page } from './history.ts'
export { HISTORY_PAGE_SIZE, NFT_PAGE_SIZE } from './history.ts'
export type { NameRecord, NameSuggestion } from './names.ts'
export { coinTypeOf, NAME_RULE, SEEDED_NAME } from './names.ts'
export type { OnrampHistoryItem, OnrampOptions, OnrampQuote } from './onramp.ts'
export type { Session, SessionCreated } from './sessions.ts'
export type { DataApiSolanaOptions } from './solana.ts'
export { SANDBOX_SOLANA_CHAIN_ID } from './solana.ts'
export type { TelemetryEvent } from './telemetry.ts'

/** An ERC-20 token the Data API reports balances and prices for. */
export interface DataApiToken {
  address: string
  symbol: string
  name: string
  decimals: number
}

/** Fixed USD prices by symbol: the sandbox has no market, so prices never move. SOL's is a round stand-in. */
export const PRICES_USD: Readonly<Record<string, number>> = {
  ETH: 3000,
  WETH: 3000,
  USDC: 1,
  USDT: 1,
  STK: 2.5,
  SOL: 150,
  WSOL: 150,
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
  /**
   * The sandbox Solana chain (`startSolana()` as it is, or its `rpcUrl` and `mints`): the balance endpoint then
   * answers for its CAIP-2 id (`SANDBOX_SOLANA_CHAIN_ID` unless `chainId` is given). Without it every `solana:`
   * chain id is unsupported (an empty list).
   */
  solana?: DataApiSolanaOptions
  /**
   * `GET /v1/supported-chains`; default `{ http: ['eip155:<chainId>'], ws: [] }`, plus the Solana chain's id
   * when `solana` is given.
   */
  supportedChains?: { http: string[]; ws: string[] }
  /** Extra or overriding USD prices by symbol, merged over `PRICES_USD`. */
  prices?: Record<string, number>
  /** When set, calls with any other project id are refused with 403 "Invalid project id". */
  projectIds?: string[]
  /**
   * NFTs to flag as spam, added to the database's spam list at start (which already holds the sandbox's seed:
   * token 5 of the SPUNK collection, the last Sandbox Punk minted at start).
   */
  spamNfts?: Array<{ contract: string; tokenId: number | bigint | string }>
  /**
   * The sandbox swap router (`startChain().contracts.router`) the convert calls quote and build for. Without it
   * they answer as for an unsupported network (empty lists, allowance '0', 'Network not supported for Swaps').
   */
  swapRouter?: string
  /**
   * The onramp's partner page (`startOnrampPartner()`): its origin, where the URL generator sends buyers, and the
   * account it delivers from (`solanaAddress`: its key on the Solana chain, for purchases delivered there). Without
   * it the generator answers 503; options, quotes and the history still work.
   */
  onrampPartner?: { origin: string; address: string; solanaAddress?: string | undefined }
  /**
   * Further EVM chains whose balances and token prices it answers, read live from each one's JSON-RPC (the
   * sandbox's second chain). History, NFTs, names and swaps stay the first chain's.
   */
  moreChains?: Array<{ chainId: number; rpcUrl: string; tokens: DataApiToken[] }>
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
  /** CAIP-10 for tokens (`solana:<ref>:<mint>` for SPL tokens); absent for the native currency (ETH, SOL). */
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

const AddressSchema = v.pipe(
  v.string(),
  v.check((value) => isAddress(value, { strict: false }), 'must be a 0x address of 40 hex characters'),
)
const ChainIdSchema = v.pipe(v.string(), v.regex(CAIP2, 'must be a CAIP-2 chain id like eip155:1'))
const CursorSchema = v.pipe(v.string(), v.maxLength(400, 'is too long'))

const HistoryQuerySchema = v.object({
  cursor: v.optional(CursorSchema),
  // Only the purchases of this onramp provider (`onramp=coinbase`), listed from the sandbox's orders.
  onramp: v.optional(OnrampProviderQuerySchema),
  chainId: v.optional(ChainIdSchema),
})
const NftQuerySchema = v.object({ cursor: v.optional(CursorSchema), chainId: v.optional(ChainIdSchema) })
const ProfileQuerySchema = v.object({
  sender: v.optional(AddressSchema),
  apiVersion: v.optional(v.pipe(v.string(), v.regex(/^\d{1,2}$/, 'must be a number'))),
})
/** Names as the profile calls take them: labels of letters, digits and hyphens, dot-separated. */
const NAME = /^[a-z0-9-]{1,63}(\.[a-z0-9-]{1,63}){1,4}$/
const TOKEN_ID = /^\d{1,78}$/
const EMPTY_PAGE = { data: [], next: null }

/** 400 for an address path parameter that is not one; `undefined` when it is. */
function badAddress(value: string): SandboxResponse | undefined {
  return isAddress(value, { strict: false })
    ? undefined
    : errorJson(400, `Invalid address: ${value.slice(0, 100)}`)
}

/** 400 for a session id path parameter of the wrong shape; `undefined` when it has the right one. */
function badSessionId(value: string): SandboxResponse | undefined {
  return SESSION_ID.test(value) ? undefined : errorJson(400, `Invalid session id: ${value.slice(0, 100)}`)
}

/**
 * Starts the Data API (SPEC §7), every call requiring projectId, st and sv:
 * - `GET /v1/supported-chains`; `GET /v1/account/{address}/balance` (read live from the chain; for the
 *   Solana chain's id when `options.solana` is given: SOL, then each SPL mint the owner holds, see `solana.ts`);
 *   `POST /v1/fungible/price` (fixed prices); the telemetry sink `POST /e`.
 * - `GET /v1/account/{account}/history?cursor&chainId&onramp`: transfer history, newest first, pages of
 *   {@link HISTORY_PAGE_SIZE} with a `next` cursor, derived from the chain (see `chainIndex.ts`); an onramp
 *   delivery reads as a `buy`. With `onramp=<provider>`: that provider's orders for the account instead.
 * - `GET /v1/account/{account}/nfts?cursor&chainId`: the NFTs the account holds (sandbox path; the provider's
 *   is not in the SPEC), spam flagged in `flags.is_spam`.
 * - `GET /v1/identity/{address}?sender`: `{ name, avatar }` of the address's primary name (or nulls).
 * - `GET /v1/profile/reverse/{address}?sender&apiVersion`: the name records the address holds.
 * - `GET /v1/profile/account/{name}?apiVersion`: one name record, 404 when nobody holds it.
 * - `GET /v1/profile/suggestions/{label}?zone=reown.id`: `{ suggestions: [{ name, registered }] }`, the label
 *   itself first (a trailing `.reown.id` stripped, lower-cased) with whether it is held, then up to 4
 *   alternatives nobody holds. 400 'Invalid name: {SPEC §5 rule}' for a label that breaks the rule, 400 for
 *   another zone.
 * - `POST /v1/profile/account` `{ coin_type, address, message, signature }`: registers the name of the signed
 *   sentence ('{domain} asks you to register the name {name} for the account {address} on chain {chainId} at
 *   {time}.') for the address, the signature recovered to it (EOA) or checked on the chain (ERC-1271,
 *   ERC-6492); 201 with the name record. 400 for a malformed body or message, a coin type other than the chain's
 *   ENSIP-11 one ('Unsupported coin type'), a message for another chain, account or (by the Origin header)
 *   domain, a name that breaks the rule or is not under `.reown.id`, a message older than 10 minutes ('Message
 *   expired'); 401 'Invalid signature'; 409 'Name is already registered' (see `names.ts`). The record then
 *   answers the two calls above.
 * - `POST /v1/sessions` `{ message, signature }`: signs in with a SIWE (EIP-4361) message, verified on the
 *   chain (EOA, ERC-1271, ERC-6492); 201 `{ id, address, chainId, domain, issuedAt, expiresAt }`. 400 for a
 *   malformed, expired or not-yet-valid message or another chain ("Unsupported chain"), 401 'Signature
 *   verification failed', 409 for a nonce already used on the domain (see `sessions.ts`).
 * - `GET /v1/sessions/{id}`: a live session `{ id, address, chainId, domain, uri, issuedAt, expiresAt,
 *   message, signature }`; 404 'Session not found' when unknown, revoked or expired.
 * - `POST /v1/sessions/{id}/revoke` `{ pci, signature }`: ends the session when pci is its id and signature
 *   its own (403 otherwise); `{ id, revoked: true }`, again on a second call.
 * - `/v1/convert/tokens`, `quotes`, `allowance`, `gas-price`, `build-approve` (GET) and `build-transaction`
 *   (POST): swaps over the sandbox's pools through `options.swapRouter` (see `convert.ts` for the shapes).
 * - `GET /v1/onramp/options`, `POST /v1/onramp/quote`, `POST /v1/generators/onrampurl` and the history's
 *   `onramp=<provider>`: purchases through the sandbox partner page `options.onrampPartner` (see `onramp.ts`).
 * Sandbox-only, without SDK parameters: `GET /__telemetry` lists stored events, `GET /icons/{SYMBOL}.svg`
 * serves token icons, `GET /nft/{contract}/{tokenId}.svg` an item's image, `GET /avatars/{slug}.svg` avatars.
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
  const solana = options.solana ? solanaBalanceReader(options.solana) : undefined
  const moreChains = (options.moreChains ?? []).map((more) => ({
    caip2: `eip155:${more.chainId}`,
    tokens: more.tokens.map((token) => ({ ...token, address: getAddress(token.address) })),
    client: createPublicClient({ transport: http(more.rpcUrl, { retryCount: 0, timeout: 10_000 }) }),
  }))
  const evmChains = moreChains.map((more) => more.caip2)
  const supported = options.supportedChains ?? {
    http: solana ? [caip2, ...evmChains, solana.chainId] : [caip2, ...evmChains],
    ws: [],
  }
  const prices: Record<string, number> = { ...PRICES_USD, ...options.prices }
  const tokens = options.tokens.map((token) => ({ ...token, address: getAddress(token.address) }))
  const client = createPublicClient({
    // No retries here: the kit's own transport retries, and a dead chain should surface quickly.
    transport: http(options.rpcUrl, { retryCount: 0, timeout: 10_000 }),
  })
  /** The chain a CAIP-2 id names, when balances are answered for it: the first one or one of `moreChains`. */
  const evmChain = (chainId: string) =>
    chainId === caip2 ? { caip2, tokens, client } : moreChains.find((more) => more.caip2 === chainId)
  const iconSymbols = new Set(
    [
      'ETH',
      ...Object.keys(prices),
      ...[tokens, ...moreChains.map((m) => m.tokens)].flat().map((t) => t.symbol),
    ].map((s) => s.toUpperCase()),
  )
  let origin = ''
  const iconUrl = (symbol: string) => `${origin}/icons/${encodeURIComponent(symbol.toUpperCase())}.svg`
  const priceOf = (symbol: string) => prices[symbol.toUpperCase()] ?? 0
  // The Solana swap maker, when the chain has one: the convert calls naming the Solana chain are its.
  const solanaSwaps =
    solana && options.solana?.maker
      ? solanaConvert({
          chainId: solana.chainId,
          rpcUrl: options.solana.rpcUrl,
          usdc: options.solana.mints.usdc,
          maker: options.solana.maker,
          ...(options.solana.quoteWindowMs === undefined
            ? {}
            : { quoteWindowMs: options.solana.quoteWindowMs }),
          priceOf,
          iconUrl,
          hostile: (path) => {
            const fault = service.fault.current
            if (fault.mode !== 'hostile' || !path.endsWith('/build-transaction')) return undefined
            return service.fault.take(path) === undefined ? undefined : (fault.build ?? 'elsewhere')
          },
        })
      : undefined
  const index = new ChainIndex({ db, client, chainId: caip2, tokens })
  const presenter: Presenter = {
    chainId: caip2,
    iconUrl: (symbol) => (iconSymbols.has(symbol.toUpperCase()) ? iconUrl(symbol) : undefined),
    priceOf,
    nftImageUrl: (contract, tokenId) => `${origin}/nft/${getAddress(contract)}/${tokenId}.svg`,
    native: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    buys: (account, hashes) => deliveriesTo(db, account, hashes),
  }
  const usdc = tokens.find((t) => t.symbol === 'USDC')
  const served = (chainId: string | undefined) => chainId === undefined || chainId === caip2

  /** One balance entry; `tokenAddress` (without the chain) is absent for the native currency. */
  const balanceItem = (
    chainId: string,
    raw: bigint,
    t: { name: string; symbol: string; decimals: number },
    tokenAddress?: string,
    priced = true,
  ): BalanceItem => {
    const numeric = formatUnits(raw, t.decimals)
    const price = priced ? priceOf(t.symbol) : 0
    const entry: BalanceItem = {
      name: t.name,
      symbol: t.symbol,
      chainId,
      value: round(Number(numeric) * price),
      price,
      quantity: { decimals: String(t.decimals), numeric },
      iconUrl: iconSymbols.has(t.symbol.toUpperCase()) ? iconUrl(t.symbol) : '',
    }
    if (tokenAddress) entry.address = `${chainId}:${tokenAddress}`
    return entry
  }

  async function balances(
    address: Address,
    chain: { caip2: string; tokens: typeof tokens; client: typeof client } = { caip2, tokens, client },
  ): Promise<BalanceItem[]> {
    const { tokens, client, caip2 } = chain
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
    ) => balanceItem(caip2, raw, t, tokenAddress)
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
        if (solana && chainId === solana.chainId) {
          if (!isSolanaAddress(account)) {
            return errorJson(
              400,
              `Invalid address: ${account.slice(0, 100)} is not a Solana address (base58 of 32 bytes)`,
            )
          }
          try {
            const held = await solana.holdings(account)
            const items = held.map((h) => balanceItem(solana.chainId, h.raw, h.asset, h.mint, h.known))
            return { json: { balances: items } }
          } catch (error) {
            return chainUnavailable(error)
          }
        }
        const chain = evmChain(chainId)
        if (chain === undefined) return { json: { balances: [] } }
        const invalid = badAddress(account)
        if (invalid) return invalid
        try {
          return { json: { balances: await balances(getAddress(account), chain) } }
        } catch (error) {
          return chainUnavailable(error)
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
          const [, chain = '', address = ''] = CAIP10.exec(caip10) ?? []
          const served = evmChain(chain)
          if (served === undefined) continue
          if (address.toLowerCase() === NATIVE_TOKEN_ADDRESS) {
            fungibles.push({ name: 'Ether', symbol: 'ETH', iconUrl: iconUrl('ETH'), price: priceOf('ETH') })
            continue
          }
          const token = served.tokens.find((t) => t.address.toLowerCase() === address.toLowerCase())
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
      method: 'GET',
      pattern: /^\/v1\/account\/([^/]+)\/history$/,
      handle: async ({ req, params: [account = ''] }) => {
        const parsed = parseQuery(req.url, ['cursor', 'onramp', 'chainId'], HistoryQuerySchema)
        if ('error' in parsed) return parsed.error
        const { cursor, onramp, chainId } = parsed.value
        // A provider's orders delivered on the Solana chain: for a base58 account.
        if (onramp !== undefined && solana && chainId === solana.chainId) {
          if (!isSolanaAddress(account)) return errorJson(400, `Invalid address: ${account.slice(0, 100)}`)
          return onrampHistoryPage({ db, usdc, iconUrl: presenter.iconUrl }, account, onramp, cursor, chainId)
        }
        const invalid = badAddress(account)
        if (invalid) return invalid
        if (onramp !== undefined) {
          if (!served(chainId)) return { json: EMPTY_PAGE }
          return onrampHistoryPage(
            { db, usdc, iconUrl: presenter.iconUrl },
            getAddress(account),
            onramp,
            cursor,
            chainId,
          )
        }
        let position: { block: number; index: number } | undefined
        if (cursor) {
          const decoded = decodeCursor(cursor)
          if (!decoded || !Number.isInteger(decoded.b) || !Number.isInteger(decoded.i))
            return errorJson(400, 'Invalid query parameter cursor: not a cursor this API made')
          position = { block: decoded.b as number, index: decoded.i as number }
        }
        if (!served(chainId)) return { json: EMPTY_PAGE }
        try {
          await index.sync()
        } catch (error) {
          return chainUnavailable(error)
        }
        return { json: await historyPage(index, presenter, account, position) }
      },
    },
    {
      method: 'GET',
      pattern: /^\/v1\/account\/([^/]+)\/nfts$/,
      handle: async ({ req, params: [account = ''] }) => {
        const parsed = parseQuery(req.url, ['cursor', 'chainId'], NftQuerySchema)
        if ('error' in parsed) return parsed.error
        const invalid = badAddress(account)
        if (invalid) return invalid
        const { cursor, chainId } = parsed.value
        let position: { contract: string; tokenId: bigint } | undefined
        if (cursor) {
          const decoded = decodeCursor(cursor)
          if (
            !decoded ||
            typeof decoded.c !== 'string' ||
            !isAddress(decoded.c, { strict: false }) ||
            typeof decoded.t !== 'string' ||
            !TOKEN_ID.test(decoded.t)
          )
            return errorJson(400, 'Invalid query parameter cursor: not a cursor this API made')
          position = { contract: decoded.c.toLowerCase(), tokenId: BigInt(decoded.t) }
        }
        if (!served(chainId)) return { json: EMPTY_PAGE }
        try {
          await index.sync()
        } catch (error) {
          return chainUnavailable(error)
        }
        return { json: await nftPage(index, presenter, account, position) }
      },
    },
    {
      method: 'GET',
      pattern: /^\/v1\/identity\/([^/]+)$/,
      handle: async ({ req, params: [address = ''] }) => {
        const parsed = parseQuery(req.url, ['sender'], v.object({ sender: v.optional(AddressSchema) }))
        if ('error' in parsed) return parsed.error
        const invalid = badAddress(address)
        if (invalid) return invalid
        return { json: await identityOf(db, address, origin) }
      },
    },
    {
      method: 'GET',
      pattern: /^\/v1\/profile\/reverse\/([^/]+)$/,
      handle: async ({ req, params: [address = ''] }) => {
        const parsed = parseQuery(req.url, ['sender', 'apiVersion'], ProfileQuerySchema)
        if ('error' in parsed) return parsed.error
        const invalid = badAddress(address)
        if (invalid) return invalid
        return { json: await namesOf(db, address, origin) }
      },
    },
    {
      method: 'GET',
      pattern: /^\/v1\/profile\/account\/([^/]+)$/,
      handle: async ({ req, params: [name = ''] }) => {
        const parsed = parseQuery(req.url, ['sender', 'apiVersion'], ProfileQuerySchema)
        if ('error' in parsed) return parsed.error
        const wanted = name.toLowerCase()
        if (!NAME.test(wanted)) return errorJson(400, `Invalid name: ${name.slice(0, 100)}`)
        const record = await nameRecord(db, wanted, origin)
        return record ? { json: record } : errorJson(404, `Name not found: ${wanted}`)
      },
    },
    {
      method: 'GET',
      pattern: /^\/v1\/profile\/suggestions\/([^/]+)$/,
      handle: async ({ req, params: [sent = ''] }) => {
        const parsed = parseQuery(req.url, ['zone'], SuggestionsQuerySchema)
        if ('error' in parsed) return parsed.error
        const label = suggestionLabel(sent)
        const problem = nameLabelProblem(label)
        if (problem) return invalidName(problem, sent)
        return { json: { suggestions: await nameSuggestions(db, label) } }
      },
    },
    {
      method: 'POST',
      pattern: /^\/v1\/profile\/account$/,
      handle: ({ req }) =>
        registerName(
          { db, client, chainId: options.chainId, origin, requestOrigin: headerOf(req.headers.origin) },
          req.body,
        ),
    },
    {
      method: 'POST',
      pattern: /^\/v1\/sessions$/,
      handle: async ({ req }) => {
        const parsed = parseBody(req.body, SessionBodySchema, 'session')
        if ('error' in parsed) return parsed.error
        const now = new Date()
        const checked = checkSiweMessage(parsed.value.message, { chainId: options.chainId, now })
        if ('error' in checked) return checked.error
        const signature = parsed.value.signature as Hex
        try {
          const { address, message } = checked.value
          if (!(await verifySignedMessage(client, { address, message, signature })))
            return errorJson(401, 'Signature verification failed')
        } catch (error) {
          return chainUnavailable(error)
        }
        const session = await storeSession(db, checked.value, signature)
        if (!session) {
          return errorJson(
            409,
            `Nonce already used for ${checked.value.domain}: a SIWE message signs in once`,
          )
        }
        return { status: 201, json: session }
      },
    },
    {
      method: 'GET',
      pattern: /^\/v1\/sessions\/([^/]+)$/,
      handle: async ({ params: [id = ''] }) => {
        const invalid = badSessionId(id)
        if (invalid) return invalid
        const session = await liveSession(db, id)
        return session ? { json: session } : errorJson(404, 'Session not found')
      },
    },
    {
      method: 'POST',
      pattern: /^\/v1\/sessions\/([^/]+)\/revoke$/,
      handle: async ({ req, params: [id = ''] }) => {
        const invalid = badSessionId(id)
        if (invalid) return invalid
        const parsed = parseBody(req.body, RevokeBodySchema, 'revoke')
        if ('error' in parsed) return parsed.error
        return revokeSession(db, id, parsed.value)
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
      pattern: /^\/nft\/(0x[0-9a-fA-F]{40})\/(\d{1,78})\.svg$/,
      sdkParams: false,
      handle: async ({ params: [contract = '', tokenId = '0'] }) => {
        try {
          await index.sync()
        } catch (error) {
          return chainUnavailable(error)
        }
        const image = (await index.nftMetadata(contract, BigInt(tokenId)))?.image ?? ''
        const svg = /^data:image\/svg\+xml;base64,([A-Za-z0-9+/=]+)$/.exec(image)?.[1]
        if (!svg) return errorJson(404, `No image for ${contract} #${tokenId}`)
        return { headers: SVG_HEADERS, body: Buffer.from(svg, 'base64').toString('utf8') }
      },
    },
    {
      method: 'GET',
      pattern: /^\/avatars\/([a-z0-9-]{1,64})\.svg$/,
      sdkParams: false,
      handle: async ({ req }) => {
        const name = await avatarLabel(db, req.url.pathname)
        if (!name) return errorJson(404, `No avatar at ${req.url.pathname}`)
        return { headers: SVG_HEADERS, body: badgeSvg(`avatar/${name}`, name, 'circle') }
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
    ...onrampRoutes({
      db,
      chainId: options.chainId,
      usdc,
      partner: options.onrampPartner && {
        origin: options.onrampPartner.origin,
        address: getAddress(options.onrampPartner.address),
        solanaAddress: options.onrampPartner.solanaAddress,
      },
      solana: solana && { chainId: solana.chainId, usdcMint: options.solana!.mints.usdc },
    }),
    ...(solanaSwaps?.controlRoutes ?? []),
    ...(solanaSwaps?.over ?? ((evm: Route[]) => evm))(
      convertRoutes({
        client,
        chainId: options.chainId,
        router: options.swapRouter === undefined ? undefined : getAddress(options.swapRouter),
        tokens,
        iconUrl,
        hostile: (path) => service.fault.current.mode === 'hostile' && service.fault.take(path) !== undefined,
      }),
    ),
  ]

  let service: SandboxService
  try {
    for (const item of options.spamNfts ?? []) {
      await db.pg.query(
        `INSERT INTO nft_spam (contract, token_id, reason)
         SELECT $1::text, $2::numeric, 'marked at start'
          WHERE NOT EXISTS (SELECT 1 FROM nft_spam WHERE contract = $1::text AND token_id = $2::numeric)`,
        [item.contract.toLowerCase(), String(item.tokenId)],
      )
    }
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

/** A request header's one value (Node gives an array for a repeated one: then none is trusted). */
function headerOf(value: string | string[] | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined
}
