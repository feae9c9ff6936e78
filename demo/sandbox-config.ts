import type { KitEndpoints } from '../src/config'

/**
 * What the sandbox tells the demo: where its services run. `npm start` and the tests inject it at serve time
 * (`define`); a plain build (the size benchmark) gets the placeholder and uses the hosted defaults.
 */
export interface DemoSandboxConfig {
  projectId: string
  endpoints: Partial<KitEndpoints>
  chain: { id: number; name: string; rpcUrl: string } | null
  /** Further sandbox EVM chains (the second sandbox chain), listed after `chain`; absent in a plain build. */
  moreChains?: Array<{ id: number; name: string; rpcUrl: string }>
  /** The sandbox chain's swap router, the kit's `swapRouters` entry for it; absent in a plain build. */
  swapRouter?: string | null
  /** The sandbox's Solana chain (issue 17); absent in a plain build. */
  solana?: { chainId: `solana:${string}`; name: string; rpcUrl: string } | null
  /** Buy: the sandbox partner page's origin, for every provider (the kit's `onrampPartnerOrigins`). */
  onrampPartnerOrigins?: Record<string, string[]>
}

declare const __WALLETSTATE_SANDBOX__: DemoSandboxConfig | undefined

export const sandboxConfig: DemoSandboxConfig =
  typeof __WALLETSTATE_SANDBOX__ !== 'undefined'
    ? __WALLETSTATE_SANDBOX__
    : { projectId: 'demo-project', endpoints: {}, chain: null }
