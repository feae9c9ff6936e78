import { mainnet, optimism, sepolia } from 'viem/chains'
import { describe, expect, it } from 'vitest'
import { createConfig, http } from 'wagmi'
import { createActor } from 'xstate'
import {
  configProblems,
  defineEvmNetwork,
  defineSolanaNetwork,
  evmChainOf,
  type KitConfig,
  resolveConfig,
} from './config'
import { ConfigError } from './errors/base'
import { createKitMachine, kitHandleOf } from './kit/createKit'

/** `networks` takes viem chains as they are: the kit derives their CAIP-2 ids and keeps the chains. */
const base = { projectId: 'p1', networks: [mainnet, sepolia] } satisfies KitConfig
const solana = defineSolanaNetwork({
  name: 'Solana Sandbox',
  genesisHash: 'Hq4dzz54z5Mz3UNbSXtqh2tF4zCBtKZx',
  rpcUrl: 'http://127.0.0.1:8899',
})

/** The ConfigError a config is refused with. */
function refusal(config: unknown): ConfigError {
  try {
    resolveConfig(config as KitConfig)
  } catch (error) {
    if (error instanceof ConfigError) return error
    throw error
  }
  throw new Error('accepted')
}

describe('networks: viem chains as they are', () => {
  it('become eip155 networks, their CAIP-2 ids derived from their chain ids', () => {
    expect(configProblems(base)).toEqual([])
    const { networks, defaultNetwork } = resolveConfig(base)
    expect(networks.map((n) => [n.caipNetworkId, n.chainNamespace, n.id, n.name])).toEqual([
      ['eip155:1', 'eip155', 1, 'Ethereum'],
      ['eip155:11155111', 'eip155', 11155111, 'Sepolia'],
    ])
    expect(networks[0].nativeCurrency).toEqual(mainnet.nativeCurrency)
    expect(networks[0].rpcUrls.default.http).toEqual(mainnet.rpcUrls.default.http)
    expect(networks[0].blockExplorers?.default.url).toBe(mainnet.blockExplorers.default.url)
    expect(networks[1]?.testnet).toBe(true)
    expect(defaultNetwork).toBe(networks[0])
    // The chain each came from stays with it, as the host gave it.
    expect(evmChainOf(networks[0])).toBe(mainnet)
    expect(evmChainOf(networks[1]!)).toBe(sepolia)
  })

  it('defaultNetwork is one of them, given as the same viem chain', () => {
    const resolved = resolveConfig({ ...base, defaultNetwork: sepolia })
    expect(resolved.defaultNetwork).toBe(resolved.networks.at(1))
    expect(refusal({ ...base, defaultNetwork: optimism }).shortMessage).toBe('Network not found')
    expect(refusal({ ...base, defaultNetwork: optimism }).details).toBe('defaultNetwork eip155:10')
  })

  it('sit beside Solana networks and kit networks, which are kept as they are', () => {
    const overridden = defineEvmNetwork({ ...optimism, name: 'OP' })
    const resolved = resolveConfig({ ...base, networks: [mainnet, solana, overridden] })
    expect(resolved.networks.map((n) => n.caipNetworkId)).toEqual([
      'eip155:1',
      'solana:Hq4dzz54z5Mz3UNbSXtqh2tF4zCBtKZx',
      'eip155:10',
    ])
    expect(resolved.networks[1]).toBe(solana)
    expect(resolved.networks[2]).toBe(overridden)
    expect(resolved.networks[2]?.name).toBe('OP')
    expect(evmChainOf(overridden)).toEqual({ ...optimism, name: 'OP' })
    expect(evmChainOf(solana)).toBeUndefined()
    // A chain that already says its namespace and CAIP-2 id (AppKit's networks do) is a kit network.
    const appKitStyle = { ...mainnet, chainNamespace: 'eip155', caipNetworkId: 'eip155:1' } as const
    expect(resolveConfig({ ...base, networks: [appKitStyle] }).networks[0]).toBe(appKitStyle)
  })

  it('are named by their derived CAIP-2 ids in rpcMap, swapRouters and against wagmiConfig', () => {
    expect(configProblems({ ...base, rpcMap: { 'eip155:11155111': 'https://rpc.example/sepolia' } })).toEqual(
      [],
    )
    expect(configProblems({ ...base, rpcMap: { 'eip155:10': 'https://rpc.example/op' } })).toEqual([
      'rpcMap.eip155:10: is not the caipNetworkId of a configured network',
    ])
    const wagmiConfig = createConfig({
      chains: [mainnet],
      transports: { [mainnet.id]: http('http://127.0.0.1:9') },
      storage: null,
    })
    expect(configProblems({ ...base, wagmiConfig })).toEqual([
      "networks.1: chain 11155111 is not one of wagmiConfig's chains",
    ])
    expect(configProblems({ ...base, networks: [mainnet], wagmiConfig })).toEqual([])
  })

  it('reach the kit machine and its wagmi config, each chain with what viem gave it (Multicall3)', () => {
    const kit = createKitMachine(base)
    const context = createActor(kit).getSnapshot().context
    expect(context.config.networks.map((n) => n.caipNetworkId)).toEqual(['eip155:1', 'eip155:11155111'])
    const chains = kitHandleOf(kit)?.wagmi.chains ?? []
    expect(chains.map((c) => c.id)).toEqual([1, 11155111])
    expect(chains[0]?.contracts?.multicall3?.address).toBe('0xca11bde05977b3631167028862be2a173976ca11')
    expect(chains[0]?.contracts?.multicall3).toEqual(mainnet.contracts.multicall3)
    expect(chains[1]?.contracts?.ensUniversalResolver?.address).toBe(
      sepolia.contracts.ensUniversalResolver.address,
    )
  })
})

