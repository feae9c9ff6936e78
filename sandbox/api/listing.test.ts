import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CONNECTOR_IMAGE_IDS } from '../../src/constants.ts'
import { NETWORK_IMAGE_IDS } from '../../src/utils/networkImages.ts'
import { SANDBOX_GENESIS_HASH } from '../solana/rpc.ts'
import {
  ASSET_IMAGE_IDS,
  DEFAULT_ALLOWED_ORIGINS,
  DEV_WALLET_IDS,
  HOSTILE_WALLET_IDS,
  HTML_NAME,
  type ListingApi,
  type ListingWallet,
  LONG_NAME,
  MISSING_IMAGE_ID,
  startListingApi,
} from './listing.ts'

const SDK = { projectId: 'test-project', st: 'appkit', sv: 'html-wagmi-0.1.0' }

let api: ListingApi

function url(path: string, query: Record<string, string> = {}, sdk: Partial<typeof SDK> = SDK): string {
  const params = new URLSearchParams({ ...sdk, ...query })
  return `${api.origin}${path}?${params}`
}

interface Page {
  count: number
  data: ListingWallet[]
}

async function wallets(query: Record<string, string> = {}): Promise<Page> {
  const res = await fetch(url('/getWallets', query))
  expect(res.status).toBe(200)
  return (await res.json()) as Page
}

beforeAll(async () => {
  api = await startListingApi()
})
afterAll(async () => {
  await api.close()
})

describe('catalogue', () => {
  it('holds 60+ deterministic entries with 64-hex ids, including the two dev wallets', async () => {
    expect(api.catalogue.length).toBeGreaterThanOrEqual(60)
    const ids = api.catalogue.map((w) => w.id)
    expect(new Set(ids).size).toBe(ids.length)
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{64}$/)

    const again = await startListingApi()
    try {
      expect(again.catalogue).toEqual(api.catalogue)
    } finally {
      await again.close()
    }

    const dev = api.catalogue.find((w) => w.id === DEV_WALLET_IDS.injected)
    expect(dev).toMatchObject({ name: 'Walletstate Dev Wallet', rdns: 'io.walletstate.devwallet' })
    expect(dev?.chains).toContain('eip155:31337')
    expect(dev?.injected).toEqual([{ namespace: 'eip155', injected_id: 'io.walletstate.devwallet' }])
    const wc = api.catalogue.find((w) => w.id === DEV_WALLET_IDS.walletConnect)
    expect(wc).toMatchObject({ name: 'Walletstate WC Wallet', supports_wc: true })
  })

  it('lets the orchestrator override a dev wallet and add wallets', async () => {
    const other = await startListingApi({
      devWallets: [
        {
          id: DEV_WALLET_IDS.walletConnect,
          name: 'Walletstate WC Wallet',
          webapp_link: 'http://127.0.0.1:9/wc',
        },
        { id: 'a'.repeat(64), name: 'Added Wallet', rdns: 'io.walletstate.added', chains: ['eip155:31337'] },
      ],
    })
    try {
      const res = await fetch(`${other.origin}/getWallets?${new URLSearchParams({ ...SDK, entries: '3' })}`)
      const page = (await res.json()) as Page
      expect(page.data.map((w) => w.name)).toEqual([
        'Walletstate Dev Wallet',
        'Walletstate WC Wallet',
        'Added Wallet',
      ])
      expect(page.data[1]?.webapp_link).toBe('http://127.0.0.1:9/wc')
      expect(page.count).toBe(api.catalogue.length + 1)
      const image = await fetch(
        `${other.origin}/getWalletImage/${page.data[2]?.image_id}?${new URLSearchParams(SDK)}`,
      )
      expect(image.status).toBe(200)
    } finally {
      await other.close()
    }
  })
})

