import QRCode from 'qrcode'
import { useEffect, useState } from 'react'
import { useT } from '../i18nViews'

/**
 * A link drawn as a QR code (by the `qrcode` library) for a phone to scan: an image named `label`, with the
 * link itself in `data-uri` for tests and QA scripts. Until the drawing is ready (or while there is no link
 * yet) a placeholder announces that it is on its way.
 *
 * @example
 * <QrCode uri={wcUri} label="WalletConnect QR code" />
 */
export function QrCode({ uri, label }: { uri: string | undefined; label: string }) {
  const src = useQrCode(uri)
  const t = useT()
  return (
    <>
      <style>{QR_CSS}</style>
      {!src || !uri ? (
        <div className="ws-qr ws-qr-placeholder" role="status" aria-label={t('qr.preparing')}>
          <span className="ws-spinner" aria-hidden="true" />
        </div>
      ) : (
        <div className="ws-qr">
          <img src={src} alt={label} data-uri={uri} />
        </div>
      )}
    </>
  )
}

/** The QR code's styles ride with it (the views that show one load on demand), scoped to the kit's root. */
const QR_CSS = `
[data-walletstate] .ws-qr {
  width: 100%; max-width: 280px; aspect-ratio: 1; background: #fff; border: 1px solid var(--ws-border);
  border-radius: 16px; padding: 12px;
}
[data-walletstate] .ws-qr img { width: 100%; height: 100%; display: block; }
[data-walletstate] .ws-qr-placeholder { display: grid; place-items: center; background: var(--ws-surface); }
`

/** The QR code of `uri` as an SVG data URL; `undefined` while it is drawn, and for a previous `uri`. */
function useQrCode(uri: string | undefined): string | undefined {
  const [qr, setQr] = useState<{ uri: string; src: string }>()
  useEffect(() => {
    if (!uri) return
    let live = true
    QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 0 })
      .then((svg) => {
        if (live) setQr({ uri, src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}` })
      })
      .catch(() => {})
    return () => {
      live = false
    }
  }, [uri])
  return qr && qr.uri === uri ? qr.src : undefined
}
