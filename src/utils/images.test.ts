import { describe, expect, it } from 'vitest'
import { assetImageUrl, currencyImageUrl, tokenImageUrl } from './images'

const endpoints = { walletsApi: 'https://wallets.example/base' }
const HOSTILE = [
  '..',
  '../getWallets',
  'a/b',
  'a?b',
  'a#b',
  'a.b',
  '%2e%2e',
  '',
  ' USDC',
  'x'.repeat(200),
  42,
  null,
]

describe('SPEC §7 image endpoints (getAssetImage, getCurrencyImage, getTokenImage)', () => {
  it('builds each URL on the listing host with projectId, st and sv', () => {
    const token = new URL(tokenImageUrl(endpoints, 'p1', 'usdc')!)
    expect(token.origin + token.pathname).toBe('https://wallets.example/base/public/getTokenImage/USDC')
    expect(token.searchParams.get('projectId')).toBe('p1')
    expect(token.searchParams.get('st')).toBeTruthy()
    expect(token.searchParams.get('sv')).toBeTruthy()
    expect(new URL(currencyImageUrl(endpoints, 'p1', 'eur')!).pathname).toBe(
      '/base/public/getCurrencyImage/EUR',
    )
    expect(new URL(assetImageUrl(endpoints, 'p1', 'ef1a1fcf-7fe8-4d69-bd6d-fda1345b4400')!).pathname).toBe(
      '/base/public/getAssetImage/ef1a1fcf-7fe8-4d69-bd6d-fda1345b4400',
    )
  })

  it.each(HOSTILE)('images only from safe sources: no URL for the id %j', (id) => {
    expect(tokenImageUrl(endpoints, 'p1', id)).toBeUndefined()
    expect(currencyImageUrl(endpoints, 'p1', id)).toBeUndefined()
    expect(assetImageUrl(endpoints, 'p1', id)).toBeUndefined()
  })

  it('a currency is an ISO 4217 code, nothing longer', () => {
    expect(currencyImageUrl(endpoints, 'p1', 'USDC')).toBeUndefined()
  })
})
