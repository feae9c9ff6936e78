import type { Config } from 'wagmi'
import type { ActorRefFrom } from 'xstate'
import { bip122WalletClient, createBip122ConnectionActors } from '../../actors/bip122Connection'
import type { ResolvedKitConfig } from '../../config'
import { Bip122NotConnectedError } from '../../errors/bip122'
import type { CapabilityKit, LoadedCapability } from '../../machines/capability'
import { type ConnectorInfo, defineConnectionMachine } from '../../machines/connection'
import type { KitStore } from '../../storage'
import { connectionGlueOf } from './connectionGlue'
import { sharedSignClientOf } from './sharedSignClient'

/**
 * Bitcoin's (bip122) connection: the connection machine with the slots of a multichain WalletConnect session's
 * Bitcoin account (src/actors/bip122Connection.ts). Loaded only when a Bitcoin network is configured.
 */
export function bip122ConnectionCode(
  config: ResolvedKitConfig,
  store: KitStore,
  wagmi: Config,
): LoadedCapability<ReturnType<typeof defineConnectionMachine>> {
  const chainIds = config.networks
    .filter((n) => n.chainNamespace === 'bip122')
    .map((n) => n.caipNetworkId as `bip122:${string}`)
  const actors = createBip122ConnectionActors({
    store,
    chainIds,
    sharedSignClient: () => sharedSignClientOf(wagmi),
  })
  return { logic: defineConnectionMachine().provide({ actors }), glue: bip122ConnectionGlue }
}

/** Its glue: its connector, for the kit's list; its failures. */
const bip122ConnectionGlue = connectionGlueOf('bip122')

/**
 * Signs `message` with the connected Bitcoin account (WalletConnect's `signMessage`, the legacy message format):
 * its address and the base64 signature. What `useKitBitcoin().signMessage` runs.
 */
export async function signBitcoinMessage(message: string): Promise<{ address: string; signature: string }> {
  const client = bip122WalletClient()
  if (!client) throw new Bip122NotConnectedError()
  return client.signMessage(message)
}
