import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createActor, waitFor } from 'xstate'
import { DEV_WALLET_IDS, type ListingApi, startListingApi } from '../../sandbox/api/listing.ts'
import { createWalletsActors } from '../../src/actors/wallets'
import {
  selectHasMoreWallets,
  selectWalletList,
  type WalletsInput,
  walletsMachine,
} from '../../src/machines/wallets'

// The wallets machine with its real fetchWallets slot against the sandbox listing; the machine with a fake
// listing is in src/machines/wallets.test.ts.
const INPUT: Omit<WalletsInput, 'walletsApi' | 'chains'> = {
  projectId: 'p1',
  featuredWalletIds: [],
  includeWalletIds: [],
  excludeWalletIds: [],
}

describe('walletsMachine with its real fetchWallets slot', () => {
  let listing: ListingApi
  beforeAll(async () => {
    listing = await startListingApi()
  })
  afterAll(async () => {
    await listing.close()
  })

  it('loads, pages and searches the sandbox listing', async () => {
    const actor = createActor(walletsMachine.provide({ actors: createWalletsActors() }), {
      input: { ...INPUT, walletsApi: listing.origin, chains: ['eip155:31337'] },
    }).start()
    actor.send({ type: 'wallets.load' })
    await waitFor(actor, (s) => s.matches('ready'))
    const expected = listing.catalogue.filter((w) => w.chains.includes('eip155:31337')).length
    expect(actor.getSnapshot().context.count).toBe(expected)
    while (selectHasMoreWallets(actor.getSnapshot())) {
      actor.send({ type: 'wallets.loadMore' })
      await waitFor(actor, (s) => s.matches({ ready: { browse: 'browsing' } }))
    }
    const list = selectWalletList(actor.getSnapshot())
    expect(list).toHaveLength(expected)
    // Each entry with an image id carries its image's URL on the listing API, and that URL answers an image.
    const withImage = list.filter((w) => w.image_id)
    expect(withImage.length).toBeGreaterThan(0)
    for (const wallet of withImage) {
      const url = new URL(wallet.image_url!)
      expect(url.origin).toBe(listing.origin)
      expect(url.pathname).toBe(`/getWalletImage/${encodeURIComponent(wallet.image_id!)}`)
      expect(url.searchParams.get('projectId')).toBe(INPUT.projectId)
    }
    expect(list.filter((w) => !w.image_id).every((w) => w.image_url === undefined)).toBe(true)
    const first = await fetch(withImage[0]!.image_url!)
    expect(first.ok).toBe(true)
    expect(first.headers.get('content-type')).toMatch(/^image\//)
    actor.send({ type: 'wallets.search', query: 'walletstate' })
    await waitFor(actor, (s) => s.matches({ ready: { search: 'results' } }), { timeout: 2_000 })
    expect(selectWalletList(actor.getSnapshot()).map((w) => w.id)).toEqual([
      DEV_WALLET_IDS.injected,
      DEV_WALLET_IDS.walletConnect,
    ])
    actor.stop()
  })

  it('behavior: a listing that serves its first page forever is asked twice; a 10 MiB answer keeps the page', async () => {
    const requests: string[] = []
    const originalFetch = globalThis.fetch
    globalThis.fetch = (input, init) => {
      requests.push(String(input))
      return originalFetch(input, init)
    }
    listing.setHostile({ repeatFirstPage: true })
    try {
      const actor = createActor(walletsMachine.provide({ actors: createWalletsActors() }), {
        input: { ...INPUT, walletsApi: listing.origin, chains: ['eip155:31337'] },
      }).start()
      actor.send({ type: 'wallets.load' })
      await waitFor(actor, (s) => s.matches('ready'))
      for (let scroll = 0; scroll < 60 && selectHasMoreWallets(actor.getSnapshot()); scroll++) {
        actor.send({ type: 'wallets.loadMore' })
        await waitFor(actor, (s) => s.matches({ ready: { browse: 'browsing' } }))
      }
      expect(requests).toHaveLength(2)
      expect(selectHasMoreWallets(actor.getSnapshot())).toBe(false)
      expect(selectWalletList(actor.getSnapshot())).toHaveLength(40)
      actor.stop()

      listing.setHostile({ padBytes: 10 * 1024 * 1024 })
      const padded = createActor(walletsMachine.provide({ actors: createWalletsActors() }), {
        input: { ...INPUT, walletsApi: listing.origin, chains: ['eip155:31337'] },
      }).start()
      padded.send({ type: 'wallets.load' })
      await waitFor(padded, (s) => s.matches('ready'))
      expect(selectWalletList(padded.getSnapshot())).toHaveLength(40)
      expect(selectWalletList(padded.getSnapshot()).some((w) => w.id.startsWith('filler-'))).toBe(false)
      padded.stop()
    } finally {
      globalThis.fetch = originalFetch
      listing.setHostile({})
    }
  })
})
