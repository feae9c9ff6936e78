import { useKitConfig } from '../hooks'

/** The networks the app supports. Switching arrives with the connection machine. */
export default function Networks() {
  const config = useKitConfig()
  return (
    <div>
      <ul className="ws-list" aria-label="Networks">
        {config.networks.map((network) => (
          <li key={network.caipNetworkId}>
            <div className="ws-item" data-network={network.caipNetworkId}>
              <span>{network.name}</span>
              {network.testnet ? <span className="ws-badge">Testnet</span> : null}
            </div>
          </li>
        ))}
      </ul>
    </div>
  )
}
