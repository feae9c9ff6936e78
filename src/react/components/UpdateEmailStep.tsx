import { selectUpdateEmailPhase } from '../../machines/frame'
import { useSelector } from '../actor'
import { useKitActor } from '../context'
import { useFrameActor } from '../hooks'
import { errorText, rich, useT } from '../i18nViews'
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
  const t = useT()
  const strong = (text: string | undefined) => (
    <strong className="ws-strong">{text ?? t('common.yourEmail')}</strong>
  )

  if (!frame) return <ViewLoading />
  if (phase === 'refreshing' || phase === 'sending') {
    return (
      <div className="ws-center" ref={root} tabIndex={-1}>
        <FrameViewsStyle />
        <Progress>{phase === 'sending' ? t('updateEmail.sending') : t('updateEmail.updating')}</Progress>
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
            {errorText(t, error)}
          </p>
        ) : null}
        <p role="status">{rich(t('updateEmail.loggedInWith'), { email: strong(email) })}</p>
        <button
          type="button"
          className="ws-primary"
          onClick={() => kit.send({ type: 'router.reset', view: 'Account' })}
        >
          {t('updateEmail.back')}
        </button>
      </div>
    )
  }
  return (
    <div className="ws-stack" ref={root}>
      <FrameViewsStyle />
      <p className="ws-muted">
        {rich(t(step === 'primary' ? 'updateEmail.primary' : 'updateEmail.secondary'), {
          email: strong(step === 'primary' ? email : newEmail),
        })}
      </p>
      <CodeForm
        error={error}
        canSubmit={canSubmit}
        progress={phase === 'checking' ? t('otp.checking') : undefined}
        onSubmit={(otp) => kit.send({ type: 'frame.submitOtp', otp })}
      />
    </div>
  )
}