describe('GET /getWallets', () => {
  it('pages 40 at a time with the total count', async () => {
    const total = api.catalogue.length
    const first = await wallets({ page: '1', entries: '40' })
    const second = await wallets({ page: '2', entries: '40' })
    const third = await wallets({ page: '3', entries: '40' })
    expect(first.count).toBe(total)
    expect(second.count).toBe(total)
    expect(first.data).toHaveLength(40)
    expect(second.data).toHaveLength(total - 40)
    expect(third.data).toHaveLength(0)
    const ids = [...first.data, ...second.data].map((w) => w.id)
    expect(ids).toEqual(api.catalogue.map((w) => w.id))
    expect(first.data[0]?.name).toBe('Walletstate Dev Wallet')
    // Defaults: page 1, 40 entries.
    expect((await wallets()).data.map((w) => w.id)).toEqual(first.data.map((w) => w.id))
  })

  it('serves the listing entry fields', async () => {
    const { data } = await wallets({ entries: '5' })
    for (const wallet of data) {
      for (const key of [
        'id',
        'image_id',
        'name',
        'rdns',
        'chains',
        'mobile_link',
        'desktop_link',
        'webapp_link',
      ]) {
        expect(wallet).toHaveProperty(key)
      }
    }
  })

  it('refuses bad paging parameters', async () => {
    const queries: Array<Record<string, string>> = [
      { page: '0' },
      { page: 'two' },
      { entries: '101' },
      { entries: '-1' },
      { badge_type: 'gold' },
    ]
    for (const query of queries) {
      const res = await fetch(url('/getWallets', query))
      expect(res.status, JSON.stringify(query)).toBe(400)
      const body = (await res.json()) as { error: string }
      expect(body.error).toMatch(/^Invalid query parameter (page|entries|badge_type)/)
    }
  })

  it('searches names case-insensitively', async () => {
    const aurora = await wallets({ search: 'aURORA' })
    expect(aurora.data.map((w) => w.name).sort()).toEqual(['Aurora Keys', 'Aurora Vault', 'Aurora Wallet'])
    expect(aurora.count).toBe(3)
    const dev = await wallets({ search: 'walletstate', entries: '100' })
    expect(dev.data.map((w) => w.id)).toEqual([DEV_WALLET_IDS.injected, DEV_WALLET_IDS.walletConnect])
    expect((await wallets({ search: 'no such wallet anywhere' })).count).toBe(0)
  })

  it('includes and excludes by id', async () => {
    const [a, b, c] = api.catalogue.slice(10, 13)
    const included = await wallets({ include: `${c?.id},${a?.id}` })
    expect(included.count).toBe(2)
    expect(included.data.map((w) => w.id)).toEqual([a?.id, c?.id])

    const excluded = await wallets({ exclude: `${a?.id},${b?.id}`, entries: '100' })
    expect(excluded.count).toBe(api.catalogue.length - 2)
    expect(excluded.data.map((w) => w.id)).not.toContain(a?.id)
    expect(excluded.data.map((w) => w.id)).not.toContain(b?.id)

    const both = await wallets({ include: `${a?.id},${b?.id}`, exclude: `${b?.id}` })
    expect(both.data.map((w) => w.id)).toEqual([a?.id])
  })

  it('filters by chains (any of the listed CAIP-2 ids)', async () => {
    const all = api.catalogue
    const local = await wallets({ chains: 'eip155:31337', entries: '100' })
    const expectedLocal = all.filter((w) => w.chains.includes('eip155:31337'))
    expect(local.count).toBe(expectedLocal.length)
    expect(local.count).toBeGreaterThan(0)
    expect(local.count).toBeLessThan(all.length)
    for (const wallet of local.data) expect(wallet.chains).toContain('eip155:31337')

    const solana = 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp'
    const either = await wallets({ chains: `eip155:31337,${solana}`, entries: '100' })
    const expectedEither = all.filter((w) => w.chains.includes('eip155:31337') || w.chains.includes(solana))
    expect(either.count).toBe(expectedEither.length)
    expect(either.count).toBeGreaterThan(local.count)

    const bad = await fetch(url('/getWallets', { chains: 'eip155:1,not a chain' }))
    expect(bad.status).toBe(400)
  })

  it('filters by badge type', async () => {
    const certified = await wallets({ badge_type: 'certified', entries: '100' })
    expect(certified.count).toBe(api.catalogue.filter((w) => w.badge_type === 'certified').length)
    expect(certified.count).toBeGreaterThan(0)
    for (const wallet of certified.data) expect(wallet.badge_type).toBe('certified')
  })

  it('serves the hostile entries verbatim (sanitising is the kit’s job)', async () => {
    const ids = Object.values(HOSTILE_WALLET_IDS)
    const { data } = await wallets({ include: ids.join(',') })
    const byId = new Map(data.map((w) => [w.id, w]))
    expect(byId.size).toBe(ids.length)
    expect(byId.get(HOSTILE_WALLET_IDS.htmlName)?.name).toBe(HTML_NAME)
    expect(HTML_NAME).toBe('<img src=x onerror=alert(1)>Evil')
    const js = byId.get(HOSTILE_WALLET_IDS.javascriptLinks)
    expect(js?.mobile_link).toMatch(/^javascript:/)
    expect(js?.desktop_link).toMatch(/^javascript:/i)
    expect(js?.webapp_link?.trim()).toMatch(/^javascript:/)
    const dataLinks = byId.get(HOSTILE_WALLET_IDS.dataLinks)
    for (const link of [dataLinks?.mobile_link, dataLinks?.desktop_link, dataLinks?.webapp_link]) {
      expect(link).toMatch(/^data:/)
    }
    expect(byId.get(HOSTILE_WALLET_IDS.longName)?.name).toBe(LONG_NAME)
    expect(LONG_NAME.length).toBe(300)
    const missing = byId.get(HOSTILE_WALLET_IDS.missingImage)
    expect(missing?.image_id).toBe(MISSING_IMAGE_ID)
    const image = await fetch(url(`/getWalletImage/${MISSING_IMAGE_ID}`))
    expect(image.status).toBe(404)
    // Searching finds the HTML-named entry like any other.
    expect((await wallets({ search: 'evil' })).data.map((w) => w.id)).toContain(HOSTILE_WALLET_IDS.htmlName)
  })
})

