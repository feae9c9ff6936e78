import { useCallback, useState } from 'react'
import { currencyImageUrl, tokenImageUrl } from '../../utils/images'
import { useKitConfig } from '../hooks'

/**
 * The provider's image of a token by its symbol (SPEC §7 `getTokenImage`), from the kit's listing host:
 * `undefined` for a symbol that is no plain path segment.
 */
export function useTokenImage(): (symbol: string | undefined) => string | undefined {
  const { endpoints, projectId } = useKitConfig()
  return useCallback((symbol) => tokenImageUrl(endpoints, projectId, symbol), [endpoints, projectId])
}

/** The provider's image of a fiat currency by its ISO 4217 code (SPEC §7 `getCurrencyImage`). */
export function useCurrencyImage(): (code: string | undefined) => string | undefined {
  const { endpoints, projectId } = useKitConfig()
  return useCallback((code) => currencyImageUrl(endpoints, projectId, code), [endpoints, projectId])
}

/**
 * A token's or currency's icon, decorative (its symbol is always next to it as text): the API's own icon when
 * it gave a safe one (`src`), else the provider's image endpoint (`fallback`); one that fails to load gives way
 * to the next, and to an empty place at the end. Never sends a referrer.
 */
export function TokenIcon({ src, fallback }: { src?: string | undefined; fallback?: string | undefined }) {
  const sources = [src, fallback].filter((s): s is string => !!s)
  const [failed, setFailed] = useState(0)
  const shown = sources[failed]
  return shown ? (
    <img
      key={shown}
      className="ws-token-icon"
      src={shown}
      alt=""
      referrerPolicy="no-referrer"
      onError={() => setFailed((n) => n + 1)}
    />
  ) : (
    <span className="ws-token-icon" aria-hidden="true" />
  )
}
