import { useState } from 'react'
import { useSelector } from '../actor'
import { CodeForm, FrameViewsStyle, useCooldownSeconds, useFocusOnMount } from '../components/frameViews'
import { ViewLoading } from '../components/ViewLoading'
import { useKitActor } from '../context'
import { useFrameActor } from '../hooks'
import { rich, useT } from '../i18nViews'

/**
 * EmailVerifyOtp: the one-time code the frame e-mailed. A wrong code's error stays until the next try; a new
 * code can be asked for, refused with the SPEC's cooldown message inside 30 s of the last one (SPEC §5).
 */
export default function EmailVerifyOtp() {
  const kit = useKitActor()
  const frame = useFrameActor()
  const root = useFocusOnMount<HTMLDivElement>()
  const email = useSelector(frame, (s) => s?.context.email)
  const error = useSelector(frame, (s) => s?.context.error)
  const canSubmit = useSelector(frame, (s) => s?.can({ type: 'frame.submitOtp', otp: '' }) ?? false)
  const canResend = useSelector(frame, (s) => s?.can({ type: 'frame.resendCode' }) ?? false)
  const checking = useSelector(frame, (s) => s?.hasTag('checkingCode') ?? false)
  const resending = useSelector(frame, (s) => s?.hasTag('sendingCode') ?? false)
  const connecting = useSelector(frame, (s) => (s?.hasTag('signingIn') || s?.hasTag('connected')) ?? false)
  const seconds = useCooldownSeconds(frame)
  const [resent, setResent] = useState(false)
  const t = useT()
  if (!frame) return <ViewLoading />
  const progress = checking
    ? t('otp.checking')
    : resending
      ? t('otp.sendingNew')
      : connecting
        ? t('common.connectingWallet')
        : undefined
  return (
    <div className="ws-stack" ref={root}>
      <FrameViewsStyle />
      <p className="ws-muted">
        {rich(t('otp.enter'), {
          email: <strong className="ws-strong">{email ?? t('common.yourEmail')}</strong>,
        })}
      </p>
      <CodeForm
        error={error}
        canSubmit={canSubmit}
        progress={progress}
        onSubmit={(otp) => kit.send({ type: 'frame.submitOtp', otp })}
      />
      {resent && !progress && !error ? (
        <p className="ws-muted" role="status">
          {t('otp.resent', { email: email ?? t('common.yourEmail') })}
        </p>
      ) : null}
      <div className="ws-row ws-row-center">
        <span className="ws-muted">{t('otp.didntGet')}</span>
        <button
          type="button"
          className="ws-link"
          disabled={!canResend}
          onClick={() => {
            setResent(true)
            kit.send({ type: 'frame.resendCode' })
          }}
        >
          {t('otp.resend')}
        </button>
      </div>
      {seconds > 0 ? (
        <p className="ws-muted ws-small" aria-live="off">
          {t('otp.cooldown', { seconds })}
        </p>
      ) : null}
    </div>
  )
}
