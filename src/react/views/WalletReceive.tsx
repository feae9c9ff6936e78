import { useCallback, useId } from 'react'
import { AccountStyle } from '../components/accountShared'
import { QrCode } from '../components/QrCode'
import { useKitAccount, useKitConfig, useToast } from '../hooks'
import { useT } from '../i18nViews'

/**
 * SPEC §2 WalletReceive: the connected address to share, as text, with a copy button and as a QR code, and the
 * networks it can receive on (those of the account's namespace the app supports).
 */
export default function WalletReceive() {
  const config = useKitConfig()
  const { address, chainId, namespace } = useKitAccount()
  const { show } = useToast()
  const networksId = useId()
  const t = useT()
  const copy = useCallback(async () => {
    if (!address) return
    try {
      await navigator.clipboard.writeText(address)
      show({ variant: 'success', message: t('toast.addressCopied') })
    } catch {
      show({ variant: 'error', message: t('toast.copyAddressFailed') })
    }
  }, [address, show, t])
  if (!address) return <p className="ws-muted">{t('account.none')}</p>
  // The account is an EVM one: it receives on every eip155 network of the app.
  // A Bitcoin (bip122) account receives on its own network.
  const networks = config.networks.filter((network) =>
    namespace === 'bip122' ? network.caipNetworkId === chainId : network.chainNamespace === 'eip155',
  )
  return (
    <div className="ws-center">
      <AccountStyle />
      <QrCode uri={address} label={t('receive.qrLabel')} />
      <p className="ws-mono" data-testid="receive-address">
        {address}
      </p>
      <button type="button" className="ws-primary" onClick={() => void copy()}>
        {t('receive.copy')}
      </button>
      <section className="ws-stack ws-full" aria-labelledby={networksId}>
        <p className="ws-muted" id={networksId}>
          {t('receive.networksNote')}
        </p>
        <ul className="ws-list" aria-label={t('receive.networks')}>
          {networks.map((network) => (
            <li key={network.caipNetworkId} className="ws-line" data-network={network.caipNetworkId}>
              <span className="ws-grow">{network.name}</span>
              {Number(network.id) === chainId || network.caipNetworkId === chainId ? (
                <span className="ws-badge">{t('common.connected')}</span>
              ) : null}
            </li>
          ))}
        </ul>
      </section>
    </div>
  )
}
