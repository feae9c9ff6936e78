import type { QueryClient } from '@tanstack/react-query'
import * as v from 'valibot'
import { isAddress } from 'viem'
import type { ResolvedKitConfig } from '../config'
import {
  DATA_API_MAX_ITEMS,
  DATA_API_MAX_NAME_ADDRESSES,
  DATA_API_MAX_NAME_ATTRIBUTES,
  DATA_API_MAX_TRANSFERS,
  DATA_API_TIMEOUT_MS,
  SUPPORTED_CHAINS_CACHE_MS,
} from '../constants'
import { type DataApiCall, DataApiError } from '../errors/api'
import { chainNamespaceOf, isCaip2, isCaip10 } from '../utils/caip'
import { safeHttpUrl, safeText } from '../utils/links'
import { apiUrl, type QueryValues, requestJson, waitUnlessAborted } from './http'

/**
 * Client of the provider's Data API (SPEC §7). Every call carries projectId, st and sv; every answer is
 * parsed with a schema (a body that does not fit fails with `DataApiError` of kind 'malformed'; a single
 * item that does not fit is dropped, the rest kept). Every list it keeps is capped (issue 13): an answer's own
 * list (balances, a page, names, prices, supported networks) longer than {@link DATA_API_MAX_ITEMS} is a
 * malformed answer; a list inside an item (transfers, a name's addresses and attributes) is read up to its cap
 * and the rest ignored; prices are kept for at most as many tokens as were asked about. Calls about a network check first that the API serves
 * it (`GET /v1/supported-chains`): an unsupported network answers empty results, never an error (SPEC §8).
 * Names, identity and activity exist on eip155 only (SPEC §1).
 *
 * The client keeps no cache of its own: the kit's QueryClient is the one cache. Given one, the supported-networks
 * answer is kept there (`dataApiKeys.supportedChains`, {@link SUPPORTED_CHAINS_CACHE_MS}) and concurrent checks
 * share one request; views and actors cache the calls themselves through `queryClient.fetchQuery` / `useQuery`
 * with the option factories of `./queries`.
 */

// ---------------------------------------------------------------------------------------------------------
// Answer types (as parsed)

export interface SupportedChains {
  /** CAIP-2 ids served over HTTP. */
  http: string[]
  ws: string[]
}

/** SPEC §3 Token balance. */
export interface TokenBalance {
  name: string
  symbol: string
  /** CAIP-2 */
  chainId: string
  /** CAIP-10 of the token contract; absent for the native currency. */
  address?: string
  /** USD value of the holding. */
  value: number
  /** USD price of one unit. */
  price: number
  quantity: { decimals: string; numeric: string }
  /** http(s) or data:image URL; '' when the API gave none that is safe to load. */
  iconUrl: string
}

export interface BalancesResult {
  balances: TokenBalance[]
  /** false when the API does not serve the network: `balances` is then empty (the UI shows its toast). */
  supported: boolean
}

/** The provider's operation types; others may appear and are kept as they come. */
export type OperationType =
  | 'send'
  | 'receive'
  | 'mint'
  | 'burn'
  | 'trade'
  | 'approve'
  | 'deploy'
  | 'execute'
  | (string & {})

export interface TransferImage {
  url: string
  content_type?: string
}

/** One movement inside a history item (SPEC §3): a fungible or an NFT, in or out of the account. */
export interface HistoryTransfer {
  fungible_info?: { name: string; symbol: string; icon?: { url: string } }
  nft_info?: {
    name: string
    content?: { preview?: TransferImage; detail?: TransferImage }
    /** `is_spam` items are hidden by the kit. */
    flags: { is_spam: boolean }
  }
  direction: 'in' | 'out' | 'self'
  /** Decimal string in whole units. */
  quantity: { numeric: string }
  value?: number
  price?: number
}

/** SPEC §3 Transfer-history item. */
export interface HistoryItem {
  id: string
  metadata: {
    operationType: OperationType
    hash: string
    /** ISO 8601 */
    minedAt: string
    sentFrom: string
    sentTo: string
    status: 'confirmed' | 'failed' | 'pending'
    nonce?: number
    /** CAIP-2 */
    chain?: string
  }
  transfers: HistoryTransfer[]
}

export interface Page<T> {
  data: T[]
  /** The cursor of the next page; `null` on the last page. */
  next: string | null
}

