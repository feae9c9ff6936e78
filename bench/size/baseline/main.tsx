import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { defineChain, parseEther } from 'viem'
import {
  createConfig,
  http,
  useConnect,
  useConnectors,
  useSendTransaction,
  useSignMessage,
  WagmiProvider,
} from 'wagmi'
import { injected } from 'wagmi/connectors'

/**
 * The size baseline: what a host app ships with no wallet kit at all. The same stack the kit builds on
 * (React, wagmi, viem, react-query), one button that connects through wagmi directly, and the demo host's own
 * two features (sign a message, send a transaction, with the same wagmi hooks), so that the difference
 * between the demo and this app is the kit and nothing the host would ship anyway.
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

function HostActions() {
  const sign = useSignMessage()
  const send = useSendTransaction()
  return (
    <div>
      <button type="button" onClick={() => sign.mutate({ message: 'Hello' })}>
        Sign message
      </button>
      <button
        type="button"
        onClick={() =>
          send.mutate({ to: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', value: parseEther('0.01') })
        }
      >
        Send transaction
      </button>
    </div>
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
          <HostActions />
        </main>
      </QueryClientProvider>
    </WagmiProvider>
  </StrictMode>,
)
