import { QueryClient } from '@tanstack/react-query'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createActor, toPromise } from 'xstate'
import type { BalancesResult, DataApiClient, GetBalancesParameters, TokenBalance } from '../api/dataApi'
import { dataApiKeys } from '../api/dataApi'
import { BALANCE_CACHE_MS } from '../constants'
import { DataApiError } from '../errors/api'
import { createAccountActors } from './account'

const ALICE = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const CHAIN = 'eip155:31337'
const ETH: TokenBalance = {
  name: 'Ether',
  symbol: 'ETH',
  chainId: CHAIN,
  value: 6000,
  price: 3000,
  quantity: { decimals: '18', numeric: '2' },
  iconUrl: '',
}

/** A stand-in Data API answering by a script, recording each balance request. */
function setup(script: Array<'ok' | 'fail'>) {
  const requests: GetBalancesParameters[] = []
  const api = {
    api: 'http://data.invalid',
    projectId: 'account-actors-test',
    getBalances: async (parameters: GetBalancesParameters): Promise<BalancesResult> => {
      requests.push(parameters)
      if (script.shift() === 'fail')
        throw new DataApiError('balance', { kind: 'http', status: 500, details: 'HTTP 500' })
      return { balances: [ETH], supported: true }
    },
  } as unknown as DataApiClient
  const queryClient = new QueryClient()
  const { fetchBalances } = createAccountActors({ api, queryClient })
  const fetch = (forceUpdate = false) => {
    const actor = createActor(fetchBalances, { input: { address: ALICE, chainId: CHAIN, forceUpdate } })
    const done = toPromise(actor)
    actor.start()
    return done
  }
  return { api, queryClient, requests, fetch }
}

afterEach(() => {
  vi.useRealTimers()
})

describe('createAccountActors: fetchBalances through the QueryClient', () => {
  it('answers from the cache for 30 s, then asks again; concurrent fetches share one request', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    const { api, queryClient, requests, fetch } = setup([])
    const [a, b] = await Promise.all([fetch(), fetch()])
    expect(a).toEqual({ balances: [ETH], supported: true })
    expect(b).toBe(a)
    expect(requests).toHaveLength(1)
    expect(queryClient.getQueryData(dataApiKeys.balances(api, ALICE, CHAIN))).toBe(a)
    vi.setSystemTime(Date.now() + BALANCE_CACHE_MS - 1)
    await fetch()
    expect(requests).toHaveLength(1)
    vi.setSystemTime(Date.now() + 1)
    await fetch()
    expect(requests).toHaveLength(2)
  })

  it('a refresh (forceUpdate) takes nothing from the cache and asks the API for fresh balances', async () => {
    const { requests, fetch } = setup([])
    await fetch()
    await fetch(true)
    expect(requests.map((r) => r.forceUpdate)).toEqual([false, true])
  })

  it('a failure is not cached: the 30 s block is the machine’s rule, the next fetch it allows is a request', async () => {
    const { requests, fetch } = setup(['fail', 'ok'])
    await expect(fetch()).rejects.toBeInstanceOf(DataApiError)
    await expect(fetch()).resolves.toEqual({ balances: [ETH], supported: true })
    expect(requests).toHaveLength(2)
  })
})
