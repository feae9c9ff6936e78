import { safeHttpUrl } from '../../utils/links'
import { useSelector } from '../actor'
import { FrameViewsStyle, Progress, useFocusOnMount } from '../components/frameViews'
import { QrCode } from '../components/QrCode'
import { ViewLoading } from '../components/ViewLoading'
import { useKitActor } from '../context'
import { useFrameActor, useToast } from '../hooks'

/**
 * ConnectingFarcaster: the frame's Farcaster sign-in link as a QR code to scan with the phone, or to open on
 * this device; the frame connects the account once the visitor approves in Farcaster.
 */
export default function ConnectingFarcaster() {
  const kit = useKitActor()
  const toast = useToast()
  const frame = useFrameActor()
  const url = useSelector(frame, (s) => s?.context.farcasterUrl)
  const error = useSelector(frame, (s) => s?.context.error?.message)
  const inFlow = useSelector(frame, (s) => s?.hasTag('farcaster') ?? false)
  const waiting = useSelector(frame, (s) => s?.hasTag('awaitingApp') ?? false)
  const connecting = useSelector(frame, (s) => (s?.hasTag('signingIn') || s?.hasTag('connected')) ?? false)
  const canRetry = useSelector(frame, (s) => s?.can({ type: 'frame.connectFarcaster' }) ?? false)
  const root = useFocusOnMount<HTMLDivElement>(inFlow || connecting)
  if (!frame) return <ViewLoading />
  if (!inFlow && !connecting) {
    return (
      <div className="ws-center" ref={root} tabIndex={-1}>
        <FrameViewsStyle />
        <p className="ws-error-text" role="alert">
          {error ?? 'The Farcaster sign-in ended.'}
        </p>
        <button
          type="button"
          className="ws-primary"
          disabled={!canRetry}
          onClick={() => kit.send({ type: 'frame.connectFarcaster' })}
        >
          Try again
        </button>
      </div>
    )
  }
  const href = safeHttpUrl(url)
  return (
    <div className="ws-center" ref={root} tabIndex={-1}>
      <FrameViewsStyle />
      <p className="ws-muted">Scan this QR code with your phone’s camera, then approve in Farcaster.</p>
      <QrCode uri={url} label="Farcaster QR code" />
      {connecting ? (
        <Progress>Connecting your wallet…</Progress>
      ) : waiting ? (
        <Progress>Waiting for you to approve in Farcaster…</Progress>
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
              .then(() => toast.show({ variant: 'success', message: 'Link copied' }))
              .catch(() => toast.show({ variant: 'error', message: 'Could not copy the link' }))
          }}
        >
          Copy link
        </button>
        {href ? (
          <a className="ws-secondary" href={href} target="_blank" rel="noopener noreferrer">
            Open Farcaster
          </a>
        ) : null}
      </div>
    </div>
  )
}
