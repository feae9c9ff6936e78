import '@rainbow-me/rainbowkit/styles.css'
import { getDefaultConfig, RainbowKitProvider, useConnectModal } from '@rainbow-me/rainbowkit'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { mainnet, sepolia } from 'viem/chains'
import { WagmiProvider } from 'wagmi'

// RainbowKit's quick start: getDefaultConfig and the default wallet list.
const config = getDefaultConfig({
  appName: 'Peers benchmark',
  projectId: 'peers-bench-project',
  chains: [mainnet, sepolia],
})
const queryClient = new QueryClient()

function Host() {
  const { openConnectModal } = useConnectModal()
  return (
    <main>
      <h1>Host app</h1>
      <button type="button" onClick={() => openConnectModal?.()}>
        Connect Wallet
      </button>
    </main>
  )
}

createRoot(document.getElementById('root')).render(
  <StrictMode>
    <WagmiProvider config={config}>
      <QueryClientProvider client={queryClient}>
        <RainbowKitProvider>
          <Host />
        </RainbowKitProvider>
      </QueryClientProvider>
    </WagmiProvider>
  </StrictMode>,
)
