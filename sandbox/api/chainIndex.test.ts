import {
  type Address,
  createPublicClient,
  createWalletClient,
  custom,
  formatUnits,
  type Hex,
  http,
  parseEther,
  parseEventLogs,
  parseUnits,
  type TransactionReceipt,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Chain, type ChainAccount, NATIVE_ETH_ADDRESS, startChain } from '../chain/chain.ts'
import { type CallTrace, ChainIndex, INTERNAL_POSITION, internalTransfers } from './chainIndex.ts'
import type { SwapApproveTx, SwapBuiltTx } from './convert.ts'
import { type DataApi, type HistoryItem, type Page, startDataApi } from './data.ts'
import { openDatabase, type SandboxDb } from './db.ts'

/*
 * Internal native transfers (ETH a contract pays inside a transaction, read from anvil's `trace_transaction`):
 * the parsing of a trace on its own, then the index and the history endpoint against a real anvil, with swaps
 * built by the Data API's convert calls and sent from dev accounts.
 */

const SDK = { projectId: 'test-project', st: 'appkit', sv: 'html-wagmi-0.1.0' }
const CAIP2 = 'eip155:31337'
const ETH = `${CAIP2}:0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee`

const A = '0x00000000000000000000000000000000000000aa'
const B = '0x00000000000000000000000000000000000000bb'
const C = '0x00000000000000000000000000000000000000cc'
const call = (
  traceAddress: number[],
  from: string,
  to: string,
  value: bigint,
  extra: Partial<CallTrace> = {},
) =>
  ({
    type: 'call',
    action: { callType: 'call', from, to, value: `0x${value.toString(16)}` },
    traceAddress,
    ...extra,
  }) as CallTrace

describe('internalTransfers', () => {
  it('lists nested calls with value in trace order, never the top-level call', () => {
    expect(
      internalTransfers([
        call([], A, B, 5n),
        call([0], B, C, 0n),
        call([1], B, C, 7n),
        call([1, 0], C, '0x00000000000000000000000000000000000000AA', 3n),
      ]),
    ).toEqual([
      { from: B, to: C, value: 7n },
      { from: C, to: A, value: 3n },
    ])
  })

  it('leaves out reverted calls and everything under them, delegate and static calls', () => {
    expect(
      internalTransfers([
        call([], A, B, 0n),
        call([0], B, C, 4n, { error: 'Reverted' }),
        call([0, 0], C, A, 2n),
        call([1], B, C, 9n, { action: { callType: 'delegatecall', from: B, to: C, value: '0x9' } }),
        call([2], B, C, 9n, { action: { callType: 'staticcall', from: B, to: C, value: '0x9' } }),
        call([10], B, A, 1n),
      ]),
    ).toEqual([{ from: B, to: A, value: 1n }])
  })

  it('counts a create with value as paid to the new contract', () => {
    expect(
      internalTransfers([
        call([], A, B, 0n),
        { type: 'create', action: { from: B, value: '0x64' }, result: { address: C }, traceAddress: [0] },
        { type: 'create', action: { from: B, value: '0x1' }, result: null, traceAddress: [1], error: 'OOG' },
      ]),
    ).toEqual([{ from: B, to: C, value: 100n }])
  })
})

let chain: Chain
let db: SandboxDb
let api: DataApi
let reader: ReturnType<typeof createPublicClient>

const caip10 = (address: string) => `${CAIP2}:${address}`
const plain = (caip: string) => caip.split(':')[2] as Address

function url(path: string, query: Record<string, string> = {}): string {
  return `${api.origin}${path}?${new URLSearchParams({ ...SDK, ...query })}`
}

async function get<T>(path: string, query: Record<string, string> = {}): Promise<T> {
  const res = await fetch(url(path, query))
  const body = (await res.json()) as T
  expect(res.status, `${path} ${JSON.stringify(query)}: ${JSON.stringify(body)}`).toBe(200)
  return body
}

const walletOf = (account: ChainAccount) =>
  createWalletClient({
    account: privateKeyToAccount(account.privateKey),
    chain: chain.viemChain,
    transport: http(chain.rpcUrl),
  })

const mined = (hash: Hex): Promise<TransactionReceipt> =>
  reader.waitForTransactionReceipt({ hash, pollingInterval: 20 })

const gasCost = (receipt: TransactionReceipt) => receipt.gasUsed * receipt.effectiveGasPrice

/** Builds the router approve with the API and sends it from `account`. */
async function approve(account: ChainAccount, from: string, to: string): Promise<void> {
  const { tx } = await get<SwapApproveTx>('/v1/convert/build-approve', {
    userAddress: caip10(account.address),
    from,
    to,
  })
  const receipt = await mined(
    await walletOf(account).sendTransaction({ to: plain(tx.to), data: tx.data, value: BigInt(tx.value) }),
  )
  expect(receipt.status).toBe('success')
}

