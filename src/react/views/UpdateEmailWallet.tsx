import { type FormEvent, useId, useState } from 'react'
import { useSelector } from '../actor'
import { FrameViewsStyle, Progress, useFocusOnMount } from '../components/frameViews'
import { ViewLoading } from '../components/ViewLoading'
import { useKitActor } from '../context'
import { EMAIL_FIELD } from '../controls'
import { useFrameActor } from '../hooks'
import { errorText, rich, useT } from '../i18nViews'

/**
 * UpdateEmailWallet: the new address for the embedded wallet's login. The frame then asks for a code sent to
 * the current address (UpdateEmailPrimaryOtp) and one sent to the new address (UpdateEmailSecondaryOtp); the
 * kit moves on to those views itself.
 */
export default function UpdateEmailWallet() {
  const kit = useKitActor()
  const frame = useFrameActor()
  const root = useFocusOnMount<HTMLFormElement>()
  const current = useSelector(frame, (s) => s?.context.user?.email ?? s?.context.email)
  const error = useSelector(frame, (s) => s?.context.error)
  const canSubmit = useSelector(frame, (s) => s?.can({ type: 'frame.updateEmail', email: '' }) ?? false)
  const sending = useSelector(frame, (s) => (s?.hasTag('updatingEmail') && s.hasTag('sendingCode')) ?? false)
  // Only this view's own attempts: an older error of the account (e.g. a network switch) is not about it.
  const [tried, setTried] = useState(false)
  const [email, setEmail] = useState('')
  const id = useId()
  const errorId = useId()
  const t = useT()
  if (!frame) return <ViewLoading />
  const shownError = tried && !sending ? error : undefined
  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (!canSubmit) return
    setTried(true)
    kit.send({ type: 'frame.updateEmail', email })
  }
  return (
    <form className="ws-form ws-stack" noValidate onSubmit={submit} ref={root} aria-busy={sending}>
      <FrameViewsStyle />
      {current ? (
        <p className="ws-muted">
          {rich(t('updateEmail.current'), { email: <strong className="ws-strong">{current}</strong> })}
        </p>
      ) : null}
      <label htmlFor={id} className="ws-label">
        {t('updateEmail.newLabel')}
      </label>
      <input
        id={id}
        className="ws-input"
        {...EMAIL_FIELD}
        value={email}
        onChange={(event) => setEmail(event.target.value)}
        aria-invalid={shownError ? true : undefined}
        aria-describedby={shownError ? errorId : undefined}
      />
      {shownError ? (
        <p className="ws-error-text" role="alert" id={errorId}>
          {errorText(t, shownError)}
        </p>
      ) : null}
      {sending ? <Progress>{t('updateEmail.sending')}</Progress> : null}
      <button type="submit" className="ws-primary" disabled={!canSubmit}>
        {t('common.continue')}
      </button>
    </form>
  )
}