export interface HistoryPage extends Page<HistoryItem> {
  /** false when the API does not serve the network (then `data` is empty). */
  supported: boolean
}

export interface NftItem {
  chainId: string
  contract: string
  tokenId: string
  name: string
  description?: string
  collection: { name: string; symbol: string }
  preview?: TransferImage
  flags: { is_spam: boolean }
}

export interface NftPage extends Page<NftItem> {
  supported: boolean
}

export interface Identity {
  name: string | null
  avatar: string | null
}

/**
 * A name's EVM address: under SLIP-44 60, else under an ENSIP-11 EVM coin type (`0x80000000 | chainId`, what a
 * name registered on a chain other than mainnet is keyed by; issue 20).
 */
function evmAddressOf(record: NameRecord): string | undefined {
  const evm = Object.entries(record.addresses).find(([coinType]) => Number(coinType) >= 0x80000000)
  return (record.addresses['60'] ?? evm?.[1])?.address
}

/** A name record (reverse lookup and name lookup). `addresses` is keyed by SLIP-44 coin type ('60': EVM). */
export interface NameRecord {
  name: string
  registered?: number
  updated?: number
  addresses: Record<string, { address: string; created?: number }>
  attributes: { avatar?: string; bio?: string }
}

export interface FungiblePrice {
  name: string
  symbol: string
  iconUrl: string
  price: number
}

// ---------------------------------------------------------------------------------------------------------
// Schemas

const DECIMAL = /^-?\d{1,80}(\.\d{1,80})?$/
/** A CAIP-2 chain id (`eip155:1`), checked by `src/utils/caip.ts`. */
const caip2 = v.pipe(
  v.string(),
  v.check((value: string) => isCaip2(value), 'is not a CAIP-2 chain id'),
)
const MAX_DATA_IMAGE = 200_000

/**
 * An image URL safe to put in `<img src>`: http(s) without credentials, or a bounded `data:image/...` URI of a
 * raster or SVG type (an SVG in `<img>` runs no script). Anything else is `undefined`.
 *
 * @example
 * safeImageUrl('https://cdn.example/a.png') // 'https://cdn.example/a.png'
 * safeImageUrl('javascript:alert(1)') // undefined
 */
export function safeImageUrl(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined
  const trimmed = value.trim()
  if (/^data:image\/(png|jpeg|gif|webp|avif|svg\+xml)(;base64)?,/i.test(trimmed)) {
    return trimmed.length <= MAX_DATA_IMAGE ? trimmed : undefined
  }
  return safeHttpUrl(trimmed)
}

const text = (max: number) =>
  v.pipe(
    v.string(),
    v.transform((value) => safeText(value, max)),
  )
const label = (max: number) => v.pipe(text(max), v.minLength(1, 'is empty'))
const finite = v.pipe(v.number(), v.finite())
/** A field that becomes `undefined` when absent or unusable instead of failing its item. */
const lenient = <T>(pick: (value: unknown) => T | undefined) =>
  v.pipe(
    v.optional(v.unknown()),
    v.transform((value) => pick(value)),
  )
/**
 * An icon URL field that is always a string: a safe image URL, else `''` (also when the field is absent: the
 * default makes the pipe run for a missing key, which a bare `v.optional` would leave out).
 */
const iconUrl = v.pipe(
  v.optional(v.unknown(), ''),
  v.transform((value): string => safeImageUrl(value) ?? ''),
)
const image = lenient((value) => {
  if (!value || typeof value !== 'object' || !('url' in value)) return undefined
  const url = safeImageUrl(value.url)
  if (!url) return undefined
  const type =
    'content_type' in value && typeof value.content_type === 'string' ? value.content_type : undefined
  return type ? { url, content_type: safeText(type, 100) } : { url }
})

const chainIds = v.pipe(v.array(v.pipe(v.string(), v.maxLength(100))), v.maxLength(DATA_API_MAX_ITEMS))
const SupportedChainsSchema = v.object({
  http: chainIds,
  ws: v.optional(chainIds, []),
})

