import { fromPromise } from 'xstate'
import {
  type FetchWalletsReturnType,
  fetchWallets,
  type WalletListing,
  walletImageUrl,
} from '../api/walletsApi'
import type { FetchWalletsInput } from '../machines/wallets'

/**
 * The wallets machine's slot over the wallet-listing API (`src/api/walletsApi.ts`): one request per page or
 * search, aborted when the state that asked is left. Each entry gets its image's URL (`image_url`), so views
 * show it without building API URLs themselves.
 *
 * @example
 * walletsMachine.provide({ actors: createWalletsActors() })
 */
export function createWalletsActors() {
  return {
    fetchWallets: fromPromise<FetchWalletsReturnType, FetchWalletsInput>(async ({ input, signal }) => {
      const page = await fetchWallets({ ...input, signal })
      return { ...page, data: page.data.map((wallet) => withImageUrl(wallet, input)) }
    }),
  }
}

function withImageUrl(wallet: WalletListing, input: FetchWalletsInput): WalletListing {
  if (!wallet.image_id) return wallet
  try {
    return { ...wallet, image_url: walletImageUrl(input, input.projectId, wallet.image_id) }
  } catch {
    // An id that is not a plain path segment: no image rather than a crafted URL.
    return wallet
  }
}
