import { fromPromise } from 'xstate'
import { type FetchWalletsReturnType, fetchWallets } from '../api/walletsApi'
import type { FetchWalletsInput } from '../machines/wallets'

/**
 * The wallets machine's slot over the wallet-listing API (`src/api/walletsApi.ts`): one request per page or
 * search, aborted when the state that asked is left.
 *
 * @example
 * walletsMachine.provide({ actors: createWalletsActors() })
 */
export function createWalletsActors() {
  return {
    fetchWallets: fromPromise<FetchWalletsReturnType, FetchWalletsInput>(({ input, signal }) =>
      fetchWallets({ ...input, signal }),
    ),
  }
}
