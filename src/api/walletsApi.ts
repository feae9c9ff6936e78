import * as v from 'valibot'
import type { KitEndpoints } from '../config'
import { WALLETS_API_ERROR_MESSAGE } from '../errors/api'
import { BaseError } from '../errors/base'
import { formatChainId, isCaip2, namespaceOf } from '../utils/caip'
import { safeDeepLink, safeHttpUrl, safeText } from '../utils/links'
import { apiUrl, requestJson } from './http'

/**
 * Client of the wallet-listing API (SPEC §7): `GET /getWallets` and the wallet image URL. Every call carries
 * the project id and the SDK's type and version. Answers are untrusted: each entry is parsed on its own and
 * dropped when it does not fit, and links that are not safe to open are removed from the entry.
 */

/** Longest wallet name kept; longer names are cut with an ellipsis (a name is a label, not a paragraph). */
export const WALLET_NAME_MAX_LENGTH = 64

/** How long one listing request may take before it fails. Ours: the SPEC names none. */
export const WALLETS_API_TIMEOUT_MS = 15_000

/**
 * One wallet of the listing (SPEC §3 "Wallet listing entry"), as parsed: `name` is display-safe text, links
 * passed `safeDeepLink` (`mobile_link`, `desktop_link`) or `safeHttpUrl` (the web links) or were dropped.
 */
export interface WalletListing {
  id: string
  name: string
  image_id?: string
  /** The image's URL on the listing API, added by the kit's listing slot (src/actors/wallets.ts). */
  image_url?: string
  rdns?: string
  /** CAIP-2 chain ids the wallet supports. */
  chains: string[]
  mobile_link?: string
  desktop_link?: string
  webapp_link?: string
  homepage?: string
  app_store?: string
  play_store?: string
  chrome_store?: string
  badge_type?: 'certified' | 'none'
  /** EIP-6963 / injected identifiers of a browser-extension wallet. */
  injected?: Array<{ namespace: string; injected_id: string }>
  supports_wc?: boolean
}

export interface FetchWalletsParameters {
  /** `endpoints.walletsApi` of the kit config. */
  walletsApi: string
  projectId: string
  /** 1-based. */
  page: number
  entries: number
  search?: string
  /** Only these wallet ids. */
  include?: readonly string[]
  exclude?: readonly string[]
  /** CAIP-2 chain ids; a wallet matches when it supports any of them. */
  chains?: readonly string[]
  badge_type?: 'certified' | 'none'
  signal?: AbortSignal
  /** Defaults to {@link WALLETS_API_TIMEOUT_MS}. */
  timeoutMs?: number
}

export interface FetchWalletsReturnType {
  data: WalletListing[]
  /** How many wallets match the query in all (not only on this page). */
  count: number
}

/** A listing call failed: network, timeout, non-2xx answer or a body that is not a listing. */
export class WalletsApiError extends BaseError {
  override name = 'WalletsApiError'
  /** The HTTP status, when the API answered. */
  readonly status: number | undefined

  constructor(shortMessage: string, parameters: { cause?: unknown; details?: string; status?: number } = {}) {
    super(shortMessage, parameters)
    this.status = parameters.status
  }
}

export type FetchWalletsErrorType = WalletsApiError

/** The UI text of every listing failure. */
export { WALLETS_API_ERROR_MESSAGE } from '../errors/api'

// An id ends up in query lists (comma-separated) and React keys: a conservative character set.
const ID = /^[A-Za-z0-9._:-]{1,128}$/
// No dots: a path segment of dots would climb out of /getWalletImage/.
const IMAGE_ID = /^[A-Za-z0-9_-]{1,128}$/
const RDNS = /^[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/

/** A field that is dropped (becomes `undefined`) when absent, `null` or not usable, never failing the entry. */
const lenient = <T>(pick: (value: unknown) => T | undefined) =>
  v.pipe(
    v.optional(v.unknown()),
    v.transform((value) => pick(value)),
  )

const matching = (pattern: RegExp) => (value: unknown) =>
  typeof value === 'string' && pattern.test(value) ? value : undefined

const InjectedSchema = v.object({
  // A CAIP-2 namespace: one that forms a chain id with any reference.
  namespace: v.pipe(
    v.string(),
    v.check(
      (namespace: string) => namespaceOf(formatChainId(namespace, '0')) === namespace,
      'is not a namespace',
    ),
  ),
  injected_id: v.pipe(v.string(), v.minLength(1), v.maxLength(255)),
})

const WalletListingSchema = v.object({
  id: v.pipe(v.string(), v.regex(ID, 'id must be 1-128 characters of [A-Za-z0-9._:-]')),
  name: v.pipe(
    v.string(),
    v.transform((name) => safeText(name, WALLET_NAME_MAX_LENGTH)),
    v.minLength(1, 'name is empty'),
  ),
  image_id: lenient(matching(IMAGE_ID)),
  rdns: lenient((value) =>
    typeof value === 'string' && value.length <= 255 ? matching(RDNS)(value) : undefined,
  ),
  chains: lenient((value) =>
    Array.isArray(value) ? value.filter((chain): chain is string => isCaip2(chain)).slice(0, 256) : [],
  ),
  mobile_link: lenient(safeDeepLink),
  desktop_link: lenient(safeDeepLink),
  webapp_link: lenient(safeHttpUrl),
  homepage: lenient(safeHttpUrl),
  app_store: lenient(safeHttpUrl),
  play_store: lenient(safeHttpUrl),
  chrome_store: lenient(safeHttpUrl),
  badge_type: lenient((value) => (value === 'certified' || value === 'none' ? value : undefined)),
  injected: lenient((value) => {
    if (!Array.isArray(value)) return undefined
    const items = value.flatMap((item) => {
      const parsed = v.safeParse(InjectedSchema, item)
      return parsed.success ? [parsed.output] : []
    })
    return items.length > 0 ? items.slice(0, 16) : undefined
  }),
  supports_wc: lenient((value) => (typeof value === 'boolean' ? value : undefined)),
})

const PageSchema = v.object({
  count: v.pipe(v.number(), v.integer(), v.minValue(0)),
  data: v.array(v.unknown()),
})

/** Drops `undefined` fields so entries compare and serialise cleanly; a wallet without chains has `[]`. */
function compact(entry: v.InferOutput<typeof WalletListingSchema>): WalletListing {
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(entry)) if (value !== undefined) out[key] = value
  // valibot skips an optional field that is absent, so `chains` may not have been through its transform.
  out.chains ??= []
  return out as unknown as WalletListing
}

