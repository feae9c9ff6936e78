import { describe, expect, it, vi } from 'vitest'
import { getWagmiConfig } from './chains/eip155/wagmi'
import { defineEvmNetwork, type KitStorage, resolveConfig } from './config'
import {
  RECENT_WALLET_ICON_MAX_LENGTH,
  RECENT_WALLETS_MAX,
  SMART_ACCOUNT_NETWORKS_MAX,
  STORED_PERMISSIONS_MAX,
} from './constants'
import { createKitStore, guardStorage, STORAGE_PREFIX } from './storage'

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

  it('the stored deep link (SPEC §3): a wallet and its link round-trip; a wrong shape or a link without a scheme is ignored', () => {
    const storage = memory()
    const store = createKitStore(storage, () => {})
    const linking = {
      id: 'rainbow',
      name: 'Rainbow',
      connectorId: 'walletConnect',
      href: 'rainbow://wc?uri=wc%3Aab%402',
    }
    store.write('wcLinking', linking)
    expect(store.read('wcLinking')).toEqual(linking)
    for (const bad of [
      { ...linking, href: 'javascript:alert(1)' },
      { ...linking, href: 'rainbow://wc?uri=a b' },
      { ...linking, name: 'x'.repeat(201) },
      { id: 'rainbow', name: 'Rainbow', href: linking.href },
      'rainbow://',
    ]) {
      storage.data.set(`${STORAGE_PREFIX}wcLinking`, JSON.stringify(bad))
      expect(store.read('wcLinking')).toBeUndefined()
    }
  })

  it('granted permissions: a bounded list of records round-trips; not a list, an entry that is no object, or too many: ignored', () => {
    const storage = memory()
    const store = createKitStore(storage, () => {})
    const record = { id: '0xab', address: '0x00000000000000000000000000000000000000aa', chainId: 1 }
    store.write('grantedPermissions', [record])
    expect(store.read('grantedPermissions')).toEqual([record])
    for (const bad of [
      record,
      [record, 'x'],
      [record, null],
      [[record]],
      Array(STORED_PERMISSIONS_MAX + 1).fill(record),
    ]) {
      storage.data.set(`${STORAGE_PREFIX}grantedPermissions`, JSON.stringify(bad))
      expect(store.read('grantedPermissions')).toBeUndefined()
    }
  })

  it('the smart-account networks (SPEC §3): eip155 CAIP-2 ids round-trip; one bad entry drops the whole list', () => {
    const storage = memory()
    const store = createKitStore(storage, () => {})
    store.write('smartAccountNetworks', ['eip155:1', 'eip155:31337', 'eip155:1'])
    expect(store.read('smartAccountNetworks')).toEqual(['eip155:1', 'eip155:31337'])
    for (const bad of [['eip155:1', 'solana:abc'], ['eip155:01'], 'eip155:1', [1], { 0: 'eip155:1' }]) {
      storage.data.set(`${STORAGE_PREFIX}smartAccountNetworks`, JSON.stringify(bad))
      expect(store.read('smartAccountNetworks')).toBeUndefined()
    }
    const tooMany = Array.from({ length: SMART_ACCOUNT_NETWORKS_MAX + 1 }, (_, i) => `eip155:${i + 1}`)
    storage.data.set(`${STORAGE_PREFIX}smartAccountNetworks`, JSON.stringify(tooMany))
    expect(store.read('smartAccountNetworks')).toBeUndefined()
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

  it('behavior: one bad recent wallet is dropped or trimmed on its own; the others survive a reload', () => {
    const storage = memory()
    const store = createKitStore(storage, () => {})
    const bigIcon = `data:image/png;base64,${'A'.repeat(RECENT_WALLET_ICON_MAX_LENGTH)}`
    const svgIcon = `data:image/svg+xml;base64,${'B'.repeat(4_500)}`
    storage.data.set(
      `${STORAGE_PREFIX}recentWallets`,
      JSON.stringify([
        // An injected wallet's icon over 4,096 characters, but within the bound: kept.
        {
          id: 'io.metamask',
          name: 'MetaMask',
          connectorId: 'io.metamask',
          imageUrl: svgIcon,
          rdns: 'io.metamask',
        },
        { id: 'huge', name: 'Huge', connectorId: 'injected', imageUrl: bigIcon },
      ]),
    )
    expect(store.read('recentWallets')).toEqual([
      {
        id: 'io.metamask',
        name: 'MetaMask',
        connectorId: 'io.metamask',
        imageUrl: svgIcon,
        rdns: 'io.metamask',
      },
      { id: 'huge', name: 'Huge', connectorId: 'injected' },
    ])

    storage.data.set(
      `${STORAGE_PREFIX}recentWallets`,
      JSON.stringify([
        { name: 'No id', connectorId: 'x' },
        42,
        null,
        { id: 'a', name: 'A', connectorId: 'io.a', imageUrl: 'javascript:alert(1)', rdns: 'r'.repeat(500) },
        { id: 'a', name: 'A again', connectorId: 'io.a' },
        { id: 'b', name: 'N'.repeat(1_000), connectorId: 'io.b', imageUrl: 'https://img.example/b.png' },
        { id: 'c', name: 'C', connectorId: 'io.c' },
      ]),
    )
    expect(store.read('recentWallets')).toEqual([
      { id: 'a', name: 'A', connectorId: 'io.a' },
      { id: 'b', name: 'N'.repeat(200), connectorId: 'io.b', imageUrl: 'https://img.example/b.png' },
    ])

    // Keys of the prototype's name are no fields.
    storage.data.set(
      `${STORAGE_PREFIX}recentWallets`,
      '[{"__proto__":{"polluted":true},"id":"p","name":"P","connectorId":"io.p","constructor":1}]',
    )
    const [wallet] = store.read('recentWallets') ?? []
    expect(wallet).toEqual({ id: 'p', name: 'P', connectorId: 'io.p' })
    expect(Object.getPrototypeOf(wallet)).toBe(Object.prototype)
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  it('behavior: what is written is capped: at most RECENT_WALLETS_MAX wallets, no icon beyond the bound', () => {
    const storage = memory()
    const store = createKitStore(storage, () => {})
    const bigIcon = `data:image/svg+xml,${'<g/>'.repeat(100_000)}`
    store.write(
      'recentWallets',
      Array.from({ length: 8 }, (_, i) => ({
        id: `w${i}`,
        name: `W${i}`,
        connectorId: 'injected',
        imageUrl: bigIcon,
      })),
    )
    const raw = storage.data.get(`${STORAGE_PREFIX}recentWallets`) ?? ''
    expect(raw.length).toBeLessThan(RECENT_WALLETS_MAX * 1_000)
    expect(store.read('recentWallets')).toEqual(
      Array.from({ length: RECENT_WALLETS_MAX }, (_, i) => ({
        id: `w${i}`,
        name: `W${i}`,
        connectorId: 'injected',
      })),
    )
  })

  it('behavior: wagmi’s own storage over a throwing storage only logs (SPEC §8), it never rejects', async () => {
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
    const guarded = guardStorage(throwing, (m) => logged.push(m))
    expect(guarded.getItem('k')).toBeNull()
    expect(() => guarded.setItem('k', 'v')).not.toThrow()
    expect(() => guarded.removeItem('k')).not.toThrow()
    expect(logged).toHaveLength(3)

    const config = resolveConfig({
      projectId: 'storage-test',
      features: { email: false, socials: false },
      storage: throwing,
      networks: [
        defineEvmNetwork({
          id: 31337,
          name: 'Walletstate Sandbox',
          nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
          rpcUrls: { default: { http: ['http://127.0.0.1:9'] } },
        }),
      ],
    })
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    try {
      const storage = getWagmiConfig(config).storage
      await expect(storage?.setItem('recentConnectorId', 'io.metamask')).resolves.toBeUndefined()
      await expect(storage?.getItem('recentConnectorId')).resolves.toBeNull()
      await expect(storage?.removeItem('recentConnectorId')).resolves.toBeUndefined()
      expect(warn).toHaveBeenCalled()
    } finally {
      warn.mockRestore()
    }
  })
})