const TokenBalanceSchema = v.object({
  name: text(100),
  symbol: label(32),
  chainId: caip2,
  address: v.optional(
    v.pipe(
      v.string(),
      v.check((value: string) => isCaip10(value), 'is not a CAIP-10 account id'),
    ),
  ),
  value: v.optional(finite, 0),
  price: v.optional(finite, 0),
  quantity: v.object({
    decimals: v.pipe(v.string(), v.regex(/^\d{1,3}$/)),
    numeric: v.pipe(v.string(), v.regex(DECIMAL)),
  }),
  iconUrl,
})

const TransferSchema = v.object({
  fungible_info: v.optional(
    v.object({
      name: text(100),
      symbol: label(32),
      icon: image,
    }),
  ),
  nft_info: v.optional(
    v.object({
      name: text(200),
      content: lenient((value) => {
        if (!value || typeof value !== 'object') return undefined
        const preview = v.parse(image, 'preview' in value ? value.preview : undefined)
        const detail = v.parse(image, 'detail' in value ? value.detail : undefined)
        return {
          ...(preview ? { preview } : {}),
          ...(detail ? { detail } : {}),
        }
      }),
      // An item the API does not call clean is treated as spam only when it says so.
      flags: v.optional(v.object({ is_spam: v.optional(v.boolean(), false) }), { is_spam: false }),
    }),
  ),
  direction: v.picklist(['in', 'out', 'self']),
  quantity: v.object({ numeric: v.pipe(v.string(), v.regex(DECIMAL)) }),
  value: v.optional(finite),
  price: v.optional(finite),
})

const HistoryItemSchema = v.object({
  id: v.pipe(v.string(), v.minLength(1), v.maxLength(200)),
  metadata: v.object({
    operationType: v.pipe(v.string(), v.regex(/^[a-z_]{1,40}$/)),
    hash: v.pipe(v.string(), v.maxLength(200)),
    minedAt: v.pipe(v.string(), v.isoTimestamp()),
    sentFrom: v.pipe(v.string(), v.maxLength(200)),
    sentTo: v.pipe(v.string(), v.maxLength(200)),
    status: v.picklist(['confirmed', 'failed', 'pending']),
    nonce: v.optional(v.pipe(v.number(), v.safeInteger(), v.minValue(0))),
    chain: v.optional(caip2),
  }),
  // A transaction moves a handful of tokens; the first DATA_API_MAX_TRANSFERS that fit are kept.
  transfers: v.pipe(
    v.array(v.unknown()),
    v.transform((items) => keepValid(TransferSchema, items, DATA_API_MAX_TRANSFERS)),
  ),
})

const NftItemSchema = v.object({
  chainId: caip2,
  contract: v.pipe(v.string(), v.maxLength(200)),
  tokenId: v.pipe(v.string(), v.regex(/^\d{1,78}$/)),
  name: text(200),
  description: v.optional(text(1000)),
  collection: v.object({ name: text(200), symbol: text(32) }),
  preview: image,
  flags: v.optional(v.object({ is_spam: v.optional(v.boolean(), false) }), { is_spam: false }),
})

const PageSchema = v.object({
  data: v.pipe(v.array(v.unknown()), v.maxLength(DATA_API_MAX_ITEMS)),
  next: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(1_000))), null),
})

const IdentitySchema = v.object({
  name: v.optional(v.nullable(v.string()), null),
  avatar: v.optional(v.nullable(v.string()), null),
})

const NameAddressSchema = v.object({
  address: v.pipe(v.string(), v.maxLength(200)),
  created: v.optional(finite),
})

const NameRecordSchema = v.object({
  name: v.pipe(v.string(), v.minLength(1), v.maxLength(255)),
  registered: v.optional(finite),
  updated: v.optional(finite),
  // Keyed by SLIP-44 coin type; the first DATA_API_MAX_NAME_ADDRESSES entries that fit are kept.
  addresses: v.pipe(
    v.record(v.string(), v.unknown()),
    v.transform((record) => {
      const out: Record<string, { address: string; created?: number }> = {}
      for (const [coinType, entry] of Object.entries(record)) {
        if (Object.keys(out).length >= DATA_API_MAX_NAME_ADDRESSES) break
        if (!/^\d{1,10}$/.test(coinType)) continue
        const parsed = v.safeParse(NameAddressSchema, entry)
        if (parsed.success) out[coinType] = compact(parsed.output)
      }
      return out
    }),
  ),
  attributes: v.optional(
    v.pipe(
      v.unknown(),
      v.transform((value) => {
        // The provider has answered this as an object and as a list of objects; both are read.
        const entries = Array.isArray(value) ? value.slice(0, DATA_API_MAX_NAME_ATTRIBUTES) : [value]
        const out: NameRecord['attributes'] = {}
        for (const entry of entries) {
          if (!entry || typeof entry !== 'object') continue
          const avatar = 'avatar' in entry ? safeImageUrl(entry.avatar) : undefined
          if (avatar) out.avatar = avatar
          if ('bio' in entry && typeof entry.bio === 'string') out.bio = safeText(entry.bio, 500)
        }
        return out
      }),
    ),
    {},
  ),
})

