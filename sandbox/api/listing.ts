import * as v from 'valibot'
import { errorJson, type SandboxResponse, type SandboxService, startService } from '../shared/http.ts'
import {
  ASSET_IMAGE_LABELS,
  buildCatalogue,
  CURRENCY_CODES,
  type ListingWallet,
  type ListingWalletInput,
  MISSING_IMAGE_ID,
  TOKEN_SYMBOLS,
} from './catalogue.ts'
import { createRouter, parseBody, parseQuery, type Route } from './common.ts'
import { badgeSvg, SVG_HEADERS } from './images.ts'

export {
  ASSET_IMAGE_IDS,
  DEV_WALLET_IDS,
  HOSTILE_WALLET_IDS,
  HTML_NAME,
  type ListingWallet,
  type ListingWalletInput,
  LONG_NAME,
  MISSING_IMAGE_ID,
} from './catalogue.ts'

/** Origins any loopback page may use, whatever its port. */
export const DEFAULT_ALLOWED_ORIGINS = ['http://127.0.0.1:*', 'http://localhost:*']

export interface ListingApiOptions {
  /** 0 (the default) binds a free port. */
  port?: number
  /**
   * Wallets added to the catalogue, or overriding catalogue entries with the same id field by field (e.g. the
   * WC wallet's `webapp_link`, known only once its page has started). See `DEV_WALLET_IDS`.
   */
  devWallets?: ListingWalletInput[]
  /** `GET /projects/v1/origins`; default `DEFAULT_ALLOWED_ORIGINS`. */
  allowedOrigins?: string[]
  /** `GET /getAnalyticsConfig`; default `true`. */
  isAnalyticsEnabled?: boolean
  /** Extra token symbols `GET /public/getTokenImage/{symbol}` serves (the built-in list covers the sandbox chain). */
  tokenSymbols?: string[]
  /** When set, calls with any other project id are refused with 403 "Invalid project id". */
  projectIds?: string[]
}

/** The runtime settings of the listing API, readable and changeable while it runs. */
export interface ListingConfig {
  allowedOrigins: string[]
  isAnalyticsEnabled: boolean
}

export interface ListingApi extends SandboxService {
  /** The whole catalogue, in served order. */
  readonly catalogue: readonly ListingWallet[]
  config(): ListingConfig
  /** Changes what `GET /projects/v1/origins` answers (also `POST /__config {allowedOrigins}`). */
  setAllowedOrigins(origins: string[]): void
  /** Changes what `GET /getAnalyticsConfig` answers (also `POST /__config {isAnalyticsEnabled}`). */
  setAnalyticsEnabled(enabled: boolean): void
}

/** SPEC §9: 40 wallets per page; searches ask for 100. Larger pages are refused rather than silently cut. */
const DEFAULT_ENTRIES = 40
const MAX_ENTRIES = 100
const MAX_LIST_ITEMS = 500
const CAIP2 = /^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}$/

const positiveInt = (max: number) =>
  v.pipe(
    v.string(),
    v.regex(/^\d{1,9}$/, 'must be a positive integer'),
    v.transform(Number),
    v.minValue(1, 'must be at least 1'),
    v.maxValue(max, `must be at most ${max}`),
  )

const commaList = (item: v.GenericSchema<string, string>) =>
  v.optional(
    v.pipe(
      v.string(),
      v.transform((text) =>
        text
          .split(',')
          .map((part) => part.trim())
          .filter((part) => part !== ''),
      ),
      v.maxLength(MAX_LIST_ITEMS, `at most ${MAX_LIST_ITEMS} items`),
      v.array(item),
    ),
  )

const WalletsQuerySchema = v.object({
  page: v.optional(positiveInt(1_000_000), '1'),
  entries: v.optional(positiveInt(MAX_ENTRIES), String(DEFAULT_ENTRIES)),
  search: v.optional(v.pipe(v.string(), v.maxLength(100, 'at most 100 characters'))),
  badge_type: v.optional(v.picklist(['certified', 'none'], "must be 'certified' or 'none'")),
  include: commaList(v.pipe(v.string(), v.maxLength(128, 'ids are at most 128 characters'))),
  exclude: commaList(v.pipe(v.string(), v.maxLength(128, 'ids are at most 128 characters'))),
  chains: commaList(v.pipe(v.string(), v.regex(CAIP2, 'must be CAIP-2 chain ids like eip155:1'))),
})

const WALLETS_QUERY_NAMES = ['page', 'entries', 'search', 'badge_type', 'include', 'exclude', 'chains']

const OriginPattern = v.pipe(v.string(), v.minLength(1), v.maxLength(200))
const ConfigSchema = v.strictObject({
  allowedOrigins: v.optional(v.pipe(v.array(OriginPattern), v.maxLength(100))),
  isAnalyticsEnabled: v.optional(v.boolean()),
})

/**
 * Starts the wallet-listing API (SPEC §7): `GET /getWallets`, the four image endpoints, `GET
 * /projects/v1/origins` and `GET /getAnalyticsConfig`, each requiring projectId, st and sv. Sandbox-only:
 * `POST /__config` changes origins and analytics at run time; `/__health` and `/__fault` come from
 * `startService`.
 *
 * @example
 * const listing = await startListingApi({ devWallets: [{ id: DEV_WALLET_IDS.walletConnect, name: 'Walletstate WC Wallet', webapp_link: wcUrl }] })
 * await fetch(`${listing.origin}/getWallets?projectId=p&st=appkit&sv=0.1.0&page=1&entries=40`)
 */
