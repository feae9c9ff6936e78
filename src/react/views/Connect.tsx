import { useKitActor } from '../context'

/** SPEC §2 Connect: the first view. Wallet sections arrive with the connection machine. */
export function ConnectView() {
  const kit = useKitActor()
  return (
    <div>
      <p className="ws-muted">
        Choose how to connect. Wallets found in this browser and by QR code appear here.
      </p>
      <ul className="ws-list">
        <li>
          <button
            type="button"
            className="ws-item"
            onClick={() => kit.send({ type: 'router.push', view: 'Networks' })}
          >
            Supported networks
          </button>
        </li>
      </ul>
      <button
        type="button"
        className="ws-link"
        onClick={() => kit.send({ type: 'router.push', view: 'WhatIsAWallet' })}
      >
        What is a wallet?
      </button>
    </div>
  )
}