const PricesSchema = v.object({ fungibles: v.pipe(v.array(v.unknown()), v.maxLength(DATA_API_MAX_ITEMS)) })
const PriceSchema = v.object({
  name: text(100),
  symbol: label(32),
  iconUrl,
  price: finite,
})

/** The items that fit `schema`, in order, at most `max` of them (the rest are not read). */
function keepValid<S extends v.GenericSchema>(
  schema: S,
  items: readonly unknown[],
  max: number = DATA_API_MAX_ITEMS,
): v.InferOutput<S>[] {
  const out: v.InferOutput<S>[] = []
  for (const item of items) {
    if (out.length >= max) break
    const parsed = v.safeParse(schema, item)
    if (parsed.success) out.push(parsed.output)
  }
  return out
}

/** Drops keys whose value is `undefined`, so parsed answers compare and serialise cleanly. */
function compact<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as T
}

// ---------------------------------------------------------------------------------------------------------
// The client

export interface DataApiClientOptions {
  /** `endpoints.api` of the kit config. */
  api: string
  projectId: string
  /** Per request; default {@link DATA_API_TIMEOUT_MS}. */
  timeoutMs?: number
  /**
   * The kit's QueryClient: the supported-networks answer is cached there for {@link SUPPORTED_CHAINS_CACHE_MS}
   * and concurrent checks share one request. Without one, every network check asks.
   */
  queryClient?: QueryClient
  fetch?: typeof fetch
}

interface CallOptions {
  signal?: AbortSignal
}

export interface GetBalancesParameters extends CallOptions {
  address: string
  /** CAIP-2 of the network, e.g. `eip155:1`. */
  chainId: string
  /** Ask the API to read fresh balances (after a transaction). */
  forceUpdate?: boolean
}

export interface GetHistoryParameters extends CallOptions {
  account: string
  /** CAIP-2; the active network. */
  chainId: string
  cursor?: string | null
  /** Only onramp purchases of this provider (`coinbase`, ...). */
  onramp?: string
}

export interface GetNftsParameters extends CallOptions {
  account: string
  chainId: string
  cursor?: string | null
}

export interface AddressLookupParameters extends CallOptions {
  address: string
  /** CAIP-2 of the active network: look-ups exist on eip155 networks the API serves. */
  chainId: string
  /** The connected account asking, when there is one. */
  sender?: string
}

/**
 * A Solana account as a path segment: 32 to 44 base58 characters (the Data API decodes it; the kit's own
 * check, src/chains/solana/address.ts, is not imported here: this module is in the entry, the onramp's lazily).
 */
const BASE58_ACCOUNT = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/

export interface DataApiClient {
  readonly api: string
  readonly projectId: string
  /** `GET /v1/supported-chains`, through the QueryClient when the client has one (cached, one request at a time). */
  getSupportedChains(options?: CallOptions): Promise<SupportedChains>
  /** Whether the API serves a network (CAIP-2) over HTTP. */
  isNetworkSupported(chainId: string, options?: CallOptions): Promise<boolean>
  /** Token balances (SPEC §3), decimals '0' dropped (SPEC §5); empty and `supported: false` off-network. */
  getBalances(parameters: GetBalancesParameters): Promise<BalancesResult>
  /**
   * One page of transfer history, newest first (eip155). With `onramp`, that provider's orders for the account,
   * on eip155 or on a Solana network (a base58 account).
   */
  getHistory(parameters: GetHistoryParameters): Promise<HistoryPage>
  /** One page of the NFTs an account holds (spam included, flagged). */
  getNfts(parameters: GetNftsParameters): Promise<NftPage>
  /** Name and avatar of an address; nulls when it has none or off-network. */
  getIdentity(parameters: AddressLookupParameters): Promise<Identity>
  /** Reverse look-up: the names an address holds, primary first. */
  getNames(parameters: AddressLookupParameters): Promise<NameRecord[]>
  /** One name's record, `undefined` when nobody holds it. */
  getNameRecord(parameters: { name: string } & CallOptions): Promise<NameRecord | undefined>
  /** A name to its EVM address (the send flow's receiver), `undefined` when it names no one. */
  resolveName(
    name: string,
    options?: CallOptions,
  ): Promise<{ address: string; name: string; imageUrl?: string } | undefined>
  /** USD prices of tokens (CAIP-10 addresses). */
  getPrices(parameters: { addresses: readonly string[] } & CallOptions): Promise<FungiblePrice[]>
}

