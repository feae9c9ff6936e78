import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { ConnectKitProvider, getDefaultConfig, useModal } from 'connectkit'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { mainnet, sepolia } from 'viem/chains'
import { createConfig, WagmiProvider } from 'wagmi'

// ConnectKit's quick start: getDefaultConfig and the default connectors.
const config = createConfig(
  getDefaultConfig({
    appName: 'Peers benchmark',
    walletConnectProjectId: 'peers-bench-project',
    chains: [mainnet, sepolia],
  }),
)
const queryClient = new QueryClient()

function Host() {
  const { setOpen } = useModal()
  return (
    <main>
      <h1>Host app</h1>
      <button type="button" onClick={() => setOpen(true)}>
        Connect Wallet
      </button>
    </main>
  )
}

createRoot(document.getElementById('root')).render(
  <StrictMode>
    <WagmiProvider config={config}>
      <QueryClientProvider client={queryClient}>
        <ConnectKitProvider>
          <Host />
        </ConnectKitProvider>
      </QueryClientProvider>
    </WagmiProvider>
  </StrictMode>,
)
