import { describe, expect, it } from 'vitest'
import {
  SDK_TYPE,
  SDK_VERSION,
  WALLET_CHAINS_MAX,
  WALLET_INJECTED_MAX,
  WALLETS_ENTRIES_MAX,
} from '../constants'
import {
  fetchWallets,
  ListingPageReader,
  parseWalletListing,
  WalletsApiError,
  walletImageUrl,
  walletsUrl,
} from './walletsApi'

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

/** A listing answer generated as it is pulled, in 16 KiB pieces: `pulled` says how much was ever asked for. */
function streamedListing(options: {
  count?: number
  entries: number
  countLast?: boolean
  entry?: (i: number) => unknown
}) {
  const encoder = new TextEncoder()
  const entry =
    options.entry ?? ((i: number) => ({ id: `w-${i}`, name: `Wallet ${i}`, chains: ['eip155:1'] }))
  const head =
    options.countLast || options.count === undefined ? '{"data":[' : `{"count":${options.count},"data":[`
  const tail = options.countLast && options.count !== undefined ? `],"count":${options.count}}` : ']}'
  let index = -1
  let pending = new Uint8Array(0)
  const meter = { pulled: 0, cancelled: false }
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      while (pending.byteLength < 16 * 1024 && index <= options.entries) {
        const text =
          index === -1
            ? head
            : index === options.entries
              ? tail
              : `${index > 0 ? ',' : ''}${JSON.stringify(entry(index))}`
        index++
        const bytes = encoder.encode(text)
        const joined = new Uint8Array(pending.byteLength + bytes.byteLength)
        joined.set(pending)
        joined.set(bytes, pending.byteLength)
        pending = joined
      }
      if (pending.byteLength === 0) {
        controller.close()
        return
      }
      const piece = pending.subarray(0, 16 * 1024)
      pending = pending.subarray(piece.byteLength)
      meter.pulled += piece.byteLength
      controller.enqueue(piece)
    },
    cancel() {
      meter.cancelled = true
    },
  })
  const fetch: typeof globalThis.fetch = async () =>
    new Response(stream, { headers: { 'content-type': 'application/json' } })
  return { fetch, meter }
}

const listingCall = (fetch: typeof globalThis.fetch, entries = 40, page = 1) =>
  fetchWallets({ walletsApi: 'https://wallets.example', projectId: 'p', page, entries, fetch })

describe('fetchWallets: bounded answers', () => {
  it('behavior: a 10 MB answer keeps only the requested page and stops reading after it', async () => {
    // ~100 bytes an entry: 100,000 entries is a 10 MB body.
    const { fetch, meter } = streamedListing({ count: 100_000, entries: 100_000 })
    const { data, count } = await listingCall(fetch)
    expect(data.map((w) => w.id)).toEqual(Array.from({ length: 40 }, (_, i) => `w-${i}`))
    expect(count).toBe(100_000)
    expect(meter.pulled).toBeLessThan(64 * 1024)
    expect(meter.cancelled).toBe(true)
  })

  it('behavior: invalid and repeated entries do not count toward the page', async () => {
    const { fetch } = streamedListing({
      count: 5000,
      entries: 5000,
      entry: (i) =>
        i % 2 === 0 ? { id: `w-${i % 10}`, name: `W ${i}` } : { id: `bad ${i}`, name: 'Bad id' },
    })
    const { data } = await listingCall(fetch)
    // Only five distinct valid ids exist in the whole answer: the page takes them, never more.
    expect(data.map((w) => w.id)).toEqual(['w-0', 'w-2', 'w-4', 'w-6', 'w-8'])
  })

  it('behavior: count after a full page is not waited for; the count is then a lower bound (one more)', async () => {
    const { fetch, meter } = streamedListing({ count: 100_000, entries: 100_000, countLast: true })
    const { data, count } = await listingCall(fetch, 40, 3)
    expect(data).toHaveLength(40)
    expect(count).toBe(2 * 40 + 40 + 1)
    expect(meter.cancelled).toBe(true)
    // A short page read to its end still takes the count that follows it.
    const short = streamedListing({ count: 7, entries: 7, countLast: true })
    expect(await listingCall(short.fetch)).toMatchObject({ count: 7 })
  })

  it('behavior: a page larger than 100 entries is cut to 100 whatever `entries` asked', async () => {
    const { fetch } = streamedListing({ count: 500, entries: 500 })
    const { data } = await listingCall(fetch, 1000)
    expect(data).toHaveLength(WALLETS_ENTRIES_MAX)
  })

  it('behavior: arrays inside an entry are capped (chains 256, injected 16)', async () => {
    const { fetch } = streamedListing({
      count: 1,
      entries: 1,
      entry: () => ({
        id: 'many',
        name: 'Many',
        chains: Array.from({ length: 5000 }, (_, i) => `eip155:${i + 1}`),
        injected: Array.from({ length: 5000 }, (_, i) => ({ namespace: 'eip155', injected_id: `io.w${i}` })),
      }),
    })
    const [wallet] = (await listingCall(fetch)).data
    expect(wallet?.chains).toHaveLength(WALLET_CHAINS_MAX)
    expect(wallet?.injected).toHaveLength(WALLET_INJECTED_MAX)
  })

  it('behavior: an answer whose page does not fit the byte limit fails with WalletsApiError', async () => {
    const { fetch } = streamedListing({
      count: 10,
      entries: 10,
      entry: (i) => ({ id: `w${i}`, name: 'x', pad: 'p'.repeat(300_000) }),
    })
    const error = await fetchWallets({
      walletsApi: 'https://wallets.example',
      projectId: 'p',
      page: 1,
      entries: 40,
      fetch,
    }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(WalletsApiError)
    expect((error as WalletsApiError).details).toBe(
      'The wallet listing answered more than 1 MiB, the most the kit reads',
    )
  })
})

describe('ListingPageReader', () => {
  it('reads an answer split anywhere, even inside a string', () => {
    const text = '{"count":2,"data":[{"id":"a","name":"A \\u00e9"},{"id":"b","name":"B"}]}'
    const bytes = new TextEncoder().encode(text)
    for (let cut = 1; cut < bytes.length; cut++) {
      const reader = new ListingPageReader(40)
      reader.write(bytes.subarray(0, cut))
      reader.write(bytes.subarray(cut))
      expect(reader.finish(1)).toEqual({
        count: 2,
        data: [
          { id: 'a', name: 'A é', chains: [] },
          { id: 'b', name: 'B', chains: [] },
        ],
      })
    }
  })

  it.each([
    ['{"count":1,"data":[]} x', /not JSON/],
    ['{"count":1,"data":"[]"}', /data is not a list/],
    ['{"count":1,"data":null}', /data is not a list/],
    ['{"count":1.5,"data":[]}', /count/],
    ['{"count":1,"data":[', /not JSON/],
    ['', /not JSON/],
  ])('refuses %s', (text, message) => {
    const reader = new ListingPageReader(40)
    expect(() => {
      reader.write(new TextEncoder().encode(text))
      reader.finish(1)
    }).toThrow(message)
  })
})
