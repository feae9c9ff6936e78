import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import {
  DEV_WALLET_IDS,
  HOSTILE_WALLET_IDS,
  HTML_NAME,
  type ListingApi,
  MISSING_IMAGE_ID,
  startListingApi,
} from '../../sandbox/api/listing.ts'
import {
  fetchWallets,
  WALLET_NAME_MAX_LENGTH,
  WalletsApiError,
  walletImageUrl,
} from '../../src/api/walletsApi'
import { SDK_TYPE, SDK_VERSION, WALLETS_PAGE_SIZE } from '../../src/constants'
import { BaseError } from '../../src/errors/base'

const projectId = 'wallets-api-test'
let listing: ListingApi

/** A throwaway server that answers whatever the test says, to show how the client treats bad answers. */
let stub: Server | undefined
let stubAnswer: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.end()
async function stubOrigin(): Promise<string> {
  if (!stub) {
    stub = createServer((req, res) => stubAnswer(req, res))
    await new Promise<void>((resolve) => stub!.listen(0, '127.0.0.1', resolve))
  }
  return `http://127.0.0.1:${(stub.address() as AddressInfo).port}`
}

beforeAll(async () => {
  listing = await startListingApi()
})
afterEach(async () => {
  await fetch(`${listing.origin}/__fault`, { method: 'POST', body: JSON.stringify({ mode: 'off' }) })
})
afterAll(async () => {
  await listing.close()
  if (stub) {
    stub.closeAllConnections()
    await new Promise<void>((resolve) => stub!.close(() => resolve()))
  }
})

