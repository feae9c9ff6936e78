import { selectUpdateEmailPhase } from '../../machines/frame'
import { useSelector } from '../actor'
import { useKitActor } from '../context'
import { useFrameActor } from '../hooks'
import { CodeForm, FrameViewsStyle, Progress, useFocusOnMount } from './frameViews'
import { ViewLoading } from './ViewLoading'

/**
 * One code step of an e-mail update (UpdateEmailPrimaryOtp: the code sent to the current address;
 * UpdateEmailSecondaryOtp: the one sent to the new address). Once the flow is over the step shows the
 * address the visitor now logs in with (the new one, or the old one after a stop or an error, with the error)
 * and leads back to the account, whichever of the two views the visitor is on by then.
 */
export function UpdateEmailStep({ step }: { step: 'primary' | 'secondary' }) {
  const kit = useKitActor()
  const frame = useFrameActor()
  const newEmail = useSelector(frame, (s) => s?.context.newEmail)
  const email = useSelector(frame, (s) => s?.context.user?.email ?? s?.context.email)
  const error = useSelector(frame, (s) => s?.context.error)
  const canSubmit = useSelector(frame, (s) => s?.can({ type: 'frame.submitOtp', otp: '' }) ?? false)
  const phase = useSelector(frame, (s) => (s ? selectUpdateEmailPhase(s) : 'over'))
  const root = useFocusOnMount<HTMLDivElement>(phase === 'checking' ? 'code' : phase)

  if (!frame) return <ViewLoading />
  if (phase === 'refreshing' || phase === 'sending') {
    return (
      <div className="ws-center" ref={root} tabIndex={-1}>
        <FrameViewsStyle />
        <Progress>{phase === 'sending' ? 'Sending a code…' : 'Updating your account…'}</Progress>
      </div>
    )
  }
  if (phase === 'over') {
    // Done, stopped or failed: the address the visitor logs in with now says which, and the error why.
    return (
      <div className="ws-center" ref={root} tabIndex={-1}>
        <FrameViewsStyle />
        {error ? (
          <p className="ws-error-text" role="alert">
            {error.message}
          </p>
        ) : null}
        <p role="status">
          You log in with <strong className="ws-strong">{email ?? 'your email'}</strong>.
        </p>
        <button
          type="button"
          className="ws-primary"
          onClick={() => kit.send({ type: 'router.reset', view: 'Account' })}
        >
          Back to account
        </button>
      </div>
    )
  }
  return (
    <div className="ws-stack" ref={root}>
      <FrameViewsStyle />
      <p className="ws-muted">
        {step === 'primary'
          ? 'To confirm it is you, enter the code we sent to '
          : 'Now enter the code we sent to '}
        <strong className="ws-strong">{(step === 'primary' ? email : newEmail) ?? 'your email'}</strong>.
      </p>
      <CodeForm
        error={error}
        canSubmit={canSubmit}
        progress={phase === 'checking' ? 'Checking the code…' : undefined}
        onSubmit={(otp) => kit.send({ type: 'frame.submitOtp', otp })}
      />
    </div>
  )
}
