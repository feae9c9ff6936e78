import { type Config, type Connector, type CreateConnectorFn, createConfig, createStorage } from 'wagmi'
import { evmChainOf, type ResolvedKitConfig } from '../../config'
import { MULTICALL_BATCH_SIZE_BYTES } from '../../constants'
import { browserStorage, createKitStore, guardStorage } from '../../storage'
import { otherWalletConnectNamespaces, walletConnectParameters } from '../walletConnectParameters'
import { EMBEDDED_CONNECTOR_ID, embeddedWallet } from './embedded'
import { createEmbeddedBridge, type EmbeddedBridge } from './embeddedBridge'
import { bundlerUrlFor, chainTransport } from './transport'
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
 * WalletConnect by one-click auth; it counts when the config is first built. With the host's own config
 * (`host`, the `wagmiConfig` option), the kit builds none: its connectors join the host's (`joinHostConfig`).
 */
export function getWagmiConfig(
  config: ResolvedKitConfig,
  options: { authenticate?: LazyWalletConnectParameters['authenticate']; host?: Config | undefined } = {},
): Config {
  const existing = configs.get(config)
  if (existing) return existing
  if (options.host) {
    joinHostConfig(options.host, kitConnectors(config, options))
    configs.set(config, options.host)
    return options.host
  }
  const evm = config.networks.filter((n) => n.chainNamespace === 'eip155')
  // A network made from a viem chain keeps the rest of it (its Multicall3 for `readContracts`, its formatters).
  const chains = evm.map(
    (n): WagmiChain => ({
      ...evmChainOf(n),
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
  const created = createConfig({
    chains: (chains.length > 0 ? chains : [placeholderChain]) as [WagmiChain, ...WagmiChain[]],
    transports,
    batch: Object.fromEntries(chains.map((chain) => [chain.id, multicallBatch(chain)])),
    connectors: kitConnectors(config, options).map(({ create }) => create),
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

/** The kit's own connectors: the embedded wallet (with e-mail or social login) and WalletConnect. */
function kitConnectors(
  config: ResolvedKitConfig,
  options: { authenticate?: LazyWalletConnectParameters['authenticate'] },
): { id: string; create: CreateConnectorFn }[] {
  const store = createKitStore(config.storage ?? browserStorage())
  const bridge = getEmbeddedBridge(config)
  return [
    ...(config.features.email || config.features.socials
      ? [
          {
            id: EMBEDDED_CONNECTOR_ID,
            create: embeddedWallet({
              bridge,
              store,
              assets: { config, wagmi: () => configs.get(config) },
              bundlerUrl: (chainId) =>
                bundlerUrlFor({ chainId, projectId: config.projectId, bundler: config.endpoints.bundler }),
            }),
          },
        ]
      : []),
    {
      id: WALLETCONNECT_CONNECTOR_ID,
      create: lazyWalletConnect({
        ...walletConnectParameters(config),
        otherNamespaces: otherWalletConnectNamespaces(config),
        hasStoredSession: () =>
          store.read('connectorId') === WALLETCONNECT_CONNECTOR_ID &&
          store.read('connectionStatus') === 'connected',
        ...(options.authenticate ? { authenticate: options.authenticate } : {}),
      }),
    },
  ]
}

/**
 * Adds the kit's connectors to the host's wagmi config, as wagmi's `createConfig` sets up its own (with the
 * host's chains, transports and storage; wagmi's `reconnect` registers connectors the same way): EIP-6963
 * discovery keeps adding announced wallets after them. A connector whose id the host's config already has (its
 * own WalletConnect connector, or a second kit on the same config) is left to the host's.
 */
function joinHostConfig(
  host: Config,
  connectors: readonly { id: string; create: CreateConnectorFn }[],
): void {
  const added: Connector[] = connectors
    .filter(({ id }) => !host.connectors.some((c) => c.id === id))
    .map(({ create }) => host._internal.connectors.setup(create))
  if (added.length === 0) return
  host._internal.connectors.setState((current) => [
    ...current,
    ...added.filter((c) => !current.some((existing) => existing.id === c.id)),
  ])
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

/**
 * SPEC §9 "Multicall batch size 1024 bytes": the contract reads a chain client is asked for at once go to the
 * chain as one `eth_call` to Multicall3 (`aggregate3`), each multicall carrying at most 1024 bytes of calldata.
 * On a chain whose definition names no Multicall3 (a local or custom chain), the multicall is deployless (its
 * code sent with the call), so the reads are still one request.
 *
 * @example
 * multicallBatch({ id: 31337, contracts: {} })
 * // { multicall: { batchSize: 1024, deployless: true } }
 */
export function multicallBatch(chain: { contracts?: { multicall3?: unknown } | undefined }): {
  multicall: { batchSize: number; deployless: boolean }
} {
  return {
    multicall: { batchSize: MULTICALL_BATCH_SIZE_BYTES, deployless: !chain.contracts?.multicall3 },
  }
}

const noStorage = { getItem: () => null, setItem: () => {}, removeItem: () => {} }

/** wagmi needs one chain; a kit with only Solana networks still renders. */
const placeholderChain: WagmiChain = {
  id: 1,
  name: 'Ethereum',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: ['http://127.0.0.1:8545'] } },
}
