import { safeHttpUrl } from '../../utils/links'
import { useSelector } from '../actor'
import { FrameViewsStyle, Progress, useFocusOnMount } from '../components/frameViews'
import { QrCode } from '../components/QrCode'
import { ViewLoading } from '../components/ViewLoading'
import { useKitActor } from '../context'
import { useFrameActor, useToast } from '../hooks'
import { errorText, useT } from '../i18nViews'

/**
 * ConnectingFarcaster: the frame's Farcaster sign-in link as a QR code to scan with the phone, or to open on
 * this device; the frame connects the account once the visitor approves in Farcaster.
 */
export default function ConnectingFarcaster() {
  const kit = useKitActor()
  const toast = useToast()
  const frame = useFrameActor()
  const url = useSelector(frame, (s) => s?.context.farcasterUrl)
  const error = useSelector(frame, (s) => s?.context.error)
  const inFlow = useSelector(frame, (s) => s?.hasTag('farcaster') ?? false)
  const waiting = useSelector(frame, (s) => s?.hasTag('awaitingApp') ?? false)
  const connecting = useSelector(frame, (s) => (s?.hasTag('signingIn') || s?.hasTag('connected')) ?? false)
  const canRetry = useSelector(frame, (s) => s?.can({ type: 'frame.connectFarcaster' }) ?? false)
  const root = useFocusOnMount<HTMLDivElement>(inFlow || connecting)
  const t = useT()
  if (!frame) return <ViewLoading />
  if (!inFlow && !connecting) {
    return (
      <div className="ws-center" ref={root} tabIndex={-1}>
        <FrameViewsStyle />
        <p className="ws-error-text" role="alert">
          {error ? errorText(t, error) : t('farcaster.ended')}
        </p>
        <button
          type="button"
          className="ws-primary"
          disabled={!canRetry}
          onClick={() => kit.send({ type: 'frame.connectFarcaster' })}
        >
          {t('common.tryAgain')}
        </button>
      </div>
    )
  }
  const href = safeHttpUrl(url)
  return (
    <div className="ws-center" ref={root} tabIndex={-1}>
      <FrameViewsStyle />
      <p className="ws-muted">{t('farcaster.scan')}</p>
      <QrCode uri={url} label={t('farcaster.qrLabel')} />
      {connecting ? (
        <Progress>{t('common.connectingWallet')}</Progress>
      ) : waiting ? (
        <Progress>{t('farcaster.waiting')}</Progress>
      ) : null}
      <div className="ws-row">
        <button
          type="button"
          className="ws-secondary"
          disabled={!url}
          onClick={() => {
            if (!url) return
            navigator.clipboard
              ?.writeText(url)
              .then(() => toast.show({ variant: 'success', message: t('toast.linkCopied') }))
              .catch(() => toast.show({ variant: 'error', message: t('toast.copyLinkFailed') }))
          }}
        >
          {t('common.copyLink')}
        </button>
        {href ? (
          <a className="ws-secondary" href={href} target="_blank" rel="noopener noreferrer">
            {t('farcaster.open')}
          </a>
        ) : null}
      </div>
    </div>
  )
}
