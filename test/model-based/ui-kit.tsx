import { createKitMachine, defineEvmNetwork, type KitActorRef } from '../../src'
import { useKitActor } from '../../src/react'

/** Nothing in the UI replays may reach a network: no listing or analytics calls, every endpoint on loopback. */
const loopback = 'http://127.0.0.1:9'

/** The kit the UI replays render. */
export const testKitMachine = createKitMachine({
  projectId: 'ui-replay',
  features: { allWallets: false, analytics: false, email: false, socials: false },
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
      id: 31337,
      name: 'Walletstate Sandbox',
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: ['http://127.0.0.1:8545'] } },
      testnet: true,
    }),
  ],
})

/** Hands the running kit actor to the test, as a host component would reach it. */
export function Capture({ onActor }: { onActor: (actor: KitActorRef) => void }) {
  onActor(useKitActor())
  return null
}
