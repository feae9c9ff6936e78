import { MULTICHAIN_BIP122_CONNECTOR_ID } from '../../chains/bip122/connectorIds'
import type { ResolvedKitConfig } from '../../config'
import type { Capability } from '../../machines/capability'
import type { KitStore } from '../../storage'

/** A Bitcoin network is configured: only then does Bitcoin's connection load. */
const bip122Configured = ({ config }: { config: ResolvedKitConfig }) =>
  config.networks.some((n) => n.chainNamespace === 'bip122')

/**
 * Bitcoin's (bip122) connection, a namespace plugged in through the capability contract (`connection`): a
 * multichain WalletConnect pairing's Bitcoin account (SPEC §1), held beside the EVM one. It loads at the kit's
 * start when a Bitcoin network is configured (a reload restores the account from the stored session). Its code:
 * src/kit/load/bip122.ts.
 */
export function bip122ConnectionCapability(store: KitStore): Capability {
  return {
    id: 'bip122Connection',
    views: [],
    connection: { chain: 'bip122', multichainConnectorId: MULTICHAIN_BIP122_CONNECTOR_ID },
    offered: bip122Configured,
    atStart: bip122Configured,
    load: async ({ config, wagmi }) =>
      (await import('../load/bip122')).bip122ConnectionCode(config, store, wagmi),
    input: ({ config }) => ({
      namespace: 'bip122',
      supportedChainIds: config.networks
        .filter((n) => n.chainNamespace === 'bip122')
        .map((n) => n.caipNetworkId as `bip122:${string}`),
    }),
  }
}
