import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { defineChain } from 'viem'
import { createConfig, http, useConnect, useConnectors, WagmiProvider } from 'wagmi'
import { injected } from 'wagmi/connectors'

/**
 * The size baseline: what a host app ships with no wallet kit at all. The same stack the kit builds on
 * (React, wagmi, viem, react-query) and one button that connects through wagmi directly.
 */
const localChain = defineChain({
  id: 31337,
  name: 'Sandbox Chain',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: ['http://127.0.0.1:8545'] } },
  testnet: true,
})

const config = createConfig({
  chains: [localChain],
  connectors: [injected()],
  transports: { [localChain.id]: http() },
})

const queryClient = new QueryClient()

function ConnectWallet() {
  const { mutate, status } = useConnect()
  const connector = useConnectors()[0]
  return (
    <button
      type="button"
      disabled={!connector || status === 'pending'}
      onClick={() => connector && mutate({ connector })}
    >
      Connect Wallet
    </button>
  )
}

const root = document.getElementById('root')
if (!root) throw new Error('#root is missing')
createRoot(root).render(
  <StrictMode>
    <WagmiProvider config={config}>
      <QueryClientProvider client={queryClient}>
        <main>
          <h1>Baseline</h1>
          <ConnectWallet />
        </main>
      </QueryClientProvider>
    </WagmiProvider>
  </StrictMode>,
)
