import { type Config, createConfig, createStorage } from 'wagmi'
import type { ResolvedKitConfig } from '../../config'
import { browserStorage, createKitStore, guardStorage } from '../../storage'
import { walletConnectParameters } from '../walletConnectParameters'
import { embeddedWallet } from './embedded'
import { createEmbeddedBridge, type EmbeddedBridge } from './embeddedBridge'
import { chainTransport } from './transport'
import {
  type LazyWalletConnectParameters,
  lazyWalletConnect,
  WALLETCONNECT_CONNECTOR_ID,
} from './walletConnect'

type WagmiChain = Parameters<typeof createConfig>[0]['chains'][number]

const configs = new WeakMap<ResolvedKitConfig, Config>()

/**
 * The wagmi config for a kit: its eip155 networks as wagmi chains with one HTTP transport each, EIP-6963
 * discovery (wagmi's, through mipd) and WalletConnect loaded on demand. Built once per kit config, so the kit
 * machine's actors and `KitRoot`'s `WagmiProvider` share it. `authenticate` (sign-in configured) pairs
 * WalletConnect by one-click auth; it counts when the config is first built.
 */
export function getWagmiConfig(
  config: ResolvedKitConfig,
  options: { authenticate?: LazyWalletConnectParameters['authenticate'] } = {},
): Config {
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
  // Every chain read goes through the kit's retrying transport (SPEC §7): the host's `rpcMap` URL alone when it
  // has one, else the provider's RPC host first, then the network's own URL should the host not serve it.
  // WalletConnect's provider takes its rpcMap from these transports too.
  const transports = Object.fromEntries(
    chains.map((chain) => [
      chain.id,
      chainTransport({
        chainId: chain.id,
        projectId: config.projectId,
        rpc: config.endpoints.rpc,
        rpcMap: config.rpcMap,
        fallbackUrls: chain.rpcUrls.default.http,
      }),
    ]),
  )
  const storage = config.storage ?? browserStorage()
  const store = createKitStore(storage)
  const bridge = getEmbeddedBridge(config)
  const created = createConfig({
    chains: (chains.length > 0 ? chains : [placeholderChain]) as [WagmiChain, ...WagmiChain[]],
    transports,
    connectors: [
      ...(config.features.email || config.features.socials ? [embeddedWallet({ bridge, store })] : []),
      lazyWalletConnect({
        ...walletConnectParameters(config),
        hasStoredSession: () =>
          store.read('connectorId') === WALLETCONNECT_CONNECTOR_ID &&
          store.read('connectionStatus') === 'connected',
        ...(options.authenticate ? { authenticate: options.authenticate } : {}),
      }),
    ],
    multiInjectedProviderDiscovery: true,
    // SPEC §8: a storage that throws (full, blocked) is only logged, never a rejection inside wagmi.
    storage: createStorage({
      key: 'walletstate.wagmi',
      storage: storage ? guardStorage(storage) : noStorage,
    }),
    ssr: false,
  })
  configs.set(config, created)
  return created
}

const bridges = new WeakMap<ResolvedKitConfig, EmbeddedBridge>()

/** The bridge between the kit's login frame and the embedded wallet's connector, one per kit config. */
export function getEmbeddedBridge(config: ResolvedKitConfig): EmbeddedBridge {
  let bridge = bridges.get(config)
  if (!bridge) {
    bridge = createEmbeddedBridge()
    bridges.set(config, bridge)
  }
  return bridge
}

const noStorage = { getItem: () => null, setItem: () => {}, removeItem: () => {} }

/** wagmi needs one chain; a kit with only Solana networks still renders. */
const placeholderChain: WagmiChain = {
  id: 1,
  name: 'Ethereum',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: ['http://127.0.0.1:8545'] } },
}
