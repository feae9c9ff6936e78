import { describe, expect, it } from 'vitest'
import type { KitStorage } from './config'
import { createKitStore, STORAGE_PREFIX } from './storage'

function memory(): KitStorage & { data: Map<string, string> } {
  const data = new Map<string, string>()
  return {
    data,
    getItem: (k) => data.get(k) ?? null,
    setItem: (k, value) => void data.set(k, value),
    removeItem: (k) => void data.delete(k),
  }
}

describe('createKitStore', () => {
  it('default: round-trips values under the prefix', () => {
    const storage = memory()
    const store = createKitStore(storage, () => {})
    store.write('recentWallets', [{ id: 'a', name: 'A', connectorId: 'io.a' }])
    expect(storage.data.has(`${STORAGE_PREFIX}recentWallets`)).toBe(true)
    expect(store.read('recentWallets')).toEqual([{ id: 'a', name: 'A', connectorId: 'io.a' }])
    store.remove('recentWallets')
    expect(store.read('recentWallets')).toBeUndefined()
  })

  it('behavior: malformed or wrongly shaped values are ignored and logged', () => {
    const storage = memory()
    const logged: string[] = []
    const store = createKitStore(storage, (m) => logged.push(m))
    storage.data.set(`${STORAGE_PREFIX}recentWallets`, '{not json')
    storage.data.set(`${STORAGE_PREFIX}connectionStatus`, JSON.stringify('hacked'))
    storage.data.set(`${STORAGE_PREFIX}activeNetwork`, JSON.stringify('javascript:alert(1)'))
    expect(store.read('recentWallets')).toBeUndefined()
    expect(store.read('connectionStatus')).toBeUndefined()
    expect(store.read('activeNetwork')).toBeUndefined()
    expect(logged).toHaveLength(3)
  })

  it('behavior: storage that throws is only logged', () => {
    const throwing: KitStorage = {
      getItem: () => {
        throw new Error('SecurityError')
      },
      setItem: () => {
        throw new Error('QuotaExceededError')
      },
      removeItem: () => {
        throw new Error('SecurityError')
      },
    }
    const logged: string[] = []
    const store = createKitStore(throwing, (m) => logged.push(m))
    expect(store.read('walletId')).toBeUndefined()
    expect(() => store.write('walletId', 'x')).not.toThrow()
    expect(() => store.remove('walletId')).not.toThrow()
    expect(logged).toHaveLength(3)
  })
})
