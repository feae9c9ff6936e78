import { useSelector } from '../actor'
import { FrameViewsStyle, Progress, useFocusOnMount } from '../components/frameViews'
import { ViewLoading } from '../components/ViewLoading'
import { useKitActor } from '../context'
import { useFrameActor } from '../hooks'

/**
 * EmailVerifyDevice: this browser is new to the account, so the frame e-mailed a link to approve it. The view
 * waits for that approval (the frame then asks for a code) and can ask for the e-mail again.
 */
export default function EmailVerifyDevice() {
  const kit = useKitActor()
  const frame = useFrameActor()
  const root = useFocusOnMount<HTMLDivElement>()
  const email = useSelector(frame, (s) => s?.context.email)
  const error = useSelector(frame, (s) => s?.context.error?.message)
  const waiting = useSelector(frame, (s) => s?.hasTag('awaitingDevice') ?? false)
  const sending = useSelector(frame, (s) => s?.hasTag('sendingCode') ?? false)
  const canResend = useSelector(frame, (s) => s?.can({ type: 'frame.resendCode' }) ?? false)
  if (!frame) return <ViewLoading />
  return (
    <div className="ws-center" ref={root} tabIndex={-1}>
      <FrameViewsStyle />
      <span className="ws-wallet-fallback ws-badge-icon" aria-hidden="true">
        ✉
      </span>
      <p className="ws-lead">Approve this device</p>
      <p className="ws-muted">
        We emailed a link to <strong className="ws-strong">{email ?? 'your address'}</strong>. Open it on any
        device to approve this browser; this window goes on by itself once you have.
      </p>
      {waiting ? <Progress>Waiting for your approval…</Progress> : null}
      {sending ? <Progress>Sending the email again…</Progress> : null}
      {error ? (
        <p className="ws-error-text" role="alert">
          {error}
        </p>
      ) : null}
      <button
        type="button"
        className="ws-secondary ws-full"
        disabled={!canResend}
        onClick={() => kit.send({ type: 'frame.resendCode' })}
      >
        Resend
      </button>
    </div>
  )
}
