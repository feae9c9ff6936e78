import { useSelector } from '../actor'
import { FrameViewsStyle, Progress, useFocusOnMount } from '../components/frameViews'
import { SocialIcon } from '../components/SocialIcon'
import { SOCIAL_NAMES } from '../components/socialNames'
import { ViewLoading } from '../components/ViewLoading'
import { useKitActor } from '../context'
import { useFrameActor } from '../hooks'
import { errorText, useT } from '../i18nViews'

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
  const t = useT()
  if (!frame) return <ViewLoading />
  const provider = social && social !== 'farcaster' ? social : undefined
  const name = social ? SOCIAL_NAMES[social] : t('social.yourAccount')
  return (
    <div className="ws-center" ref={root} tabIndex={-1}>
      <FrameViewsStyle />
      {social ? (
        <span className="ws-wallet-fallback ws-badge-icon" aria-hidden="true">
          <SocialIcon provider={social} className="ws-social-badge" />
        </span>
      ) : null}
      <p className="ws-lead">{t('social.logInWithProvider', { provider: name })}</p>
      {opening ? <Progress>{t('social.opening', { provider: name })}</Progress> : null}
      {atProvider ? <Progress>{t('social.continueIn', { provider: name })}</Progress> : null}
      {connecting ? <Progress>{t('common.connectingWallet')}</Progress> : null}
      {underWay ? null : (
        <>
          <p className="ws-error-text" role="alert">
            {error ? errorText(t, error) : t('social.closed', { provider: name })}
          </p>
          {error?.name === 'AuthInitError' ? <p className="ws-muted">{t('social.popupBlocked')}</p> : null}
          {provider ? (
            <button
              type="button"
              className="ws-primary"
              disabled={!canRetry}
              onClick={() => kit.send({ type: 'frame.connectSocial', provider })}
            >
              {t('common.tryAgain')}
            </button>
          ) : null}
        </>
      )}
    </div>
  )
}
