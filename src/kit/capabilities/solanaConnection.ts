import type { EmbeddedBridge } from '../../chains/eip155/embeddedBridge'
import {
  EMBEDDED_SOLANA_CONNECTOR_ID,
  MULTICHAIN_SOLANA_CONNECTOR_ID,
} from '../../chains/solana/connectorIds'
import type { ResolvedKitConfig } from '../../config'
import type { Capability } from '../../machines/capability'
import type { KitStore } from '../../storage'

/** A Solana network is configured: only then does Solana's connection load (its code, not before). */
const solanaConfigured = ({ config }: { config: ResolvedKitConfig }) =>
  config.networks.some((n) => n.chainNamespace === 'solana')

/**
 * Solana's connection (issue 17), a namespace plugged in through the capability contract (`connection`): the
 * connection machine with the Solana adapter's slots (Wallet Standard wallets, WalletConnect's solana namespace,
 * the embedded wallet through the frame the bridge hands over). It loads at the kit's start when a Solana network
 * is configured, so a reconnect finds its wallet; never for a host with only EVM networks. Its code and glue:
 * src/kit/load/solana.ts. Built by the composition root, which holds the kit's store and the frame's bridge.
 */
export function solanaConnectionCapability(store: KitStore, bridge: EmbeddedBridge | undefined): Capability {
  return {
    id: 'solanaConnection',
    views: [],
    connection: {
      chain: 'solana',
      embeddedConnectorId: EMBEDDED_SOLANA_CONNECTOR_ID,
      multichainConnectorId: MULTICHAIN_SOLANA_CONNECTOR_ID,
    },
    offered: solanaConfigured,
    atStart: solanaConfigured,
    load: async ({ config, wagmi }) =>
      (await import('../load/solana')).solanaConnectionCode(config, store, bridge, wagmi),
    /** On the configured Solana networks (the one chosen last first). */
    input: ({ config }) => ({
      namespace: 'solana',
      supportedChainIds: config.networks
        .filter((n) => n.chainNamespace === 'solana')
        .map((n) => n.caipNetworkId as `solana:${string}`),
    }),
  }
}