describe('images', () => {
  async function svg(path: string): Promise<string> {
    const res = await fetch(url(path))
    expect(res.status, path).toBe(200)
    expect(res.headers.get('content-type')).toBe('image/svg+xml')
    const text = await res.text()
    expect(text.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true)
    return text
  }

  it('serves a deterministic SVG per wallet image id', async () => {
    const wallet = api.catalogue[0]!
    const a = await svg(`/getWalletImage/${wallet.image_id}`)
    const b = await svg(`/getWalletImage/${wallet.image_id}`)
    expect(a).toBe(b)
    expect(a).toContain('>WD</text>')
    const other = await svg(`/getWalletImage/${api.catalogue[5]!.image_id}`)
    expect(other).not.toBe(a)
    // The HTML-named wallet's badge carries no markup from its name.
    const evil = api.catalogue.find((w) => w.id === HOSTILE_WALLET_IDS.htmlName)!
    expect(await svg(`/getWalletImage/${evil.image_id}`)).not.toContain('<img')
  })

  it('serves asset, currency and token images', async () => {
    await svg(`/public/getAssetImage/${ASSET_IMAGE_IDS['eip155:1']}`)
    await svg(`/public/getAssetImage/${ASSET_IMAGE_IDS['eip155:31337']}`)
    await svg(`/public/getAssetImage/${ASSET_IMAGE_IDS['connector:walletConnect']}`)
    await svg('/public/getCurrencyImage/USD')
    await svg('/public/getCurrencyImage/eur')
    for (const symbol of ['ETH', 'USDC', 'USDT', 'STK']) await svg(`/public/getTokenImage/${symbol}`)
  })

  it("serves the kit's own connector images (SPEC §3 Connector imageId, the kit's CONNECTOR_IMAGE_IDS)", async () => {
    for (const [id, imageId] of Object.entries(CONNECTOR_IMAGE_IDS)) {
      expect(ASSET_IMAGE_IDS[`connector:${id}`]).toBe(imageId)
      await svg(`/public/getAssetImage/${imageId}`)
    }
  })

  it("serves the kit's network images (SPEC §7 network icons use getAssetImage, the kit's NETWORK_IMAGE_IDS)", async () => {
    for (const [caip, imageId] of Object.entries(NETWORK_IMAGE_IDS)) {
      expect(ASSET_IMAGE_IDS[caip]).toBe(imageId)
      await svg(`/public/getAssetImage/${imageId}`)
    }
    expect(NETWORK_IMAGE_IDS[`solana:${SANDBOX_GENESIS_HASH}`]).toBeDefined()
  })

  it('answers 404 for unknown image ids', async () => {
    for (const path of [
      '/getWalletImage/00000000-0000-0000-0000-000000000000',
      '/public/getAssetImage/nope',
      '/public/getCurrencyImage/XXX',
      '/public/getTokenImage/NOPE',
    ]) {
      const res = await fetch(url(path))
      expect(res.status, path).toBe(404)
      expect(((await res.json()) as { error: string }).error).toMatch(/^No \w+ image with id/)
    }
  })
})

