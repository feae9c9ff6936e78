import { Keypair, VersionedTransaction } from '@solana/web3.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { solanaMakerKeypair } from '../../sandbox/api/convertSolana.ts'
import { SANDBOX_SOLANA_CHAIN_ID, startDataApi } from '../../sandbox/api/data.ts'
import { type Solana, startSolana } from '../../sandbox/solana/solana.ts'
import { createSolanaSwapSlots } from '../../src/actors/solanaSwap'
import { NATIVE_TOKEN_ADDRESS } from '../../src/constants'
import { SolanaSwapMismatchError, SwapQuoteExpiredError } from '../../src/errors/swap'
import { minimumOut, type SwapToken } from '../../src/machines/swap'

/*
 * The swap's Solana slots (src/actors/solanaSwap.ts) against the sandbox's Data API and its maker: the tokens and
 * quote as the kit reads them, the maker's build checked by the kit's check (passing, and refusing each hostile
 * build), and a quote past its window refused as SwapQuoteExpiredError.
 */

const maker = solanaMakerKeypair()
let solana: Solana
let api: Awaited<ReturnType<typeof startDataApi>>
let slots: ReturnType<typeof createSolanaSwapSlots>
const signal = new AbortController().signal
const chainId = SANDBOX_SOLANA_CHAIN_ID as `solana:${string}`

beforeAll(async () => {
  solana = await startSolana({ fund: [maker.publicKey.toBase58()] })
  api = await startDataApi({
    rpcUrl: 'http://127.0.0.1:9',
    chainId: 31337,
    tokens: [],
    solana: { ...solana, maker },
  })
  slots = createSolanaSwapSlots({ api: api.origin, projectId: 'test-project', networks: [] })
})
afterAll(async () => {
  await api?.close()
  await solana?.close()
})

async function reviewed(visitor: Keypair, usdc: SwapToken, sol: SwapToken) {
  const request = {
    chainId,
    userAddress: visitor.publicKey.toBase58(),
    from: usdc.address,
    to: sol.address,
    amount: '10000000',
  }
  const quote = await slots.fetchQuote(request, signal)
  const check = (swap: Awaited<ReturnType<typeof slots.buildSwap>>) =>
    slots.checkBuild({
      chainId,
      account: request.userAddress,
      maker: quote.maker,
      tokenIn: usdc.address,
      tokenOut: sol.address,
      amountIn: request.amount,
      minAmountOut: minimumOut(quote.toAmount, 1).toString(),
      approvals: [],
      swap,
    })
  const build = () => slots.buildSwap({ ...request, slippage: 1, quoteId: quote.id! }, signal)
  return { quote, build, check }
}

describe('the swap flow’s Solana slots against the sandbox maker', () => {
  it('reads the tokens (SOL as the native marker), quotes, builds and checks the maker’s transaction', async () => {
    const tokens = await slots.fetchTokens({ chainId }, signal)
    expect(tokens.map((t) => [t.symbol, t.address, t.chainId])).toEqual([
      ['SOL', NATIVE_TOKEN_ADDRESS, chainId],
      ['USDC', solana.mints.usdc, chainId],
    ])
    const [sol, usdc] = tokens as [SwapToken, SwapToken]
    const visitor = Keypair.fromSecretKey(solana.accounts[1]!.secretKey)
    const { quote, build, check } = await reviewed(visitor, usdc, sol)
    expect(quote).toMatchObject({
      fromAmount: '10000000',
      gasFee: '10000',
      maker: maker.publicKey.toBase58(),
    })
    const swap = await build()
    expect(swap.solana).toMatchObject({
      maker: maker.publicKey.toBase58(),
      feePayer: visitor.publicKey.toBase58(),
    })
    const prepared = await check(swap)
    expect(prepared.swap).toBe(swap)
    const tx = VersionedTransaction.deserialize(Buffer.from(swap.solana!.transaction, 'base64'))
    expect(tx.signatures[0]!.every((b) => b === 0)).toBe(true)
  })

  it.each(['elsewhere', 'overdraw', 'short'] as const)(
    'refuses the hostile build %s before any wallet',
    async (build) => {
      const [sol, usdc] = (await slots.fetchTokens({ chainId }, signal)) as [SwapToken, SwapToken]
      const visitor = Keypair.fromSecretKey(solana.accounts[2]!.secretKey)
      const flow = await reviewed(visitor, usdc, sol)
      await fetch(`${api.origin}/__fault`, {
        method: 'POST',
        body: JSON.stringify({ mode: 'hostile', times: 1, build }),
      })
      const refused = await flow.check(await flow.build()).then(
        () => undefined,
        (error: unknown) => error,
      )
      expect(refused).toBeInstanceOf(SolanaSwapMismatchError)
      expect((refused as SolanaSwapMismatchError).mismatch).toBe(
        { elsewhere: 'recipient', overdraw: 'amountIn', short: 'minAmountOut' }[build],
      )
    },
  )

  it('a quote past its window: the build fails as SwapQuoteExpiredError', async () => {
    const [sol, usdc] = (await slots.fetchTokens({ chainId }, signal)) as [SwapToken, SwapToken]
    const flow = await reviewed(Keypair.fromSecretKey(solana.accounts[3]!.secretKey), usdc, sol)
    await fetch(`${api.origin}/__solana-maker/expire`, { method: 'POST' })
    await expect(flow.build()).rejects.toBeInstanceOf(SwapQuoteExpiredError)
  })
})
