import { parseEther } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getBalance, getBlockNumber } from 'wagmi/actions'
import { createActor, toPromise } from 'xstate'
import { type Chain, startChain } from '../../sandbox/chain/chain.ts'
import { rpcEndpoint, startRpcService } from '../../sandbox/chain/rpc.ts'
import type { SandboxService } from '../../sandbox/shared/http.ts'
import { SANDBOX_GENESIS_HASH } from '../../sandbox/solana/rpc.ts'
import { type Solana, startSolana } from '../../sandbox/solana/solana.ts'
import { defineEvmNetwork, defineSolanaNetwork, type KitConfig } from '../../src/config'
import { createKitMachine, kitHandleOf } from '../../src/kit/createKit'
import { sendLogic } from '../../src/kit/load/send'
import type { SolanaSendRequest } from '../../src/machines/send'
import { type CountingProxy, startCountingProxy } from './countingProxy.ts'

/**
 * Issue 18 item 6, `rpcMap` (SPEC §7 "or a custom rpcMap URL"): a network named in the host's rpcMap has its
 * chain calls sent to that URL, with the kit's retry rules; every other network keeps its default (eip155: the
 * provider's RPC host; Solana: the network's own URL). Pass-through proxies in front of the sandbox's RPC host
 * and Solana chain stand for each URL and count the JSON-RPC calls reaching them.
 */
const proxies: CountingProxy[] = []
const startProxy = async (target: string) => {
  const proxy = await startCountingProxy(target)
  proxies.push(proxy)
  return proxy
}

const projectId = 'rpcmap-test'
let chain: Chain
let rpc: SandboxService
let solana: Solana

beforeAll(async () => {
  chain = await startChain()
  rpc = await startRpcService({ chain })
  solana = await startSolana()
}, 120_000)

afterAll(async () => {
  await Promise.all(proxies.map((proxy) => proxy.close()))
  await solana?.close()
  await rpc?.close()
  await chain?.close()
})

const memoryStorage = () => {
  const items = new Map<string, string>()
  return {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
  }
}

/** A kit on the sandbox chain (its own URL unreachable) and the sandbox Solana chain (its own URL `solanaUrl`). */
function kitWith(providerHost: string, solanaUrl: string, rpcMap: KitConfig['rpcMap']) {
  const evm = defineEvmNetwork({
    id: chain.chainId,
    name: 'Walletstate Sandbox',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: ['http://127.0.0.1:9'] } },
  })
  const sol = defineSolanaNetwork({
    name: 'Solana Sandbox',
    genesisHash: SANDBOX_GENESIS_HASH,
    rpcUrl: solanaUrl,
  })
  const kit = createKitMachine({
    projectId,
    features: { email: false, socials: false, analytics: false },
    endpoints: { rpc: providerHost },
    networks: [evm, sol],
    storage: memoryStorage(),
    ...(rpcMap ? { rpcMap } : {}),
  })
  const handle = kitHandleOf(kit)!
  // The machine's context is bound at creation (no input needed).
  const context = createActor(kit).getSnapshot().context
  return { kit, handle, config: context.config, input: context.input, evm, sol }
}

/** The kit's send flow's Solana fee estimate (its `estimateSolanaFee` slot, as the kit loads it). */
async function estimateSolanaFee(kit: ReturnType<typeof kitWith>) {
  const logic = sendLogic(kit.config, kit.handle.queryClient, kit.handle.wagmi)
  const request: SolanaSendRequest = {
    chainId: kit.sol.caipNetworkId as `solana:${string}`,
    from: solana.accounts[0]!.publicKey,
    connectorId: 'unused',
    to: solana.accounts[1]!.publicKey,
    amount: 1_000_000n,
    decimals: 9,
  }
  const slot = logic.implementations.actors.estimateSolanaFee as Parameters<typeof createActor>[0]
  return (await toPromise(createActor(slot, { input: request } as never).start())) as { fee: string }
}

describe('rpcMap', () => {
  it('behavior: an eip155 network in rpcMap is read through its URL alone (with the retry rules); Solana keeps its own URL', async () => {
    const providerHost = await startProxy(rpc.origin)
    const mapped = await startProxy(rpc.origin)
    const solanaOwn = await startProxy(solana.rpcUrl)
    const kit = kitWith(providerHost.origin, solanaOwn.origin, {
      [`eip155:${chain.chainId}`]: rpcEndpoint(mapped.origin, projectId),
    })
    const { wagmi } = kit.handle

    const balance = await getBalance(wagmi, { address: chain.accounts[2]!.address, chainId: chain.chainId })
    expect(balance.value).toBeGreaterThan(parseEther('1'))
    expect(await getBlockNumber(wagmi, { chainId: chain.chainId, cacheTime: 0 })).toBeGreaterThan(0n)
    expect(mapped.seen.length).toBeGreaterThanOrEqual(2)
    expect(mapped.seen.every((path) => path.includes(`chainId=eip155%3A${chain.chainId}`))).toBe(true)
    expect(providerHost.seen).toEqual([])

    // The kit's retry rules hold on the custom URL: a 500 is tried again there, not elsewhere.
    const before = mapped.seen.length
    const fault = await fetch(`${rpc.origin}/__fault`, {
      method: 'POST',
      body: JSON.stringify({ mode: 'fail', times: 1 }),
    })
    expect(fault.status).toBe(200)
    expect(await getBlockNumber(wagmi, { chainId: chain.chainId, cacheTime: 0 })).toBeGreaterThan(0n)
    expect(mapped.seen.length - before).toBe(2)
    expect(providerHost.seen).toEqual([])

    // Solana is not in the map: the send flow's fee estimate asks the network's own URL.
    expect(BigInt((await estimateSolanaFee(kit)).fee)).toBeGreaterThan(0n)
    expect(solanaOwn.seen.length).toBeGreaterThan(0)

    // The WalletConnect session's rpcMap names the custom URL, too.
    expect(kit.input.remoteSessionsInput.rpcMap).toEqual({
      [`eip155:${chain.chainId}`]: rpcEndpoint(mapped.origin, projectId),
    })
  })

  it('behavior: a Solana network in rpcMap is read through its URL; eip155 still goes to the provider’s RPC host', async () => {
    const providerHost = await startProxy(rpc.origin)
    const solanaOwn = await startProxy(solana.rpcUrl)
    const solanaMapped = await startProxy(solana.rpcUrl)
    const kit = kitWith(providerHost.origin, solanaOwn.origin, {
      [`solana:${SANDBOX_GENESIS_HASH.slice(0, 32)}`]: `${solanaMapped.origin}/`,
    })

    expect(BigInt((await estimateSolanaFee(kit)).fee)).toBeGreaterThan(0n)
    expect(solanaMapped.seen.length).toBeGreaterThan(0)
    expect(solanaOwn.seen).toEqual([])

    expect(await getBlockNumber(kit.handle.wagmi, { chainId: chain.chainId, cacheTime: 0 })).toBeGreaterThan(
      0n,
    )
    expect(providerHost.seen.length).toBeGreaterThan(0)
    expect(providerHost.seen.every((path) => path.startsWith('/v1/'))).toBe(true)
    expect(kit.input.remoteSessionsInput.rpcMap).toEqual({
      [`eip155:${chain.chainId}`]: 'http://127.0.0.1:9',
    })
  })
})
