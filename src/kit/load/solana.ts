import { Connection } from '@solana/web3.js'
import type { Config } from 'wagmi'
import type { ActorRefFrom } from 'xstate'
import { createSolanaConnectionActors, solanaWalletClient } from '../../actors/solanaConnection'

export { solanaWalletClient } from '../../actors/solanaConnection'

import type { EmbeddedBridge } from '../../chains/eip155/embeddedBridge'
import { walletConnectParameters } from '../../chains/walletConnectParameters'
import type { ResolvedKitConfig } from '../../config'
import type { CapabilityKit, LoadedCapability } from '../../machines/capability'
import type { ConnectorInfo } from '../../machines/connection'
import { defineConnectionMachine } from '../../machines/connection'
import type { KitStore } from '../../storage'
import { verifyDomainLogic } from '../verifyDomain'
import { connectionGlueOf } from './connectionGlue'
import { sharedSignClientOf } from './sharedSignClient'

/**
 * Solana's connection: the connection machine with the Solana adapter's slots (issue 17): Wallet Standard
 * wallets, WalletConnect's solana namespace, and the embedded wallet (through the frame the bridge hands over).
 * What the kit's Solana connection capability loads, in one `import()` (see ./account.ts), only when a Solana network is
 * configured.
 */
export function solanaConnectionLogic(
  config: ResolvedKitConfig,
  store: KitStore,
  embeddedBridge?: EmbeddedBridge,
  wagmi?: Config,
) {
  // The default network first, when it is a Solana one: a connection with none chosen is made on it.
  const chainIds = [config.defaultNetwork, ...config.networks]
    .filter((n, i, all) => n.chainNamespace === 'solana' && all.indexOf(n) === i)
    .map((n) => n.caipNetworkId as `solana:${string}`)
  const actors = createSolanaConnectionActors({
    store,
    chainIds,
    walletConnect: walletConnectParameters(config),
    // A multichain pairing (eip155's WalletConnect proposing Solana too): its Solana side reads that session.
    ...(wagmi ? { sharedSignClient: () => sharedSignClientOf(wagmi) } : {}),
    ...(embeddedBridge ? { embeddedBridge } : {}),
  })
  // WalletConnect's pairing on Solana is attested like eip155's (SPEC §3 Verify context).
  return defineConnectionMachine().provide({ actors: { ...actors, verifyDomain: verifyDomainLogic(config) } })
}

/** Solana's connection as the capability the kit holds it by: its machine, and its glue. */
export function solanaConnectionCode(
  config: ResolvedKitConfig,
  store: KitStore,
  embeddedBridge?: EmbeddedBridge,
  wagmi?: Config,
): LoadedCapability<ReturnType<typeof solanaConnectionLogic>> {
  return { logic: solanaConnectionLogic(config, store, embeddedBridge, wagmi), glue: solanaConnectionGlue }
}

/** Its glue: Solana's connectors (Wallet Standard wallets), for Connect and for matching a picked wallet; its failures. */
export const solanaConnectionGlue = connectionGlueOf('solana')

/**
 * Sends `lamports` from a Solana connector's account to `to` (base58) over the network's RPC, and waits for
 * `confirmed`; the signature (base58). What `useKitSolana().sendSol` runs.
 *
 * @example
 * const signature = await sendSolFrom('solana:embedded', { to, lamports: 10_000_000n, rpcUrl })
 */
export function sendSolFrom(
  connectorId: string,
  { to, lamports, rpcUrl }: { to: string; lamports: bigint | number; rpcUrl: string },
): Promise<string> {
  return solanaWalletClient(connectorId).sendSol({
    to,
    lamports,
    connection: new Connection(rpcUrl, 'confirmed'),
  })
}
