import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { StrictMode, useRef } from 'react'
import { createRoot } from 'react-dom/client'
import { mainnet, sepolia } from 'viem/chains'
import { createConfig, http, useConnectors, WagmiProvider } from 'wagmi'
import { injected } from 'wagmi/connectors'

// wagmi only, no kit: the button opens a plain <dialog> listing wagmi's connectors.
const config = createConfig({
  chains: [mainnet, sepolia],
  connectors: [injected()],
  transports: { [mainnet.id]: http(), [sepolia.id]: http() },
})
const queryClient = new QueryClient()

function Host() {
  const dialog = useRef(null)
  const connectors = useConnectors()
  return (
    <main>
      <h1>Host app</h1>
      <button type="button" onClick={() => dialog.current?.showModal()}>
        Connect Wallet
      </button>
      <dialog ref={dialog} aria-label="Connect a wallet">
        <ul data-peers-content="">
          {connectors.map((c) => (
            <li key={c.uid}>
              <button type="button">{c.name}</button>
            </li>
          ))}
        </ul>
      </dialog>
    </main>
  )
}

createRoot(document.getElementById('root')).render(
  <StrictMode>
    <WagmiProvider config={config}>
      <QueryClientProvider client={queryClient}>
        <Host />
      </QueryClientProvider>
    </WagmiProvider>
  </StrictMode>,
)