/** Builds a swap with the API, sends it from `account` and answers its receipt and what the router paid out. */
async function swap(account: ChainAccount, from: string, to: string, amount: bigint) {
  const res = await fetch(url('/v1/convert/build-transaction'), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      amount: amount.toString(),
      eip155: { slippage: '1' },
      projectId: SDK.projectId,
      from,
      to,
      userAddress: caip10(account.address),
      disableEstimate: false,
    }),
  })
  const built = (await res.json()) as SwapBuiltTx
  expect(res.status, JSON.stringify(built)).toBe(200)
  const receipt = await mined(
    await walletOf(account).sendTransaction({
      to: plain(built.tx.to),
      data: built.tx.data,
      value: BigInt(built.tx.amount),
      gas: BigInt(built.tx.eip155.gas),
    }),
  )
  expect(receipt.status).toBe('success')
  const [swapped] = parseEventLogs({ abi: chain.abis.router, eventName: 'Swapped', logs: receipt.logs })
  expect(swapped?.args.amountIn).toBe(amount)
  return { receipt, amountOut: swapped!.args.amountOut }
}

/** The history item of a transaction, from the first page of `account`'s history. */
async function historyItem(account: Address, hash: Hex): Promise<HistoryItem> {
  const page = await get<Page<HistoryItem>>(`/v1/account/${account}/history`)
  const item = page.data.find((entry) => entry.id === hash)
  expect(item, `${hash} in the history of ${account}`).toBeDefined()
  return item!
}

/** One fungible transfer of a history item, as compared here. */
const moved = (symbol: string, direction: 'in' | 'out', amount: bigint, decimals: number) =>
  expect.objectContaining({
    fungible_info: expect.objectContaining({ symbol }),
    direction,
    quantity: { numeric: formatUnits(amount, decimals) },
  })

beforeAll(async () => {
  ;[chain, db] = await Promise.all([startChain(), openDatabase()])
  reader = createPublicClient({ chain: chain.viemChain, transport: http(chain.rpcUrl) })
  api = await startDataApi({
    rpcUrl: chain.rpcUrl,
    chainId: chain.chainId,
    tokens: chain.tokens,
    db,
    swapRouter: chain.contracts.router,
  })
})
afterAll(async () => {
  await api?.close()
  await db?.close()
  await chain?.close()
})

describe('history with internal native transfers', () => {
  it('USDC → ETH through the router is a trade: USDC out, the ETH the router paid in', async () => {
    const account = chain.accounts[4]!
    const usdc = caip10(chain.contracts.usdc)
    const amount = parseUnits('1200', 6)
    await approve(account, usdc, ETH)
    const before = await reader.getBalance({ address: account.address })
    const { receipt, amountOut } = await swap(account, usdc, ETH, amount)
    // What the Swapped event says is what arrived: the balance change plus the gas paid.
    expect((await reader.getBalance({ address: account.address })) - before + gasCost(receipt)).toBe(
      amountOut,
    )
    expect(amountOut).toBeGreaterThan(0n)

    const item = await historyItem(account.address, receipt.transactionHash)
    expect(item.metadata).toMatchObject({
      operationType: 'trade',
      status: 'confirmed',
      sentTo: chain.contracts.router,
    })
    expect(item.transfers).toHaveLength(2)
    expect(item.transfers).toEqual(
      expect.arrayContaining([moved('USDC', 'out', amount, 6), moved('ETH', 'in', amountOut, 18)]),
    )
  })

  it('ETH → USDC is still a trade: the value out, USDC in (WETH deposit not the account’s)', async () => {
    const account = chain.accounts[5]!
    const usdc = caip10(chain.contracts.usdc)
    const amount = parseEther('0.25')
    const { receipt, amountOut } = await swap(account, ETH, usdc, amount)
    const item = await historyItem(account.address, receipt.transactionHash)
    expect(item.metadata.operationType).toBe('trade')
    expect(item.transfers).toHaveLength(2)
    expect(item.transfers).toEqual(
      expect.arrayContaining([moved('ETH', 'out', amount, 18), moved('USDC', 'in', amountOut, 6)]),
    )
  })

  it('a plain native send is unchanged: a send for the sender, a receive for the receiver', async () => {
    const sender = chain.accounts[6]!
    const receiver = chain.accounts[7]!.address
    const value = parseEther('0.3')
    const { transactionHash } = await mined(await walletOf(sender).sendTransaction({ to: receiver, value }))
    const sent = await historyItem(sender.address, transactionHash)
    expect(sent.metadata.operationType).toBe('send')
    expect(sent.transfers).toEqual([moved('ETH', 'out', value, 18)])
    const received = await historyItem(receiver, transactionHash)
    expect(received.metadata.operationType).toBe('receive')
    expect(received.transfers).toEqual([moved('ETH', 'in', value, 18)])
  })
})

