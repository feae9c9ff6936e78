import type { KitConfig, KitEndpoints } from '../../src'

/** A port nothing listens on: every request of a kit pointed here fails at once, and nothing leaves the machine. */
const NOWHERE = 'http://127.0.0.1:9'

/** Every endpoint of the kit pointed at {@link NOWHERE}: for tests of what the kit draws, not what it fetches. */
export const OFFLINE_ENDPOINTS: KitEndpoints = {
  api: NOWHERE,
  walletsApi: NOWHERE,
  rpc: NOWHERE,
  relay: 'ws://127.0.0.1:9',
  frame: NOWHERE,
  telemetry: NOWHERE,
  verify: NOWHERE,
  bundler: NOWHERE,
}

/** The features that would fetch on their own (analytics, the listing, the login frame's logins) turned off. */
export const OFFLINE_FEATURES = { analytics: false, allWallets: false, email: false, socials: false } as const

/** A local chain whose RPC is {@link NOWHERE}. */
export const OFFLINE_CHAIN = {
  id: 31_337,
  name: 'Sandbox',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: [NOWHERE] } },
} as const

/** A kit config that reaches nothing: `overrides` on top (its own project id, networks, features). */
export function offlineConfig(overrides: Partial<KitConfig> & Pick<KitConfig, 'projectId'>): KitConfig {
  return {
    networks: [OFFLINE_CHAIN],
    ...overrides,
    features: { ...OFFLINE_FEATURES, ...overrides.features },
    endpoints: { ...OFFLINE_ENDPOINTS, ...overrides.endpoints },
  }
}
