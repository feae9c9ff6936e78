import {
  type Address,
  createPublicClient,
  createWalletClient,
  decodeFunctionData,
  erc20Abi,
  getAddress,
  type Hex,
  http,
  maxUint256,
  parseUnits,
  type TransactionReceipt,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Chain, type ChainAccount, NATIVE_ETH_ADDRESS, startChain } from '../chain/chain.ts'
import { sandboxSwapRouterAbi } from '../chain/contracts/build/artifacts.gen.ts'
import {
  HOSTILE_ADDRESS,
  HOSTILE_APPROVE_VALUE,
  HOSTILE_SWAP_EXTRA_VALUE,
  type SwapAllowance,
  type SwapApproveTx,
  type SwapBuiltTx,
  type SwapGasPrice,
  type SwapQuote,
  type SwapToken,
} from './convert.ts'
import { type DataApi, startDataApi } from './data.ts'
import { openDatabase, type SandboxDb } from './db.ts'

/*
 * The convert (swap) calls of the Data API (issue 16) against a real anvil: quotes read from the pools, approvals
 * and swaps built by the API, signed and sent with viem from dev accounts, balances checked on the chain.
 */

const SDK = { projectId: 'test-project', st: 'appkit', sv: 'html-wagmi-0.1.0' }
const CAIP2 = 'eip155:31337'
const ETH = `${CAIP2}:0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee`

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

/** The status and error text of a call expected to be refused. */
async function refused(res: Promise<Response>): Promise<[number, string]> {
  const answer = await res
  return [answer.status, ((await answer.json()) as { error: string }).error]
}

function post(path: string, body: unknown): Promise<Response> {
  return fetch(url(path), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })
}

const walletOf = (account: ChainAccount) =>
  createWalletClient({
    account: privateKeyToAccount(account.privateKey),
    chain: chain.viemChain,
    transport: http(chain.rpcUrl),
  })

async function mined(hash: Hex): Promise<TransactionReceipt> {
  return reader.waitForTransactionReceipt({ hash, pollingInterval: 20 })
}

const tokenBalance = (token: Address, holder: Address) =>
  reader.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [holder] })

const quote = async (from: string, to: string, amount: bigint, user: Address) =>
  (
    await get<{ quotes: SwapQuote[] }>('/v1/convert/quotes', {
      amount: amount.toString(),
      userAddress: caip10(user),
      from,
      to,
      gasPrice: '1000000000',
    })
  ).quotes

/** Builds the approve with the API and sends it from `account`. */
async function approve(account: ChainAccount, from: string, to: string): Promise<TransactionReceipt> {
  const { tx } = await get<SwapApproveTx>('/v1/convert/build-approve', {
    userAddress: caip10(account.address),
    from,
    to,
  })
  const receipt = await mined(
    await walletOf(account).sendTransaction({
      to: plain(tx.to),
      data: tx.data,
      value: BigInt(tx.value),
      gas: BigInt(tx.eip155.gas),
    }),
  )
  expect(receipt.status).toBe('success')
  return receipt
}

async function build(account: ChainAccount, from: string, to: string, amount: bigint, slippage = '1') {
  const res = await post('/v1/convert/build-transaction', {
    amount: amount.toString(),
    eip155: { slippage },
    projectId: SDK.projectId,
    from,
    to,
    userAddress: caip10(account.address),
    disableEstimate: false,
  })
  const body = (await res.json()) as SwapBuiltTx
  expect(res.status, JSON.stringify(body)).toBe(200)
  return body
}

/** Sends a built swap as the kit would: to, data, value and the gas the API gave. */
async function send(account: ChainAccount, built: SwapBuiltTx): Promise<TransactionReceipt> {
  return mined(
    await walletOf(account).sendTransaction({
      to: plain(built.tx.to),
      data: built.tx.data,
      value: BigInt(built.tx.amount),
      gas: BigInt(built.tx.eip155.gas),
    }),
  )
}

const gasCost = (receipt: TransactionReceipt) => receipt.gasUsed * receipt.effectiveGasPrice

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

