import { QueryClient } from '@tanstack/react-query'
import { describe, expect, it } from 'vitest'
import { dataApiKeys, getDataApiClient } from '../api/dataApi'
import { refreshAfterSwap } from './swap'

describe('refreshAfterSwap', () => {
  it("marks the account's Data API reads and wagmi's balances stale, and nothing of another account", () => {
    const queryClient = new QueryClient()
    const config = { endpoints: { api: 'http://127.0.0.1:9' }, projectId: 'p' } as never
    const api = getDataApiClient(config, queryClient)
    const me = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'
    const other = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
    const keys = {
      history: dataApiKeys.history(api, me, 'eip155:31337'),
      nfts: dataApiKeys.nfts(api, me, 'eip155:31337'),
      balance: ['balance', { address: me, chainId: 31337 }],
      otherHistory: dataApiKeys.history(api, other, 'eip155:31337'),
    }
    for (const key of Object.values(keys)) queryClient.setQueryData(key, { kept: true })
    refreshAfterSwap({ config, queryClient, address: me })
    const stale = (key: readonly unknown[]) => queryClient.getQueryState(key)?.isInvalidated
    expect(stale(keys.history)).toBe(true)
    expect(stale(keys.nfts)).toBe(true)
    expect(stale(keys.balance)).toBe(true)
    expect(stale(keys.otherHistory)).toBe(false)
    // The data stays until it is read again: nothing shown goes blank.
    expect(queryClient.getQueryData(keys.history)).toEqual({ kept: true })
  })
})
