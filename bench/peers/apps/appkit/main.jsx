import { mainnet, sepolia } from '@reown/appkit/networks'
import { createAppKit, useAppKit } from '@reown/appkit/react'
import { WagmiAdapter } from '@reown/appkit-adapter-wagmi'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { WagmiProvider } from 'wagmi'

// AppKit's quick start for React + wagmi, default features.
const projectId = 'peers-bench-project'
const networks = [mainnet, sepolia]
const wagmiAdapter = new WagmiAdapter({ networks, projectId })
createAppKit({
  adapters: [wagmiAdapter],
  networks,
  projectId,
  metadata: { name: 'Peers benchmark', description: 'Host app', url: window.location.origin, icons: [] },
})
const queryClient = new QueryClient()

function Host() {
  const { open } = useAppKit()
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
    <WagmiProvider config={wagmiAdapter.wagmiConfig}>
      <QueryClientProvider client={queryClient}>
        <Host />
      </QueryClientProvider>
    </WagmiProvider>
  </StrictMode>,
)
