import {
  type Address,
  createPublicClient,
  createWalletClient,
  custom,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  http,
  parseEther,
  type TransactionReceipt,
} from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Chain, NATIVE_ETH_ADDRESS, startChain } from '../../sandbox/chain/chain.ts'
import { simulateBalanceChanges } from '../../src/chains/eip155/simulate'
import { NATIVE_TOKEN_ADDRESS } from '../../src/constants'

/**
 * simulateBalanceChanges against the sandbox's anvil (eth_simulateV1): the changes it finds before signing equal
 * the changes read on chain after the same calls are mined (ERC-20 to the base unit, ETH to the wei once the
 * receipts' gas is added back: native deltas exclude gas, by rule).
 */
let chain: Chain
let reader: ReturnType<typeof createPublicClient>

beforeAll(async () => {
  chain = await startChain()
  reader = createPublicClient({ chain: chain.viemChain, transport: http(chain.rpcUrl), pollingInterval: 50 })
})

afterAll(async () => {
  await chain?.close()
})

const account = (index: number): Address => chain.accounts[index]!.address
const usdc = () => chain.tokens.find((t) => t.symbol === 'USDC')!
const tokensShown = () => [{ address: usdc().address, symbol: 'USDC', decimals: 6 }]
const balanceOf = (token: Address, owner: Address) =>
  reader.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [owner] })

/** Sends the calls from the (unlocked) dev account in order, each mined before the next; the receipts. */
async function sendAll(from: Address, calls: { to: Address; data?: Hex; value?: bigint }[]) {
  const wallet = createWalletClient({ account: from, chain: chain.viemChain, transport: http(chain.rpcUrl) })
  const receipts: TransactionReceipt[] = []
  for (const call of calls) {
    const hash = await wallet.sendTransaction({ ...call, account: from, chain: chain.viemChain })
    receipts.push(await reader.waitForTransactionReceipt({ hash }))
  }
  return receipts
}
const gasOf = (receipts: TransactionReceipt[]) =>
  receipts.reduce((sum, r) => sum + r.gasUsed * r.effectiveGasPrice, 0n)

