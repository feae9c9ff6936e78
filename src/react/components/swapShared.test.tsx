import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import type { SwapToken, TokenBalance } from '../../machines/swap'
import { formatBaseUnits, formatPercent, minimumReceived, swapBalanceOf, TokenLogo } from './swapShared'

const token = (address: string, extra: Partial<SwapToken> = {}): SwapToken => ({
  address,
  symbol: 'TKN',
  name: 'Token',
  decimals: 6,
  chainId: 'eip155:31337',
  ...extra,
})
const balance = (address: string | undefined, numeric: string, chainId = 'eip155:31337'): TokenBalance => ({
  name: 'x',
  symbol: 'x',
  chainId,
  ...(address === undefined ? {} : { address }),
  price: 1,
  quantity: { decimals: '6', numeric },
})

describe('swapBalanceOf', () => {
  const usdc = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
  it('default: a token by its CAIP-10 or plain address, any case; the native currency by its marker', () => {
    const balances = [balance(undefined, '9.5'), balance(`eip155:31337:${usdc}`, '100')]
    expect(swapBalanceOf(balances, token(usdc.toLowerCase()))).toBe('100')
    expect(swapBalanceOf(balances, token('0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee'))).toBe('9.5')
    expect(swapBalanceOf([balance(usdc, '3')], token(usdc))).toBe('3')
  })

  it('behavior: another chain, or a token the list does not hold, is unknown (not zero)', () => {
    expect(swapBalanceOf([balance(usdc, '3', 'eip155:1')], token(usdc))).toBeUndefined()
    expect(swapBalanceOf([], token(usdc))).toBeUndefined()
  })
})

describe('formatBaseUnits', () => {
  it('default: 6 decimals at most, cut; parameters: maxDecimals', () => {
    expect(formatBaseUnits('1234567', 6)).toBe('1.234567')
    expect(formatBaseUnits('1234567890123456789', 18)).toBe('1.234567')
    expect(formatBaseUnits(42_000_000_000_000n, 18, 8)).toBe('0.000042')
  })

  it('behavior: not a number in base units shows a dash', () => {
    expect(formatBaseUnits('1.5', 6)).toBe('—')
    expect(formatBaseUnits('abc', 6)).toBe('—')
  })
})

describe('minimumReceived', () => {
  it('the quote less the slippage tolerance, in base units, rounded down', () => {
    expect(minimumReceived('1000', 1)).toBe(990n)
    expect(minimumReceived('1000', 0.5)).toBe(995n)
    expect(minimumReceived('999', 1)).toBe(989n)
    expect(minimumReceived('1000', 50)).toBe(500n)
  })
})

describe('formatPercent', () => {
  it('up to 2 decimals', () => {
    expect(formatPercent(1)).toBe('1 %')
    expect(formatPercent(0.3)).toBe('0.3 %')
    expect(formatPercent(0.12345)).toBe('0.12 %')
  })
})

describe('TokenLogo', () => {
  it('default: an https logo is shown, decorative', () => {
    // (React's server renderer adds a preload link beside the image.)
    expect(renderToStaticMarkup(<TokenLogo token={{ logoUri: 'https://cdn.example/usdc.png' }} />)).toContain(
      '<img class="ws-token-icon" src="https://cdn.example/usdc.png" alt="" referrerPolicy="no-referrer"/>',
    )
  })

  it.each([
    'javascript:alert(1)',
    'data:image/svg+xml,<svg onload=alert(1)>',
    'https://user:pw@cdn.example/x.png',
    '//cdn.example/x.png',
    'https://cdn.example/x.png" onerror="alert(1)',
    undefined,
  ])('behavior: %s from the API is not shown', (logoUri) => {
    const html = renderToStaticMarkup(<TokenLogo token={{ logoUri }} />)
    expect(html).toBe('<span class="ws-token-icon" aria-hidden="true"></span>')
  })
})

describe('SPEC §7 getTokenImage: token icons from the image endpoint', () => {
  it('without a logo from the API, the provider image of the symbol is shown', () => {
    const fallback = 'https://wallets.example/public/getTokenImage/USDC?projectId=p1'
    expect(
      renderToStaticMarkup(<TokenLogo token={{ logoUri: 'javascript:alert(1)' }} fallback={fallback} />),
    ).toContain(
      `<img class="ws-token-icon" src="${fallback.replace('&', '&amp;')}" alt="" referrerPolicy="no-referrer"/>`,
    )
  })
})
