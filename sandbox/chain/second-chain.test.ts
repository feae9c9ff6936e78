import { createPublicClient, createWalletClient, erc20Abi, getAddress, http, parseUnits } from 'viem'
import { entryPoint07Address } from 'viem/account-abstraction'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type DataApi, startDataApi } from '../api/data.ts'
import type { SandboxService } from '../shared/http.ts'
import {
  type Chain,
  DEV_FUNDING,
  SANDBOX_CHAIN_2_ID,
  SANDBOX_CHAIN_2_NAME,
  SANDBOX_CHAIN_ID,
  startChain,
} from './chain.ts'
import { rpcEndpoint, startRpcService } from './rpc.ts'

/*
 * The sandbox's second EVM chain as startSandbox wires it: its own anvil (31338) loaded with the first chain's
 * setup, served beside the first by the RPC host and the Data API's balances.
 */

const PROJECT = 'second-chain-test'
const SQD = { projectId: PROJECT, st: 'appkit', sv: 'test' }

describe('the second sandbox chain', () => {
  let first: Chain
  let second: Chain
  let rpc: SandboxService
  let api: DataApi

  beforeAll(async () => {
    const firstP = startChain()
    const secondP = startChain({
      chainId: SANDBOX_CHAIN_2_ID,
      name: SANDBOX_CHAIN_2_NAME,
      accountAbstraction: false,
      copyOf: firstP,
    })
    // Each is kept as it starts, so afterAll stops it even when the other failed.
    await Promise.all([firstP.then((chain) => (first = chain)), secondP.then((chain) => (second = chain))])
    rpc = await startRpcService({ chain: first, moreChains: [second] })
    api = await startDataApi({
      rpcUrl: first.rpcUrl,
      chainId: first.chainId,
      tokens: first.tokens,
      moreChains: [{ chainId: second.chainId, rpcUrl: second.rpcUrl, tokens: second.tokens }],
    })
  }, 60_000)
  afterAll(async () => {
    await api?.close()
    await rpc?.close()
    await second?.close()
    await first?.close()
  })

  const reader = (chainId: number) =>
    createPublicClient({ transport: http(rpcEndpoint(rpc.origin, PROJECT, `eip155:${chainId}`)) })

  it('runs its own anvil with chain id 31338 and the same dev accounts', async () => {
    expect(second.chainId).toBe(31338)
    expect(second.port).not.toBe(first.port)
    expect(second.pid).not.toBe(first.pid)
    expect(second.viemChain.name).toBe('Second Sandbox')
    expect(second.accounts.map((a) => a.address)).toEqual(first.accounts.map((a) => a.address))
  })

  it('the RPC host answers both chain ids, each from its own chain, and refuses a third', async () => {
    expect(await reader(SANDBOX_CHAIN_ID).getChainId()).toBe(31337)
    expect(await reader(SANDBOX_CHAIN_2_ID).getChainId()).toBe(31338)
    const refused = await fetch(rpcEndpoint(rpc.origin, PROJECT, 'eip155:31339'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId' }),
    })
    expect(refused.status).toBe(400)
    expect(JSON.stringify(await refused.json())).toContain('eip155:31337, eip155:31338')
  })

  it('holds the same tokens, funded as on the first chain, but no ERC-4337 stack', async () => {
    const client = reader(SANDBOX_CHAIN_2_ID)
    for (const token of second.tokens) {
      expect(
        await client.readContract({ address: token.address, abi: erc20Abi, functionName: 'symbol' }),
      ).toBe(token.symbol)
    }
    const usdc = second.tokens.find((t) => t.symbol === 'USDC')!
    const holder = second.accounts[3]!.address
    expect(
      await client.readContract({
        address: usdc.address,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [holder],
      }),
    ).toBe(DEV_FUNDING.usdc)
    expect(await client.getCode({ address: entryPoint07Address })).toBeUndefined()
    expect(await reader(SANDBOX_CHAIN_ID).getCode({ address: entryPoint07Address })).toMatch(
      /^0x[0-9a-f]{10,}/,
    )
  })

  it("a transfer on the second chain moves its balances only, and the Data API answers each chain's own", async () => {
    const [from, to] = [second.accounts[4]!, second.accounts[5]!]
    const wallet = createWalletClient({
      account: privateKeyToAccount(from.privateKey),
      chain: second.viemChain,
      transport: http(second.rpcUrl),
    })
    const usdc = second.tokens.find((t) => t.symbol === 'USDC')!
    const hash = await wallet.writeContract({
      address: usdc.address,
      abi: erc20Abi,
      functionName: 'transfer',
      args: [to.address, parseUnits('7', 6)],
    })
    const receipt = await reader(SANDBOX_CHAIN_2_ID).waitForTransactionReceipt({ hash, pollingInterval: 20 })
    expect(receipt.status).toBe('success')

    const balanceOf = (chainId: number) =>
      reader(chainId).readContract({
        address: usdc.address,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [to.address],
      })
    expect(await balanceOf(SANDBOX_CHAIN_2_ID)).toBe(DEV_FUNDING.usdc + parseUnits('7', 6))
    expect(await balanceOf(SANDBOX_CHAIN_ID)).toBe(DEV_FUNDING.usdc)

    const balances = async (chainId: string) => {
      const query = new URLSearchParams({ ...SQD, currency: 'usd', chainId })
      const response = await fetch(`${api.origin}/v1/account/${to.address}/balance?${query}`)
      expect(response.status).toBe(200)
      const body = (await response.json()) as {
        balances: Array<{ symbol: string; chainId: string; address?: string; quantity: { numeric: string } }>
      }
      return body.balances
    }
    const onSecond = await balances('eip155:31338')
    const usdcSecond = onSecond.find((b) => b.symbol === 'USDC')
    expect(usdcSecond).toMatchObject({
      chainId: 'eip155:31338',
      address: `eip155:31338:${getAddress(usdc.address)}`,
      quantity: { numeric: '10007' },
    })
    expect(onSecond.find((b) => b.symbol === 'ETH')?.chainId).toBe('eip155:31338')
    expect((await balances('eip155:31337')).find((b) => b.symbol === 'USDC')?.quantity.numeric).toBe('10000')
    expect(await balances('eip155:1')).toEqual([])

    const chains = await fetch(`${api.origin}/v1/supported-chains?${new URLSearchParams(SQD)}`)
    expect(((await chains.json()) as { http: string[] }).http).toEqual(['eip155:31337', 'eip155:31338'])
  })
})
