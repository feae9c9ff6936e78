import { useSelector } from '../actor'
import { useKitActor } from '../context'
import { useConnectionActor } from '../hooks'
import { errorText, useT } from '../i18nViews'

/** A failed or declined connection attempt: the reason, and "Try again" with the same wallet. */
export function ConnectFailed() {
  const kit = useKitActor()
  const error = useSelector(useConnectionActor(), (s) => s.context.error)
  const t = useT()
  return (
    <>
      <p className="ws-error-text" role="alert">
        {error ? errorText(t, error) : t('connect.failed')}
      </p>
      <button type="button" className="ws-primary" onClick={() => kit.send({ type: 'connection.retry' })}>
        {t('common.tryAgain')}
      </button>
    </>
  )
}
