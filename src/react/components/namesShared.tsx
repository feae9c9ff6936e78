import type { NamesActorRef } from '../../machines/names'
import { useCapability } from '../hooks'
import { useT } from '../i18nViews'
import { ViewLoading } from './ViewLoading'

/*
 * Pieces the name views share (issue 20). They load on demand with those views: nothing here is on the host
 * page's first-click path, the styles included.
 */

const NAMES_CSS = `
[data-walletstate] .ws-names { display: grid; gap: 12px; width: 100%; text-align: start; }
[data-walletstate] .ws-name-field { display: flex; align-items: center; gap: 8px; padding: 0 12px; border: 1px solid var(--ws-border); border-radius: 12px; background: var(--ws-surface); }
[data-walletstate] .ws-name-field:focus-within { outline: 2px solid var(--ws-accent); outline-offset: 2px; }
[data-walletstate] .ws-name-field:has([aria-invalid="true"]) { border-color: var(--ws-error); }
[data-walletstate] .ws-name-field .ws-input { flex: 1; min-width: 0; border: 0; padding-inline: 0; background: transparent; }
[data-walletstate] .ws-name-field .ws-input:focus-visible { outline: none; }
[data-walletstate] .ws-name-suffix { flex: none; color: var(--ws-muted); }
[data-walletstate] .ws-name-status { min-height: 1.4em; margin: 0; font-size: 14px; }
[data-walletstate] .ws-name-status[data-status="available"] { color: var(--ws-success); }
[data-walletstate] .ws-name-rule { margin: 0; font-size: 13px; }
[data-walletstate] .ws-name-suggestions { display: flex; flex-wrap: wrap; gap: 8px; list-style: none; margin: 0; padding: 0; }
[data-walletstate] .ws-name-suggestion { min-height: 44px; padding: 6px 12px; border: 1px solid var(--ws-border); border-radius: 999px; background: var(--ws-surface-hover); color: inherit; font: inherit; font-size: 14px; cursor: pointer; }
[data-walletstate] .ws-name-suggestion:focus-visible { outline: 2px solid var(--ws-accent); outline-offset: 2px; }
[data-walletstate] .ws-name-registered { margin: 0; font-size: 20px; font-weight: 600; word-break: break-all; }
`

/** The name views' styles; each name view puts it in its root. */
export function NamesStyle() {
  return <style>{NAMES_CSS}</style>
}

/**
 * The names flow's machine; `failed` says that its code did not load; `retry` asks the kit again (`names.load`).
 */
export function useNamesFlow(): { names: NamesActorRef | undefined; failed: boolean; retry: () => void } {
  const { actor, status, retry } = useCapability<NamesActorRef>('names')
  return { names: actor, failed: status === 'failed', retry }
}

/** What a name view shows while the flow's code loads, or when it did not. */
export function NamesFlowLoading({ failed, retry }: { failed: boolean; retry: () => void }) {
  const t = useT()
  if (!failed) return <ViewLoading />
  return (
    <div className="ws-stack">
      <p className="ws-error-text" role="alert">
        {t('names.unavailable')}
      </p>
      <button type="button" className="ws-secondary" onClick={retry}>
        {t('common.tryAgain')}
      </button>
    </div>
  )
}
