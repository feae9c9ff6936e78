import { type QueryClient, queryOptions } from '@tanstack/react-query'
import { type Address, erc20Abi, getAddress } from 'viem'
import type { Config } from 'wagmi'
import { readContracts } from 'wagmi/actions'
import { fetchQueryFor } from '../../api/queries'

/**
 * An ERC-20's `decimals()` and `symbol()` as its contract answers them. The Data API also states them, but an
 * amount scaled by a wrong `decimals` sends ten or a million times what the visitor typed ("5 USDC" with 7
 * stated decimals is 50 USDC of a 6-decimal token), so what the kit signs is scaled by the chain's answer and a
 * token whose stated decimals differ is refused (`tokenMetadataMismatch`).
 */
export interface TokenMetadata {
  chainId: number
  /** The contract, checksummed. */
  address: Address
  decimals: number
  /** Absent when the contract has no readable string `symbol()` (some old tokens answer bytes32). */
  symbol?: string | undefined
}

export interface TokenRef {
  /** eip155 reference. */
  chainId: number
  address: Address
}

/** The QueryClient key of a token's metadata: one entry per chain and contract, whatever the address's case. */
export const tokenMetadataKey = (token: TokenRef) =>
  ['walletstate', 'eip155', 'tokenMetadata', token.chainId, token.address.toLowerCase()] as const

/** Decimals and symbol never change for a deployed token: read once per session, kept a day. */
const KEEP_MS = 24 * 60 * 60 * 1000

/**
 * Reads `decimals()` and `symbol()` in one go: one multicall where the chain has Multicall3, otherwise both
 * calls through the same client at once (wagmi's `readContracts` falls back by itself; the sandbox chain has no
 * Multicall3). `decimals()` must answer; `symbol()` may not.
 *
 * @example
 * const { decimals } = await readTokenMetadata(wagmi, { chainId: 1, address: usdc })
 */
export async function readTokenMetadata(wagmi: Config, token: TokenRef): Promise<TokenMetadata> {
  const address = getAddress(token.address)
  const contract = { chainId: token.chainId, address, abi: erc20Abi } as const
  const [decimals, symbol] = await readContracts(wagmi, {
    allowFailure: true,
    contracts: [
      { ...contract, functionName: 'decimals' },
      { ...contract, functionName: 'symbol' },
    ],
  })
  if (decimals.status !== 'success') throw decimals.error
  return {
    chainId: token.chainId,
    address,
    decimals: decimals.result,
    ...(symbol.status === 'success' && typeof symbol.result === 'string' ? { symbol: symbol.result } : {}),
  }
}

/** The react-query options of a token's metadata: cached per token in the kit's one QueryClient. */
export function tokenMetadataQuery(wagmi: Config, token: TokenRef) {
  return queryOptions({
    queryKey: tokenMetadataKey(token),
    queryFn: () => readTokenMetadata(wagmi, token),
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: KEEP_MS,
    retry: false,
  })
}

/** Reads a token's metadata through the QueryClient: asked once per token, however many callers wait. */
export type TokenMetadataReader = (token: TokenRef, signal?: AbortSignal) => Promise<TokenMetadata>

/**
 * @example
 * const read = createTokenMetadataReader(wagmi, queryClient)
 * const usdc = await read({ chainId: 31337, address })
 */
export function createTokenMetadataReader(wagmi: Config, queryClient: QueryClient): TokenMetadataReader {
  return (token, signal) => fetchQueryFor(queryClient, tokenMetadataQuery(wagmi, token), signal)
}

/**
 * What differs between the metadata a service states for a token and the chain's, as a sentence; undefined
 * when they agree. Decimals must be equal; symbols are compared without case or surrounding spaces, and only
 * when the contract has a readable one.
 *
 * @example
 * tokenMetadataMismatch({ decimals: 7, symbol: 'USDC' }, { decimals: 6, symbol: 'USDC', ... })
 * // 'USDC: the chain says 6 decimals, not 7'
 */
export function tokenMetadataMismatch(
  stated: { decimals: number; symbol: string },
  onChain: Pick<TokenMetadata, 'decimals' | 'symbol'>,
): string | undefined {
  const name = onChain.symbol ?? stated.symbol
  if (stated.decimals !== onChain.decimals)
    return `${name}: the chain says ${onChain.decimals} decimals, not ${stated.decimals}`
  if (
    onChain.symbol !== undefined &&
    onChain.symbol.trim().toLowerCase() !== stated.symbol.trim().toLowerCase()
  )
    return `The contract's symbol is ${onChain.symbol}, not ${stated.symbol}`
  return undefined
}
