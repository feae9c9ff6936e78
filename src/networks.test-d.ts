import type { Chain } from 'viem'
import { mainnet, optimism, sepolia } from 'viem/chains'
import { describe, expectTypeOf, test } from 'vitest'
import {
  createKitMachine,
  defineEvmNetwork,
  defineSolanaNetwork,
  type EvmChain,
  type KitConfig,
  type KitNetwork,
  type KitNetworkInput,
  type ResolvedKitConfig,
} from './index'

// `networks` takes viem chains as they are (issue 35), checked by tsc (`npm run test:types`), never run.

const solana = defineSolanaNetwork({
  name: 'Solana Sandbox',
  genesisHash: 'Hq4dzz54z5Mz3UNbSXtqh2tF4zCBtKZx',
  rpcUrl: 'http://127.0.0.1:8899',
})

describe('networks', () => {
  test('takes viem chains as they are, as every wagmi user writes them', () => {
    expectTypeOf(createKitMachine).toBeCallableWith({ projectId: 'abc', networks: [mainnet, sepolia] })
    expectTypeOf(createKitMachine).toBeCallableWith({
      projectId: 'abc',
      networks: [mainnet, sepolia],
      defaultNetwork: sepolia,
    })
    expectTypeOf<{ projectId: string; networks: [typeof mainnet, typeof sepolia] }>().toExtend<KitConfig>()
    // Any viem chain, not only those of viem/chains.
    expectTypeOf<Chain>().toExtend<KitNetworkInput>()
    expectTypeOf<Chain>().toExtend<EvmChain>()
  })

  test('beside Solana networks (defineSolanaNetwork) and kit networks (defineEvmNetwork, for overrides)', () => {
    expectTypeOf(createKitMachine).toBeCallableWith({
      projectId: 'abc',
      networks: [mainnet, solana, defineEvmNetwork({ ...optimism, name: 'OP' })],
      defaultNetwork: solana,
    })
    expectTypeOf(defineEvmNetwork).toBeCallableWith(mainnet)
    expectTypeOf(defineEvmNetwork).parameter(0).toEqualTypeOf<EvmChain>()
    expectTypeOf<KitNetwork>().toExtend<KitNetworkInput>()
  })

  test('refuses what is not a network', () => {
    // A chain id alone, a list that may be empty.
    expectTypeOf<{ projectId: string; networks: [number] }>().not.toExtend<KitConfig>()
    expectTypeOf<{ projectId: string; networks: (typeof mainnet)[] }>().not.toExtend<KitConfig>()
    // A chain with a string id and no namespace (a Solana network comes from defineSolanaNetwork).
    expectTypeOf<Omit<typeof mainnet, 'id'> & { id: string }>().not.toExtend<KitNetworkInput>()
    // A chain without its RPC URLs, its native currency or its name.
    expectTypeOf<Omit<typeof mainnet, 'rpcUrls'>>().not.toExtend<KitNetworkInput>()
    expectTypeOf<Omit<typeof mainnet, 'nativeCurrency'>>().not.toExtend<KitNetworkInput>()
    expectTypeOf<Omit<typeof mainnet, 'name'>>().not.toExtend<KitNetworkInput>()
    // RPC URLs that are not strings.
    expectTypeOf<
      Omit<typeof mainnet, 'rpcUrls'> & { rpcUrls: { default: { http: number[] } } }
    >().not.toExtend<KitNetworkInput>()
    // @ts-expect-error a chain id is not a network
    createKitMachine({ projectId: 'abc', networks: [1] })
    // @ts-expect-error at least one network
    createKitMachine({ projectId: 'abc', networks: [] })
  })

  test('after resolveConfig every network is a KitNetwork, its CAIP-2 id derived', () => {
    expectTypeOf<ResolvedKitConfig['networks'][number]>().toEqualTypeOf<KitNetwork>()
    expectTypeOf<ResolvedKitConfig['defaultNetwork']>().toEqualTypeOf<KitNetwork>()
    expectTypeOf<KitNetwork['caipNetworkId']>().toEqualTypeOf<`${string}:${string}`>()
  })
})
