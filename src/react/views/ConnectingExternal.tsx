import { selectConnectFailed, selectIsConnecting } from '../../machines/connection'
import { useSelector } from '../actor'
import { ConnectFailed } from '../components/ConnectFailed'
import { useWalletImageSrc, WalletImage } from '../components/WalletImage'
import { useConnectionActor } from '../hooks'
import { useT } from '../i18nViews'

/** SPEC §2 ConnectingExternal: waiting for an installed wallet; a failure offers "Try again". */
export default function ConnectingExternal() {
  const connection = useConnectionActor()
  const wallet = useSelector(connection, (s) => s.context.target?.wallet)
  const failed = useSelector(connection, selectConnectFailed)
  const busy = useSelector(connection, selectIsConnecting)
  const t = useT()
  const name = wallet?.name ?? t('common.yourWallet')
  const image = useWalletImageSrc(wallet)
  return (
    <div className="ws-center">
      <WalletImage name={name} src={image} size={64} />
      {failed ? (
        <ConnectFailed />
      ) : (
        <>
          <p>{t('external.continueIn', { wallet: name })}</p>
          <p className="ws-muted" role="status" aria-busy={busy}>
            {t('external.accept')}
          </p>
          <span className="ws-spinner" aria-hidden="true" />
        </>
      )}
    </div>
  )
}