describe('networks: what is refused, path by path', () => {
  it('a viem-style chain whose id is not a chain id', () => {
    const message = 'must be a whole-number chain id above 0 (Solana: defineSolanaNetwork)'
    for (const id of ['1', 0, -1, 1.5, 2 ** 60, undefined])
      expect(configProblems({ ...base, networks: [{ ...mainnet, id }] })).toEqual([
        `networks.0.id: ${message}`,
      ])
  })

  it('a chain without a name, a native currency or RPC URLs', () => {
    expect(configProblems({ ...base, networks: [{ id: 1 }] })).toEqual([
      'networks.0.name: must be a non-empty string',
      'networks.0.nativeCurrency: must have a name, a symbol and whole-number decimals',
      'networks.0.rpcUrls.default.http: must be a list of URLs',
    ])
    expect(
      configProblems({ ...base, networks: [mainnet, { ...sepolia, rpcUrls: { default: { http: 'x' } } }] }),
    ).toEqual(['networks.1.rpcUrls.default.http: must be a list of URLs'])
  })

  it('an eip155 network whose CAIP-2 id names another chain than its id', () => {
    const network = { ...defineEvmNetwork(mainnet), caipNetworkId: 'eip155:10' as const }
    expect(configProblems({ ...base, networks: [network] })).toEqual([
      'networks.0.caipNetworkId: must be eip155:1 (its chain id)',
    ])
  })

  it('a defaultNetwork that is not a network', () => {
    expect(configProblems({ ...base, defaultNetwork: 'mainnet' })).toEqual([
      'defaultNetwork: must be a network object',
    ])
    expect(configProblems({ ...base, defaultNetwork: { ...mainnet, id: 'one' } })).toEqual([
      'defaultNetwork.id: must be a whole-number chain id above 0 (Solana: defineSolanaNetwork)',
    ])
  })

  it('each as a ConfigError from resolveConfig and createKitMachine, before anything is built', () => {
    const bad = { ...base, networks: [{ ...mainnet, id: '1' }] }
    const error = refusal(bad)
    expect(error.shortMessage).toBe('Invalid kit configuration')
    expect(error.details).toBe(
      'networks.0.id: must be a whole-number chain id above 0 (Solana: defineSolanaNetwork)',
    )
    expect(() => createKitMachine(bad as never)).toThrow(ConfigError)
  })
})
