import { QueryClient, QueryClientProvider, useQueryClient } from '@tanstack/react-query'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import {
  createConfig,
  createStorage,
  http,
  mock,
  useAccount,
  useChainId,
  useConfig,
  useConnectors,
  WagmiProvider,
} from 'wagmi'
import { createKitMachine, defineEvmNetwork } from '../src'
import { ConnectButton, KitRoot, useKitAccount } from '../src/react'
import { sandboxConfig } from './sandbox-config'

/**
 * A host app built on its own wagmi config and providers (issue 18 item 1): the kit joins them
 * (`wagmiConfig`) and the host's wagmi hooks see the account connected through the kit. Served beside the demo
 * at /own-wagmi.html; test/e2e/host-wagmi.test.ts drives it.
 */
const chain = {
  id: sandboxConfig.chain?.id ?? 31337,
  name: sandboxConfig.chain?.name ?? 'Sandbox Chain',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: [sandboxConfig.chain?.rpcUrl ?? 'http://127.0.0.1:8545'] } },
  testnet: true,
} as const

/** The host's own: its chain and transport, a connector of its own, its own storage key. */
const hostWagmi = createConfig({
  chains: [chain],
  transports: { [chain.id]: http(chain.rpcUrls.default.http[0]) },
  connectors: [mock({ accounts: ['0x70997970C51812dc3A010C7d01b50e0d17dc79C8'] })],
  storage: createStorage({ key: 'host.wagmi', storage: window.localStorage }),
})
const hostQueryClient = new QueryClient()

const kit = createKitMachine({
  projectId: sandboxConfig.projectId,
  networks: [defineEvmNetwork(chain)],
  endpoints: sandboxConfig.endpoints,
  wagmiConfig: hostWagmi,
  ...(sandboxConfig.swapRouter ? { swapRouters: { [`eip155:${chain.id}`]: sandboxConfig.swapRouter } } : {}),
})

/** What the host's own hooks see, beside what the kit says. */
function HostApp() {
  const account = useAccount()
  const chainId = useChainId()
  const connectors = useConnectors()
  const kitAccount = useKitAccount()
  const sameConfig = useConfig() === hostWagmi
  const sameQueryClient = useQueryClient() === hostQueryClient
  return (
    <main>
      <h1>Host app with its own wagmi config</h1>
      <ConnectButton />
      <dl>
        <dt>wagmi config</dt>
        <dd data-testid="host-config">{sameConfig ? 'host' : 'other'}</dd>
        <dt>QueryClient</dt>
        <dd data-testid="host-query-client">{sameQueryClient ? 'host' : 'other'}</dd>
        <dt>useAccount</dt>
        <dd data-testid="host-account">
          {account.status === 'connected' ? account.address : account.status}
        </dd>
        <dt>useChainId</dt>
        <dd data-testid="host-chain">{chainId}</dd>
        <dt>Connector of the connection</dt>
        <dd data-testid="host-connector">{account.connector?.id ?? ''}</dd>
        <dt>The kit's account</dt>
        <dd data-testid="kit-account">{kitAccount.address ?? ''}</dd>
        <dt>Connectors</dt>
        <dd data-testid="host-connectors">{connectors.map((c) => c.id).join(' ')}</dd>
      </dl>
    </main>
  )
}

const root = document.getElementById('root')
if (!root) throw new Error('#root is missing')
createRoot(root).render(
  <StrictMode>
    <WagmiProvider config={hostWagmi}>
      <QueryClientProvider client={hostQueryClient}>
        <KitRoot machine={kit}>
          <HostApp />
        </KitRoot>
      </QueryClientProvider>
    </WagmiProvider>
  </StrictMode>,
)
