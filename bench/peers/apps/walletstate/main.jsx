import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { mainnet, sepolia } from 'viem/chains'
// Resolved by the benchmark's Vite alias to the repo's src/ (bench/peers/run.mjs).
import { createKitMachine, defineEvmNetwork } from 'walletstate'
import { KitRoot, useKit } from 'walletstate/react'

// The kit's services point at a local port nothing listens on: nothing has to answer before the click.
const LOCAL = 'http://127.0.0.1:9'
const kit = createKitMachine({
  projectId: 'peers-bench-project',
  networks: [defineEvmNetwork(mainnet), defineEvmNetwork(sepolia)],
  endpoints: {
    api: `${LOCAL}/api`,
    walletsApi: `${LOCAL}/wallets`,
    rpc: `${LOCAL}/rpc`,
    relay: 'ws://127.0.0.1:9/relay',
    frame: `${LOCAL}/frame`,
    telemetry: `${LOCAL}/telemetry`,
    verify: `${LOCAL}/verify`,
  },
  metadata: { name: 'Peers benchmark', description: 'Host app', url: window.location.origin, icons: [] },
})

function Host() {
  const { open } = useKit()
  return (
    <main>
      <h1>Host app</h1>
      <button type="button" onClick={() => open()}>
        Connect Wallet
      </button>
    </main>
  )
}

createRoot(document.getElementById('root')).render(
  <StrictMode>
    <KitRoot machine={kit}>
      <Host />
    </KitRoot>
  </StrictMode>,
)
