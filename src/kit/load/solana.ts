import { createSolanaConnectionActors } from '../../actors/solanaConnection'

export { solanaWalletClient } from '../../actors/solanaConnection'

import { walletConnectParameters } from '../../chains/walletConnectParameters'
import type { ResolvedKitConfig } from '../../config'
import { defineConnectionMachine } from '../../machines/connection'
import type { KitStore } from '../../storage'
import { verifyDomainLogic } from '../verifyDomain'

/**
 * Solana's connection: the connection machine with the Solana adapter's slots (issue 17). What the kit's
 * `loadSolana` loads, in one `import()` (see ./account.ts), only when a Solana network is configured.
 */
export function solanaConnectionLogic(config: ResolvedKitConfig, store: KitStore) {
  const chainIds = config.networks
    .filter((n) => n.chainNamespace === 'solana')
    .map((n) => n.caipNetworkId as `solana:${string}`)
  const actors = createSolanaConnectionActors({
    store,
    chainIds,
    walletConnect: walletConnectParameters(config),
  })
  // WalletConnect's pairing on Solana is attested like eip155's (SPEC §3 Verify context).
  return defineConnectionMachine().provide({ actors: { ...actors, verifyDomain: verifyDomainLogic(config) } })
}
