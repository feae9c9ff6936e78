import * as v from 'valibot'
import { originAllowed } from '../secure-site/shared.ts'
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

/**
 * Test-only hostile behaviour of `GET /getWallets`, to show the kit bounds what it reads (issue 13). Off by
 * default; set with `setHostile` or `POST /__config {hostile}`.
 */
export interface ListingHostile {
  /**
   * Every answer carries, after the requested page, valid filler wallets until the body holds this many bytes
   * (a "10 MB answer"); `count` stays the real one. At most {@link MAX_PAD_BYTES}.
   */
  padBytes?: number
  /** This many more ordinary wallets at the end of the catalogue, for long lists. At most 100,000. */
  extraWallets?: number
  /** Whatever page is asked, the first one, with a count of 1,000,000: a listing that never ends. */
  repeatFirstPage?: boolean
}

export interface ListingApi extends SandboxService {
  /** The whole catalogue, in served order. */
  readonly catalogue: readonly ListingWallet[]
  config(): ListingConfig
  /** Changes what `GET /projects/v1/origins` answers (also `POST /__config {allowedOrigins}`). */
  setAllowedOrigins(origins: string[]): void
  /** Changes what `GET /getAnalyticsConfig` answers (also `POST /__config {isAnalyticsEnabled}`). */
  setAnalyticsEnabled(enabled: boolean): void
  /** Replaces the hostile behaviour of `GET /getWallets` (also `POST /__config {hostile}`); `{}` turns it off. */
  setHostile(hostile: ListingHostile): void
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

/** The largest padded answer the sandbox builds. */
export const MAX_PAD_BYTES = 64 * 1024 * 1024
const MAX_EXTRA_WALLETS = 100_000

const OriginPattern = v.pipe(v.string(), v.minLength(1), v.maxLength(200))
const HostileSchema = v.strictObject({
  padBytes: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(MAX_PAD_BYTES))),
  extraWallets: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(MAX_EXTRA_WALLETS))),
  repeatFirstPage: v.optional(v.boolean()),
})
const ConfigSchema = v.strictObject({
  allowedOrigins: v.optional(v.pipe(v.array(OriginPattern), v.maxLength(100))),
  isAnalyticsEnabled: v.optional(v.boolean()),
  hostile: v.optional(HostileSchema),
})

/** An ordinary extra wallet of a long list (no image: the kit shows its initial). */
function extraWallet(index: number, order: number): ListingWallet {
  const n = String(index + 1).padStart(6, '0')
  return {
    id: `extra-${n}`,
    name: `Extra Wallet ${n}`,
    image_id: MISSING_IMAGE_ID,
    order,
    homepage: null,
    badge_type: 'none',
    rdns: null,
    chains: ['eip155:1', 'eip155:31337'],
    mobile_link: null,
    desktop_link: null,
    webapp_link: null,
    app_store: null,
    play_store: null,
    chrome_store: null,
    injected: null,
    supports_wc: true,
  }
}

/** `,{filler},{filler},...`: valid wallets making up at least `bytes` bytes, built once per size. */
function fillerText(bytes: number): string {
  const parts: string[] = []
  let size = 0
  for (let i = 0; size < bytes; i++) {
    const entry = `,{"id":"filler-${i}","name":"Filler Wallet ${i}","chains":["eip155:1","eip155:31337"],"mobile_link":"filler://${i}"}`
    parts.push(entry)
    size += entry.length
  }
  return parts.join('')
}

/**
 * Starts the wallet-listing API (SPEC §7): `GET /getWallets`, the four image endpoints, `GET
 * /projects/v1/origins` and `GET /getAnalyticsConfig` (403 to a page whose Origin is not on the allowed
 * origins), each requiring projectId, st and sv. Sandbox-only:
 * `POST /__config` changes origins, analytics and the hostile listing modes (`ListingHostile`) at run time;
 * `/__health` and `/__fault` come from `startService`.
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
  let hostile: ListingHostile = {}
  let extras: ListingWallet[] = []
  let filler = { bytes: 0, text: '' }
  const setHostile = (next: ListingHostile) => {
    hostile = { ...next }
    const count = hostile.extraWallets ?? 0
    extras = Array.from({ length: count }, (_, i) => extraWallet(i, catalogue.length + i + 1))
    const bytes = hostile.padBytes ?? 0
    if (bytes !== filler.bytes) filler = { bytes, text: bytes > 0 ? fillerText(bytes) : '' }
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
        const matches = (extras.length > 0 ? [...catalogue, ...extras] : catalogue).filter(
          (wallet) =>
            (include === undefined || include.has(wallet.id)) &&
            !exclude.has(wallet.id) &&
            (search === undefined || search === '' || wallet.name.toLowerCase().includes(search)) &&
            (q.badge_type === undefined || wallet.badge_type === q.badge_type) &&
            (chains.length === 0 || chains.some((chain) => wallet.chains.includes(chain))),
        )
        if (hostile.repeatFirstPage) return { json: { count: 1_000_000, data: matches.slice(0, q.entries) } }
        const start = (q.page - 1) * q.entries
        const answer = { count: matches.length, data: matches.slice(start, start + q.entries) }
        if (filler.text === '') return { json: answer }
        // The page, then the filler inside the same `data` array.
        const text = JSON.stringify(answer)
        const padded = answer.data.length > 0 ? filler.text : filler.text.slice(1)
        return {
          headers: { 'content-type': 'application/json' },
          body: `${text.slice(0, -2)}${padded}]}`,
        }
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
      // As the provider does: a page whose origin is not on the project's allowed origins is refused (403), and
      // the kit shows SPEC §8's invalid-app-configuration alert. Node callers send no Origin and are answered.
      handle: ({ req }) => {
        const origin = typeof req.headers.origin === 'string' ? req.headers.origin : undefined
        if (origin !== undefined && !originAllowed(config.allowedOrigins, origin)) {
          return errorJson(403, 'Origin not allowed for this project', { origin })
        }
        return { json: { isAnalyticsEnabled: config.isAnalyticsEnabled } }
      },
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
        if (parsed.value.hostile) setHostile(parsed.value.hostile)
        return { json: { ...config, hostile } }
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
    setHostile,
  })
}
