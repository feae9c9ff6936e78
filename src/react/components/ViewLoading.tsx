import { useT } from '../i18n'

/** Shown while a lazily loaded view's code arrives. */
export function ViewLoading({ label }: { label?: string }) {
  const t = useT()
  return (
    <div className="ws-loading" role="status" aria-live="polite">
      <span className="ws-spinner" aria-hidden="true" />
      <span className="ws-muted">{label ?? t('common.loading')}</span>
    </div>
  )
}
