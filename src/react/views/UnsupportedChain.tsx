import { useKitActor } from '../context'
import { useT } from '../i18nViews'
import { NetworkList } from './Networks'

/** SPEC §2: the wallet is on a network the app did not ask for; switch, or disconnect. */
export default function UnsupportedChain() {
  const kit = useKitActor()
  const t = useT()
  return (
    <div>
      <p className="ws-muted">{t('unsupportedChain.text')}</p>
      <NetworkList label={t('connect.supportedNetworks')} />
      <button type="button" className="ws-link" onClick={() => kit.send({ type: 'connection.disconnect' })}>
        {t('common.disconnect')}
      </button>
    </div>
  )
}
