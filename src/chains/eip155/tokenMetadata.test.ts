import { QueryClient } from '@tanstack/react-query'
import {
  type Address,
  custom,
  decodeFunctionData,
  encodeFunctionResult,
  erc20Abi,
  type Hex,
  toHex,
} from 'viem'
import { foundry } from 'viem/chains'
import { describe, expect, it } from 'vitest'
import { createConfig } from 'wagmi'
import { createTokenMetadataReader, tokenMetadataMismatch } from './tokenMetadata'

const USDC: Address = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
const OLD: Address = '0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0'

/**
 * A node that knows two contracts: a 6-decimal "USDC" and an old token whose `symbol()` reverts. It answers
 * `eth_call` only once both calls of a read are in (so a read that asks one after the other never ends) and
 * counts what it was asked.
 */
function fakeNode() {
  const calls: string[] = []
  let waiting: Array<() => void> = []
  const contracts: Record<string, { decimals: number; symbol?: string }> = {
    [USDC.toLowerCase()]: { decimals: 6, symbol: 'USDC' },
    [OLD.toLowerCase()]: { decimals: 18 },
  }
  const transport = custom(
    {
      async request({ method, params }: { method: string; params?: unknown }) {
        if (method === 'eth_chainId') return toHex(foundry.id)
        if (method !== 'eth_call') throw new Error(`unexpected ${method}`)
        const [{ to, data }] = params as [{ to: Address; data: Hex }]
        const { functionName } = decodeFunctionData({ abi: erc20Abi, data })
        calls.push(`${to.toLowerCase()}.${functionName}`)
        // Both calls of one read arrive together, or neither is answered.
        await new Promise<void>((resolve) => {
          waiting.push(resolve)
          if (waiting.length === 2) {
            for (const go of waiting) go()
            waiting = []
          }
        })
        const contract = contracts[to.toLowerCase()]
        if (!contract) throw new Error('execution reverted')
        if (functionName === 'decimals')
          return encodeFunctionResult({ abi: erc20Abi, functionName, result: contract.decimals })
        if (functionName === 'symbol' && contract.symbol !== undefined)
          return encodeFunctionResult({ abi: erc20Abi, functionName, result: contract.symbol })
        throw new Error('execution reverted')
      },
      // A revert is an answer, not a passing failure: asked once.
    },
    { retryCount: 0 },
  )
  const wagmi = createConfig({
    chains: [foundry],
    transports: { [foundry.id]: transport },
    storage: null,
    multiInjectedProviderDiscovery: false,
  })
  return { wagmi, calls }
}

describe('token metadata from the chain', () => {
  it('reads decimals() and symbol() together (no Multicall3 here: both calls in flight at once)', async () => {
    const { wagmi, calls } = fakeNode()
    const read = createTokenMetadataReader(wagmi, new QueryClient())
    await expect(read({ chainId: foundry.id, address: USDC })).resolves.toEqual({
      chainId: foundry.id,
      address: USDC,
      decimals: 6,
      symbol: 'USDC',
    })
    expect(calls.sort()).toEqual([`${USDC.toLowerCase()}.decimals`, `${USDC.toLowerCase()}.symbol`])
  })

  it('is read once per token, whatever the address case, however many ask (cached in the QueryClient)', async () => {
    const { wagmi, calls } = fakeNode()
    const queryClient = new QueryClient()
    const read = createTokenMetadataReader(wagmi, queryClient)
    const [a, b] = await Promise.all([
      read({ chainId: foundry.id, address: USDC }),
      read({ chainId: foundry.id, address: USDC.toLowerCase() as Address }),
    ])
    await read({ chainId: foundry.id, address: USDC })
    expect(a).toEqual(b)
    expect(calls).toHaveLength(2)
  })

  it('a token without a readable symbol() still has its decimals', async () => {
    const { wagmi } = fakeNode()
    const read = createTokenMetadataReader(wagmi, new QueryClient())
    await expect(read({ chainId: foundry.id, address: OLD })).resolves.toEqual({
      chainId: foundry.id,
      address: OLD,
      decimals: 18,
    })
  })

  it('says what differs from a listing; nothing when they agree', () => {
    const onChain = { decimals: 6, symbol: 'USDC' }
    expect(tokenMetadataMismatch({ decimals: 7, symbol: 'USDC' }, onChain)).toBe(
      'USDC: the chain says 6 decimals, not 7',
    )
    expect(tokenMetadataMismatch({ decimals: 6, symbol: 'USDT' }, onChain)).toBe(
      "The contract's symbol is USDC, not USDT",
    )
    expect(tokenMetadataMismatch({ decimals: 6, symbol: ' usdc ' }, onChain)).toBeUndefined()
    expect(tokenMetadataMismatch({ decimals: 18, symbol: 'MKR' }, { decimals: 18 })).toBeUndefined()
  })
})
