import { useSelector } from '../actor'
import { FrameViewsStyle, Progress, useFocusOnMount } from '../components/frameViews'
import { SocialIcon } from '../components/SocialIcon'
import { SOCIAL_NAMES } from '../components/socialNames'
import { ViewLoading } from '../components/ViewLoading'
import { useKitActor } from '../context'
import { useFrameActor } from '../hooks'

/**
 * ConnectingSocial: the visitor signs in at the provider in a popup; the frame then connects the account.
 * A blocked or closed popup, or a failed sign-in, ends here with the reason and "Try again" (a click, so the
 * new popup is allowed to open).
 */
export default function ConnectingSocial() {
  const kit = useKitActor()
  const frame = useFrameActor()
  const social = useSelector(frame, (s) => s?.context.social)
  const error = useSelector(frame, (s) => s?.context.error)
  const opening = useSelector(frame, (s) => s?.hasTag('openingPopup') ?? false)
  const atProvider = useSelector(frame, (s) => s?.hasTag('atProvider') ?? false)
  const connecting = useSelector(frame, (s) => (s?.hasTag('signingIn') || s?.hasTag('connected')) ?? false)
  const canRetry = useSelector(
    frame,
    (s) => s?.can({ type: 'frame.connectSocial', provider: 'google' }) ?? false,
  )
  const underWay = opening || atProvider || connecting
  const root = useFocusOnMount<HTMLDivElement>(underWay)
  if (!frame) return <ViewLoading />
  const provider = social && social !== 'farcaster' ? social : undefined
  const name = social ? SOCIAL_NAMES[social] : 'your account'
  return (
    <div className="ws-center" ref={root} tabIndex={-1}>
      <FrameViewsStyle />
      {social ? (
        <span className="ws-wallet-fallback ws-badge-icon" aria-hidden="true">
          <SocialIcon provider={social} className="ws-social-badge" />
        </span>
      ) : null}
      <p className="ws-lead">Log in with {name}</p>
      {opening ? <Progress>Opening the {name} window…</Progress> : null}
      {atProvider ? <Progress>Continue in the {name} window.</Progress> : null}
      {connecting ? <Progress>Connecting your wallet…</Progress> : null}
      {underWay ? null : (
        <>
          <p className="ws-error-text" role="alert">
            {error?.message ?? `The ${name} window was closed before you logged in.`}
          </p>
          {error?.name === 'AuthInitError' ? (
            <p className="ws-muted">
              Your browser may have blocked the pop-up window. Try again, or allow pop-ups for this site.
            </p>
          ) : null}
          {provider ? (
            <button
              type="button"
              className="ws-primary"
              disabled={!canRetry}
              onClick={() => kit.send({ type: 'frame.connectSocial', provider })}
            >
              Try again
            </button>
          ) : null}
        </>
      )}
    </div>
  )
}