describe('fetchWallets against the sandbox listing API', () => {
  const base = () => ({ walletsApi: listing.origin, projectId })

  it('default: a page of 40 and the total count', async () => {
    const { data, count } = await fetchWallets({ ...base(), page: 1, entries: WALLETS_PAGE_SIZE })
    expect(count).toBe(listing.catalogue.length)
    expect(data).toHaveLength(WALLETS_PAGE_SIZE)
    expect(data[0]).toMatchObject({ id: DEV_WALLET_IDS.injected, name: 'Walletstate Dev Wallet' })
    expect(data.map((w) => w.id)).toEqual(listing.catalogue.slice(0, 40).map((w) => w.id))
    // Unknown fields are not carried; nulls become absent fields.
    expect(data[0]).not.toHaveProperty('order')
    expect(data[0]).not.toHaveProperty('mobile_link')
  })

  it('parameters: chains, search, include and exclude reach the API', async () => {
    const anvil = listing.catalogue.filter((w) => w.chains.includes('eip155:31337'))
    const chained = await fetchWallets({ ...base(), page: 1, entries: 100, chains: ['eip155:31337'] })
    expect(chained.count).toBe(anvil.length)
    expect(chained.data.every((w) => w.chains.includes('eip155:31337'))).toBe(true)

    const search = await fetchWallets({ ...base(), page: 1, entries: 100, search: 'walletstate' })
    expect(search.data.map((w) => w.name).sort()).toEqual(['Walletstate Dev Wallet', 'Walletstate WC Wallet'])

    const include = await fetchWallets({
      ...base(),
      page: 1,
      entries: 10,
      include: [DEV_WALLET_IDS.walletConnect, HOSTILE_WALLET_IDS.longName],
    })
    expect(include.count).toBe(2)
    const exclude = await fetchWallets({ ...base(), page: 1, entries: 1, exclude: [DEV_WALLET_IDS.injected] })
    expect(exclude.count).toBe(listing.catalogue.length - 1)
    expect(exclude.data[0]?.id).toBe(DEV_WALLET_IDS.walletConnect)
  })

  it('behavior: the last page holds the rest; hostile entries are parsed safely, never dropped for a bad link', async () => {
    const last = await fetchWallets({ ...base(), page: 2, entries: WALLETS_PAGE_SIZE })
    expect(last.data).toHaveLength(listing.catalogue.length - WALLETS_PAGE_SIZE)
    const byId = new Map(last.data.map((w) => [w.id, w]))
    expect(byId.get(HOSTILE_WALLET_IDS.htmlName)?.name).toBe(HTML_NAME)
    const js = byId.get(HOSTILE_WALLET_IDS.javascriptLinks)
    expect(js).toBeDefined()
    expect(js).not.toHaveProperty('mobile_link')
    expect(js).not.toHaveProperty('desktop_link')
    expect(js).not.toHaveProperty('webapp_link')
    expect(js).not.toHaveProperty('homepage')
    const data = byId.get(HOSTILE_WALLET_IDS.dataLinks)
    expect(data && Object.values(data).some((value) => String(value).includes('data:'))).toBe(false)
    const long = byId.get(HOSTILE_WALLET_IDS.longName)
    expect(Array.from(long?.name ?? '')).toHaveLength(WALLET_NAME_MAX_LENGTH)
    expect(long?.name.endsWith('…')).toBe(true)
    expect(byId.get(HOSTILE_WALLET_IDS.missingImage)?.image_id).toBe(MISSING_IMAGE_ID)
    // Ordinary custom-scheme deep links survive.
    expect(last.data.some((w) => w.mobile_link?.match(/^[a-z]+:\/\/$/))).toBe(true)
  })

  it('behavior: a 500 (fault switch) throws WalletsApiError with the status and the server message', async () => {
    await fetch(`${listing.origin}/__fault`, {
      method: 'POST',
      body: JSON.stringify({ mode: 'fail', times: 1 }),
    })
    const error = await fetchWallets({ ...base(), page: 1, entries: 40 }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(WalletsApiError)
    expect(error).toBeInstanceOf(BaseError)
    const apiError = error as WalletsApiError
    expect(apiError.name).toBe('WalletsApiError')
    expect(apiError.status).toBe(500)
    expect(apiError.shortMessage).toMatchInlineSnapshot(`"Could not load wallets"`)
    expect(apiError.details).toMatchInlineSnapshot(`"HTTP 500: Internal error (sandbox fault switch)"`)
    // The switch was for one request: the next one succeeds.
    await expect(fetchWallets({ ...base(), page: 1, entries: 1 })).resolves.toMatchObject({ count: 71 })
  })

  it('behavior: a 400 from the API (missing parameter) is a WalletsApiError naming it', async () => {
    const error = await fetchWallets({ ...base(), projectId: '', page: 1, entries: 1 }).catch(
      (e: unknown) => e,
    )
    expect((error as WalletsApiError).details).toBe('HTTP 400: Missing query parameter: projectId')
  })

  it('behavior: a stalled API times out with a WalletsApiError', async () => {
    await fetch(`${listing.origin}/__fault`, {
      method: 'POST',
      body: JSON.stringify({ mode: 'stall', times: 1 }),
    })
    const error = await fetchWallets({ ...base(), page: 1, entries: 1, timeoutMs: 200 }).catch(
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(WalletsApiError)
    expect((error as WalletsApiError).details).toMatch(/did not answer within/)
  })

  it('behavior: a dropped socket and a refused connection are WalletsApiErrors', async () => {
    await fetch(`${listing.origin}/__fault`, {
      method: 'POST',
      body: JSON.stringify({ mode: 'drop', times: 1 }),
    })
    await expect(fetchWallets({ ...base(), page: 1, entries: 1 })).rejects.toBeInstanceOf(WalletsApiError)
    const error = await fetchWallets({
      walletsApi: 'http://127.0.0.1:1',
      projectId,
      page: 1,
      entries: 1,
    }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(WalletsApiError)
    expect((error as WalletsApiError).details).toMatch(/^Network error/)
  })

  it('behavior: an abort through the signal rejects with the abort reason, not a WalletsApiError', async () => {
    await fetch(`${listing.origin}/__fault`, {
      method: 'POST',
      body: JSON.stringify({ mode: 'stall', times: 1 }),
    })
    const controller = new AbortController()
    const pending = fetchWallets({ ...base(), page: 1, entries: 1, signal: controller.signal })
    controller.abort(new Error('view closed'))
    await expect(pending).rejects.toThrow('view closed')
  })
})

describe('fetchWallets against malformed answers', () => {
  const call = async () => fetchWallets({ walletsApi: await stubOrigin(), projectId, page: 1, entries: 40 })
  const answer = (status: number, body: string) => {
    stubAnswer = (_req, res) => {
      res.writeHead(status, { 'content-type': 'application/json' })
      res.end(body)
    }
  }

  it('drops invalid entries one by one and keeps the rest', async () => {
    answer(
      200,
      JSON.stringify({
        count: 9,
        data: [
          { id: 'good-1', name: 'Good One', chains: ['eip155:1'], mobile_link: 'goodone://' },
          { id: 'no-name' },
          { name: 'No id' },
          { id: 42, name: 'Numeric id' },
          { id: 'bad,id', name: 'Comma id' },
          { id: 'blank', name: ' \u0000 ' },
          'not an object',
          null,
          {
            id: 'good-2',
            name: 'Good\u202e Two',
            image_id: '../../secret',
            rdns: '<script>',
            chains: ['eip155:1', 7, 'not a chain', { x: 1 }],
            mobile_link: 'javascript:alert(1)',
            webapp_link: 'https://app.good.example',
            injected: [{ namespace: 'eip155', injected_id: 'io.good' }, { namespace: 1 }],
            supports_wc: 'yes',
            extra: { deep: true },
          },
          { id: 'good-1', name: 'Duplicate of good-1' },
        ],
      }),
    )
    const { data, count } = await call()
    expect(count).toBe(9)
    expect(data).toEqual([
      { id: 'good-1', name: 'Good One', chains: ['eip155:1'], mobile_link: 'goodone://' },
      {
        id: 'good-2',
        name: 'Good Two',
        chains: ['eip155:1'],
        webapp_link: 'https://app.good.example/',
        injected: [{ namespace: 'eip155', injected_id: 'io.good' }],
      },
    ])
  })

  it.each([
    ['not JSON', 200, '<html>oops</html>', /not JSON/],
    ['no data', 200, '{"count":1}', /unexpected body/],
    ['data not a list', 200, '{"count":1,"data":{}}', /unexpected body/],
    ['negative count', 200, '{"count":-1,"data":[]}', /unexpected body/],
    ['a list at the top', 200, '[]', /unexpected body/],
    ['503 with a text body', 503, 'down', /^HTTP 503$/],
  ])('throws WalletsApiError for %s', async (_what, status, body, details) => {
    answer(status, body)
    const error = await call().catch((e: unknown) => e)
    expect(error).toBeInstanceOf(WalletsApiError)
    expect((error as WalletsApiError).shortMessage).toBe('Could not load wallets')
    expect((error as WalletsApiError).details).toMatch(details)
  })
})

describe('walletImageUrl', () => {
  it('builds /getWalletImage/{id} with the three SDK parameters, served by the sandbox', async () => {
    const imageId = listing.catalogue[0]!.image_id
    const url = walletImageUrl({ walletsApi: listing.origin }, projectId, imageId)
    expect(url).toBe(
      `${listing.origin}/getWalletImage/${imageId}?projectId=${projectId}&st=${SDK_TYPE}&sv=${SDK_VERSION}`,
    )
    const res = await fetch(url)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/svg/)
    expect(
      (await fetch(walletImageUrl({ walletsApi: listing.origin }, projectId, MISSING_IMAGE_ID))).status,
    ).toBe(404)
  })
})
