import { useSelector } from '../actor'
import { useKitActor } from '../context'
import { useConnectionActor } from '../hooks'

/** A failed or declined connection attempt: the reason, and "Try again" with the same wallet. */
export function ConnectFailed() {
  const kit = useKitActor()
  const error = useSelector(useConnectionActor(), (s) => s.context.error)
  return (
    <>
      <p className="ws-error-text" role="alert">
        {error?.message ?? 'Connection failed.'}
      </p>
      <button type="button" className="ws-primary" onClick={() => kit.send({ type: 'connection.retry' })}>
        Try again
      </button>
    </>
  )
}
