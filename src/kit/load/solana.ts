import { createSolanaConnectionActors } from '../../actors/solanaConnection'

export { solanaWalletClient } from '../../actors/solanaConnection'

import type { ResolvedKitConfig } from '../../config'
import { defineConnectionMachine } from '../../machines/connection'
import type { KitStore } from '../../storage'

/**
 * Solana's connection: the connection machine with the Solana adapter's slots (issue 17). What the kit's
 * `loadSolana` loads, in one `import()` (see ./account.ts), only when a Solana network is configured.
 */
export function solanaConnectionLogic(config: ResolvedKitConfig, store: KitStore) {
  const chainIds = config.networks
    .filter((n) => n.chainNamespace === 'solana')
    .map((n) => n.caipNetworkId as `solana:${string}`)
  return defineConnectionMachine().provide({ actors: createSolanaConnectionActors({ store, chainIds }) })
}
