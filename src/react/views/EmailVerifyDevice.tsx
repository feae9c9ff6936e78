import { useSelector } from '../actor'
import { FrameViewsStyle, Progress, useFocusOnMount } from '../components/frameViews'
import { ViewLoading } from '../components/ViewLoading'
import { useKitActor } from '../context'
import { useFrameActor } from '../hooks'
import { errorText, rich, useT } from '../i18nViews'

/**
 * EmailVerifyDevice: this browser is new to the account, so the frame e-mailed a link to approve it. The view
 * waits for that approval (the frame then asks for a code) and can ask for the e-mail again.
 */
export default function EmailVerifyDevice() {
  const kit = useKitActor()
  const frame = useFrameActor()
  const root = useFocusOnMount<HTMLDivElement>()
  const email = useSelector(frame, (s) => s?.context.email)
  const error = useSelector(frame, (s) => s?.context.error)
  const waiting = useSelector(frame, (s) => s?.hasTag('awaitingDevice') ?? false)
  const sending = useSelector(frame, (s) => s?.hasTag('sendingCode') ?? false)
  const canResend = useSelector(frame, (s) => s?.can({ type: 'frame.resendCode' }) ?? false)
  const t = useT()
  if (!frame) return <ViewLoading />
  return (
    <div className="ws-center" ref={root} tabIndex={-1}>
      <FrameViewsStyle />
      <span className="ws-wallet-fallback ws-badge-icon" aria-hidden="true">
        ✉
      </span>
      <p className="ws-lead">{t('device.title')}</p>
      <p className="ws-muted">
        {rich(t('device.text'), {
          email: <strong className="ws-strong">{email ?? t('device.yourAddress')}</strong>,
        })}
      </p>
      {waiting ? <Progress>{t('device.waiting')}</Progress> : null}
      {sending ? <Progress>{t('device.resending')}</Progress> : null}
      {error ? (
        <p className="ws-error-text" role="alert">
          {errorText(t, error)}
        </p>
      ) : null}
      <button
        type="button"
        className="ws-secondary ws-full"
        disabled={!canResend}
        onClick={() => kit.send({ type: 'frame.resendCode' })}
      >
        {t('device.resend')}
      </button>
    </div>
  )
}
