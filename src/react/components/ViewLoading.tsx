/** Shown while a lazily loaded view's code arrives. */
export function ViewLoading({ label = 'Loading…' }: { label?: string }) {
  return (
    <div className="ws-loading" role="status" aria-live="polite">
      <span className="ws-spinner" aria-hidden="true" />
      <span className="ws-muted">{label}</span>
    </div>
  )
}
