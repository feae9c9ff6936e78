import { lazy, Suspense } from 'react'
import { selectIsDisconnecting } from '../../machines/connection'
import { networkOfChain } from '../../utils/caip'
import { truncateAddress } from '../../utils/format'
import { useSelector } from '../actor'
import { RemoteSessionNotice } from '../components/RemoteSessionNotice'
import { useKitActor } from '../context'
import { useConnectionActor, useFrameActor, useKitAccount, useKitConfig } from '../hooks'
import { errorText, useT } from '../i18nViews'
import { NetworkIcon } from './Networks'

/** Only an embedded wallet's account needs it, so it loads with the login frame's code, not with the kit. */
const EmbeddedAccount = lazy(() => import('../components/EmbeddedAccount'))
/**
 * Profile, balance, features and tabs: they, the chain reads and the Data API client load when the view first
 * shows, not with the kit (the first-load budget).
 */
const details = () => import('../components/AccountDetails')
const AccountDetails = lazy(details)
const AccountProfile = lazy(() => details().then((m) => ({ default: m.AccountProfile })))
const AccountBalance = lazy(() => details().then((m) => ({ default: m.AccountBalance })))

/** The address's and the balance's styles ride with this view (loaded on demand), scoped to the kit's root. */
const ACCOUNT_VIEW_CSS = `
[data-walletstate] .ws-address { font-size: 20px; font-weight: 600; margin: 0; }
[data-walletstate] .ws-balance { font-size: 16px; color: var(--ws-muted); margin: 0; }
`

/**
 * SPEC §2 Account: the connected account, its profile, network and balance, the wallet features and the tabs
 * Tokens, NFTs and Activity, and Disconnect; for an embedded wallet also its login, "Update email" and the
 * account type.
 */
export default function AccountView() {
  const kit = useKitActor()
  const config = useKitConfig()
  const { address, chainId, status, allAccounts, addressLabels } = useKitAccount()
  const connection = useConnectionActor()
  const error = useSelector(connection, (s) => s.context.error)
  const disconnecting = useSelector(connection, selectIsDisconnecting)
  const embedded = useSelector(useFrameActor(), (s) => s?.hasTag('connected') ?? false)
  const network = chainId === undefined ? undefined : networkOfChain(config.networks, chainId)
  const t = useT()
  if (status !== 'connected' || !address) {
    return <p className="ws-muted">{t('account.none')}</p>
  }
  return (
    <div className="ws-center">
      <style>{ACCOUNT_VIEW_CSS}</style>
      <Suspense fallback={null}>
        <AccountProfile />
      </Suspense>
      <p className="ws-address" title={address} data-testid="account-address">
        {truncateAddress(address)}
      </p>
      {allAccounts.length > 1 ? (
        // SPEC §3 allAccounts: the wallet shares several; the visitor picks the one shown (balances, sends follow).
        <ul className="ws-list" aria-label={t('account.sharedAccounts')} style={{ width: '100%' }}>
          {allAccounts.map((shared) => {
            const shown = shared.address.toLowerCase() === address.toLowerCase()
            const label = addressLabels[shared.address]
            return (
              <li key={shared.address}>
                <button
                  type="button"
                  className="ws-item"
                  title={shared.address}
                  data-address={shared.address}
                  aria-current={shown ? 'true' : undefined}
                  onClick={() => kit.send({ type: 'connection.selectAccount', address: shared.address })}
                >
                  <span>{label ?? truncateAddress(shared.address)}</span>
                  {label ? <span className="ws-badge">{truncateAddress(shared.address)}</span> : null}
                </button>
              </li>
            )
          })}
        </ul>
      ) : null}
      <Suspense
        fallback={
          <p className="ws-balance" data-testid="account-balance">
            {t('account.loadingBalance')}
          </p>
        }
      >
        <AccountBalance />
      </Suspense>
      <button
        type="button"
        className="ws-secondary"
        style={{ width: '100%', display: 'flex', alignItems: 'center', justifyContent: 'center', gap: 8 }}
        onClick={() => kit.send({ type: 'router.push', view: 'Networks' })}
      >
        {/* SPEC §7: the network's icon from the provider (getAssetImage), else its initial. */}
        {network ? <NetworkIcon network={network} size={20} /> : null}
        {network?.name ?? t('account.unsupportedNetwork')}
      </button>
      <Suspense fallback={null}>
        <AccountDetails />
      </Suspense>
      {embedded ? (
        <Suspense fallback={null}>
          <EmbeddedAccount />
        </Suspense>
      ) : null}
      <RemoteSessionNotice />
      {error ? (
        <p className="ws-error-text" role="alert">
          {errorText(t, error)}
        </p>
      ) : null}
      <button
        type="button"
        className="ws-primary"
        disabled={disconnecting}
        onClick={() => kit.send({ type: 'connection.disconnect' })}
      >
        {disconnecting ? t('account.disconnecting') : t('common.disconnect')}
      </button>
    </div>
  )
}
