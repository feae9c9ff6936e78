import type { KitEndpoints } from '../config'
import { SDK_TYPE, SDK_VERSION } from '../constants'

/*
 * The listing API's image endpoints (SPEC §7): `GET /public/getAssetImage/{id}` (networks, connectors),
 * `/public/getCurrencyImage/{id}` (fiat currencies) and `/public/getTokenImage/{id}` (tokens by symbol), each
 * with projectId, st and sv. The kit shows them as `<img>` sources: the browser fetches the binary from the
 * provider's host, never from an address an API answer chose. What goes into the path comes from answers
 * (a token's symbol, a currency code, a listing's image id), so it is checked to be one plain segment: no
 * dots (a segment of dots would climb out of the endpoint's folder), no slashes, bounded; else no image.
 */

// Letters, digits, '_' and '-' only; ids are UUIDs, currency codes ISO 4217, symbols short.
const ASSET_ID = /^[A-Za-z0-9_-]{1,128}$/
const CURRENCY_CODE = /^[A-Za-z]{3}$/
const TOKEN_SYMBOL = /^[A-Za-z0-9_-]{1,32}$/

type ImageEndpoints = Pick<KitEndpoints, 'walletsApi'>

/** `{walletsApi}/public/{path}/{id}` with the SDK parameters (as the API clients' `apiUrl`; the views may not import those). */
function imageUrl(endpoints: ImageEndpoints, projectId: string, path: string, id: string): string {
  const base = endpoints.walletsApi
  const url = new URL(`public/${path}/${encodeURIComponent(id)}`, base.endsWith('/') ? base : `${base}/`)
  url.searchParams.set('projectId', projectId)
  url.searchParams.set('st', SDK_TYPE)
  url.searchParams.set('sv', SDK_VERSION)
  return url.toString()
}

/**
 * A network's or connector's image by its image id (`GET /public/getAssetImage/{id}`); `undefined` for an id
 * that is not one plain path segment.
 *
 * @example
 * assetImageUrl({ walletsApi: 'https://wallets.walletstate.io' }, 'p1', 'ef1a1fcf-7fe8-4d69-bd6d-fda1345b4400')
 * // 'https://wallets.walletstate.io/public/getAssetImage/ef1a1fcf-…?projectId=p1&st=…&sv=…'
 */
export function assetImageUrl(
  endpoints: ImageEndpoints,
  projectId: string,
  imageId: unknown,
): string | undefined {
  return typeof imageId === 'string' && ASSET_ID.test(imageId)
    ? imageUrl(endpoints, projectId, 'getAssetImage', imageId)
    : undefined
}

/**
 * A fiat currency's image by its ISO 4217 code, upper case (`GET /public/getCurrencyImage/{code}`); `undefined`
 * for anything else.
 *
 * @example
 * currencyImageUrl({ walletsApi: 'https://wallets.walletstate.io' }, 'p1', 'usd')
 * // 'https://wallets.walletstate.io/public/getCurrencyImage/USD?projectId=p1&st=…&sv=…'
 */
export function currencyImageUrl(
  endpoints: ImageEndpoints,
  projectId: string,
  code: unknown,
): string | undefined {
  return typeof code === 'string' && CURRENCY_CODE.test(code)
    ? imageUrl(endpoints, projectId, 'getCurrencyImage', code.toUpperCase())
    : undefined
}

/**
 * A token's image by its symbol, upper case (`GET /public/getTokenImage/{symbol}`); `undefined` for a symbol
 * that is not a plain segment (a hostile token's symbol is its own to choose).
 *
 * @example
 * tokenImageUrl({ walletsApi: 'https://wallets.walletstate.io' }, 'p1', 'usdc')
 * // 'https://wallets.walletstate.io/public/getTokenImage/USDC?projectId=p1&st=…&sv=…'
 */
export function tokenImageUrl(
  endpoints: ImageEndpoints,
  projectId: string,
  symbol: unknown,
): string | undefined {
  return typeof symbol === 'string' && TOKEN_SYMBOL.test(symbol)
    ? imageUrl(endpoints, projectId, 'getTokenImage', symbol.toUpperCase())
    : undefined
}
