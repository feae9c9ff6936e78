import { useQuery } from '@tanstack/react-query'
import { useConfig } from 'wagmi'
import { BALANCE_CACHE_MS } from '../constants'
import type { KitAsset } from './assetsRead'
import { useKitAccount } from './hooks'

export type { KitAsset }

export interface UseKitAssetsReturnType {
  /** By chain id; `undefined` until read (or without a connected eip155 account). */
  assets: Readonly<Record<number, readonly KitAsset[]>> | undefined
  status: 'idle' | 'loading' | 'success' | 'error'
  error: Error | undefined
  /** Reads them again. */
  refresh: () => void
}

/**
 * The connected eip155 account's assets on every chain its wallet reports (EIP-7811 `wallet_getAssets`; the
 * embedded wallet answers from the chain and the Data API). Read through the kit's QueryClient (fresh for 30 s,
 * SPEC §9); the code that asks loads with the first read, never before.
 *
 * @example
 * ```tsx
 * import { useKitAssets } from 'walletstate/react'
 *
 * export function Holdings() {
 *   const { assets } = useKitAssets()
 *   return <p>{Object.values(assets ?? {}).flat().map((a) => a.symbol).join(', ')}</p>
 * }
 * ```
 */
export function useKitAssets(): UseKitAssetsReturnType {
  const wagmi = useConfig()
  const { isConnected, namespace, address, chainId, connectorId } = useKitAccount()
  const evm = isConnected && namespace === 'eip155' && typeof chainId === 'number' && address !== undefined
  const query = useQuery({
    queryKey: ['walletstate', 'walletAssets', connectorId, address, chainId],
    queryFn: async () => {
      const { readKitAssets } = await import('./assetsRead')
      return readKitAssets(wagmi, { address: address as `0x${string}`, chainId: chainId as number })
    },
    enabled: evm,
    staleTime: BALANCE_CACHE_MS,
    retry: false,
  })
  return {
    assets: evm ? query.data : undefined,
    status: !evm ? 'idle' : query.isError ? 'error' : query.isSuccess ? 'success' : 'loading',
    error: evm ? (query.error ?? undefined) : undefined,
    refresh: () => void query.refetch(),
  }
}
