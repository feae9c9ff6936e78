import {
  createKitMachine,
  defineEvmNetwork,
  type KitActorRef,
  type KitConfig,
  type KitFeatures,
} from '../../src'
import { useKitActor } from '../../src/react'

/** Nothing in the UI tests may reach a network: every endpoint on loopback, where nothing answers. */
export const loopback = 'http://127.0.0.1:9'

/**
 * A kit config for UI tests: no analytics, every endpoint on loopback, one sandbox network (chain `chainId`).
 *
 * @example
 * createKitMachine(offlineKitConfig('frame-ui', { allWallets: false }, { chainId: 1 }))
 */
export function offlineKitConfig(
  projectId: string,
  features: Partial<KitFeatures> = {},
  { chainId = 31337, rpc = loopback }: { chainId?: number; rpc?: string } = {},
): KitConfig {
  return {
    projectId,
    features: { analytics: false, ...features },
    endpoints: {
      api: loopback,
      walletsApi: loopback,
      rpc: loopback,
      relay: 'ws://127.0.0.1:9',
      frame: loopback,
      telemetry: loopback,
    },
    networks: [
      defineEvmNetwork({
        id: chainId,
        name: 'Walletstate Sandbox',
        nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
        rpcUrls: { default: { http: [rpc] } },
        testnet: true,
      }),
    ],
  }
}

/** The kit the UI replays render. */
export const testKitMachine = createKitMachine(
  offlineKitConfig(
    'ui-replay',
    { allWallets: false, email: false, socials: false },
    { rpc: 'http://127.0.0.1:8545' },
  ),
)

/** Hands the running kit actor to the test, as a host component would reach it. */
export function Capture({ onActor }: { onActor: (actor: KitActorRef) => void }) {
  onActor(useKitActor())
  return null
}
