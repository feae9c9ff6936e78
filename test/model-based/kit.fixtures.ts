import { defineEvmNetwork, defineSolanaNetwork, resolveConfig } from '../../src'
import type { ConnectionAccount } from '../../src/machines/connection'
import type { KitInput } from '../../src/machines/kit'

/** The kit machine's input for its tests: one sandbox network, no analytics, no stored login. */
export function kitTestInput(projectId: string, overrides: Partial<KitInput> = {}): KitInput {
  const config = resolveConfig({
    projectId,
    features: { analytics: false },
    networks: [
      defineEvmNetwork({
        id: 31337,
        name: 'Sandbox',
        nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
        rpcUrls: { default: { http: ['http://127.0.0.1:8545'] } },
      }),
    ],
  })
  return {
    config,
    supportedChainIds: [31337],
    activeNamespace: 'eip155',
    storedLogin: false,
    frameOnOpen: false,
    reusePairing: false,
    connectorIds: {
      walletConnect: 'walletConnect',
      embedded: 'walletstateEmbedded',
    },
    remoteSessionsInput: { role: 'app' } as KitInput['remoteSessionsInput'],
    sdkVersion: 'test',
    capabilities: [],
    ...overrides,
  }
}

/** The sandbox's Solana network's CAIP-2 id. */
export const SOLANA_SANDBOX = 'solana:Hq4dzz54z5Mz3UNbSXtqh2tF4zCBtKZx' as const

/** `kitTestInput` with "Solana Sandbox" beside the EVM network (issue 17). */
export function kitTestInputWithSolana(projectId: string, overrides: Partial<KitInput> = {}): KitInput {
  const { config } = kitTestInput(projectId)
  const solana = defineSolanaNetwork({
    name: 'Solana Sandbox',
    genesisHash: SOLANA_SANDBOX.slice('solana:'.length),
    rpcUrl: 'http://127.0.0.1:8899',
  })
  return kitTestInput(projectId, {
    config: resolveConfig({ ...config, networks: [...config.networks, solana] }),
    ...overrides,
  })
}

/** A connected account through `connectorId`. */
export const testAccount = (connectorId: string): ConnectionAccount => ({
  address: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
  addresses: ['0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'],
  chainId: 31337,
  connectorId,
})

/** The modal's notice of the view stack it now shows (empty: closed). */
export const shown = (...history: string[]) =>
  ({ type: 'modal.shown', open: history.length > 0, history }) as const
