import { type Address, isAddress } from 'viem'
import { eip155Chain } from '../api/convert'
import type { TokenMetadataReader } from '../chains/eip155/tokenMetadata'
import { tokenMetadataMismatch } from '../chains/eip155/tokenMetadata'
import { NATIVE_TOKEN_ADDRESS } from '../constants'
import { SwapTokenMismatchError } from '../errors/swap'
import type { SwapQuoteRequest, SwapToken } from '../machines/swap/types'

/**
 * The swap's pair checked against the chain before a quote is asked: the amount of a quote is in base units
 * the machine scaled by the convert API's `decimals`, so a token whose contract answers other decimals (or
 * another symbol) is refused with SwapTokenMismatchError before anything is quoted, built or signed.
 *
 * `remember` keeps the listing `fetchTokens` answered (what the visitor chose from); `check` reads both
 * contracts of the pair (cached per token) and compares. A token absent from the listing is looked up again.
 *
 * @example
 * const pair = createSwapPairCheck({ read, tokens: (chainId, signal) => convert.tokens(chainId, signal) })
 * fetchTokens: async (input) => pair.remember(input.chainId, await convert.tokens(input.chainId))
 * fetchQuote: async (input) => { await pair.check(input); return convert.quote(input, gasPrice) }
 */
export function createSwapPairCheck({
  read,
  tokens,
}: {
  read: TokenMetadataReader
  tokens: (chainId: number, signal: AbortSignal) => Promise<SwapToken[]>
}) {
  const listings = new Map<number, SwapToken[]>()
  /** A listing being fetched, shared by both tokens of a pair. */
  const fetching = new Map<number, Promise<SwapToken[]>>()
  const key = (address: string) => address.trim().toLowerCase()
  const listed = async (chainId: number, address: string, signal: AbortSignal) => {
    const find = () => listings.get(chainId)?.find((t) => key(t.address) === key(address))
    const known = find()
    if (known) return known
    let pending = fetching.get(chainId)
    if (!pending) {
      pending = tokens(chainId, signal).finally(() => fetching.delete(chainId))
      fetching.set(chainId, pending)
    }
    listings.set(chainId, await pending)
    return find()
  }
  return {
    remember(chainId: number, listing: SwapToken[]): SwapToken[] {
      listings.set(chainId, listing)
      return listing
    },
    async check(request: SwapQuoteRequest, signal: AbortSignal): Promise<void> {
      const contracts = [request.from, request.to].filter(
        (address) => key(address) !== NATIVE_TOKEN_ADDRESS && isAddress(address.trim(), { strict: false }),
      )
      await Promise.all(
        contracts.map(async (address) => {
          const [stated, onChain] = await Promise.all([
            listed(eip155Chain(request.chainId), address, signal),
            read({ chainId: eip155Chain(request.chainId), address: address.trim() as Address }, signal),
          ])
          if (!stated)
            throw new SwapTokenMismatchError({ details: `${address} is not among the tokens offered` })
          const mismatch = tokenMetadataMismatch(stated, onChain)
          if (mismatch) throw new SwapTokenMismatchError({ details: mismatch })
        }),
      )
    },
  }
}
