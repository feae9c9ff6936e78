/*
 * The login frame's chain list (SPEC §1: "The login frame supports twenty-three EVM chains and three Solana
 * networks"), plus the sandbox's own chains. The sandbox has no network access: the listed public networks are
 * kept in the list and marked unreachable (their RPC is never called), while the chains the site serves are the
 * reachable ones. The site answers it at `GET /networks`.
 */

/** One network of the frame's list. */
export interface FrameNetwork {
  /** CAIP-2: `eip155:1`, `solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp`. */
  caipNetworkId: string
  name: string
  namespace: 'eip155' | 'solana'
  testnet: boolean
  /** Whether the site can serve it here: true for the sandbox's chains, false for the public ones (offline). */
  reachable: boolean
}

type Listed = Omit<FrameNetwork, 'reachable' | 'namespace'>

/** The twenty-three EVM chains of SPEC §1 (mainnets and their common testnets). */
export const FRAME_EVM_NETWORKS: readonly Listed[] = [
  { caipNetworkId: 'eip155:1', name: 'Ethereum', testnet: false },
  { caipNetworkId: 'eip155:10', name: 'OP Mainnet', testnet: false },
  { caipNetworkId: 'eip155:56', name: 'BNB Smart Chain', testnet: false },
  { caipNetworkId: 'eip155:100', name: 'Gnosis', testnet: false },
  { caipNetworkId: 'eip155:137', name: 'Polygon', testnet: false },
  { caipNetworkId: 'eip155:250', name: 'Fantom', testnet: false },
  { caipNetworkId: 'eip155:324', name: 'ZKsync Era', testnet: false },
  { caipNetworkId: 'eip155:1284', name: 'Moonbeam', testnet: false },
  { caipNetworkId: 'eip155:5000', name: 'Mantle', testnet: false },
  { caipNetworkId: 'eip155:8453', name: 'Base', testnet: false },
  { caipNetworkId: 'eip155:42161', name: 'Arbitrum One', testnet: false },
  { caipNetworkId: 'eip155:42220', name: 'Celo', testnet: false },
  { caipNetworkId: 'eip155:43114', name: 'Avalanche', testnet: false },
  { caipNetworkId: 'eip155:59144', name: 'Linea', testnet: false },
  { caipNetworkId: 'eip155:81457', name: 'Blast', testnet: false },
  { caipNetworkId: 'eip155:534352', name: 'Scroll', testnet: false },
  { caipNetworkId: 'eip155:7777777', name: 'Zora', testnet: false },
  { caipNetworkId: 'eip155:1313161554', name: 'Aurora', testnet: false },
  { caipNetworkId: 'eip155:11155111', name: 'Sepolia', testnet: true },
  { caipNetworkId: 'eip155:84532', name: 'Base Sepolia', testnet: true },
  { caipNetworkId: 'eip155:11155420', name: 'OP Sepolia', testnet: true },
  { caipNetworkId: 'eip155:421614', name: 'Arbitrum Sepolia', testnet: true },
  { caipNetworkId: 'eip155:80002', name: 'Polygon Amoy', testnet: true },
]

/** The three Solana networks of SPEC §1 (by their genesis hashes, as CAIP-2 names them). */
export const FRAME_SOLANA_NETWORKS: readonly Listed[] = [
  { caipNetworkId: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp', name: 'Solana', testnet: false },
  { caipNetworkId: 'solana:EtWTRABZaYq6iMfeYKouRu166VL2xqa1', name: 'Solana Devnet', testnet: true },
  { caipNetworkId: 'solana:4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z', name: 'Solana Testnet', testnet: true },
]

/**
 * The frame's list for a site serving `served` (its EVM chains and, when it has one, its Solana chain): the
 * SPEC's networks, each reachable only if served, then the served chains the SPEC does not list (the sandbox's).
 *
 * @example
 * frameNetworks([{ caipNetworkId: 'eip155:31337', name: 'Walletstate Sandbox', namespace: 'eip155' }])
 * // 23 EVM + 3 Solana networks marked unreachable, then the sandbox chain, reachable
 */
export function frameNetworks(
  served: ReadonlyArray<{ caipNetworkId: string; name: string; namespace: 'eip155' | 'solana' }>,
): FrameNetwork[] {
  const servedIds = new Set(served.map((network) => network.caipNetworkId))
  const listed: FrameNetwork[] = [
    ...FRAME_EVM_NETWORKS.map((network) => ({ ...network, namespace: 'eip155' as const })),
    ...FRAME_SOLANA_NETWORKS.map((network) => ({ ...network, namespace: 'solana' as const })),
  ].map((network) => ({ ...network, reachable: servedIds.has(network.caipNetworkId) }))
  const known = new Set(listed.map((network) => network.caipNetworkId))
  const own = served
    .filter((network) => !known.has(network.caipNetworkId))
    .map((network) => ({ ...network, testnet: true, reachable: true }))
  return [...listed, ...own]
}
