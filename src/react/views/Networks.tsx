import { selectIsSwitching } from '../../machines/connection'
import { useSelector } from '../actor'
import { useKitActor } from '../context'
import { useConnectionActor, useKitAccount, useKitConfig } from '../hooks'

/** The app's networks; once connected, choosing one asks the wallet to switch (SPEC §2 Networks). */
export default function Networks() {
  return <NetworkList />
}

export function NetworkList({ label = 'Networks' }: { label?: string }) {
  const kit = useKitActor()
  const config = useKitConfig()
  const { chainId, isConnected } = useKitAccount()
  const connection = useConnectionActor()
  const switching = useSelector(connection, selectIsSwitching)
  const error = useSelector(connection, (s) => s.context.error)
  const canSwitch = isConnected && config.enableNetworkSwitch
  return (
    <div>
      <ul className="ws-list" aria-label={label}>
        {config.networks.map((network) => {
          const current = network.chainNamespace === 'eip155' && Number(network.id) === chainId
          return (
            <li key={network.caipNetworkId}>
              <button
                type="button"
                className="ws-item"
                data-network={network.caipNetworkId}
                aria-current={current ? 'true' : undefined}
                disabled={!canSwitch || current || switching || network.chainNamespace !== 'eip155'}
                onClick={() => kit.send({ type: 'connection.switchChain', chainId: Number(network.id) })}
              >
                <span>{network.name}</span>
                {current ? (
                  <span className="ws-badge">Connected</span>
                ) : network.testnet ? (
                  <span className="ws-badge">Testnet</span>
                ) : null}
              </button>
            </li>
          )
        })}
      </ul>
      {switching ? (
        <p className="ws-muted" role="status">
          Approve the network switch in your wallet…
        </p>
      ) : null}
      {error && isConnected ? (
        <p className="ws-error-text" role="alert">
          {error.message}
        </p>
      ) : null}
      {!isConnected ? <p className="ws-muted">Connect a wallet to switch networks.</p> : null}
    </div>
  )
}