describe('tracing', () => {
  /** A fresh index of the chain, on its own database, whose `trace_transaction` calls are seen (or fail). */
  async function tracedIndex(fail: boolean) {
    const own = await openDatabase()
    const traced: string[] = []
    const failures: string[] = []
    const rpc = createPublicClient({ transport: http(chain.rpcUrl) })
    const client = createPublicClient({
      chain: chain.viemChain,
      transport: custom(
        {
          request: async ({ method, params }: { method: string; params: unknown }) => {
            if (method === 'trace_transaction') {
              traced.push((params as [string])[0])
              if (fail) throw new Error('trace_transaction is not supported')
            }
            return rpc.request({ method, params } as never)
          },
        },
        { retryCount: 0 },
      ),
    })
    const index = new ChainIndex({
      db: own,
      client,
      chainId: CAIP2,
      tokens: chain.tokens,
      onTraceError: (hash) => failures.push(hash),
    })
    return { index, own, traced, failures }
  }

  /** Hashes of the successful transactions with a `to` and input data. */
  async function contractCalls(): Promise<string[]> {
    const latest = await reader.getBlockNumber({ cacheTime: 0 })
    const numbers = Array.from({ length: Number(latest) + 1 }, (_, n) => BigInt(n))
    const blocks = await Promise.all(
      numbers.map(async (blockNumber) => {
        const [block, receipts] = await Promise.all([
          reader.getBlock({ blockNumber, includeTransactions: true }),
          reader.getBlockReceipts({ blockNumber }),
        ])
        const ok = new Set(receipts.filter((r) => r.status === 'success').map((r) => r.transactionHash))
        return block.transactions
          .filter((tx) => tx.to && tx.input !== '0x' && ok.has(tx.hash))
          .map((tx) => tx.hash)
      }),
    )
    return blocks.flat()
  }

  it('traces only successful contract calls, and records their internal transfers below the other rows', async () => {
    const account = chain.accounts[8]!
    const usdc = caip10(chain.contracts.usdc)
    await approve(account, usdc, ETH)
    const { receipt, amountOut } = await swap(account, usdc, ETH, parseUnits('50', 6))
    // A plain send and a failed call are not traced.
    const plainSend = await mined(
      await walletOf(account).sendTransaction({ to: chain.accounts[9]!.address, value: 1n }),
    )
    const reverted = await mined(
      await walletOf(account).writeContract({
        address: chain.contracts.router,
        abi: chain.abis.router,
        functionName: 'swapExactIn',
        args: [chain.contracts.usdc, NATIVE_ETH_ADDRESS, 1n, 0n, account.address, 0n],
        gas: 200_000n,
      }),
    )
    expect(reverted.status).toBe('reverted')
    const { index, own, traced, failures } = await tracedIndex(false)
    try {
      await index.sync()
      expect(traced.sort()).toEqual((await contractCalls()).sort())
      expect(traced).toContain(receipt.transactionHash)
      expect(traced).not.toContain(plainSend.transactionHash)
      expect(traced).not.toContain(reverted.transactionHash)
      expect(failures).toEqual([])
      const { transfers } = await index.transactions(account.address, 5)
      const router = chain.contracts.router.toLowerCase()
      const weth = chain.contracts.weth.toLowerCase()
      expect(
        transfers
          .filter((t) => t.txHash === receipt.transactionHash && t.kind === 'native')
          .map(({ position, from, to, amount }) => ({ position, from, to, amount })),
      ).toEqual([
        { position: INTERNAL_POSITION, from: weth, to: router, amount: amountOut },
        {
          position: INTERNAL_POSITION + 1,
          from: router,
          to: account.address.toLowerCase(),
          amount: amountOut,
        },
      ])
    } finally {
      await own.close()
    }
  })

  it('a trace that cannot be read is told and the transaction indexed without internal transfers', async () => {
    const account = chain.accounts[8]!
    const usdc = caip10(chain.contracts.usdc)
    const amount = parseUnits('20', 6)
    const { receipt } = await swap(account, usdc, ETH, amount)
    const { index, own, traced, failures } = await tracedIndex(true)
    try {
      await index.sync()
      expect(traced.length).toBeGreaterThan(0)
      expect(failures.sort()).toEqual([...traced].sort())
      const { items, transfers } = await index.transactions(account.address, 5)
      expect(items[0]?.hash).toBe(receipt.transactionHash)
      const mine = transfers.filter((t) => t.txHash === receipt.transactionHash)
      expect(mine.some((t) => t.kind === 'native')).toBe(false)
      expect(mine.find((t) => t.from === account.address.toLowerCase())).toMatchObject({
        kind: 'erc20',
        amount,
      })
    } finally {
      await own.close()
    }
  })
})
