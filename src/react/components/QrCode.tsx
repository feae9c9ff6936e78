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
  if (!src || !uri) {
    return (
      <div className="ws-qr ws-qr-placeholder" role="status" aria-label={t('qr.preparing')}>
        <span className="ws-spinner" aria-hidden="true" />
      </div>
    )
  }
  return (
    <div className="ws-qr">
      <img src={src} alt={label} data-uri={uri} />
    </div>
  )
}

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
