import { formatEther } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Chain, startChain } from '../../sandbox/chain/chain.ts'
import { type RpcLogEntry, rpcEndpoint, startRpcService } from '../../sandbox/chain/rpc.ts'
import type { SandboxService } from '../../sandbox/shared/http.ts'
import type { BalancesResult, TokenBalance } from '../../src/api/dataApi'
import { withChainAmounts } from '../../src/chains/eip155/chainBalances'
import { getWagmiConfig } from '../../src/chains/eip155/wagmi'
import { defineEvmNetwork, resolveConfig } from '../../src/config'
import { fund } from './funding.ts'

/**
 * The amounts Account shows are the chain's, not the Data API's word (the API says which tokens an account holds
 * and their price; the chain how much): the kit's wagmi config against anvil behind the sandbox RPC host, whose log
 * shows the reads going as one batched request (SPEC §9 multicall batch). The API's answer here is written by the
 * test, wrong on purpose.
 */

const projectId = 'chain-balances-test'
let chain: Chain
let rpc: SandboxService
const holder = privateKeyToAccount(generatePrivateKey())
/** 0.5 ETH and 1 wei. */
const ETH_SENT = 500_000_000_000_000_001n
/** 12.345678 USDC (6 decimals). */
const USDC_MINTED = 12_345_678n

beforeAll(async () => {
  chain = await startChain({ accountAbstraction: false })
  rpc = await startRpcService({ chain })
  await fund(chain, holder.address, { wei: ETH_SENT, usdc: USDC_MINTED })
})
afterAll(async () => {
  await rpc?.close()
  await chain?.close()
})

const caip2 = () => `eip155:${chain.chainId}`
const balance = (over: Partial<TokenBalance> & Pick<TokenBalance, 'symbol'>): TokenBalance => ({
  name: over.symbol,
  chainId: caip2(),
  value: 0,
  price: 2,
  quantity: { decimals: '18', numeric: '1000' },
  iconUrl: '',
  ...over,
})

async function kitCalls(): Promise<RpcLogEntry['calls']> {
  const { entries } = (await (await fetch(`${rpc.origin}/__log`)).json()) as { entries: RpcLogEntry[] }
  return entries.flatMap((entry) => entry.calls)
}

describe('withChainAmounts: the chain confirms every amount the Data API states', () => {
  it('amounts and decimals are the chain\'s, a "token" without a contract is dropped, another namespace is left as it came; the ERC-20 reads are one request', async () => {
    const wagmi = getWagmiConfig(
      resolveConfig({
        projectId,
        endpoints: { rpc: rpc.origin },
        networks: [
          defineEvmNetwork({
            id: chain.chainId,
            name: 'Walletstate Sandbox',
            nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
            rpcUrls: { default: { http: [rpcEndpoint(rpc.origin, projectId)] } },
          }),
        ],
      }),
    )
    const usdc = chain.tokens.find((t) => t.symbol === 'USDC')!
    // An address with no contract behind it (a fresh key's).
    const nothing = privateKeyToAccount(generatePrivateKey()).address
    const solana: TokenBalance = {
      ...balance({ symbol: 'SOL' }),
      chainId: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
    }
    const fromApi: BalancesResult = {
      supported: true,
      balances: [
        balance({ symbol: 'ETH' }),
        // Stated with 18 decimals and a thousand: the chain says 6 decimals and 12.345678.
        balance({ symbol: 'USDC', address: `${caip2()}:${usdc.address}` }),
        balance({ symbol: 'FAKE', address: `${caip2()}:${nothing}` }),
        solana,
      ],
    }
    const before = (await kitCalls()).length
    const checked = await withChainAmounts(wagmi, { address: holder.address, chainId: caip2() }, fromApi)

    expect(checked.supported).toBe(true)
    expect(checked.balances.map((b) => b.symbol)).toEqual(['ETH', 'USDC', 'SOL'])
    const [eth, usdcShown, solShown] = checked.balances
    expect(eth!.quantity).toEqual({ decimals: '18', numeric: formatEther(ETH_SENT) })
    expect(usdcShown!.quantity).toEqual({ decimals: '6', numeric: '12.345678' })
    // The value follows the chain's amount at the API's price.
    expect(usdcShown!.value).toBeCloseTo(2 * 12.345678, 9)
    expect(solShown).toEqual(solana)
    // Both contracts' balanceOf and decimals went as one eth_call (a multicall of 4 reads).
    const calls = (await kitCalls()).slice(before)
    expect(calls.filter((c) => c.method === 'eth_call')).toEqual([
      expect.objectContaining({ method: 'eth_call', reads: 4 }),
    ])
  })

  it("a chain that answers none of the reads fails the fetch (nothing of the API's word is shown instead)", async () => {
    const wagmi = getWagmiConfig(
      resolveConfig({
        projectId,
        // Nothing listens on port 9: every read fails.
        endpoints: { rpc: 'http://127.0.0.1:9' },
        networks: [
          defineEvmNetwork({
            id: chain.chainId,
            name: 'Walletstate Sandbox',
            nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
            rpcUrls: { default: { http: ['http://127.0.0.1:9/v1'] } },
          }),
        ],
      }),
    )
    const usdc = chain.tokens.find((t) => t.symbol === 'USDC')!
    await expect(
      withChainAmounts(
        wagmi,
        { address: holder.address, chainId: caip2() },
        { supported: true, balances: [balance({ symbol: 'USDC', address: `${caip2()}:${usdc.address}` })] },
      ),
    ).rejects.toThrow()
  })
})
