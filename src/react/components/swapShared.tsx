import { formatUnits } from 'viem'
import { isNative, type SwapActorRef, type SwapToken, type TokenBalance } from '../../machines/swap'
import { safeHttpUrl } from '../../utils/httpUrl'
import { useCapability } from '../hooks'
import { localizeText, useT } from '../i18nViews'
import { AccountStyle, formatQuantity } from './accountShared'
import { TokenIcon } from './TokenIcon'
import { ViewLoading } from './ViewLoading'

/*
 * Pieces the swap views share (issue 16). They load on demand, and so does this file: nothing here is in the
 * first-click bundle, the styles included.
 */

/**
 * The swap views' own styles, on top of the kit's `ws-*` classes and the account views' (`AccountStyle`). They
 * ride with the swap code, not in the kit's stylesheet; scoped to the kit's root like the rest.
 */
const SWAP_CSS = `
[data-walletstate] .ws-swap-box { display: grid; gap: 8px; padding: 12px; border-radius: 12px; background: var(--ws-surface); }
[data-walletstate] .ws-swap-box .ws-input { font-size: 20px; font-variant-numeric: tabular-nums; background: transparent; border-color: transparent; padding: 4px 0; }
[data-walletstate] .ws-swap-box .ws-input:focus-visible { border-color: var(--ws-border); }
[data-walletstate] .ws-swap-meta { display: flex; justify-content: space-between; align-items: center; gap: 8px; }
[data-walletstate] .ws-swap-token { width: auto; flex: none; padding: 6px 10px; gap: 8px; border: 1px solid var(--ws-border); border-radius: 999px; background: var(--ws-surface-hover); }
[data-walletstate] .ws-swap-token .ws-token-icon { width: 24px; height: 24px; }
[data-walletstate] .ws-swap-flip { justify-self: center; width: 36px; height: 36px; margin: -14px 0; z-index: 1; border-radius: 50%; border: 1px solid var(--ws-border); background: var(--ws-surface); color: inherit; font: inherit; cursor: pointer; }
[data-walletstate] .ws-swap-flip:disabled { cursor: default; opacity: 0.55; }
[data-walletstate] .ws-swap-slippage { display: flex; align-items: center; justify-content: space-between; gap: 8px; }
[data-walletstate] .ws-swap-slippage .ws-input { width: 5.5em; text-align: end; padding: 6px 8px; }
[data-walletstate] .ws-swap-mini { width: auto; flex: none; padding: 2px 8px; font-size: 12px; }
[data-walletstate] .ws-swap-warn { color: var(--ws-error); }
`

/** Renders the swap views' styles; each swap view puts it in its root, beside `AccountStyle`. */
export function SwapStyle() {
  return <style>{SWAP_CSS}</style>
}

/**
 * The swap flow's machine; asks the kit to load it (the machine and its actors load on first use). `failed`
 * says that its code did not load; `retry` asks again.
 */
export function useSwapFlow(): { swap: SwapActorRef | undefined; failed: boolean; retry: () => void } {
  const { actor, status, retry } = useCapability<SwapActorRef>('swap')
  return { swap: actor, failed: status === 'failed', retry }
}

/** What a swap view shows while the swap flow's code loads, or when it did not. */
export function SwapFlowLoading({ failed, retry }: { failed: boolean; retry: () => void }) {
  const t = useT()
  if (!failed) return <ViewLoading />
  return (
    <div className="ws-stack">
      <p className="ws-error-text" role="alert">
        {t('swap.unavailable')}
      </p>
      <button type="button" className="ws-secondary" onClick={retry}>
        {t('common.tryAgain')}
      </button>
    </div>
  )
}

/**
 * A token's logo, decorative (its symbol is always next to it as text). The convert API's `logoUri` is the
 * API's to choose: only an `http:`/`https:` address is shown; else the provider's image of the symbol
 * (`fallback`, SPEC §7 `getTokenImage`), or the place is left empty.
 */
export function TokenLogo({
  token,
  fallback,
}: {
  token: Pick<SwapToken, 'logoUri'>
  fallback?: string | undefined
}) {
  return <TokenIcon src={safeHttpUrl(token.logoUri)} fallback={fallback} />
}

/** The address part of a balance's (CAIP-10 or plain) address, lower case; '' for the native currency. */
function balanceAddress(balance: TokenBalance): string {
  const address = (balance.address ?? '').trim().toLowerCase().split(':').pop() ?? ''
  return isNative({ address }) ? '' : address
}

/**
 * The account's balance of a swap token as a decimal string (the Data API's `numeric`), when the balances
 * list it. A token the list does not hold is not proof of zero: `undefined`.
 */
export function swapBalanceOf(balances: readonly TokenBalance[], token: SwapToken): string | undefined {
  const address = isNative(token) ? '' : token.address.trim().toLowerCase()
  return balances.find((b) => b.chainId === token.chainId && balanceAddress(b) === address)?.quantity.numeric
}

/**
 * Base units (a decimal string, as quotes carry them) for display: `maxDecimals` decimals at most, cut.
 *
 * @example
 * formatBaseUnits('1234500', 6) // '1.2345'
 */
export function formatBaseUnits(
  base: string | bigint,
  decimals: number,
  maxDecimals = 6,
  locale?: string,
): string {
  try {
    return formatQuantity(formatUnits(BigInt(base), decimals), maxDecimals, locale)
  } catch {
    return '—'
  }
}

/**
 * The least the swap may pay out with the slippage tolerance (in percent), in the received token's base units.
 *
 * @example
 * minimumReceived('1000', 1) // 990n
 */
export function minimumReceived(toAmount: string, slippage: number): bigint {
  const keep = BigInt(Math.max(0, Math.round((100 - slippage) * 100)))
  return (BigInt(toAmount) * keep) / 10_000n
}

/** A percentage for display, e.g. `0.3 %`; up to 2 decimals. */
export function formatPercent(value: number, locale = 'en-US'): string {
  return `${Number(value.toFixed(2)).toLocaleString(locale, { maximumFractionDigits: 2 })} %`
}

/**
 * What a swap view shows while the tokens to swap load, or when they did not (the error's text, Try again);
 * nothing otherwise.
 */
export function SwapTokensState({
  status,
  error,
  onRetry,
}: {
  status: string
  error: { message: string } | undefined
  onRetry: () => void
}) {
  const t = useT()
  if (status === 'loading') {
    return (
      <p className="ws-status ws-muted" role="status">
        <span className="ws-spinner ws-spinner-small" aria-hidden="true" />
        {t('tokens.loading')}
      </p>
    )
  }
  if (status !== 'tokensFailed') return null
  return (
    <div className="ws-stack">
      <AccountStyle />
      <p className="ws-error-text" role="alert">
        {localizeText(t, error?.message ?? 'Unable to load the tokens to swap.')}
      </p>
      <button type="button" className="ws-secondary" onClick={onRetry}>
        {t('common.tryAgain')}
      </button>
    </div>
  )
}
