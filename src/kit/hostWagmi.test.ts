import { describe, expect, it } from 'vitest'
import { type Config, createConfig, http, injected, mock } from 'wagmi'
import { getConnection } from 'wagmi/actions'
import { createActor, waitFor } from 'xstate'
import { configProblems, defineEvmNetwork, type KitNetwork } from '../config'
import { ConfigError } from '../errors/base'
import { memoryStorage } from '../storage'
import { createKitMachine, kitHandleOf } from './createKit'

/**
 * The `wagmiConfig` option (issue 18 item 1): the kit runs on the host's own wagmi config, its connectors join
 * the host's, and a connection made through the kit is the host's wagmi connection.
 */
const ALICE = '0x00000000000000000000000000000000000A11cE'
const chain = {
  id: 31_337,
  name: 'Host Chain',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: ['http://127.0.0.1:9'] } },
} as const
const network: KitNetwork = defineEvmNetwork(chain)

function hostConfig(): Config {
  return createConfig({
    chains: [chain],
    connectors: [mock({ accounts: [ALICE] }), injected()],
    transports: { [chain.id]: http('http://127.0.0.1:9') },
    storage: null,
    multiInjectedProviderDiscovery: false,
  })
}

const kitConfig = (wagmiConfig: Config) => ({
  projectId: 'p',
  networks: [network] as const,
  wagmiConfig,
  storage: memoryStorage(),
  features: { analytics: false },
})

describe('createKitMachine with the host wagmi config', () => {
  it('uses the host config and adds its own connectors to it, once', () => {
    const host = hostConfig()
    const kit = createKitMachine(kitConfig(host))
    expect(kitHandleOf(kit)?.wagmi).toBe(host)
    expect(host.connectors.map((c) => c.id)).toEqual([
      'mock',
      'injected',
      'walletstateEmbedded',
      'walletConnect',
    ])
    // A second kit on the same config finds the kit's connectors there already.
    createKitMachine(kitConfig(host))
    expect(host.connectors.map((c) => c.id)).toEqual([
      'mock',
      'injected',
      'walletstateEmbedded',
      'walletConnect',
    ])
  })

  it('leaves WalletConnect unloaded when the host asks every connector for its provider (a reconnect on mount)', async () => {
    const host = hostConfig()
    createKitMachine(kitConfig(host))
    const walletConnect = host.connectors.find((c) => c.id === 'walletConnect')!
    expect(await walletConnect.getProvider()).toBeUndefined()
  })

  it('lists the host connectors with their types: a non-injected one is external', async () => {
    const kit = createKitMachine(kitConfig(hostConfig()))
    const actor = createActor(kit).start()
    try {
      const snapshot = await waitFor(actor, (s) => s.context.connectors.length >= 4)
      const types = Object.fromEntries(snapshot.context.connectors.map((c) => [c.id, c.type]))
      expect(types).toEqual({
        mock: 'external',
        injected: 'injected',
        walletstateEmbedded: 'auth',
        walletConnect: 'walletconnect',
      })
    } finally {
      actor.stop()
    }
  })

  it("connects through a host connector, and the host's wagmi sees the same account", async () => {
    const host = hostConfig()
    const actor = createActor(createKitMachine(kitConfig(host))).start()
    try {
      await waitFor(actor, (s) => s.context.connectors.some((c) => c.id === 'mock'))
      actor.send({ type: 'wallet.select', wallet: { id: 'mock', name: 'Mock Connector' } })
      const snapshot = await waitFor(actor, (s) => s.context.connected !== undefined, { timeout: 10_000 })
      expect(snapshot.context.connected?.address).toBe(ALICE)
      const connection = getConnection(host)
      expect(connection.status).toBe('connected')
      expect(connection.address).toBe(ALICE)
      expect(connection.connector?.id).toBe('mock')
    } finally {
      actor.stop()
    }
  })
})

describe('the wagmiConfig option is checked', () => {
  it('refuses what is not a wagmi config', () => {
    const base = { projectId: 'p', networks: [network] }
    expect(configProblems({ ...base, wagmiConfig: { chains: [chain] } })).toEqual([
      "wagmiConfig: must be a wagmi config (wagmi's createConfig)",
    ])
    expect(configProblems({ ...base, wagmiConfig: hostConfig() })).toEqual([])
  })

  it('refuses an eip155 network the host config has no chain for', () => {
    const other = defineEvmNetwork({ ...chain, id: 1, name: 'Other' })
    expect(configProblems({ projectId: 'p', networks: [network, other], wagmiConfig: hostConfig() })).toEqual(
      ["networks.1: chain 1 is not one of wagmiConfig's chains"],
    )
    expect(() => createKitMachine({ ...kitConfig(hostConfig()), networks: [other] })).toThrow(ConfigError)
  })
})
