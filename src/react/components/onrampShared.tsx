import type { OnrampActorRef, OnrampPaymentMethod } from '../../machines/onramp'
import { useCapability } from '../hooks'
import { type MessageKey, useT } from '../i18nViews'
import { ViewLoading } from './ViewLoading'

/*
 * Pieces the Buy views share (issue 19). They load on demand with those views: nothing here is on the host page's
 * first-click path, the styles included.
 */

const ONRAMP_CSS = `
[data-walletstate] .ws-onramp-box { display: grid; gap: 8px; padding: 12px; border-radius: 12px; background: var(--ws-surface); }
[data-walletstate] .ws-onramp-row { display: flex; align-items: center; justify-content: space-between; gap: 8px; }
[data-walletstate] .ws-onramp-box .ws-input { font-size: 20px; font-variant-numeric: tabular-nums; }
[data-walletstate] .ws-onramp-pick { width: auto; flex: none; min-height: 44px; padding: 6px 12px; border: 1px solid var(--ws-border); border-radius: 999px; background: var(--ws-surface-hover); color: inherit; font: inherit; cursor: pointer; }
[data-walletstate] .ws-onramp-pick:disabled { cursor: default; opacity: 0.55; }
[data-walletstate] .ws-onramp-methods { display: flex; gap: 8px; border: 0; margin: 0; padding: 0; }
[data-walletstate] .ws-onramp-methods label { flex: 1; display: flex; align-items: center; gap: 8px; min-height: 44px; padding: 0 12px; border: 1px solid var(--ws-border); border-radius: 12px; cursor: pointer; }
[data-walletstate] .ws-onramp-methods label:has(input:checked) { border-color: var(--ws-accent); }
[data-walletstate] .ws-onramp-provider { display: grid; grid-template-columns: 1fr auto; gap: 2px 8px; align-items: baseline; padding: 10px 16px; border: 1px solid var(--ws-border); border-radius: 12px; background: var(--ws-surface); }
[data-walletstate] .ws-onramp-provider .ws-muted { grid-column: 1 / -1; font-size: 13px; }
[data-walletstate] .ws-onramp-note { font-size: 13px; }
`

/** The Buy views' styles; each Buy view puts it in its root. */
export function OnrampStyle() {
  return <style>{ONRAMP_CSS}</style>
}

/**
 * The Buy flow's machine; asks the kit to load it (its code loads on first use). `failed` says that the code did
 * not load; `retry` asks again.
 */
export function useOnrampFlow(): { onramp: OnrampActorRef | undefined; failed: boolean; retry: () => void } {
  const { actor, status, retry } = useCapability<OnrampActorRef>('onramp')
  return { onramp: actor, failed: status === 'failed', retry }
}

/** What a Buy view shows while the flow's code loads, or when it did not. */
export function OnrampFlowLoading({ failed, retry }: { failed: boolean; retry: () => void }) {
  const t = useT()
  if (!failed) return <ViewLoading />
  return (
    <div className="ws-stack">
      <p className="ws-error-text" role="alert">
        {t('onramp.unavailable')}
      </p>
      <button type="button" className="ws-secondary" onClick={retry}>
        {t('common.tryAgain')}
      </button>
    </div>
  )
}

export const PAYMENT_METHOD_LABELS: Record<OnrampPaymentMethod, MessageKey> = {
  card: 'onramp.method.card',
  ach_bank_account: 'onramp.method.bank',
}

/** A fiat amount in the language shown (`50.00` USD → "$50.00"); the text itself when it is not a number. */
export function formatFiat(amount: string, currency: string, locale: string): string {
  const value = Number(amount)
  if (!Number.isFinite(value)) return `${amount} ${currency}`
  try {
    return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(value)
  } catch {
    return `${amount} ${currency}`
  }
}

/** A currency's name in the language shown (`USD` → "US Dollar"), or its code. */
export function currencyName(code: string, locale: string): string {
  try {
    return new Intl.DisplayNames([locale], { type: 'currency' }).of(code) ?? code
  } catch {
    return code
  }
}
