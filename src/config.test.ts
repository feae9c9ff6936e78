import { describe, expect, it } from 'vitest'
import { DEFAULT_FEATURES, defineEvmNetwork, type KitConfig, resolveConfig } from './config'
import { ConfigError } from './errors/base'
import { createKitMachine } from './kit/createKit'

const network = defineEvmNetwork({
  id: 31337,
  name: 'Sandbox',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: ['http://127.0.0.1:8545'] } },
})
const base: KitConfig = { projectId: 'p1', networks: [network] }

describe('resolveConfig', () => {
  it('default: fills in the SPEC §1 defaults', () => {
    const resolved = resolveConfig(base)
    expect(resolved.features).toEqual(DEFAULT_FEATURES)
    expect(resolved.features.connectMethodsOrder).toEqual(['email', 'social', 'wallet'])
    expect(resolved.features.connectorsOrder).toEqual([
      'walletConnect',
      'recent',
      'injected',
      'featured',
      'custom',
      'external',
      'recommended',
    ])
    expect(resolved.themeMode).toBe('dark')
    expect(resolved.enableNetworkSwitch).toBe(true)
    expect(resolved.allowUnsupportedChain).toBe(false)
    expect(resolved.defaultNetwork).toBe(network)
    expect(resolved.alerts).toEqual([])
  })

  it('parameters: features merge over the defaults', () => {
    const resolved = resolveConfig({ ...base, features: { swaps: false, pay: true } })
    expect(resolved.features.swaps).toBe(false)
    expect(resolved.features.pay).toBe(true)
    expect(resolved.features.onramp).toBe(true)
  })

  it('behavior: a missing project id is the project-id-not-configured alert, not a crash', () => {
    const resolved = resolveConfig({ ...base, projectId: '  ' })
    expect(resolved.alerts.map((a) => a.code)).toEqual(['PROJECT_ID_NOT_CONFIGURED'])
    const machine = createKitMachine({ ...base, projectId: '' })
    expect(machine.config.context).toMatchObject({ alerts: [{ shortMessage: 'Project ID Not Configured' }] })
  })

  it('behavior: siweConfig and siwx together are refused', () => {
    expect(() => resolveConfig({ ...base, siweConfig: {}, siwx: {} })).toThrowErrorMatchingInlineSnapshot(
      `[ConfigError: Cannot set both \`siweConfig\` and \`siwx\` options]`,
    )
  })

  it('behavior: no networks, a malformed network or endpoint is a clear ConfigError', () => {
    expect(() => resolveConfig({ ...base, networks: [] as never })).toThrow(ConfigError)
    expect(() =>
      resolveConfig({ ...base, networks: [{ ...network, caipNetworkId: 'nonsense' as never }] }),
    ).toThrowErrorMatchingInlineSnapshot(`
      [ConfigError: Invalid kit configuration

      Details: × must be namespace:reference
        → at networks.0.caipNetworkId]
    `)
    expect(() => resolveConfig({ ...base, endpoints: { api: 'not a url' } })).toThrow(
      /Invalid kit configuration/,
    )
  })

  it('behavior: a default network outside the list is "Network not found"', () => {
    const other = { ...network, id: 1, caipNetworkId: 'eip155:1' as const }
    expect(() => resolveConfig({ ...base, defaultNetwork: other })).toThrow(/Network not found/)
  })

  it('behavior: a network whose namespace has no chain adapter is "Adapter not found"', () => {
    const solana = {
      id: '5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
      name: 'Solana',
      chainNamespace: 'solana',
      caipNetworkId: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
      nativeCurrency: { name: 'Solana', symbol: 'SOL', decimals: 9 },
      rpcUrls: { default: { http: ['http://127.0.0.1:8899'] } },
    } as const
    const refused = (networks: KitConfig['networks']) => {
      try {
        resolveConfig({ ...base, networks })
      } catch (error) {
        return error
      }
      throw new Error('accepted')
    }
    const error = refused([network, solana])
    expect(error).toBeInstanceOf(ConfigError)
    expect((error as ConfigError).shortMessage).toBe('Adapter not found')
    expect((error as ConfigError).details).toContain('solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp')
    // A network that says eip155 but whose CAIP-2 id is another namespace's has no adapter either.
    const mislabelled = { ...network, caipNetworkId: 'cosmos:cosmoshub-4' as const }
    expect((refused([mislabelled]) as ConfigError).shortMessage).toBe('Adapter not found')
    // The kit machine is never built for such a config.
    expect(() => createKitMachine({ ...base, networks: [solana] })).toThrow(/Adapter not found/)
  })
})