describe('GET /v1/convert/tokens', () => {
  it('lists native ETH and the tokens with a pool, as CAIP-10 addresses', async () => {
    const { tokens } = await get<{ tokens: SwapToken[] }>('/v1/convert/tokens', { chainId: CAIP2 })
    expect(tokens).toEqual([
      {
        name: 'Ether',
        symbol: 'ETH',
        address: ETH,
        decimals: 18,
        logoUri: `${api.origin}/icons/ETH.svg`,
        eip2612: false,
      },
      ...chain.tokens.map((t) => ({
        name: t.name,
        symbol: t.symbol,
        address: caip10(t.address),
        decimals: t.decimals,
        logoUri: `${api.origin}/icons/${t.symbol}.svg`,
        eip2612: false,
      })),
    ])
    expect((await fetch(tokens[0]!.logoUri)).status).toBe(200)
    // Without chainId: the sandbox chain's.
    expect(await get<{ tokens: SwapToken[] }>('/v1/convert/tokens')).toEqual({ tokens })
  })

  it('answers no tokens for another network, 400 for a malformed chain id', async () => {
    expect(await get('/v1/convert/tokens', { chainId: 'eip155:1' })).toEqual({ tokens: [] })
    expect(await get('/v1/convert/tokens', { chainId: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp' })).toEqual({
      tokens: [],
    })
    expect(await refused(fetch(url('/v1/convert/tokens', { chainId: '31337' })))).toEqual([
      400,
      'Invalid query parameter chainId: must be a CAIP-2 chain id like eip155:31337',
    ])
  })
})

describe('GET /v1/convert/quotes', () => {
  it("answers the pool's getAmountOut, the 0.3% fee and the price impact, both ways on every pair", async () => {
    const user = chain.accounts[9]!.address
    const { usdc, stk, usdt, weth, wethUsdcPool, usdtUsdcPool, pool } = chain.contracts
    const cases: Array<[string, string, bigint, Address, Address]> = [
      [ETH, caip10(usdc), parseUnits('1', 18), wethUsdcPool, weth],
      [caip10(usdc), ETH, parseUnits('3000', 6), wethUsdcPool, usdc],
      [caip10(usdt), caip10(usdc), parseUnits('250', 6), usdtUsdcPool, usdt],
      [caip10(usdc), caip10(usdt), parseUnits('250', 6), usdtUsdcPool, usdc],
      [caip10(stk), caip10(usdc), parseUnits('10', 18), pool, stk],
      [caip10(usdc), caip10(stk), parseUnits('10', 6), pool, usdc],
    ]
    for (const [from, to, amount, poolAddress, poolTokenIn] of cases) {
      const quotes = await quote(from, to, amount, user)
      const onChain = await reader.readContract({
        address: poolAddress,
        abi: chain.abis.pool,
        functionName: 'getAmountOut',
        args: [poolTokenIn, amount],
      })
      const token0 = await reader.readContract({
        address: poolAddress,
        abi: chain.abis.pool,
        functionName: 'token0',
      })
      const [r0, r1] = await reader.readContract({
        address: poolAddress,
        abi: chain.abis.pool,
        functionName: 'getReserves',
      })
      const [rIn, rOut] = token0 === poolTokenIn ? [r0, r1] : [r1, r0]
      const ideal = (((amount * 997n) / 1000n) * rOut) / rIn
      expect(quotes).toEqual([
        {
          id: null,
          fromAmount: amount.toString(),
          fromAccount: from,
          toAmount: onChain.toString(),
          toAccount: to,
          priceImpact: expect.closeTo((Number(ideal - onChain) / Number(ideal)) * 100, 5),
          fee: ((amount * 3n) / 1000n).toString(),
          feePercent: 0.3,
          pool: caip10(poolAddress),
        },
      ])
      expect(quotes[0]!.priceImpact).toBeGreaterThan(0)
      expect(quotes[0]!.priceImpact).toBeLessThan(2)
    }
    // Prices as seeded: 1 ETH is about 3,000 USDC, 1 USDT about 1 USDC.
    const [ethQuote] = await quote(ETH, caip10(usdc), parseUnits('0.01', 18), user)
    expect(Number(ethQuote!.toAmount) / 1e6).toBeCloseTo(30 * 0.997, 1)
    const [usdtQuote] = await quote(caip10(usdt), caip10(usdc), parseUnits('1', 6), user)
    expect(Number(usdtQuote!.toAmount) / 1e6).toBeCloseTo(0.997, 2)
  })

  it('takes bare 0x addresses as the sandbox chain', async () => {
    const user = chain.accounts[9]!.address
    const [a] = await quote(chain.contracts.usdt, chain.contracts.usdc, 1_000_000n, user)
    const [b] = await quote(caip10(chain.contracts.usdt), caip10(chain.contracts.usdc), 1_000_000n, user)
    expect(a).toEqual(b)
  })

  it('answers no quotes for another network', async () => {
    const user = caip10(chain.accounts[9]!.address)
    for (const [from, to] of [
      [
        'eip155:1:0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
        'eip155:1:0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee',
      ],
      [ETH, 'eip155:10:0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85'],
    ] as const) {
      expect(await get('/v1/convert/quotes', { amount: '1000', userAddress: user, from, to })).toEqual({
        quotes: [],
      })
    }
  })

  it('refuses bad parameters with 400 and a clear message', async () => {
    const user = caip10(chain.accounts[9]!.address)
    const usdc = caip10(chain.contracts.usdc)
    const good = { amount: '1000000', userAddress: user, from: usdc, to: ETH }
    const cases: Array<[Record<string, string>, string]> = [
      [{ ...good, amount: '' }, 'Invalid query parameter amount: must be a whole number of base units'],
      [{ ...good, amount: '1.5' }, 'Invalid query parameter amount: must be a whole number of base units'],
      [{ ...good, amount: '0' }, 'Invalid query parameter amount: must be more than 0'],
      [{ ...good, amount: '1'.repeat(78) }, 'Invalid query parameter amount: is too large'],
      [
        { ...good, from: 'usdc' },
        'Invalid query parameter from: must be a CAIP-10 address like eip155:31337:0x... or a 0x address',
      ],
      [{ ...good, to: `${CAIP2}:0x1234` }, `Invalid to: ${CAIP2}:0x1234 is not an address`],
      [{ ...good, gasPrice: 'fast' }, 'Invalid query parameter gasPrice: must be a whole number of wei'],
      [{ ...good, to: usdc }, 'Invalid pair: from and to are the same token'],
      [
        { ...good, from: caip10(chain.contracts.stk), to: caip10(chain.contracts.usdt) },
        'No pool for STK → USDT: swap through USDC',
      ],
      [
        { ...good, to: caip10(chain.contracts.nft) },
        `Invalid to: ${caip10(chain.contracts.nft)} is not a swappable token (ETH, USDC, STK, USDT)`,
      ],
    ]
    for (const [query, message] of cases) {
      expect(await refused(fetch(url('/v1/convert/quotes', query))), JSON.stringify(query)).toEqual([
        400,
        message,
      ])
    }
    const { amount: _, ...withoutAmount } = good
    expect(await refused(fetch(url('/v1/convert/quotes', withoutAmount)))).toEqual([
      400,
      'Invalid query parameter amount: is required',
    ])
  })
})

describe('GET /v1/convert/allowance and /gas-price', () => {
  it("answers the router's allowance; native ETH needs none; another network answers '0'", async () => {
    const user = chain.accounts[9]!
    const allowance = (tokenAddress: string) =>
      get<SwapAllowance>('/v1/convert/allowance', { tokenAddress, userAddress: caip10(user.address) })
    expect(await allowance(caip10(chain.contracts.usdc))).toEqual({ allowance: '0' })
    expect(await allowance(ETH)).toEqual({ allowance: maxUint256.toString() })
    expect(await allowance('eip155:1:0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48')).toEqual({ allowance: '0' })
    await mined(
      await walletOf(user).writeContract({
        address: chain.contracts.usdc,
        abi: erc20Abi,
        functionName: 'approve',
        args: [chain.contracts.router, 1234n],
      }),
    )
    expect(await allowance(caip10(chain.contracts.usdc))).toEqual({ allowance: '1234' })
    expect(
      await refused(fetch(url('/v1/convert/allowance', { tokenAddress: caip10(chain.contracts.usdc) }))),
    ).toEqual([400, 'Invalid query parameter userAddress: is required'])
  })

  it('answers the chain gas price; another network is refused in the SPEC words', async () => {
    const price = await reader.getGasPrice()
    const answer = await get<SwapGasPrice>('/v1/convert/gas-price', { chainId: CAIP2 })
    expect(BigInt(answer.standard)).toBeLessThanOrEqual(price * 2n)
    expect(BigInt(answer.standard)).toBeGreaterThan(0n)
    expect(BigInt(answer.fast)).toBe((BigInt(answer.standard) * 5n) / 4n)
    expect(BigInt(answer.instant)).toBe((BigInt(answer.standard) * 3n) / 2n)
    expect(await refused(fetch(url('/v1/convert/gas-price', { chainId: 'eip155:1' })))).toEqual([
      400,
      'Network not supported for Gas Price',
    ])
    expect(await refused(fetch(url('/v1/convert/gas-price')))).toEqual([
      400,
      'Invalid query parameter chainId: is required',
    ])
  })
})

describe('build-approve and build-transaction, sent with viem', () => {
  it('USDC → ETH: approves the router, then swaps for the quoted ETH', async () => {
    const account = chain.accounts[2]!
    const usdc = caip10(chain.contracts.usdc)
    const amount = parseUnits('1500', 6)
    const approval = await approve(account, usdc, ETH)
    const { allowance } = await get<SwapAllowance>('/v1/convert/allowance', {
      tokenAddress: usdc,
      userAddress: account.address,
    })
    expect(allowance).toBe(maxUint256.toString())
    expect(approval.to).toBe(chain.contracts.usdc.toLowerCase())

    const [quoted] = await quote(usdc, ETH, amount, account.address)
    const built = await build(account, usdc, ETH, amount, '1')
    expect(built.tx).toMatchObject({
      from: caip10(account.address),
      to: caip10(chain.contracts.router),
      amount: '0',
    })
    expect(built.quote).toMatchObject({
      fromAmount: amount.toString(),
      toAmount: quoted!.toAmount,
      minAmountOut: ((BigInt(quoted!.toAmount) * 99n) / 100n).toString(),
      slippage: 1,
    })
    const [ethBefore, usdcBefore] = await Promise.all([
      reader.getBalance({ address: account.address }),
      tokenBalance(chain.contracts.usdc, account.address),
    ])
    const receipt = await send(account, built)
    expect(receipt.status).toBe('success')
    const [ethAfter, usdcAfter] = await Promise.all([
      reader.getBalance({ address: account.address }),
      tokenBalance(chain.contracts.usdc, account.address),
    ])
    expect(usdcBefore - usdcAfter).toBe(amount)
    const received = ethAfter - ethBefore + gasCost(receipt)
    expect(received).toBe(BigInt(quoted!.toAmount))
    expect(received).toBeGreaterThanOrEqual(BigInt(built.quote.minAmountOut))
  })

  it('ETH → USDC: no approve; the value is the amount', async () => {
    const account = chain.accounts[3]!
    const usdc = caip10(chain.contracts.usdc)
    const amount = parseUnits('0.5', 18)
    expect(
      await refused(
        fetch(url('/v1/convert/build-approve', { userAddress: account.address, from: ETH, to: usdc })),
      ),
    ).toEqual([400, 'Invalid from: native ETH is sent with the swap and needs no approval'])
    const [quoted] = await quote(ETH, usdc, amount, account.address)
    const built = await build(account, ETH, usdc, amount, '0.5')
    expect(built.tx.amount).toBe(amount.toString())
    const [ethBefore, usdcBefore] = await Promise.all([
      reader.getBalance({ address: account.address }),
      tokenBalance(chain.contracts.usdc, account.address),
    ])
    const receipt = await send(account, built)
    expect(receipt.status).toBe('success')
    const [ethAfter, usdcAfter] = await Promise.all([
      reader.getBalance({ address: account.address }),
      tokenBalance(chain.contracts.usdc, account.address),
    ])
    expect(ethBefore - ethAfter).toBe(amount + gasCost(receipt))
    expect(usdcAfter - usdcBefore).toBe(BigInt(quoted!.toAmount))
    expect(usdcAfter - usdcBefore).toBeGreaterThanOrEqual(BigInt(built.quote.minAmountOut))
  })

  it('USDT → USDC: the USDT-style approve (no return value) and transferFrom work', async () => {
    const account = chain.accounts[4]!
    const usdt = caip10(chain.contracts.usdt)
    const usdc = caip10(chain.contracts.usdc)
    const amount = parseUnits('750', 6)
    // Unapproved, the estimate fails and the API says why.
    const unapproved = await post('/v1/convert/build-transaction', {
      amount: amount.toString(),
      eip155: { slippage: '1' },
      from: usdt,
      to: usdc,
      userAddress: caip10(account.address),
    })
    expect(unapproved.status).toBe(400)
    expect(((await unapproved.json()) as { error: string }).error).toMatch(
      /^Swap would revert: .*transferFrom failed/,
    )

    await approve(account, usdt, usdc)
    const [quoted] = await quote(usdt, usdc, amount, account.address)
    const built = await build(account, usdt, usdc, amount)
    const before = await Promise.all([
      tokenBalance(chain.contracts.usdt, account.address),
      tokenBalance(chain.contracts.usdc, account.address),
    ])
    expect((await send(account, built)).status).toBe('success')
    const after = await Promise.all([
      tokenBalance(chain.contracts.usdt, account.address),
      tokenBalance(chain.contracts.usdc, account.address),
    ])
    expect(before[0] - after[0]).toBe(amount)
    expect(after[1] - before[1]).toBe(BigInt(quoted!.toAmount))
  })

  it('a swap whose price moved past the slippage reverts on the chain', async () => {
    const account = chain.accounts[5]!
    const whale = chain.accounts[6]!
    const usdc = caip10(chain.contracts.usdc)
    const amount = parseUnits('1', 18)
    const built = await build(account, ETH, usdc, amount, '0.5')
    // Someone else sells 10 ETH first: the pool pays less USDC per ETH than 0.5% below the quote.
    const front = await build(whale, ETH, usdc, parseUnits('10', 18), '1')
    expect((await send(whale, front)).status).toBe('success')
    const usdcBefore = await tokenBalance(chain.contracts.usdc, account.address)
    await expect(
      reader.call({ account: account.address, to: plain(built.tx.to), data: built.tx.data, value: amount }),
    ).rejects.toThrow(/output below minimum \(slippage\)/)
    const receipt = await send(account, built)
    expect(receipt.status).toBe('reverted')
    expect(await tokenBalance(chain.contracts.usdc, account.address)).toBe(usdcBefore)
  })

  it('with disableEstimate answers a fixed gas limit and still builds', async () => {
    const account = chain.accounts[7]!
    const res = await post('/v1/convert/build-transaction', {
      amount: '1000',
      eip155: { slippage: 2 },
      from: caip10(chain.contracts.usdc),
      to: ETH,
      userAddress: account.address,
      disableEstimate: true,
    })
    expect(res.status).toBe(200)
    const built = (await res.json()) as SwapBuiltTx
    expect(built.tx.eip155.gas).toBe('300000')
    expect(built.quote.slippage).toBe(2)
  })

  it('refuses bad bodies and parameters with 400, other networks in the SPEC words', async () => {
    const user = caip10(chain.accounts[7]!.address)
    const usdc = caip10(chain.contracts.usdc)
    const good = { amount: '1000000', eip155: { slippage: '1' }, from: usdc, to: ETH, userAddress: user }
    const cases: Array<[unknown, string | RegExp]> = [
      ['not json', 'build-transaction body must be JSON'],
      [{ ...good, amount: 5 }, /^Invalid build-transaction body: .*amount must be a string of base units/],
      [{ ...good, amount: '-5' }, /^Invalid build-transaction body: .*must be a whole number of base units/],
      [{ ...good, eip155: { slippage: '80' } }, /eip155\.slippage must be between 0 and 50 \(percent\)/],
      [{ ...good, eip155: { slippage: 'lots' } }, /eip155\.slippage must be a number of percent/],
      [{ ...good, disableEstimate: 'yes' }, /disableEstimate must be a boolean/],
      [{ ...good, from: ETH }, 'Invalid pair: from and to are the same token'],
      [
        { ...good, to: 'eip155:1:0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee' },
        'Network not supported for Swaps',
      ],
      [
        { ...good, userAddress: `eip155:10:${chain.accounts[7]!.address}` },
        'Network not supported for Swaps',
      ],
    ]
    for (const [body, message] of cases) {
      const [status, error] = await refused(post('/v1/convert/build-transaction', body))
      expect(status, JSON.stringify(body)).toBe(400)
      if (typeof message === 'string') expect(error).toBe(message)
      else expect(error).toMatch(message)
    }
    expect(
      await refused(
        fetch(
          url('/v1/convert/build-approve', {
            userAddress: user,
            from: 'eip155:1:0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
            to: usdc,
          }),
        ),
      ),
    ).toEqual([400, 'Network not supported for Swaps'])
    expect(
      await refused(fetch(url('/v1/convert/build-approve', { userAddress: user, from: usdc, to: 'nope' }))),
    ).toEqual([
      400,
      'Invalid query parameter to: must be a CAIP-10 address like eip155:31337:0x... or a 0x address',
    ])
  })
})

describe("the fault switch's hostile mode (a well-formed but hostile build)", () => {
  // Built without a gas estimate: the account has approved nothing (the kit builds so before an approval).
  const unestimated = async (account: ChainAccount, from: string, to: string, amount: bigint) => {
    const res = await post('/v1/convert/build-transaction', {
      amount: amount.toString(),
      eip155: { slippage: '1' },
      from,
      to,
      userAddress: caip10(account.address),
      disableEstimate: true,
    })
    const body = (await res.json()) as SwapBuiltTx
    expect(res.status, JSON.stringify(body)).toBe(200)
    return body
  }
  const fault = async (body: unknown) => {
    const res = await fetch(`${api.origin}/__fault`, { method: 'POST', body: JSON.stringify(body) })
    expect(res.status, JSON.stringify(await res.json())).toBe(200)
  }

  it('build-approve: approve(2^256-1) to another spender, with 3 ETH of value, on the token asked', async () => {
    const account = chain.accounts[3]!
    await fault({ mode: 'hostile' })
    try {
      const answer = await get<SwapApproveTx>('/v1/convert/build-approve', {
        userAddress: caip10(account.address),
        from: caip10(chain.contracts.usdc),
        to: ETH,
        amount: '1000000',
      })
      expect(answer.tx.to).toBe(caip10(chain.contracts.usdc))
      expect(answer.tx.value).toBe(HOSTILE_APPROVE_VALUE.toString())
      const decoded = decodeFunctionData({ abi: erc20Abi, data: answer.tx.data })
      expect(decoded.functionName).toBe('approve')
      expect(decoded.args).toEqual([HOSTILE_ADDRESS, maxUint256])
      expect(answer.spender).toBe(HOSTILE_ADDRESS)
    } finally {
      await fault({ mode: 'off' })
    }
  })

  it('build-transaction: sent to another contract, 7 ETH more value, a least amount out of 0', async () => {
    const account = chain.accounts[3]!
    const amount = parseUnits('10', 6)
    await fault({ mode: 'hostile' })
    let body: SwapBuiltTx
    try {
      body = await unestimated(account, caip10(chain.contracts.usdc), ETH, amount)
    } finally {
      await fault({ mode: 'off' })
    }
    expect(body.tx.to).toBe(caip10(HOSTILE_ADDRESS))
    expect(body.tx.amount).toBe(HOSTILE_SWAP_EXTRA_VALUE.toString())
    const decoded = decodeFunctionData({ abi: sandboxSwapRouterAbi, data: body.tx.data })
    expect(decoded.functionName).toBe('swapExactIn')
    const [tokenIn, , amountIn, minAmountOut, to] = decoded.args as unknown as readonly [
      Address,
      Address,
      bigint,
      bigint,
      Address,
    ]
    expect([tokenIn, amountIn, minAmountOut, to]).toEqual([chain.contracts.usdc, amount, 0n, account.address])
    expect(body.quote.minAmountOut).toBe('0')
    // Off again: the honest build.
    const honest = await unestimated(account, caip10(chain.contracts.usdc), ETH, amount)
    expect(honest.tx.to).toBe(caip10(chain.contracts.router))
    expect(honest.tx.amount).toBe('0')
    expect(BigInt(honest.quote.minAmountOut)).toBeGreaterThan(0n)
  })

  it('leaves every other call honest, and counts `times` on the builds it changes only', async () => {
    const account = chain.accounts[3]!
    await fault({ mode: 'hostile', times: 1, path: '/v1/convert/build-' })
    try {
      const [quoted] = await quote(caip10(chain.contracts.usdc), ETH, 1_000_000n, account.address)
      expect(BigInt(quoted!.toAmount)).toBeGreaterThan(0n)
      await get<SwapAllowance>('/v1/convert/allowance', {
        tokenAddress: caip10(chain.contracts.usdc),
        userAddress: account.address,
      })
      const first = await unestimated(account, caip10(chain.contracts.usdc), ETH, 1_000_000n)
      expect(first.tx.to).toBe(caip10(HOSTILE_ADDRESS))
      const second = await unestimated(account, caip10(chain.contracts.usdc), ETH, 1_000_000n)
      expect(second.tx.to).toBe(caip10(chain.contracts.router))
    } finally {
      await fault({ mode: 'off' })
    }
  })

  it('is refused for a page (the fault switch is Node only) and checked like every mode', async () => {
    const res = await fetch(`${api.origin}/__fault`, {
      method: 'POST',
      body: JSON.stringify({ mode: 'evil' }),
    })
    expect(res.status).toBe(400)
  })
})

describe('a Data API without a swap router', () => {
  it('answers every network as unsupported', async () => {
    const bare = await startDataApi({
      rpcUrl: chain.rpcUrl,
      chainId: chain.chainId,
      tokens: chain.tokens,
      db,
    })
    try {
      const at = (path: string, query: Record<string, string>) =>
        `${bare.origin}${path}?${new URLSearchParams({ ...SDK, ...query })}`
      const user = caip10(chain.accounts[1]!.address)
      expect(await (await fetch(at('/v1/convert/tokens', { chainId: CAIP2 }))).json()).toEqual({ tokens: [] })
      expect(
        await (
          await fetch(
            at('/v1/convert/quotes', {
              amount: '1',
              userAddress: user,
              from: ETH,
              to: caip10(chain.contracts.usdc),
            }),
          )
        ).json(),
      ).toEqual({ quotes: [] })
      expect(
        await (
          await fetch(
            at('/v1/convert/allowance', { tokenAddress: caip10(chain.contracts.usdc), userAddress: user }),
          )
        ).json(),
      ).toEqual({ allowance: '0' })
      expect(await refused(fetch(at('/v1/convert/gas-price', { chainId: CAIP2 })))).toEqual([
        400,
        'Network not supported for Gas Price',
      ])
    } finally {
      await bare.close()
    }
  })
})

// The sentinel the chain uses and the one the API answers name the same address.
it('names native ETH the same on the chain and in the API', () => {
  expect(getAddress(plain(ETH))).toBe(NATIVE_ETH_ADDRESS)
})