/**
 * @example
 * const api = createDataApiClient({ api: config.endpoints.api, projectId: config.projectId })
 * const { balances, supported } = await api.getBalances({ address, chainId: 'eip155:1' })
 */
export function createDataApiClient(options: DataApiClientOptions): DataApiClient {
  const { api, projectId } = options
  const timeoutMs = options.timeoutMs ?? DATA_API_TIMEOUT_MS
  const queryClient = options.queryClient

  async function call<S extends v.GenericSchema>(
    which: DataApiCall,
    request: { path: string; query?: QueryValues; body?: unknown; signal?: AbortSignal | undefined },
    schema: S,
  ): Promise<v.InferOutput<S>> {
    const json = await requestJson(
      apiUrl(api, request.path, projectId, request.query),
      {
        timeoutMs,
        label: 'The Data API',
        ...(request.body === undefined ? {} : { method: 'POST' as const, body: request.body }),
        ...(request.signal ? { signal: request.signal } : {}),
        ...(options.fetch ? { fetch: options.fetch } : {}),
      },
      (failure) => new DataApiError(which, failure),
    )
    const parsed = v.safeParse(schema, json)
    if (!parsed.success) {
      throw new DataApiError(which, {
        kind: 'malformed',
        details: `The Data API answered an unexpected body: ${v.summarize(parsed.issues)}`,
      })
    }
    return parsed.output
  }

  const requestSupportedChains = (signal?: AbortSignal) =>
    call('supportedChains', { path: 'v1/supported-chains', signal }, SupportedChainsSchema)

  async function getSupportedChains(callOptions: CallOptions = {}): Promise<SupportedChains> {
    if (!queryClient) return requestSupportedChains(callOptions.signal)
    // One cached answer shared by every caller, so one caller's abort must not cancel it: the signal only stops
    // the wait.
    const answer = queryClient.fetchQuery({
      queryKey: dataApiKeys.supportedChains(client),
      queryFn: ({ signal }) => requestSupportedChains(signal),
      staleTime: SUPPORTED_CHAINS_CACHE_MS,
    })
    return waitUnlessAborted(answer, callOptions.signal)
  }

  async function isNetworkSupported(chainId: string, callOptions: CallOptions = {}): Promise<boolean> {
    if (!isCaip2(chainId)) return false
    return (await getSupportedChains(callOptions)).http.includes(chainId)
  }

  /**
   * The network check before a call. When the check itself fails, the failure is the call's own (a balance
   * call whose check failed is 'Token Balance Unavailable'), so the UI shows one text per call.
   */
  async function supportedFor(which: DataApiCall, chainId: string, signal: AbortSignal | undefined) {
    try {
      return await isNetworkSupported(chainId, signal ? { signal } : {})
    } catch (error) {
      if (!(error instanceof DataApiError)) throw error
      throw new DataApiError(which, {
        kind: error.kind,
        details: `The network check failed: ${error.details ?? error.shortMessage}`,
        ...(error.status === undefined ? {} : { status: error.status }),
        cause: error,
      })
    }
  }

  /** Look-ups that exist on eip155 only, on a network the API serves. */
  async function evmSupported(which: DataApiCall, chainId: string, signal: AbortSignal | undefined) {
    return chainNamespaceOf(chainId) === 'eip155' && supportedFor(which, chainId, signal)
  }

  const evmAddress = (address: string, which: DataApiCall) => {
    if (!isAddress(address, { strict: false })) {
      throw new DataApiError(which, { kind: 'input', details: `Not an EVM address: ${address.slice(0, 60)}` })
    }
    return address
  }

  const client: DataApiClient = {
    api,
    projectId,
    getSupportedChains,
    isNetworkSupported,

    async getBalances({ address, chainId, forceUpdate, signal }) {
      if (!(await supportedFor('balance', chainId, signal))) return { balances: [], supported: false }
      const answer = await call(
        'balance',
        {
          path: `v1/account/${encodeURIComponent(address)}/balance`,
          query: { currency: 'usd', chainId, forceUpdate: forceUpdate ? 'true' : undefined },
          signal,
        },
        v.object({ balances: v.pipe(v.array(v.unknown()), v.maxLength(DATA_API_MAX_ITEMS)) }),
      )
      const balances = keepValid(TokenBalanceSchema, answer.balances)
        // SPEC §5: a token whose decimals are '0' is no balance to show.
        .filter((balance) => balance.quantity.decimals !== '0')
        .map((balance) => compact(balance) as TokenBalance)
      return { balances, supported: true }
    },

    async getHistory({ account, chainId, cursor, onramp, signal }) {
      // A provider's orders are listed on Solana too (activity is eip155's, SPEC §1).
      const solanaOrders = onramp !== undefined && chainNamespaceOf(chainId) === 'solana'
      const served = solanaOrders
        ? await supportedFor('history', chainId, signal)
        : await evmSupported('history', chainId, signal)
      if (!served) return { data: [], next: null, supported: false }
      if (solanaOrders && !BASE58_ACCOUNT.test(account)) {
        throw new DataApiError('history', {
          kind: 'input',
          details: `Not a Solana address: ${account.slice(0, 60)}`,
        })
      }
      const page = await call(
        'history',
        {
          path: `v1/account/${encodeURIComponent(solanaOrders ? account : evmAddress(account, 'history'))}/history`,
          query: { cursor: cursor ?? undefined, onramp, chainId },
          signal,
        },
        PageSchema,
      )
      const data = keepValid(HistoryItemSchema, page.data).map(
        (item): HistoryItem => ({
          id: item.id,
          metadata: compact(item.metadata) as HistoryItem['metadata'],
          transfers: item.transfers.map((transfer) => compact(transfer) as HistoryTransfer),
        }),
      )
      return { data, next: page.next, supported: true }
    },

    async getNfts({ account, chainId, cursor, signal }) {
      if (!(await evmSupported('nfts', chainId, signal))) return { data: [], next: null, supported: false }
      const page = await call(
        'nfts',
        {
          path: `v1/account/${encodeURIComponent(evmAddress(account, 'nfts'))}/nfts`,
          query: { cursor: cursor ?? undefined, chainId },
          signal,
        },
        PageSchema,
      )
      const data = keepValid(NftItemSchema, page.data).map((item) => compact(item) as NftItem)
      return { data, next: page.next, supported: true }
    },

    async getIdentity({ address, chainId, sender, signal }) {
      if (!(await evmSupported('identity', chainId, signal))) return { name: null, avatar: null }
      const identity = await call(
        'identity',
        {
          path: `v1/identity/${encodeURIComponent(evmAddress(address, 'identity'))}`,
          query: { sender },
          signal,
        },
        IdentitySchema,
      )
      const name = identity.name === null ? '' : safeText(identity.name, 255)
      return { name: name === '' ? null : name, avatar: safeImageUrl(identity.avatar) ?? null }
    },

    async getNames({ address, chainId, sender, signal }) {
      if (!(await evmSupported('names', chainId, signal))) return []
      const records = await call(
        'names',
        {
          path: `v1/profile/reverse/${encodeURIComponent(evmAddress(address, 'names'))}`,
          query: { sender, apiVersion: '2' },
          signal,
        },
        v.pipe(v.array(v.unknown()), v.maxLength(DATA_API_MAX_ITEMS)),
      )
      return keepValid(NameRecordSchema, records).map((record) => compact(record) as NameRecord)
    },

    async getNameRecord({ name, signal }) {
      const wanted = name.trim().toLowerCase()
      if (!/^[a-z0-9-]{1,63}(\.[a-z0-9-]{1,63}){1,4}$/.test(wanted)) return undefined
      try {
        const record = await call(
          'resolveName',
          { path: `v1/profile/account/${encodeURIComponent(wanted)}`, query: { apiVersion: '2' }, signal },
          NameRecordSchema,
        )
        return compact(record) as NameRecord
      } catch (error) {
        // A name nobody holds is an answer, not a failure.
        if (error instanceof DataApiError && error.status === 404) return undefined
        throw error
      }
    },

    async resolveName(name, callOptions = {}) {
      const record = await client.getNameRecord({ name, ...callOptions })
      const address = record && evmAddressOf(record)
      if (!record || !address || !isAddress(address, { strict: false })) return undefined
      return {
        address,
        name: record.name,
        ...(record.attributes.avatar ? { imageUrl: record.attributes.avatar } : {}),
      }
    },

    async getPrices({ addresses, signal }) {
      if (addresses.length === 0) return []
      const answer = await call(
        'prices',
        {
          path: 'v1/fungible/price',
          body: { currency: 'usd', addresses: [...addresses], projectId },
          signal,
        },
        PricesSchema,
      )
      // One price per token asked about, at most.
      return keepValid(PriceSchema, answer.fungibles, addresses.length) as FungiblePrice[]
    },
  }
  return client
}