/**
 * Parses one listing entry; `undefined` when it is not a usable wallet (no id, no name).
 *
 * @example
 * parseWalletListing({ id: 'abc', name: 'Rainbow', mobile_link: 'javascript:x' }) // { id, name, chains: [] }
 */
export function parseWalletListing(value: unknown): WalletListing | undefined {
  const parsed = v.safeParse(WalletListingSchema, value)
  return parsed.success ? compact(parsed.output) : undefined
}

/** The query string of a `getWallets` call, in a stable order (tests and caches rely on it). */
export function walletsUrl(parameters: Omit<FetchWalletsParameters, 'signal' | 'timeoutMs'>): URL {
  const url = apiUrl(parameters.walletsApi, 'getWallets', parameters.projectId, {
    page: parameters.page,
    entries: parameters.entries,
    search: parameters.search?.trim() || undefined,
    badge_type: parameters.badge_type,
  })
  const list = (name: string, values: readonly string[] | undefined) => {
    if (values && values.length > 0) url.searchParams.set(name, [...new Set(values)].join(','))
  }
  list('include', parameters.include)
  list('exclude', parameters.exclude)
  list('chains', parameters.chains)
  return url
}

/**
 * Fetches one page of the wallet listing. Entries that fail the schema are dropped one by one; the page
 * itself fails with `WalletsApiError` on a network error, a timeout, a non-2xx answer or a malformed body.
 * An abort through `signal` rejects with the abort reason, untouched.
 *
 * @example
 * const { data, count } = await fetchWallets({
 *   walletsApi: config.endpoints.walletsApi, projectId: config.projectId, page: 1, entries: 40,
 *   chains: ['eip155:1'],
 * })
 */
export async function fetchWallets(parameters: FetchWalletsParameters): Promise<FetchWalletsReturnType> {
  const { signal, timeoutMs = WALLETS_API_TIMEOUT_MS } = parameters
  const json = await requestJson(
    walletsUrl(parameters),
    { timeoutMs, label: 'The wallet listing', ...(signal ? { signal } : {}) },
    ({ details, status, cause }) =>
      new WalletsApiError(WALLETS_API_ERROR_MESSAGE, {
        details,
        ...(status === undefined ? {} : { status }),
        ...(cause === undefined ? {} : { cause }),
      }),
  )
  const page = v.safeParse(PageSchema, json)
  if (!page.success) {
    throw new WalletsApiError(WALLETS_API_ERROR_MESSAGE, {
      details: `The wallet listing answered an unexpected body: ${v.summarize(page.issues)}`,
    })
  }
  const seen = new Set<string>()
  const data: WalletListing[] = []
  for (const item of page.output.data) {
    const wallet = parseWalletListing(item)
    if (!wallet || seen.has(wallet.id)) continue
    seen.add(wallet.id)
    data.push(wallet)
  }
  return { data, count: page.output.count }
}

/**
 * The URL of a wallet's image (`GET /getWalletImage/{id}` with projectId, st and sv). Throws
 * `WalletsApiError` for an id that is not a plain path segment (parsed listing entries never carry one).
 *
 * @example
 * <img src={walletImageUrl(config.endpoints, config.projectId, wallet.image_id)} alt="" />
 */
export function walletImageUrl(
  endpoints: Pick<KitEndpoints, 'walletsApi'>,
  projectId: string,
  imageId: string,
): string {
  if (!IMAGE_ID.test(imageId))
    throw new WalletsApiError('Invalid wallet image id', { details: imageId.slice(0, 140) })
  return apiUrl(endpoints.walletsApi, `getWalletImage/${encodeURIComponent(imageId)}`, projectId).toString()
}
