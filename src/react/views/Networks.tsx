import type { KitNetwork } from '../../config'
import { selectIsSwitching } from '../../machines/connection'
import { networkOfChain } from '../../utils/caip'
import { networkImageUrl } from '../../utils/networkImages'
import { useSelector } from '../actor'
import { WalletImage } from '../components/WalletImage'
import { useKitActor } from '../context'
import { useConnectionActor, useKitAccount, useKitConfig } from '../hooks'
import { errorText, useT } from '../i18nViews'

const NAMESPACE_NAMES = { eip155: 'EVM', solana: 'Solana', bip122: 'Bitcoin' } as const

/**
 * A network's icon (SPEC §7): the provider's image of it (`getAssetImage`), else its initial. Decorative: the
 * network's name is always beside it. Account's network button shows it too.
 */
export function NetworkIcon({ network, size }: { network: KitNetwork; size: number }) {
  const { endpoints, projectId } = useKitConfig()
  return (
    <WalletImage
      name={network.name}
      size={size}
      src={networkImageUrl(endpoints, projectId, network.caipNetworkId)}
    />
  )
}

/** The app's networks; once connected, choosing one asks the wallet to switch (SPEC §2 Networks). */
export default function Networks() {
  return <NetworkList />
}

export function NetworkList({ label }: { label?: string }) {
  const t = useT()
  const kit = useKitActor()
  const config = useKitConfig()
  const { chainId, isConnected, namespace } = useKitAccount()
  const connection = useConnectionActor()
  const switching = useSelector(connection, selectIsSwitching)
  const error = useSelector(connection, (s) => s.context.error)
  const canSwitch = isConnected && config.enableNetworkSwitch
  const current = chainId === undefined ? undefined : networkOfChain(config.networks, chainId)
  const namespaces = new Set(config.networks.map((n) => n.chainNamespace))
  return (
    <div>
      <ul className="ws-list" aria-label={label ?? t('networks.label')}>
        {config.networks.map((network) => {
          const shown = network === current
          // Another namespace's network is always open to choose: its account shows (or Connect, for one).
          const otherNamespace = network.chainNamespace !== namespace
          return (
            <li key={network.caipNetworkId}>
              <button
                type="button"
                className="ws-item"
                data-network={network.caipNetworkId}
                data-namespace={network.chainNamespace}
                aria-current={shown ? 'true' : undefined}
                disabled={shown || switching || (!otherNamespace && !canSwitch)}
                onClick={() => kit.send({ type: 'network.select', caipNetworkId: network.caipNetworkId })}
              >
                <NetworkIcon network={network} size={24} />
                <span>{network.name}</span>
                {shown ? (
                  <span className="ws-badge">{t('common.connected')}</span>
                ) : otherNamespace && namespaces.size > 1 ? (
                  <span className="ws-badge">{NAMESPACE_NAMES[network.chainNamespace]}</span>
                ) : network.testnet ? (
                  <span className="ws-badge">{t('networks.testnet')}</span>
                ) : null}
              </button>
            </li>
          )
        })}
      </ul>
      {switching ? (
        <p className="ws-muted" role="status">
          {t('networks.approveSwitch')}
        </p>
      ) : null}
      {error && isConnected ? (
        <p className="ws-error-text" role="alert">
          {errorText(t, error)}
        </p>
      ) : null}
      {!isConnected ? <p className="ws-muted">{t('networks.connectToSwitch')}</p> : null}
    </div>
  )
}
