import { useKitConfig } from '../hooks'

/** SPEC §2: the wallet is on a network the app did not ask for. */
export default function UnsupportedChain() {
  const config = useKitConfig()
  return (
    <div>
      <p className="ws-muted">This app doesn’t support your current network. Switch to one of these:</p>
      <ul className="ws-list" aria-label="Supported networks">
        {config.networks.map((network) => (
          <li key={network.caipNetworkId}>
            <div className="ws-item">{network.name}</div>
          </li>
        ))}
      </ul>
    </div>
  )
}