const lower = (address: string) => address.toLowerCase()

/**
 * The query keys of the Data API's answers in the kit's QueryClient. Keys start with `dataApiKeys.all(client)`,
 * so `queryClient.invalidateQueries({ queryKey: dataApiKeys.account(client, address) })` refreshes everything
 * about an account after a transaction.
 * @internal
 */
export const dataApiKeys = {
  all: (client: Pick<DataApiClient, 'api' | 'projectId'>) =>
    ['walletstate', 'dataApi', client.api, client.projectId] as const,
  supportedChains: (client: Pick<DataApiClient, 'api' | 'projectId'>) =>
    [...dataApiKeys.all(client), 'supportedChains'] as const,
  /** Everything about one account (balances, history, NFTs, identity, names). */
  account: (client: Pick<DataApiClient, 'api' | 'projectId'>, address: string) =>
    [...dataApiKeys.all(client), 'account', lower(address)] as const,
  balances: (client: Pick<DataApiClient, 'api' | 'projectId'>, address: string, chainId: string) =>
    [...dataApiKeys.account(client, address), 'balances', chainId] as const,
  history: (client: Pick<DataApiClient, 'api' | 'projectId'>, account: string, chainId: string) =>
    [...dataApiKeys.account(client, account), 'history', chainId] as const,
  nfts: (client: Pick<DataApiClient, 'api' | 'projectId'>, account: string, chainId: string) =>
    [...dataApiKeys.account(client, account), 'nfts', chainId] as const,
  identity: (client: Pick<DataApiClient, 'api' | 'projectId'>, address: string, chainId: string) =>
    [...dataApiKeys.account(client, address), 'identity', chainId] as const,
  names: (client: Pick<DataApiClient, 'api' | 'projectId'>, address: string, chainId: string) =>
    [...dataApiKeys.account(client, address), 'names', chainId] as const,
  /** A name to its address (the send flow's receiver). */
  resolvedName: (client: Pick<DataApiClient, 'api' | 'projectId'>, name: string) =>
    [...dataApiKeys.all(client), 'name', name.trim().toLowerCase()] as const,
}

const clients = new WeakMap<object, WeakMap<ResolvedKitConfig, DataApiClient>>()
const uncached = {}

/**
 * The Data API client of a kit config and its QueryClient (one per pair, so views and actors share it; its
 * network checks are cached in that QueryClient).
 *
 * @example
 * const api = getDataApiClient(config, queryClient)
 */
export function getDataApiClient(
  config: Pick<ResolvedKitConfig, 'endpoints' | 'projectId'>,
  queryClient?: QueryClient,
): DataApiClient {
  const key = config as ResolvedKitConfig
  let perConfig = clients.get(queryClient ?? uncached)
  if (!perConfig) {
    perConfig = new WeakMap()
    clients.set(queryClient ?? uncached, perConfig)
  }
  let client = perConfig.get(key)
  if (!client) {
    client = createDataApiClient({
      api: config.endpoints.api,
      projectId: config.projectId,
      ...(queryClient ? { queryClient } : {}),
    })
    perConfig.set(key, client)
  }
  return client
}
