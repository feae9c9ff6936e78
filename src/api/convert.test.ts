import type { Address } from 'viem'
import { describe, expect, it } from 'vitest'
import {
  GasPriceNetworkNotSupportedError,
  SwapBuildError,
  SwapNetworkNotSupportedError,
  SwapQuoteError,
  SwapTokensError,
} from '../errors/swap'
import { createConvertClient, SWAP_GAS_LIMIT_ESTIMATE, tokenRef } from './convert'

const USDC = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
const ME = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

/** A client whose API answers `status` and `body` to every call, and records the URLs asked. */
function answering(status: number, body: unknown) {
  const urls: string[] = []
  const client = createConvertClient({
    api: 'https://api.example',
    projectId: 'p1',
    fetch: (async (input: RequestInfo | URL) => {
      urls.push(String(input))
      return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })
    }) as typeof fetch,
  })
  return { client, urls }
}

describe('convert client', () => {
  it('reads tokens, dropping the malformed and the other chains’ ones, and keeps only safe logos', async () => {
    const { client, urls } = answering(200, {
      tokens: [
        {
          name: 'Ether',
          symbol: 'ETH',
          address: `eip155:31337:0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee`,
          decimals: 18,
        },
        {
          name: 'USD Coin',
          symbol: 'USDC',
          address: `eip155:31337:${USDC.toLowerCase()}`,
          decimals: 6,
          logoUri: 'javascript:alert(1)',
        },
        { name: 'Other chain', symbol: 'X', address: `eip155:1:${USDC}`, decimals: 6 },
        { name: 'Broken', symbol: '', address: 'nope', decimals: -1 },
      ],
    })
    const tokens = await client.tokens(31337)
    expect(tokens.map((t) => [t.symbol, t.address, t.decimals, t.logoUri])).toEqual([
      ['ETH', '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee', 18, undefined],
      ['USDC', USDC, 6, undefined],
    ])
    expect(new URL(urls[0]!).searchParams.get('chainId')).toBe('eip155:31337')
    expect(new URL(urls[0]!).searchParams.get('projectId')).toBe('p1')
  })

  it('asks quotes with CAIP-10 references and puts a network fee on the quote', async () => {
    const { client, urls } = answering(200, {
      quotes: [{ fromAmount: '100', toAmount: '95', priceImpact: 0.1 }],
    })
    const quote = await client.quote(
      {
        chainId: 31337,
        userAddress: ME,
        from: USDC,
        to: '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee',
        amount: '100',
      },
      2n,
    )
    expect(quote).toEqual({
      fromAmount: '100',
      toAmount: '95',
      priceImpact: 0.1,
      gasFee: (SWAP_GAS_LIMIT_ESTIMATE * 2n).toString(),
    })
    const query = new URL(urls[0]!).searchParams
    expect(query.get('from')).toBe(tokenRef(31337, USDC))
    expect(query.get('to')).toBe('eip155:31337:0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee')
    expect(query.get('gasPrice')).toBe('2')
  })

  it("unsupported network: empty results — no tokens, no quotes, allowance '0' (SPEC §8), not errors", async () => {
    const notServed = () => answering(400, { error: 'Network not supported for Swaps' }).client
    expect(await notServed().tokens(1)).toEqual([])
    expect(await notServed().allowance({ chainId: 1, tokenAddress: USDC, userAddress: ME })).toBe('0')
    // No quotes: the same answer as a pair the API has no quote for.
    await expect(
      notServed().quote({ chainId: 1, userAddress: ME, from: USDC, to: USDC, amount: '1' }, 1n),
    ).rejects.toBeInstanceOf(SwapQuoteError)
    // Any other failure is still the step's.
    await expect(answering(500, { error: 'down' }).client.tokens(1)).rejects.toBeInstanceOf(SwapTokensError)
  })

  it('turns the SPEC’s refusals into its errors, and anything else into the step’s', async () => {
    // SPEC §8: thrown by the approve and swap calls (the reads answer empty results instead: below).
    await expect(
      answering(400, { error: 'Network not supported for Swaps' }).client.buildApprove({
        chainId: 1,
        userAddress: ME,
        from: USDC,
        to: USDC,
        amount: '1',
      }),
    ).rejects.toBeInstanceOf(SwapNetworkNotSupportedError)
    await expect(
      answering(400, { error: 'Network not supported for Gas Price' }).client.gasPrice(1),
    ).rejects.toBeInstanceOf(GasPriceNetworkNotSupportedError)
    await expect(answering(500, { error: 'down' }).client.tokens(1)).rejects.toBeInstanceOf(SwapTokensError)
    await expect(
      answering(200, { quotes: [] }).client.quote(
        { chainId: 1, userAddress: ME, from: USDC, to: USDC, amount: '1' },
        1n,
      ),
    ).rejects.toBeInstanceOf(SwapQuoteError)
    // A body of the wrong shape is the step's failure, never trusted.
    await expect(
      answering(200, { tx: { to: 'not caip', data: '0x' } }).client.buildSwap({
        chainId: 1,
        userAddress: ME,
        from: USDC,
        to: USDC,
        amount: '1',
        slippage: 1,
      }),
    ).rejects.toBeInstanceOf(SwapBuildError)
  })

  it('reads a built transaction: the router, its calldata and the value', async () => {
    const { client } = answering(200, {
      tx: {
        from: `eip155:1:${ME}`,
        to: `eip155:1:${USDC}`,
        data: '0xabcdef',
        amount: '5',
        eip155: { gas: '21000', gasPrice: '7' },
      },
    })
    expect(
      await client.buildSwap({ chainId: 1, userAddress: ME, from: USDC, to: USDC, amount: '5', slippage: 1 }),
    ).toEqual({ to: USDC, data: '0xabcdef', value: '5', gas: '21000', gasPrice: '7' })
  })

  // Built ahead of its approval (the preview builds every transaction before it offers them): the API cannot
  // estimate it, so the client asks it not to and leaves the gas to the wallet.
  it('asks for a swap built before its approval without an estimate, and drops the gas figure', async () => {
    let body: unknown
    const client = createConvertClient({
      api: 'https://api.example',
      projectId: 'p1',
      fetch: (async (_input: RequestInfo | URL, init?: RequestInit) => {
        body = JSON.parse(String(init?.body))
        const tx = { to: `eip155:1:${USDC}`, data: '0xabcdef', amount: '0', eip155: { gas: '300000' } }
        return new Response(JSON.stringify({ tx }), { status: 200 })
      }) as typeof fetch,
    })
    const request = { chainId: 1, userAddress: ME as Address, from: USDC, to: USDC, amount: '5', slippage: 1 }
    expect(await client.buildSwap({ ...request, disableEstimate: true })).toEqual({
      to: USDC,
      data: '0xabcdef',
      value: '0',
    })
    expect(body).toMatchObject({ disableEstimate: true })
    expect(await client.buildSwap(request)).toMatchObject({ gas: '300000' })
    expect(body).not.toHaveProperty('disableEstimate')
  })
})
