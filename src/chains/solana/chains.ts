/*
 * Solana network ids, pure: CAIP-2 ids (`solana:` + the first 32 characters of the genesis hash, as the CAIP-2
 * profile for Solana names networks) and the Wallet Standard's cluster names (`solana:mainnet`, ...), which
 * wallets list in `wallet.chains` and the wallet adapter asks for by RPC endpoint (`getChainForEndpoint`: a
 * loopback endpoint is `solana:localnet`).
 */

/** A Solana CAIP-2 chain id. */
export type SolanaChainId = `solana:${string}`

/** The Wallet Standard's Solana clusters (@solana/wallet-standard-chains). */
export type SolanaCluster = 'solana:mainnet' | 'solana:devnet' | 'solana:testnet' | 'solana:localnet'

export const SOLANA_MAINNET_CHAIN_ID = 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp' as const
export const SOLANA_DEVNET_CHAIN_ID = 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1' as const
export const SOLANA_TESTNET_CHAIN_ID = 'solana:4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z' as const
/** The sandbox chain (its genesis hash is fixed, so the id is the same on every start). */
export const SOLANA_SANDBOX_CHAIN_ID = 'solana:Hq4dzz54z5Mz3UNbSXtqh2tF4zCBtKZx' as const

/** The public clusters, CAIP-2 id ↔ Wallet Standard name. */
const PUBLIC: ReadonlyArray<readonly [SolanaChainId, SolanaCluster]> = [
  [SOLANA_MAINNET_CHAIN_ID, 'solana:mainnet'],
  [SOLANA_DEVNET_CHAIN_ID, 'solana:devnet'],
  [SOLANA_TESTNET_CHAIN_ID, 'solana:testnet'],
]

/** `solana:` and 32 base58 characters. */
const SOLANA_CAIP2 = /^solana:[1-9A-HJ-NP-Za-km-z]{32}$/

/**
 * Whether `value` is a Solana CAIP-2 chain id (a genesis-hash reference, not a cluster name).
 *
 * @example isSolanaChainId('solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp') // true
 * isSolanaChainId('solana:mainnet') // false
 */
export function isSolanaChainId(value: unknown): value is SolanaChainId {
  return typeof value === 'string' && SOLANA_CAIP2.test(value)
}

/** Whether an RPC URL is on this machine (the wallet adapter's `solana:localnet` rule, made strict). */
export function isLocalEndpoint(rpcUrl: string): boolean {
  try {
    const host = new URL(rpcUrl).hostname
    return host === 'localhost' || host === '[::1]' || /^127(\.\d{1,3}){3}$/.test(host)
  } catch {
    return false
  }
}

/**
 * The Wallet Standard chain a wallet is asked for on a CAIP-2 network: the cluster's name for mainnet, devnet
 * and testnet; `solana:localnet` for any other Solana network served from a local RPC (the sandbox, a local
 * validator), which is what the wallet adapter names a loopback endpoint. `undefined` when there is none.
 *
 * @example
 * toWalletStandardChain('solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1') // 'solana:devnet'
 * toWalletStandardChain(SOLANA_SANDBOX_CHAIN_ID, 'http://127.0.0.1:8899') // 'solana:localnet'
 */
export function toWalletStandardChain(chainId: string, rpcUrl?: string): SolanaCluster | undefined {
  const known = PUBLIC.find(([id]) => id === chainId)
  if (known) return known[1]
  if (!isSolanaChainId(chainId)) return undefined
  // The sandbox is local by construction; another network only when its RPC is.
  if (chainId === SOLANA_SANDBOX_CHAIN_ID && rpcUrl === undefined) return 'solana:localnet'
  return rpcUrl !== undefined && isLocalEndpoint(rpcUrl) ? 'solana:localnet' : undefined
}

/**
 * The CAIP-2 id of a chain a wallet lists: a cluster name, the sandbox wallet's `solana:sandbox`, or a wallet
 * that already names networks by genesis hash. `solana:localnet` is the local network the kit is configured
 * with (`localChainId`, the sandbox's by default). `undefined` for anything else (other namespaces, unknown
 * names).
 *
 * @example
 * fromWalletStandardChain('solana:mainnet') // 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp'
 * fromWalletStandardChain('solana:localnet') // 'solana:Hq4dzz54z5Mz3UNbSXtqh2tF4zCBtKZx'
 */
export function fromWalletStandardChain(
  chain: string,
  localChainId: SolanaChainId = SOLANA_SANDBOX_CHAIN_ID,
): SolanaChainId | undefined {
  const known = PUBLIC.find(([, name]) => name === chain)
  if (known) return known[0]
  if (chain === 'solana:localnet') return localChainId
  if (chain === 'solana:sandbox') return SOLANA_SANDBOX_CHAIN_ID
  return isSolanaChainId(chain) ? chain : undefined
}

/**
 * Whether a wallet that lists `walletChains` can serve `chainId` (reached through `rpcUrl`).
 *
 * @example supportsChain(['solana:sandbox', 'solana:localnet'], SOLANA_SANDBOX_CHAIN_ID) // true
 */
export function supportsChain(walletChains: readonly string[], chainId: string, rpcUrl?: string): boolean {
  const cluster = toWalletStandardChain(chainId, rpcUrl)
  return walletChains.some((chain) => chain === chainId || chain === cluster)
}
