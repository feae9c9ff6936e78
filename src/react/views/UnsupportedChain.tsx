import { useKitActor } from '../context'
import { NetworkList } from './Networks'

/** SPEC §2: the wallet is on a network the app did not ask for; switch, or disconnect. */
export default function UnsupportedChain() {
  const kit = useKitActor()
  return (
    <div>
      <p className="ws-muted">This app doesn’t support your current network. Switch to one of these:</p>
      <NetworkList label="Supported networks" />
      <button type="button" className="ws-link" onClick={() => kit.send({ type: 'connection.disconnect' })}>
        Disconnect
      </button>
    </div>
  )
}
