import { JSONParser, TokenType } from '@streamparser/json'
import * as v from 'valibot'
import type { KitEndpoints } from '../config'
import {
  WALLET_CHAINS_MAX,
  WALLET_INJECTED_MAX,
  WALLET_NAME_MAX_LENGTH,
  WALLETS_ENTRIES_MAX,
  WALLETS_PARSE_PIECE_BYTES,
} from '../constants'
import { WALLETS_API_ERROR_MESSAGE } from '../errors/api'
import { BaseError } from '../errors/base'
import { chainNamespaceOf, formatChainId, isCaip2 } from '../utils/caip'
import { safeDeepLink, safeHttpUrl, safeText } from '../utils/links'
import { apiUrl, BodyRejected, requestBody } from './http'

/**
 * Client of the wallet-listing API (SPEC §7): `GET /getWallets` and the wallet image URL. Every call carries
 * the project id and the SDK's type and version. Answers are untrusted: each entry is parsed on its own and
 * dropped when it does not fit, and links that are not safe to open are removed from the entry. Answers are
 * bounded too: a page is read as a stream and only the requested number of entries is kept (the rest of the
 * body is never downloaded), every array of an entry is capped, and the body as a whole obeys the HTTP client's
 * byte limit.
 */

/** Longest wallet name kept; longer names are cut with an ellipsis (a name is a label, not a paragraph). */
export { WALLET_NAME_MAX_LENGTH }

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
  /** The most bytes of the answer read; defaults to the HTTP client's `HTTP_BODY_MAX_BYTES`. */
  maxBytes?: number
  /** Tests pass their own. */
  fetch?: typeof fetch
}

export interface FetchWalletsReturnType {
  data: WalletListing[]
  /**
   * How many wallets match the query in all (not only on this page). When the answer puts `count` after a page
   * that was already full (so the rest was not read), a lower bound: the wallets up to this page, plus one.
   */
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
      (namespace: string) => chainNamespaceOf(formatChainId(namespace, '0')) === namespace,
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
  chains: lenient((value) => (Array.isArray(value) ? firstValid(value, WALLET_CHAINS_MAX, isCaip2) : [])),
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
    const items = firstValid(
      value.map((item) => v.safeParse(InjectedSchema, item)),
      WALLET_INJECTED_MAX,
      (parsed) => parsed.success,
    ).flatMap((parsed) => (parsed.success ? [parsed.output] : []))
    return items.length > 0 ? items : undefined
  }),
  supports_wc: lenient((value) => (typeof value === 'boolean' ? value : undefined)),
})

/**
 * The first `max` items of `items` that pass `valid`, looking at no more than `max * 4` of them: a long run of
 * bad items ends the search rather than costing time in proportion to a hostile array.
 */
function firstValid<T, S extends T = T>(
  items: readonly T[],
  max: number,
  valid: ((item: T) => item is S) | ((item: T) => boolean),
): S[] {
  const out: S[] = []
  const end = Math.min(items.length, max * 4)
  for (let index = 0; index < end && out.length < max; index++) {
    const item = items[index] as T
    if (valid(item)) out.push(item as S)
  }
  return out
}

const CountSchema = v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(Number.MAX_SAFE_INTEGER))

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

/**
 * The query string of a `getWallets` call, in a stable order (tests and caches rely on it).
 * @internal
 */
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
  const reader = new ListingPageReader(parameters.entries)
  await requestBody(
    walletsUrl(parameters),
    {
      timeoutMs,
      label: 'The wallet listing',
      ...(signal ? { signal } : {}),
      ...(parameters.maxBytes === undefined ? {} : { maxBytes: parameters.maxBytes }),
      ...(parameters.fetch ? { fetch: parameters.fetch } : {}),
    },
    listingError,
    (chunk) => reader.write(chunk),
  )
  try {
    return reader.finish(parameters.page)
  } catch (error) {
    if (!(error instanceof BodyRejected)) throw error
    throw listingError({ details: error.message, cause: error })
  }
}

function listingError({ details, status, cause }: { details: string; status?: number; cause?: unknown }) {
  return new WalletsApiError(WALLETS_API_ERROR_MESSAGE, {
    details,
    ...(status === undefined ? {} : { status }),
    ...(cause === undefined ? {} : { cause }),
  })
}

/**
 * Reads a `getWallets` answer (`{ count, data: [...] }`) as it streams in, keeping the first `entries` valid,
 * distinct wallets and nothing else: each entry is parsed (and dropped if it does not fit) as soon as it is
 * complete, and the reader asks to stop once the page is full, so the rest of a long answer is never read.
 * `write` throws {@link BodyRejected} for an answer that is not a listing.
 *
 * @example
 * const reader = new ListingPageReader(40)
 * reader.write(new TextEncoder().encode('{"count":1,"data":[{"id":"a","name":"A"}]}'))
 * reader.finish(1) // { count: 1, data: [{ id: 'a', name: 'A', chains: [] }] }
 * @internal
 */
