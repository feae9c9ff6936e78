import { readFileSync } from 'node:fs'
import {
  AbiDecodingZeroDataError,
  BaseError,
  createPublicClient,
  createWalletClient,
  erc20Abi,
  http,
  parseEventLogs,
  parseUnits,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { SandboxService } from '../shared/http.ts'
import { ARTIFACTS_FILE, renderArtifacts } from './build-contracts.ts'
import {
  type Chain,
  type ChainAccount,
  DEV_FUNDING,
  NATIVE_ETH_ADDRESS,
  NFT_MINTED,
  POOL_SEED,
  SANDBOX_CHAIN_ID,
  SWAP_POOL_SEED,
  startChain,
} from './chain.ts'
import { compileContracts } from './compile.ts'
import { rpcEndpoint, startRpcService } from './rpc.ts'

function clients(chain: Chain, account?: ChainAccount) {
  const transport = http(chain.rpcUrl)
  const reader = createPublicClient({ chain: chain.viemChain, transport, pollingInterval: 20 })
  const signer = account ?? chain.accounts[0]!
  const wallet = createWalletClient({
    account: privateKeyToAccount(signer.privateKey),
    chain: chain.viemChain,
    transport,
  })
  return { reader, wallet }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

function decodeDataUri(uri: string, prefix: string): string {
  expect(uri.startsWith(prefix)).toBe(true)
  return Buffer.from(uri.slice(prefix.length), 'base64').toString('utf8')
}

describe('startChain', () => {
  let chain: Chain
  beforeAll(async () => {
    chain = await startChain()
  })
  afterAll(async () => {
    await chain?.close()
  })

  it('serves chain 31337 on loopback with the dev accounts', async () => {
    const { reader } = clients(chain)
    expect(chain.rpcUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(chain.chainId).toBe(SANDBOX_CHAIN_ID)
    expect(await reader.getChainId()).toBe(31337)
    expect(chain.accounts.length).toBeGreaterThanOrEqual(5)
    expect(chain.accounts[0]!.address).toBe('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266')
    for (const account of chain.accounts) {
      expect(privateKeyToAccount(account.privateKey).address).toBe(account.address)
      expect(await reader.getBalance({ address: account.address })).toBeGreaterThan(parseUnits('9000', 18))
    }
  })

  it('funds every dev account with USDC, STK and USDT and describes the tokens truthfully', async () => {
    const { reader } = clients(chain)
    const expected = { USDC: DEV_FUNDING.usdc, STK: DEV_FUNDING.stk, USDT: DEV_FUNDING.usdt }
    expect(chain.tokens.map((token) => token.symbol)).toEqual(['USDC', 'STK', 'USDT'])
    for (const token of chain.tokens) {
      const [name, symbol, decimals] = await Promise.all(
        (['name', 'symbol', 'decimals'] as const).map((functionName) =>
          reader.readContract({ address: token.address, abi: erc20Abi, functionName }),
        ),
      )
      expect({ name, symbol, decimals }).toEqual({
        name: token.name,
        symbol: token.symbol,
        decimals: token.decimals,
      })
      for (const account of chain.accounts) {
        const balance = await reader.readContract({
          address: token.address,
          abi: erc20Abi,
          functionName: 'balanceOf',
          args: [account.address],
        })
        expect(balance).toBe(expected[token.symbol as keyof typeof expected])
      }
    }
    expect(chain.tokens.find((token) => token.symbol === 'USDC')).toMatchObject({ decimals: 6 })
    expect(chain.tokens.find((token) => token.symbol === 'STK')).toMatchObject({ decimals: 18 })
  })

  it('moves USDC with a standard ERC-20 transfer and logs the Transfer event', async () => {
    const [, from, to] = chain.accounts
    const { reader, wallet } = clients(chain, from)
    const amount = parseUnits('125.5', 6)
    const { request, result } = await reader.simulateContract({
      account: wallet.account,
      address: chain.contracts.usdc,
      abi: erc20Abi,
      functionName: 'transfer',
      args: [to!.address, amount],
    })
    expect(result).toBe(true)
    const receipt = await reader.waitForTransactionReceipt({ hash: await wallet.writeContract(request) })
    expect(receipt.status).toBe('success')
    const [event] = parseEventLogs({ abi: erc20Abi, logs: receipt.logs, eventName: 'Transfer' })
    expect(event?.args).toEqual({ from: from!.address, to: to!.address, value: amount })
    const balance = (address: `0x${string}`) =>
      reader.readContract({
        address: chain.contracts.usdc,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [address],
      })
    expect(await balance(from!.address)).toBe(DEV_FUNDING.usdc - amount)
    expect(await balance(to!.address)).toBe(DEV_FUNDING.usdc + amount)
  })

  it('moves USDT with the no-return transfer ABI, where the standard ABI cannot decode a result', async () => {
    const [, , , from, to] = chain.accounts
    const { reader, wallet } = clients(chain, from)
    const amount = parseUnits('42', 6)
    // The quirk: a standard ERC-20 ABI expects a bool back and USDT returns nothing.
    const standard = reader.simulateContract({
      account: wallet.account,
      address: chain.contracts.usdt,
      abi: erc20Abi,
      functionName: 'transfer',
      args: [to!.address, amount],
    })
    await expect(standard).rejects.toSatisfy(
      (error: unknown) =>
        error instanceof BaseError && error.walk((e) => e instanceof AbiDecodingZeroDataError) !== null,
    )

    const { request, result } = await reader.simulateContract({
      account: wallet.account,
      address: chain.contracts.usdt,
      abi: chain.abis.usdt,
      functionName: 'transfer',
      args: [to!.address, amount],
    })
    expect(result).toBeUndefined()
    const receipt = await reader.waitForTransactionReceipt({ hash: await wallet.writeContract(request) })
    expect(receipt.status).toBe('success')
    const balance = (address: `0x${string}`) =>
      reader.readContract({
        address: chain.contracts.usdt,
        abi: chain.abis.usdt,
        functionName: 'balanceOf',
        args: [address],
      })
    expect(await balance(from!.address)).toBe(DEV_FUNDING.usdt - amount)
    expect(await balance(to!.address)).toBe(DEV_FUNDING.usdt + amount)
  })

  it('holds Sandbox Punks owned by the first account with on-chain metadata', async () => {
    const { reader } = clients(chain)
    const nft = { address: chain.contracts.nft, abi: chain.abis.nft } as const
    const owner = chain.accounts[0]!.address
    expect(await reader.readContract({ ...nft, functionName: 'name' })).toBe('Sandbox Punks')
    expect(await reader.readContract({ ...nft, functionName: 'totalSupply' })).toBe(BigInt(NFT_MINTED))
    expect(await reader.readContract({ ...nft, functionName: 'balanceOf', args: [owner] })).toBe(
      BigInt(NFT_MINTED),
    )
    expect(
      await reader.readContract({ ...nft, functionName: 'supportsInterface', args: ['0x80ac58cd'] }),
    ).toBe(true)
    for (let id = 1n; id <= BigInt(NFT_MINTED); id++) {
      expect(await reader.readContract({ ...nft, functionName: 'ownerOf', args: [id] })).toBe(owner)
    }
    await expect(
      reader.readContract({ ...nft, functionName: 'ownerOf', args: [BigInt(NFT_MINTED) + 1n] }),
    ).rejects.toThrow(/token does not exist/)

    const uri = await reader.readContract({ ...nft, functionName: 'tokenURI', args: [2n] })
    const metadata = JSON.parse(decodeDataUri(uri, 'data:application/json;base64,')) as Record<
      string,
      unknown
    >
    expect(metadata.name).toBe('Sandbox Punk #2')
    expect(metadata.attributes).toHaveLength(3)
    const svg = decodeDataUri(String(metadata.image), 'data:image/svg+xml;base64,')
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg".*<\/svg>$/)
  })

  it('swaps USDC for STK in the pool along x*y=k with the 0.3% fee', async () => {
    const trader = chain.accounts[5]!
    const { reader, wallet } = clients(chain, trader)
    const pool = { address: chain.contracts.pool, abi: chain.abis.pool } as const
    expect(await reader.readContract({ ...pool, functionName: 'token0' })).toBe(chain.contracts.usdc)
    const [reserveIn, reserveOut] = await reader.readContract({ ...pool, functionName: 'getReserves' })
    expect([reserveIn, reserveOut]).toEqual([POOL_SEED.usdc, POOL_SEED.stk])

    const amountIn = parseUnits('1000', 6)
    const expectedOut = (amountIn * 997n * reserveOut) / (reserveIn * 1000n + amountIn * 997n)
    const quoted = await reader.readContract({
      ...pool,
      functionName: 'getAmountOut',
      args: [chain.contracts.usdc, amountIn],
    })
    expect(quoted).toBe(expectedOut)

    await reader.waitForTransactionReceipt({
      hash: await wallet.writeContract({
        address: chain.contracts.usdc,
        abi: chain.abis.erc20,
        functionName: 'approve',
        args: [chain.contracts.pool, amountIn],
      }),
    })
    // A minimum above the quote is the slippage guard: the swap reverts.
    await expect(
      reader.simulateContract({
        ...pool,
        account: wallet.account,
        functionName: 'swap',
        args: [chain.contracts.usdc, amountIn, expectedOut + 1n, trader.address],
      }),
    ).rejects.toThrow(/slippage/)
    const { request, result } = await reader.simulateContract({
      ...pool,
      account: wallet.account,
      functionName: 'swap',
      args: [chain.contracts.usdc, amountIn, expectedOut, trader.address],
    })
    expect(result).toBe(expectedOut)
    const receipt = await reader.waitForTransactionReceipt({ hash: await wallet.writeContract(request) })
    expect(receipt.status).toBe('success')

    const [after0, after1] = await reader.readContract({ ...pool, functionName: 'getReserves' })
    expect(after0).toBe(reserveIn + amountIn)
    expect(after1).toBe(reserveOut - expectedOut)
    expect(after0 * after1).toBeGreaterThan(reserveIn * reserveOut) // the fee stays in the pool
    // Without the fee the product would hold within rounding: out = in*rOut/(rIn+in) keeps k.
    const stk = await reader.readContract({
      address: chain.contracts.stk,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [trader.address],
    })
    expect(stk).toBe(DEV_FUNDING.stk + expectedOut)
  })

  it('routes swaps over the registered pools: ETH in and out through WETH, USDT pulled without a return value', async () => {
    const trader = chain.accounts[8]!
    const { reader, wallet } = clients(chain, trader)
    const router = { address: chain.contracts.router, abi: chain.abis.router } as const
    const { weth, usdc, usdt, stk, wethUsdcPool, usdtUsdcPool, pool } = chain.contracts
    expect(await reader.readContract({ ...router, functionName: 'weth' })).toBe(weth)
    expect(
      await reader.readContract({ ...router, functionName: 'poolOf', args: [NATIVE_ETH_ADDRESS, usdc] }),
    ).toBe(wethUsdcPool)
    expect(await reader.readContract({ ...router, functionName: 'poolOf', args: [usdc, usdt] })).toBe(
      usdtUsdcPool,
    )
    expect(await reader.readContract({ ...router, functionName: 'poolOf', args: [stk, usdc] })).toBe(pool)
    await expect(
      reader.readContract({ ...router, functionName: 'poolOf', args: [stk, usdt] }),
    ).rejects.toThrow(/no pool for the pair/)
    expect(
      await reader.readContract({ address: wethUsdcPool, abi: chain.abis.pool, functionName: 'getReserves' }),
    ).toEqual([SWAP_POOL_SEED.wethUsdc.weth, SWAP_POOL_SEED.wethUsdc.usdc])

    const deadline = BigInt(Math.floor(Date.now() / 1000) + 600)
    const ethIn = parseUnits('1', 18)
    const usdcOut = await reader.readContract({
      ...router,
      functionName: 'getAmountOut',
      args: [NATIVE_ETH_ADDRESS, usdc, ethIn],
    })
    const [r0, r1] = [SWAP_POOL_SEED.wethUsdc.weth, SWAP_POOL_SEED.wethUsdc.usdc]
    expect(usdcOut).toBe((ethIn * 997n * r1) / (r0 * 1000n + ethIn * 997n))
    const { request } = await reader.simulateContract({
      ...router,
      account: wallet.account,
      functionName: 'swapExactIn',
      args: [NATIVE_ETH_ADDRESS, usdc, ethIn, usdcOut, trader.address, deadline],
      value: ethIn,
    })
    expect(
      (await reader.waitForTransactionReceipt({ hash: await wallet.writeContract(request) })).status,
    ).toBe('success')
    const usdcOf = () =>
      reader.readContract({ address: usdc, abi: erc20Abi, functionName: 'balanceOf', args: [trader.address] })
    expect(await usdcOf()).toBe(DEV_FUNDING.usdc + usdcOut)

    // USDT's approve and transferFrom return nothing; the router's low-level calls accept that.
    const usdtIn = parseUnits('100', 6)
    await reader.waitForTransactionReceipt({
      hash: await wallet.writeContract({
        address: usdt,
        abi: chain.abis.usdt,
        functionName: 'approve',
        args: [chain.contracts.router, usdtIn],
      }),
    })
    const out = await reader.readContract({
      ...router,
      functionName: 'getAmountOut',
      args: [usdt, usdc, usdtIn],
    })
    const swap = await wallet.writeContract({
      ...router,
      functionName: 'swapExactIn',
      args: [usdt, usdc, usdtIn, out, trader.address, deadline],
    })
    expect((await reader.waitForTransactionReceipt({ hash: swap })).status).toBe('success')
    expect(await usdcOf()).toBe(DEV_FUNDING.usdc + usdcOut + out)

    // Out to ETH: the router unwraps and pays the trader; a passed deadline reverts.
    await expect(
      reader.simulateContract({
        ...router,
        account: wallet.account,
        functionName: 'swapExactIn',
        args: [usdc, NATIVE_ETH_ADDRESS, usdcOut, 0n, trader.address, 1n],
      }),
    ).rejects.toThrow(/deadline passed/)
  })

  describe('RPC host stand-in', () => {
    let rpc: SandboxService
    let url: string
    beforeAll(async () => {
      rpc = await startRpcService({ chain })
      url = rpcEndpoint(rpc.origin, 'sandbox-project')
    })
    afterAll(async () => {
      await rpc?.close()
    })
    afterEach(async () => {
      await post(`${rpc.origin}/__fault`, { mode: 'off' })
    })

    const post = (target: string, body: unknown, init: RequestInit = {}) =>
      fetch(target, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        ...init,
      })
    const chainIdCall = { jsonrpc: '2.0', id: 1, method: 'eth_chainId' }

    it('forwards single calls and batches to anvil', async () => {
      expect(url).toBe(`${rpc.origin}/v1/?chainId=eip155%3A31337&projectId=sandbox-project`)
      const single = await post(url, chainIdCall)
      expect(single.status).toBe(200)
      expect(await single.json()).toEqual({ jsonrpc: '2.0', id: 1, result: '0x7a69' })

      const batch = await post(url, [
        { jsonrpc: '2.0', id: 'a', method: 'eth_chainId' },
        { jsonrpc: '2.0', id: 'b', method: 'eth_getBalance', params: [chain.accounts[9]!.address, 'latest'] },
        { jsonrpc: '2.0', id: 'c', method: 'anvil_mine', params: [] },
      ])
      const answers = (await batch.json()) as Array<Record<string, unknown>>
      expect(answers.map((answer) => answer.id)).toEqual(['a', 'b', 'c'])
      expect(answers[0]?.result).toBe('0x7a69')
      expect(BigInt(String(answers[1]?.result))).toBe(parseUnits('10000', 18))
      expect(answers[2]?.error).toMatchObject({ code: -32601 })

      // viem's own http transport against the endpoint, as the kit uses it.
      const reader = createPublicClient({ transport: http(url) })
      const balance = await reader.readContract({
        address: chain.contracts.stk,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [chain.accounts[9]!.address],
      })
      expect(balance).toBe(DEV_FUNDING.stk)
    })

    it('holds no keys: signing and node controls are refused, eth_accounts is empty', async () => {
      const send = await post(url, {
        jsonrpc: '2.0',
        id: 7,
        method: 'eth_sendTransaction',
        params: [{ from: chain.accounts[0]!.address, to: chain.accounts[1]!.address, value: '0x1' }],
      })
      expect(await send.json()).toMatchObject({
        id: 7,
        error: { code: -32601, message: expect.stringMatching(/eth_sendTransaction/) },
      })
      const accounts = await post(url, { jsonrpc: '2.0', id: 8, method: 'eth_accounts' })
      expect(await accounts.json()).toEqual({ jsonrpc: '2.0', id: 8, result: [] })
    })

    it('refuses a missing projectId, an unknown chainId and a body that is not JSON-RPC', async () => {
      const noProject = await post(`${rpc.origin}/v1/?chainId=eip155:31337`, chainIdCall)
      expect(noProject.status).toBe(400)
      expect(await noProject.json()).toMatchObject({
        jsonrpc: '2.0',
        id: null,
        error: { message: 'Missing projectId query parameter' },
      })

      const otherChain = await post(rpcEndpoint(rpc.origin, 'p1', 'eip155:1'), chainIdCall)
      expect(otherChain.status).toBe(400)
      expect(((await otherChain.json()) as { error: { message: string } }).error.message).toMatch(
        /Unsupported chainId eip155:1/,
      )

      const notJson = await fetch(url, { method: 'POST', body: '{"jsonrpc":' })
      expect(notJson.status).toBe(400)
      expect(await notJson.json()).toMatchObject({ error: { code: -32700 } })

      const notRpc = await post(url, { id: 1, method: 'eth_chainId' })
      expect(notRpc.status).toBe(400)
      expect(await notRpc.json()).toMatchObject({ error: { code: -32600 } })

      expect((await fetch(url)).status).toBe(405)
    })

    it('accepts only its own project id when given one', async () => {
      const strict = await startRpcService({ chain, projectId: 'only-me' })
      try {
        expect((await post(rpcEndpoint(strict.origin, 'only-me'), chainIdCall)).status).toBe(200)
        const other = await post(rpcEndpoint(strict.origin, 'someone-else'), chainIdCall)
        expect(other.status).toBe(401)
        expect(await other.json()).toMatchObject({
          error: { message: expect.stringMatching(/Invalid projectId/) },
        })
      } finally {
        await strict.close()
      }
    })

    it('fault "fail" answers 500 for the given number of calls', async () => {
      expect((await post(`${rpc.origin}/__fault`, { mode: 'fail', times: 1 })).status).toBe(200)
      const failed = await post(url, chainIdCall)
      expect(failed.status).toBe(500)
      expect((await post(url, chainIdCall)).status).toBe(200)
    })

    it('fault "429" answers Retry-After, counting down its times', async () => {
      await post(`${rpc.origin}/__fault`, { mode: '429', times: 2, retryAfterSeconds: 1 })
      for (let call = 0; call < 2; call++) {
        const limited = await post(url, chainIdCall)
        expect(limited.status).toBe(429)
        expect(limited.headers.get('retry-after')).toBe('1')
      }
      expect(rpc.fault.applied).toBe(2)
      const recovered = await post(url, chainIdCall)
      expect(recovered.status).toBe(200)
      expect(await recovered.json()).toMatchObject({ result: '0x7a69' })
    })

    it('fault "drop" closes the socket without an answer', async () => {
      await post(`${rpc.origin}/__fault`, { mode: 'drop', times: 1 })
      await expect(post(url, chainIdCall)).rejects.toThrow(/fetch failed/)
      expect((await post(url, chainIdCall)).status).toBe(200)
    })

    it('fault "stall" never answers, so the client times out', async () => {
      await post(`${rpc.origin}/__fault`, { mode: 'stall' })
      const started = Date.now()
      await expect(post(url, chainIdCall, { signal: AbortSignal.timeout(300) })).rejects.toMatchObject({
        name: 'TimeoutError',
      })
      expect(Date.now() - started).toBeGreaterThanOrEqual(290)
      await post(`${rpc.origin}/__fault`, { mode: 'off' })
      expect((await post(url, chainIdCall)).status).toBe(200)
    })
  })
})

describe('several chains', () => {
  it('runs two chains at once on different ports, each with its own state', async () => {
    const [a, b] = await Promise.all([startChain(), startChain()])
    try {
      expect(a.port).not.toBe(b.port)
      expect(a.contracts).toEqual(b.contracts) // same deployer and nonces: stable addresses
      const sender = a.accounts[1]!
      const receiver = a.accounts[2]!.address
      const { reader: readerA, wallet: walletA } = clients(a, sender)
      const hash = await walletA.writeContract({
        address: a.contracts.stk,
        abi: a.abis.erc20,
        functionName: 'transfer',
        args: [receiver, 1n],
      })
      expect((await readerA.waitForTransactionReceipt({ hash })).status).toBe('success')
      const balanceOn = (chain: Chain) =>
        clients(chain).reader.readContract({
          address: chain.contracts.stk,
          abi: erc20Abi,
          functionName: 'balanceOf',
          args: [receiver],
        })
      expect(await balanceOn(a)).toBe(DEV_FUNDING.stk + 1n)
      expect(await balanceOn(b)).toBe(DEV_FUNDING.stk)
    } finally {
      await Promise.all([a.close(), b.close()])
    }
    expect(isRunning(a.pid)).toBe(false)
    expect(isRunning(b.pid)).toBe(false)
  })

  it('reports a taken port instead of hanging', async () => {
    const first = await startChain()
    try {
      await expect(startChain({ port: first.port })).rejects.toThrow(/anvil exited before listening/)
    } finally {
      await first.close()
    }
  })

  it('close() stops anvil: the pid is gone and the port no longer answers', async () => {
    const chain = await startChain()
    expect(isRunning(chain.pid)).toBe(true)
    await chain.close()
    expect(isRunning(chain.pid)).toBe(false)
    await expect(fetch(chain.rpcUrl, { method: 'POST', body: '{}' })).rejects.toThrow()
    await chain.close() // a second close is harmless
  })

  it('mines a block every blockTime seconds when asked to', async () => {
    const chain = await startChain({ blockTime: 1 })
    try {
      const { reader } = clients(chain)
      // Automine never mines an empty block, so a growing height with no transactions is interval mining.
      const before = await reader.getBlockNumber()
      await new Promise((resolve) => setTimeout(resolve, 2_300))
      expect(await reader.getBlockNumber()).toBeGreaterThanOrEqual(before + 2n)
    } finally {
      await chain.close()
    }
  })
})

describe('contract build', () => {
  it('artifacts.gen.ts is exactly what solc makes of the sources', async () => {
    const result = await compileContracts()
    expect(readFileSync(ARTIFACTS_FILE, 'utf8')).toBe(renderArtifacts(result))
  }, 60_000)
})
