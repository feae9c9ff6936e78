import { useEffect, useState } from 'react'
import {
  type ChosenWallet,
  selectConnectFailed,
  selectDomainWarning,
  selectIsConnected,
} from '../../machines/connection'
import { safeHttpUrl } from '../../utils/links'
import { walletLinkWithUri } from '../../utils/walletLinks'
import { useSelector } from '../actor'
import { ConnectFailed } from '../components/ConnectFailed'
import { QrCode } from '../components/QrCode'
import { useWalletImageSrc, WalletImage } from '../components/WalletImage'
import { useConnectionActor, useToast } from '../hooks'
import { useT } from '../i18nViews'

/**
 * SPEC §2 ConnectingWalletConnect: the pairing URI as a QR code (drawn by the `qrcode` library), a copy-link
 * button, links that open the chosen wallet (only http(s) and app schemes pass), and the pairing's expiry.
 * An expired URI is replaced by a fresh one by the connection machine.
 */
export default function ConnectingWalletConnect() {
  return <Pairing branded />
}

/**
 * SPEC §2 ConnectingWalletConnectBasic: the same pairing for no wallet in particular (Connect's "WalletConnect"
 * entry, or a wallet the listing gives nothing to show it by): the QR code, the copy link and the expiry, without
 * a wallet's name, image or links.
 */
export function ConnectingWalletConnectBasic() {
  return <Pairing branded={false} />
}

function Pairing({ branded }: { branded: boolean }) {
  const toast = useToast()
  const connection = useConnectionActor()
  const uri = useSelector(connection, (s) => s.context.wcUri)
  const expiry = useSelector(connection, (s) => s.context.wcPairingExpiry)
  const wallet = useSelector(connection, (s) => s.context.target?.wallet)
  const failed = useSelector(connection, selectConnectFailed)
  const connected = useSelector(connection, selectIsConnected)
  const warning = useSelector(connection, selectDomainWarning, sameWarning)
  const remaining = useRemainingSeconds(expiry)
  const t = useT()
  const name = branded && wallet && wallet.id !== 'walletConnect' ? wallet.name : t('common.yourWallet')
  const image = useWalletImageSrc(wallet)

  if (failed) {
    return (
      <div className="ws-center">
        {branded ? <WalletImage name={name} src={image} size={64} /> : null}
        <ConnectFailed />
      </div>
    )
  }

  const links = branded && uri && wallet ? walletLinks(wallet, uri) : []
  return (
    <div className="ws-center">
      <p className="ws-muted">{t('wc.scan', { wallet: name })}</p>
      <QrCode uri={uri} label={t('wc.qrLabel')} />
      {warning ? (
        <p className="ws-error-text" data-testid="domain-warning">
          {t(warning.kind === 'scam' ? 'wc.scam' : 'wc.unverified', { origin: warning.origin })}
        </p>
      ) : null}
      {remaining !== undefined && !connected ? (
        <p className="ws-muted" aria-live="off">
          {t('wc.expiresIn', {
            time: `${Math.floor(remaining / 60)}:${String(remaining % 60).padStart(2, '0')}`,
          })}
        </p>
      ) : null}
      <div className="ws-row">
        <button
          type="button"
          className="ws-secondary"
          disabled={!uri}
          onClick={() => {
            if (!uri) return
            navigator.clipboard
              ?.writeText(uri)
              .then(() => toast.show({ variant: 'success', message: t('toast.linkCopied') }))
              .catch(() => toast.show({ variant: 'error', message: t('toast.copyLinkFailed') }))
          }}
        >
          {t('common.copyLink')}
        </button>
        {links.map((link) => (
          <a
            key={link.label}
            className="ws-secondary"
            href={link.href}
            target="_blank"
            rel="noopener noreferrer"
          >
            {link.label === 'Open app'
              ? t('wc.openApp')
              : link.label === 'Open desktop app'
                ? t('wc.openDesktop')
                : wallet
                  ? t('wc.open', { wallet: wallet.name })
                  : link.label}
          </a>
        ))}
      </div>
    </div>
  )
}

/** Links that hand the pairing URI to the chosen wallet; listing data that is not a safe link is dropped. */
export function walletLinks(wallet: ChosenWallet, uri: string): Array<{ label: string; href: string }> {
  const out: Array<{ label: string; href: string }> = []
  const web = safeHttpUrl(wallet.webappLink)
  if (web) {
    const url = new URL(web)
    url.searchParams.set('uri', uri)
    out.push({ label: `Open ${wallet.name}`, href: url.toString() })
  }
  for (const [label, link] of [
    ['Open app', wallet.mobileLink],
    ['Open desktop app', wallet.desktopLink],
  ] as const) {
    // WalletConnect's deep or universal link, the URI encoded; a link that fails `safeDeepLink` gives none.
    const href = walletLinkWithUri(link, uri)
    if (href) out.push({ label, href })
  }
  return out
}

function useRemainingSeconds(expiry: number | undefined): number | undefined {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    if (expiry === undefined) return
    const timer = setInterval(() => setNow(Date.now()), 1_000)
    return () => clearInterval(timer)
  }, [expiry])
  return expiry === undefined ? undefined : Math.max(0, Math.ceil((expiry - now) / 1_000))
}

/** Two warnings are the same when they say the same thing (the selector builds a new object each time). */
function sameWarning(
  a: ReturnType<typeof selectDomainWarning>,
  b: ReturnType<typeof selectDomainWarning>,
): boolean {
  return a?.kind === b?.kind && a?.origin === b?.origin
}