export async function startListingApi(options: ListingApiOptions = {}): Promise<ListingApi> {
  const catalogue = buildCatalogue(options.devWallets ?? [])
  const config: ListingConfig = {
    allowedOrigins: [...(options.allowedOrigins ?? DEFAULT_ALLOWED_ORIGINS)],
    isAnalyticsEnabled: options.isAnalyticsEnabled ?? true,
  }

  const walletImages = new Map<string, string>()
  for (const wallet of catalogue) {
    if (wallet.image_id !== MISSING_IMAGE_ID) walletImages.set(wallet.image_id, wallet.name)
  }
  const tokenSymbols = new Set([
    ...TOKEN_SYMBOLS,
    ...(options.tokenSymbols ?? []).map((s) => s.toUpperCase()),
  ])
  const currencyCodes = new Set(CURRENCY_CODES)

  const image = (label: string | undefined, id: string, kind: string, shape?: 'circle'): SandboxResponse =>
    label === undefined
      ? errorJson(404, `No ${kind} image with id ${id}`)
      : { headers: SVG_HEADERS, body: badgeSvg(id, label, shape) }

  const routes: Route[] = [
    {
      method: 'GET',
      pattern: /^\/getWallets$/,
      handle: ({ req }) => {
        const parsed = parseQuery(req.url, WALLETS_QUERY_NAMES, WalletsQuerySchema)
        if ('error' in parsed) return parsed.error
        const q = parsed.value
        const search = q.search?.trim().toLowerCase()
        const include = q.include && q.include.length > 0 ? new Set(q.include) : undefined
        const exclude = new Set(q.exclude ?? [])
        const chains = q.chains ?? []
        const matches = catalogue.filter(
          (wallet) =>
            (include === undefined || include.has(wallet.id)) &&
            !exclude.has(wallet.id) &&
            (search === undefined || search === '' || wallet.name.toLowerCase().includes(search)) &&
            (q.badge_type === undefined || wallet.badge_type === q.badge_type) &&
            (chains.length === 0 || chains.some((chain) => wallet.chains.includes(chain))),
        )
        const start = (q.page - 1) * q.entries
        return { json: { count: matches.length, data: matches.slice(start, start + q.entries) } }
      },
    },
    {
      method: 'GET',
      pattern: /^\/getWalletImage\/([^/]+)$/,
      handle: ({ params: [id = ''] }) => image(walletImages.get(id), id, 'wallet'),
    },
    {
      method: 'GET',
      pattern: /^\/public\/getAssetImage\/([^/]+)$/,
      handle: ({ params: [id = ''] }) => image(ASSET_IMAGE_LABELS[id], id, 'asset', 'circle'),
    },
    {
      method: 'GET',
      pattern: /^\/public\/getCurrencyImage\/([^/]+)$/,
      handle: ({ params: [id = ''] }) => {
        const code = id.toUpperCase()
        return image(currencyCodes.has(code) ? code : undefined, code, 'currency', 'circle')
      },
    },
    {
      method: 'GET',
      pattern: /^\/public\/getTokenImage\/([^/]+)$/,
      handle: ({ params: [id = ''] }) => {
        const symbol = id.toUpperCase()
        return image(tokenSymbols.has(symbol) ? symbol : undefined, symbol, 'token', 'circle')
      },
    },
    {
      method: 'GET',
      pattern: /^\/projects\/v1\/origins$/,
      handle: () => ({ json: { allowedOrigins: [...config.allowedOrigins] } }),
    },
    {
      method: 'GET',
      pattern: /^\/getAnalyticsConfig$/,
      handle: () => ({ json: { isAnalyticsEnabled: config.isAnalyticsEnabled } }),
    },
    {
      method: 'POST',
      pattern: /^\/__config$/,
      sdkParams: false,
      handle: ({ req }) => {
        const parsed = parseBody(req.body, ConfigSchema, 'config')
        if ('error' in parsed) return parsed.error
        if (parsed.value.allowedOrigins) config.allowedOrigins = [...parsed.value.allowedOrigins]
        if (parsed.value.isAnalyticsEnabled !== undefined)
          config.isAnalyticsEnabled = parsed.value.isAnalyticsEnabled
        return { json: { ...config } }
      },
    },
  ]

  const service = await startService({
    name: 'listing-api',
    port: options.port ?? 0,
    handler: createRouter(routes, options.projectIds ? { projectIds: options.projectIds } : {}),
  })

  return Object.assign(service, {
    catalogue,
    config: () => ({
      allowedOrigins: [...config.allowedOrigins],
      isAnalyticsEnabled: config.isAnalyticsEnabled,
    }),
    setAllowedOrigins(origins: string[]) {
      config.allowedOrigins = [...origins]
    },
    setAnalyticsEnabled(enabled: boolean) {
      config.isAnalyticsEnabled = enabled
    },
  })
}