describe('SDK query parameters', () => {
  const paths = [
    '/getWallets',
    `/getWalletImage/${'x'}`,
    '/public/getAssetImage/x',
    '/public/getCurrencyImage/USD',
    '/public/getTokenImage/ETH',
    '/projects/v1/origins',
    '/getAnalyticsConfig',
  ]

  it('refuses every endpoint without projectId, st or sv, naming the parameter', async () => {
    for (const path of paths) {
      for (const name of ['projectId', 'st', 'sv'] as const) {
        const sdk: Partial<typeof SDK> = { ...SDK }
        delete sdk[name]
        const res = await fetch(url(path, {}, sdk))
        expect(res.status, `${path} without ${name}`).toBe(400)
        const body = (await res.json()) as { error: string; parameter: string }
        expect(body.error).toBe(`Missing query parameter: ${name}`)
        expect(body.parameter).toBe(name)
      }
    }
    const empty = await fetch(url('/getWallets', {}, { ...SDK, projectId: '' }))
    expect(((await empty.json()) as { error: string }).error).toBe('Missing query parameter: projectId')
    const none = await fetch(`${api.origin}/getAnalyticsConfig`)
    expect(((await none.json()) as { error: string }).error).toBe('Missing query parameter: projectId')
  })

  it('answers 404 for unknown paths and 405 for wrong methods', async () => {
    const unknown = await fetch(url('/getWalletz'))
    expect(unknown.status).toBe(404)
    expect(((await unknown.json()) as { error: string }).error).toBe('No such path: /getWalletz')
    expect((await fetch(`${api.origin}/`)).status).toBe(404)
    const post = await fetch(url('/getWallets'), { method: 'POST', body: '{}' })
    expect(post.status).toBe(405)
    expect(post.headers.get('allow')).toBe('GET')
  })

  it('refuses project ids outside an allow-list with 403 when one is configured', async () => {
    const strict = await startListingApi({ projectIds: ['good-project'] })
    try {
      const bad = await fetch(`${strict.origin}/getAnalyticsConfig?${new URLSearchParams(SDK)}`)
      expect(bad.status).toBe(403)
      expect(((await bad.json()) as { error: string }).error).toBe('Invalid project id')
      const good = await fetch(
        `${strict.origin}/getAnalyticsConfig?${new URLSearchParams({ ...SDK, projectId: 'good-project' })}`,
      )
      expect(good.status).toBe(200)
    } finally {
      await strict.close()
    }
  })
})

describe('origins and analytics config', () => {
  it('refuses the analytics config (403) to a page whose origin the project does not allow', async () => {
    const asPage = (origin: string) => fetch(url('/getAnalyticsConfig'), { headers: { origin } })
    api.setAllowedOrigins(['https://app.example', 'http://127.0.0.1:*'])
    try {
      const refused = await asPage('https://evil.example')
      expect(refused.status).toBe(403)
      expect(await refused.json()).toMatchObject({ error: 'Origin not allowed for this project' })
      expect((await asPage('https://app.example')).status).toBe(200)
      expect((await asPage('http://127.0.0.1:5173')).status).toBe(200)
      // A `*` never spans the host: another host on the allowed port pattern is refused.
      expect((await asPage('http://127.0.0.2:5173')).status).toBe(403)
    } finally {
      api.setAllowedOrigins(DEFAULT_ALLOWED_ORIGINS)
    }
  })

  it('answers the defaults, then what it is told', async () => {
    const origins = async () =>
      (await (await fetch(url('/projects/v1/origins'))).json()) as { allowedOrigins: string[] }
    const analytics = async () =>
      (await (await fetch(url('/getAnalyticsConfig'))).json()) as { isAnalyticsEnabled: boolean }
    expect(await origins()).toEqual({ allowedOrigins: DEFAULT_ALLOWED_ORIGINS })
    expect(DEFAULT_ALLOWED_ORIGINS).toEqual(['http://127.0.0.1:*', 'http://localhost:*'])
    expect(await analytics()).toEqual({ isAnalyticsEnabled: true })

    api.setAllowedOrigins(['https://app.example'])
    api.setAnalyticsEnabled(false)
    expect(await origins()).toEqual({ allowedOrigins: ['https://app.example'] })
    expect(await analytics()).toEqual({ isAnalyticsEnabled: false })

    const res = await fetch(`${api.origin}/__config`, {
      method: 'POST',
      body: JSON.stringify({ allowedOrigins: DEFAULT_ALLOWED_ORIGINS, isAnalyticsEnabled: true }),
    })
    expect(res.status).toBe(200)
    expect(await origins()).toEqual({ allowedOrigins: DEFAULT_ALLOWED_ORIGINS })
    expect(await analytics()).toEqual({ isAnalyticsEnabled: true })
    expect(api.config()).toEqual({ allowedOrigins: DEFAULT_ALLOWED_ORIGINS, isAnalyticsEnabled: true })

    const bad = await fetch(`${api.origin}/__config`, {
      method: 'POST',
      body: '{"isAnalyticsEnabled":"yes"}',
    })
    expect(bad.status).toBe(400)
  })

  it('takes its settings from the options', async () => {
    const other = await startListingApi({ allowedOrigins: [], isAnalyticsEnabled: false })
    try {
      const q = new URLSearchParams(SDK)
      expect(await (await fetch(`${other.origin}/projects/v1/origins?${q}`)).json()).toEqual({
        allowedOrigins: [],
      })
      expect(await (await fetch(`${other.origin}/getAnalyticsConfig?${q}`)).json()).toEqual({
        isAnalyticsEnabled: false,
      })
    } finally {
      await other.close()
    }
  })
})

