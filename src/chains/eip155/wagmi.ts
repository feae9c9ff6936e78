import { http } from 'viem'
import { type Config, createConfig } from 'wagmi'
import type { ResolvedKitConfig } from '../../config'

type WagmiChain = Parameters<typeof createConfig>[0]['chains'][number]

const configs = new WeakMap<ResolvedKitConfig, Config>()

/**
 * The wagmi config for a kit: its eip155 networks as wagmi chains, one HTTP transport each. Built once per
 * kit config, so every KitRoot of the same kit shares it.
 */
export function getWagmiConfig(config: ResolvedKitConfig): Config {
  const existing = configs.get(config)
  if (existing) return existing
  const evm = config.networks.filter((n) => n.chainNamespace === 'eip155')
  const chains = evm.map(
    (n): WagmiChain => ({
      id: Number(n.id),
      name: n.name,
      nativeCurrency: n.nativeCurrency,
      rpcUrls: { default: { http: n.rpcUrls.default.http } },
      ...(n.blockExplorers ? { blockExplorers: n.blockExplorers } : {}),
      ...(n.testnet !== undefined ? { testnet: n.testnet } : {}),
    }),
  )
  const transports = Object.fromEntries(
    chains.map((chain) => [chain.id, http(chain.rpcUrls.default.http[0])]),
  )
  const created = createConfig({
    chains: (chains.length > 0 ? chains : [placeholderChain]) as [WagmiChain, ...WagmiChain[]],
    transports,
    connectors: [],
    // The kit discovers EIP-6963 wallets through its connection machine; wagmi's own discovery stays off
    // until that machine asks for it.
    multiInjectedProviderDiscovery: false,
    ssr: false,
  })
  configs.set(config, created)
  return created
}

/** wagmi needs one chain; a kit with only Solana networks still renders. */
const placeholderChain: WagmiChain = {
  id: 1,
  name: 'Ethereum',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: ['http://127.0.0.1:8545'] } },
}
