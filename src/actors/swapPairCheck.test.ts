import type { Address } from 'viem'
import { describe, expect, it } from 'vitest'
import type { TokenMetadata, TokenRef } from '../chains/eip155/tokenMetadata'
import { NATIVE_TOKEN_ADDRESS } from '../constants'
import { SwapTokenMismatchError } from '../errors/swap'
import type { SwapToken } from '../machines/swap/types'
import { createSwapPairCheck } from './swapPairCheck'

const USDC: Address = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
const STK: Address = '0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0'

/** What the chain's contracts answer. */
const CHAIN: Record<string, { decimals: number; symbol: string }> = {
  [USDC.toLowerCase()]: { decimals: 6, symbol: 'USDC' },
  [STK.toLowerCase()]: { decimals: 18, symbol: 'STK' },
}
const read = async (token: TokenRef): Promise<TokenMetadata> => ({
  chainId: token.chainId,
  address: token.address,
  ...CHAIN[token.address.toLowerCase()]!,
})
const listed = (address: string, symbol: string, decimals: number): SwapToken => ({
  address,
  symbol,
  name: symbol,
  decimals,
  chainId: 'eip155:31337',
})
const quote = (from: string, to: string) => ({
  chainId: 31337,
  userAddress: STK,
  from,
  to,
  amount: '5000000',
})
const signal = new AbortController().signal

describe('the swap pair, checked against its contracts before a quote', () => {
  // The old fetchQuote scaled the amount by the convert API's decimals alone: "5 USDC" at 7 stated decimals
  // was quoted (and built, and signed) as 50 USDC.
  it('refuses a token whose listing states other decimals than its contract (7 for a 6-decimal USDC)', async () => {
    const pair = createSwapPairCheck({ read, tokens: async () => [] })
    pair.remember(31337, [listed(NATIVE_TOKEN_ADDRESS, 'ETH', 18), listed(USDC, 'USDC', 7)])
    const checked = pair.check(quote(USDC, NATIVE_TOKEN_ADDRESS), signal)
    await expect(checked).rejects.toBeInstanceOf(SwapTokenMismatchError)
    await expect(checked).rejects.toMatchObject({
      shortMessage: 'This token cannot be swapped: its contract does not match its listing.',
      details: 'USDC: the chain says 6 decimals, not 7',
    })
  })

  it('passes a pair whose contracts agree (the native side needs no contract)', async () => {
    const pair = createSwapPairCheck({ read, tokens: async () => [] })
    pair.remember(31337, [
      listed(NATIVE_TOKEN_ADDRESS, 'ETH', 18),
      listed(USDC, 'USDC', 6),
      listed(STK, 'STK', 18),
    ])
    await expect(pair.check(quote(USDC, NATIVE_TOKEN_ADDRESS), signal)).resolves.toBeUndefined()
    await expect(pair.check(quote(STK.toLowerCase(), USDC), signal)).resolves.toBeUndefined()
  })

  it('checks the token received too, and looks the listing up when it was not remembered', async () => {
    const asked: number[] = []
    const pair = createSwapPairCheck({
      read,
      tokens: async (chainId) => {
        asked.push(chainId)
        return [listed(USDC, 'USDC', 6), listed(STK, 'STK', 6)]
      },
    })
    await expect(pair.check(quote(USDC, STK), signal)).rejects.toMatchObject({
      name: 'SwapTokenMismatchError',
      details: 'STK: the chain says 18 decimals, not 6',
    })
    expect(asked).toEqual([31337])
  })
})
