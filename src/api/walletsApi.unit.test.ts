import { describe, expect, it } from 'vitest'
import { SDK_TYPE, SDK_VERSION } from '../constants'
import { parseWalletListing, WalletsApiError, walletImageUrl, walletsUrl } from './walletsApi'

// What needs no server; the client against the sandbox listing is in test/integration/walletsApi.test.ts.
describe('walletsUrl', () => {
  it('default: adds projectId, st and sv, page and entries', () => {
    const url = walletsUrl({ walletsApi: 'https://wallets.example', projectId: 'p1', page: 2, entries: 40 })
    expect(url.toString()).toBe(
      `https://wallets.example/getWallets?projectId=p1&st=${SDK_TYPE}&sv=${SDK_VERSION}&page=2&entries=40`,
    )
  })

  it('parameters: search, badge, lists (deduplicated, comma-joined); empty ones left out; base path kept', () => {
    const url = walletsUrl({
      walletsApi: 'https://host.example/listing',
      projectId: 'p',
      page: 1,
      entries: 100,
      search: '  rain bow ',
      badge_type: 'certified',
      include: ['a', 'b', 'a'],
      exclude: [],
      chains: ['eip155:1', 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp'],
    })
    expect(url.pathname).toBe('/listing/getWallets')
    expect(Object.fromEntries(url.searchParams)).toEqual({
      projectId: 'p',
      st: SDK_TYPE,
      sv: SDK_VERSION,
      page: '1',
      entries: '100',
      search: 'rain bow',
      badge_type: 'certified',
      include: 'a,b',
      chains: 'eip155:1,solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
    })
    expect(
      walletsUrl({ walletsApi: 'https://h.example/', projectId: 'p', page: 1, entries: 1, search: ' ' })
        .search,
    ).not.toContain('search')
  })
})

describe('parseWalletListing', () => {
  it('keeps custom deep links and http links, drops the rest', () => {
    expect(
      parseWalletListing({
        id: 'w',
        name: 'W',
        mobile_link: 'rainbow://',
        desktop_link: ' JaVaScRiPt:alert(1)',
        webapp_link: 'rainbow://not-http',
        homepage: 'https://user:pw@w.example',
        app_store: 'https://apps.example/w',
      }),
    ).toEqual({
      id: 'w',
      name: 'W',
      chains: [],
      mobile_link: 'rainbow://',
      app_store: 'https://apps.example/w',
    })
  })
})

describe('walletImageUrl', () => {
  it('refuses an id that is not one path segment', () => {
    expect(() => walletImageUrl({ walletsApi: 'https://w.example' }, 'p', '..')).toThrow(WalletsApiError)
    expect(() => walletImageUrl({ walletsApi: 'https://w.example' }, 'p', 'a/b')).toThrow(
      'Invalid wallet image id',
    )
  })
})