describe('simulateBalanceChanges on the sandbox chain', () => {
  it('send 5 USDC: −5 USDC, equal to the change on chain after it is mined', async () => {
    const from = account(2)
    const calls = [
      {
        to: usdc().address,
        data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [account(3), 5_000_000n] }),
      },
    ]
    const result = await simulateBalanceChanges(reader, { account: from, calls, tokens: tokensShown() })
    expect(result).toEqual({
      status: 'simulated',
      changes: [{ token: usdc().address, symbol: 'USDC', decimals: 6, delta: -5_000_000n }],
    })
    const before = await balanceOf(usdc().address, from)
    await sendAll(from, calls)
    expect((await balanceOf(usdc().address, from)) - before).toBe(-5_000_000n)
  })

  it('approve then swap 100 USDC → ETH in one block: −100 USDC, +ETH to the wei (gas apart)', async () => {
    const from = account(4)
    const amount = 100_000_000n
    const router = chain.contracts.router
    const deadline = BigInt(Math.floor(Date.now() / 1000) + 600)
    const calls = [
      {
        to: usdc().address,
        data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [router, amount] }),
      },
      {
        to: router,
        data: encodeFunctionData({
          abi: chain.abis.router,
          functionName: 'swapExactIn',
          args: [usdc().address, NATIVE_ETH_ADDRESS, amount, 1n, from, deadline],
        }),
      },
    ]
    // The approval is not mined: without the block's sequence the swap would revert.
    const result = await simulateBalanceChanges(reader, {
      account: from,
      calls,
      tokens: [...tokensShown(), { address: NATIVE_TOKEN_ADDRESS, symbol: 'ETH', decimals: 18 }],
    })
    if (result.status !== 'simulated') throw new Error(`not simulated: ${JSON.stringify(result)}`)
    const eth = result.changes.find((c) => c.token === NATIVE_TOKEN_ADDRESS)
    expect(result.changes.map((c) => [c.symbol, c.delta > 0n])).toEqual([
      ['ETH', true],
      ['USDC', false],
    ])
    expect(result.changes.find((c) => c.symbol === 'USDC')?.delta).toBe(-amount)

    const [ethBefore, usdcBefore] = [
      await reader.getBalance({ address: from }),
      await balanceOf(usdc().address, from),
    ]
    const receipts = await sendAll(from, calls)
    const [ethAfter, usdcAfter] = [
      await reader.getBalance({ address: from }),
      await balanceOf(usdc().address, from),
    ]
    expect(usdcAfter - usdcBefore).toBe(-amount)
    expect(ethAfter - ethBefore + gasOf(receipts)).toBe(eth?.delta)
  })

  it('writes a known token in the decimals its contract states, not the caller’s (a Data API saying 7)', async () => {
    const result = await simulateBalanceChanges(reader, {
      account: account(5),
      calls: [
        {
          to: usdc().address,
          data: encodeFunctionData({
            abi: erc20Abi,
            functionName: 'transfer',
            args: [account(6), 50_000_000n],
          }),
        },
      ],
      tokens: [{ address: usdc().address, symbol: 'USDC', decimals: 7 }],
    })
    expect(result).toEqual({
      status: 'simulated',
      changes: [{ token: usdc().address, symbol: 'USDC', decimals: 6, delta: -50_000_000n }],
    })
  })

  it('sending ETH: −1 ETH, the chain’s own symbol when the caller names no native token', async () => {
    const result = await simulateBalanceChanges(reader, {
      account: account(5),
      calls: [{ to: account(6), value: parseEther('1') }],
      tokens: [],
    })
    expect(result).toEqual({
      status: 'simulated',
      changes: [{ token: NATIVE_TOKEN_ADDRESS, symbol: 'ETH', decimals: 18, delta: -parseEther('1') }],
    })
  })

  it('a token the caller did not name still shows, named from the chain (other tokens moving)', async () => {
    const stk = chain.tokens.find((t) => t.symbol === 'STK')!
    const result = await simulateBalanceChanges(reader, {
      account: account(5),
      calls: [
        {
          to: usdc().address,
          data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [account(6), 1n] }),
        },
        {
          to: stk.address,
          data: encodeFunctionData({
            abi: erc20Abi,
            functionName: 'transfer',
            args: [account(6), 10n ** 18n],
          }),
        },
      ],
      tokens: tokensShown(),
    })
    expect(result).toEqual({
      status: 'simulated',
      changes: [
        { token: usdc().address, symbol: 'USDC', decimals: 6, delta: -1n },
        { token: stk.address, symbol: 'STK', decimals: 18, delta: -(10n ** 18n) },
      ],
    })
  })

  it('a call that would revert is reported as reverted, with its index', async () => {
    const result = await simulateBalanceChanges(reader, {
      account: account(5),
      calls: [
        {
          to: usdc().address,
          data: encodeFunctionData({
            abi: erc20Abi,
            functionName: 'transfer',
            args: [account(6), 10n ** 30n],
          }),
        },
      ],
      tokens: tokensShown(),
    })
    expect(result).toMatchObject({ status: 'reverted', callIndex: 0 })
  })

  it('a node without eth_simulateV1 gives unavailable (no line), not a guess', async () => {
    // The same anvil behind a transport that answers eth_simulateV1 as a node lacking it does (-32601).
    const upstream = http(chain.rpcUrl)({ chain: chain.viemChain })
    const old = createPublicClient({
      chain: chain.viemChain,
      transport: custom({
        async request({ method, params }) {
          if (method === 'eth_simulateV1') {
            throw Object.assign(new Error('the method eth_simulateV1 does not exist/is not available'), {
              code: -32601,
            })
          }
          return upstream.request({ method, params } as never)
        },
      }),
    })
    const result = await simulateBalanceChanges(old, {
      account: account(5),
      calls: [{ to: account(6), value: 1n }],
      tokens: tokensShown(),
    })
    expect(result.status).toBe('unavailable')
  })
})