export class ListingPageReader {
  private readonly parser = new JSONParser({ paths: ['$.count', '$.data.*'], keepStack: false })
  private readonly wanted: number
  private readonly seen = new Set<string>()
  private readonly data: WalletListing[] = []
  private count: number | undefined
  /** Whether the root's `data` member was seen and what it was. */
  private dataShape: 'array' | 'other' | undefined
  /** Where the tokens are: nesting depth, and within the root object which part of a member comes next. */
  private depth = 0
  private phase: 'start' | 'key' | 'colon' | 'value' | 'after' = 'start'
  private member: unknown
  private problem: string | undefined
  private full: boolean
  private ended = false

  constructor(entries: number) {
    this.wanted = Math.max(0, Math.min(Math.floor(entries) || 0, WALLETS_ENTRIES_MAX))
    this.full = this.wanted === 0
    this.parser.onToken = ({ token, value }) => this.onToken(token, value)
    this.parser.onValue = ({ value, parent, stack }) => {
      if (this.problem !== undefined) return
      if (stack.length === 1) {
        const count = v.safeParse(CountSchema, value)
        if (count.success) this.count = count.output
        else this.problem = `count ${v.summarize(count.issues)}`
      } else if (!this.full && Array.isArray(parent)) {
        this.add(value)
      }
    }
    this.parser.onError = (error) => {
      this.problem ??= `not JSON (${error.message.slice(0, 120)})`
    }
    this.parser.onEnd = () => {
      this.ended = true
    }
  }

  /** Feeds the next piece of the body; `'stop'` once the page is full. */
  write(chunk: Uint8Array): 'stop' | undefined {
    // In small pieces, so a body that arrives as one large chunk is still parsed no further than the page.
    for (let offset = 0; offset < chunk.byteLength; offset += WALLETS_PARSE_PIECE_BYTES) {
      const piece = chunk.subarray(offset, offset + WALLETS_PARSE_PIECE_BYTES)
      if (this.ended) {
        // Only whitespace may follow the answer.
        if (piece.some((byte) => !WHITESPACE.has(byte))) this.problem ??= 'not JSON (text after the answer)'
      } else {
        this.parser.write(piece)
      }
      if (this.problem !== undefined) this.reject()
      if (this.full) return 'stop'
    }
    return undefined
  }

  /** The page read; throws {@link BodyRejected} for a body that was not a listing. */
  finish(page: number): FetchWalletsReturnType {
    if (this.problem !== undefined) this.reject()
    if (!this.full) {
      if (!this.ended)
        this.fail(this.phase === 'start' ? 'not JSON (empty)' : 'not JSON (the answer ended early)')
      if (this.dataShape === undefined) this.fail('data is missing')
      if (this.count === undefined) this.fail('count is missing')
    }
    // The page filled before `count` came: at least one more wallet may follow.
    const count = this.count ?? Math.max(0, page - 1) * this.wanted + this.data.length + 1
    return { data: this.data, count }
  }

  private add(value: unknown) {
    const wallet = parseWalletListing(value)
    if (!wallet || this.seen.has(wallet.id)) return
    this.seen.add(wallet.id)
    this.data.push(wallet)
    if (this.data.length >= this.wanted) this.full = true
  }

  /** Follows the root object's members, to tell what `data` is (an empty `[]` emits no value to see). */
  private onToken(token: TokenType, value: unknown) {
    if (this.phase === 'start') {
      if (token !== TokenType.LEFT_BRACE) this.problem ??= 'the answer is not an object'
      this.phase = 'key'
    } else if (this.depth === 1) {
      if (this.phase === 'key' && token === TokenType.STRING) {
        this.member = value
        this.phase = 'colon'
      } else if (this.phase === 'colon' && token === TokenType.COLON) {
        this.phase = 'value'
      } else if (this.phase === 'value') {
        if (this.member === 'data') {
          this.dataShape = token === TokenType.LEFT_BRACKET ? 'array' : 'other'
          if (this.dataShape === 'other') this.problem ??= 'data is not a list'
        }
        this.phase = 'after'
      } else if (this.phase === 'after' && token === TokenType.COMMA) {
        this.phase = 'key'
      }
    }
    if (token === TokenType.LEFT_BRACE || token === TokenType.LEFT_BRACKET) this.depth++
    else if (token === TokenType.RIGHT_BRACE || token === TokenType.RIGHT_BRACKET) this.depth--
  }

  private fail(problem: string): never {
    this.problem = problem
    this.reject()
  }

  private reject(): never {
    const problem = this.problem ?? 'unknown'
    throw new BodyRejected(
      problem.startsWith('not JSON')
        ? 'The wallet listing answered something that is not JSON'
        : `The wallet listing answered an unexpected body: ${problem}`,
    )
  }
}

/** JSON's whitespace bytes. */
const WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d])

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
