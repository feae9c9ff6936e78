import { fromPromise } from 'xstate'
import type { FetchWalletsReturnType, WalletListing } from '../api/walletsApi'
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
      // The listing client (and its streaming JSON parser) is fetched with the first listing asked for, when
      // the modal opens, not with the host's page (issue 14: the first-click bundle).
      const { fetchWallets, walletImageUrl } = await import('../api/walletsApi')
      const page = await fetchWallets({ ...input, signal })
      return { ...page, data: page.data.map((wallet) => withImageUrl(wallet, input, walletImageUrl)) }
    }),
  }
}

function withImageUrl(
  wallet: WalletListing,
  input: FetchWalletsInput,
  walletImageUrl: typeof import('../api/walletsApi').walletImageUrl,
): WalletListing {
  if (!wallet.image_id) return wallet
  try {
    return { ...wallet, image_url: walletImageUrl(input, input.projectId, wallet.image_id) }
  } catch {
    // An id that is not a plain path segment: no image rather than a crafted URL.
    return wallet
  }
}