describe('fault switch', () => {
  it('fails, then recovers, and answers 429 with Retry-After', async () => {
    const set = (fault: object) =>
      fetch(`${api.origin}/__fault`, { method: 'POST', body: JSON.stringify(fault) }).then((r) => r.status)
    expect(await set({ mode: 'fail', times: 1, path: '/getWallets' })).toBe(200)
    // Other paths are untouched by a path-scoped fault.
    expect((await fetch(url('/getAnalyticsConfig'))).status).toBe(200)
    expect((await fetch(url('/getWallets'))).status).toBe(500)
    expect((await fetch(url('/getWallets'))).status).toBe(200)

    expect(await set({ mode: '429', retryAfterSeconds: 7 })).toBe(200)
    const limited = await fetch(url('/projects/v1/origins'))
    expect(limited.status).toBe(429)
    expect(limited.headers.get('retry-after')).toBe('7')
    expect(await set({ mode: 'off' })).toBe(200)
    expect((await fetch(url('/projects/v1/origins'))).status).toBe(200)
  })
})

describe('hostile listing modes (test-only)', () => {
  const config = (body: object) =>
    fetch(`${api.origin}/__config`, { method: 'POST', body: JSON.stringify(body) }).then((r) => r.status)

  it('padBytes: the page, then valid filler wallets up to the size, in one JSON answer; {} turns it off', async () => {
    expect(await config({ hostile: { padBytes: 10 * 1024 * 1024 } })).toBe(200)
    try {
      const res = await fetch(url('/getWallets', { page: '1', entries: '40' }))
      const text = await res.text()
      expect(text.length).toBeGreaterThanOrEqual(10 * 1024 * 1024)
      const page = JSON.parse(text) as Page
      expect(page.count).toBe(api.catalogue.length)
      expect(page.data.slice(0, 40).map((w) => w.id)).toEqual(api.catalogue.slice(0, 40).map((w) => w.id))
      expect(page.data.length).toBeGreaterThan(50_000)
      expect(page.data[40]).toMatchObject({ id: 'filler-0', name: 'Filler Wallet 0' })
      // An empty page still parses.
      const beyond = JSON.parse(await (await fetch(url('/getWallets', { page: '99' }))).text()) as Page
      expect(beyond.data[0]).toMatchObject({ id: 'filler-0' })
    } finally {
      api.setHostile({})
    }
    expect((await wallets({ entries: '40' })).data).toHaveLength(40)
  })

  it('extraWallets and repeatFirstPage: a long list, and a listing that never ends', async () => {
    api.setHostile({ extraWallets: 500 })
    try {
      const first = await wallets({ entries: '40', chains: 'eip155:31337' })
      const all = await wallets({ entries: '1', page: '1' })
      expect(all.count).toBe(api.catalogue.length + 500)
      expect(first.count).toBeGreaterThan(500)
      const last = await wallets({ entries: '100', page: String(Math.ceil(all.count / 100)) })
      expect(last.data.at(-1)).toMatchObject({ id: 'extra-000500', name: 'Extra Wallet 000500' })

      api.setHostile({ repeatFirstPage: true })
      const page1 = await wallets({ entries: '40', page: '1' })
      const page7 = await wallets({ entries: '40', page: '7' })
      expect(page7).toEqual(page1)
      expect(page7.count).toBe(1_000_000)
    } finally {
      api.setHostile({})
    }
  })

  it('refuses hostile settings out of bounds', async () => {
    expect(await config({ hostile: { padBytes: 1e12 } })).toBe(400)
    expect(await config({ hostile: { extraWallets: -1 } })).toBe(400)
    expect(await config({ hostile: { other: true } })).toBe(400)
  })
})
