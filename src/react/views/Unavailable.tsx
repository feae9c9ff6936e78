import { useKitActor } from '../context'

/** Any view this build of the kit does not include yet: says so plainly and offers the way back. */
export default function Unavailable() {
  const kit = useKitActor()
  return (
    <div>
      <p className="ws-muted">This part of the kit is not available in this version.</p>
      <button type="button" className="ws-primary" onClick={() => kit.send({ type: 'router.back' })}>
        Go back
      </button>
    </div>
  )
}
