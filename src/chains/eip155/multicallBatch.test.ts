import {
  createClient,
  custom,
  decodeDeployData,
  decodeFunctionData,
  deploylessCallViaBytecodeBytecode,
  encodeFunctionResult,
  erc20Abi,
  type Hex,
  multicall3Abi,
  parseAbi,
} from 'viem'
import { readContract } from 'viem/actions'
import { foundry, mainnet } from 'viem/chains'
import { describe, expect, it } from 'vitest'
import { resolveConfig } from '../../config'
import { MULTICALL_BATCH_SIZE_BYTES } from '../../constants'
import { getWagmiConfig, multicallBatch } from './wagmi'

const TOKEN = '0x00000000000000000000000000000000000000aa'
const DEPLOYLESS = parseAbi(['constructor(bytes, bytes)'])

/** A chain node that answers `eth_call`s of ERC-20 reads, plain or as a Multicall3 `aggregate3` (either form). */
function node() {
  const calls: { to: string | undefined; reads: number }[] = []
  const answer = (data: Hex): Hex => {
    const { functionName } = decodeFunctionData({ abi: erc20Abi, data })
    return functionName === 'decimals'
      ? encodeFunctionResult({ abi: erc20Abi, functionName: 'decimals', result: 6 })
      : encodeFunctionResult({ abi: erc20Abi, functionName: 'symbol', result: 'USDC' })
  }
  const aggregate = (data: Hex): Hex => {
    const { args } = decodeFunctionData({ abi: multicall3Abi, data })
    const inner = args[0] as readonly { callData: Hex }[]
    calls.push({ to: undefined, reads: inner.length })
    return encodeFunctionResult({
      abi: multicall3Abi,
      functionName: 'aggregate3',
      result: inner.map((c) => ({ success: true, returnData: answer(c.callData) })),
    })
  }
  const transport = custom({
    async request({ method, params }) {
      if (method !== 'eth_call') throw new Error(`unexpected ${method}`)
      const { to, data } = (params as [{ to?: string; data: Hex }])[0]
      if (!to) {
        const { args } = decodeDeployData({
          abi: DEPLOYLESS,
          bytecode: deploylessCallViaBytecodeBytecode,
          data,
        })
        return aggregate(args[1] as Hex)
      }
      if (to.toLowerCase() === mainnet.contracts.multicall3.address.toLowerCase()) {
        const result = aggregate(data)
        calls.at(-1)!.to = to
        return result
      }
      calls.push({ to, reads: 1 })
      return answer(data)
    },
  })
  return { calls, transport }
}

const readBoth = (client: Parameters<typeof readContract>[0]) =>
  Promise.all([
    readContract(client, { address: TOKEN, abi: erc20Abi, functionName: 'decimals' }),
    readContract(client, { address: TOKEN, abi: erc20Abi, functionName: 'symbol' }),
  ])

describe('SPEC §9 multicall batch size 1024 bytes', () => {
  it('batches reads asked at once in multicalls of at most 1024 bytes', () => {
    expect(MULTICALL_BATCH_SIZE_BYTES).toBe(1024)
    expect(multicallBatch(mainnet)).toEqual({ multicall: { batchSize: 1024, deployless: false } })
    // The kit's own wagmi config: each chain's client batches so.
    const wagmi = getWagmiConfig(resolveConfig({ projectId: 'p1', networks: [mainnet, foundry] }))
    expect(wagmi.getClient({ chainId: mainnet.id }).batch).toEqual(multicallBatch(mainnet))
    expect(wagmi.getClient({ chainId: foundry.id }).batch).toEqual({
      multicall: { batchSize: 1024, deployless: true },
    })
  })

  it('two reads asked at once are one eth_call to the chain Multicall3', async () => {
    const { calls, transport } = node()
    const client = createClient({ chain: mainnet, transport, batch: multicallBatch(mainnet) })
    expect(await readBoth(client)).toEqual([6, 'USDC'])
    expect(calls).toEqual([{ to: mainnet.contracts.multicall3.address, reads: 2 }])
  })

  it('on a chain without Multicall3 (a local chain), the multicall is deployless: still one eth_call', async () => {
    const { calls, transport } = node()
    const client = createClient({ chain: foundry, transport, batch: multicallBatch(foundry) })
    expect(await readBoth(client)).toEqual([6, 'USDC'])
    expect(calls).toEqual([{ to: undefined, reads: 2 }])
  })

  it('without the batch, each read is its own eth_call (what the kit did before)', async () => {
    const { calls, transport } = node()
    const client = createClient({ chain: foundry, transport })
    await readBoth(client)
    expect(calls).toEqual([
      { to: TOKEN, reads: 1 },
      { to: TOKEN, reads: 1 },
    ])
  })
})
