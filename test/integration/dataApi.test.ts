import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { QueryClient } from '@tanstack/react-query'
import {
  type Address,
  createPublicClient,
  createWalletClient,
  getAddress,
  type Hex,
  http,
  parseUnits,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { getBalanceQueryOptions } from 'wagmi/query'
import { type DataApi, NATIVE_TOKEN_ADDRESS, SEEDED_NAME, startDataApi } from '../../sandbox/api/data.ts'
import { openDatabase, type SandboxDb } from '../../sandbox/api/db.ts'
import { type Chain, startChain } from '../../sandbox/chain/chain.ts'
import { sandboxTokenAbi, sandboxTokenBytecode } from '../../sandbox/chain/contracts/build/artifacts.gen.ts'
import { rpcEndpoint, startRpcService } from '../../sandbox/chain/rpc.ts'
import type { SandboxService } from '../../sandbox/shared/http.ts'
import { createDataApiClient, type DataApiClient, getDataApiClient } from '../../src/api/dataApi'
import {
  balancesQuery,
  dataApiKeys,
  fetchQueryFor,
  historyQuery,
  identityQuery,
  namesQuery,
  nftsQuery,
  resolvedNameQuery,
} from '../../src/api/queries'
import { getWagmiConfig } from '../../src/chains/eip155/wagmi'
import { defineEvmNetwork, resolveConfig } from '../../src/config'
import {
  BALANCE_CACHE_MS,
  DATA_API_MAX_ITEMS,
  DATA_API_MAX_NAME_ADDRESSES,
  DATA_API_MAX_NAME_ATTRIBUTES,
  DATA_API_MAX_TRANSFERS,
  NAME_CACHE_MS,
  SDK_TYPE,
  SDK_VERSION,
  SUPPORTED_CHAINS_CACHE_MS,
} from '../../src/constants'
import { DataApiError } from '../../src/errors/api'
import { BaseError } from '../../src/errors/base'

const projectId = 'data-api-client-test'
const CHAIN = 'eip155:31337'

let chain: Chain
let db: SandboxDb
let api: DataApi
/** Every URL the clients of a test asked for, to show what went over the wire. */
let asked: URL[] = []
const spy: typeof fetch = (input, init) => {
  asked.push(new URL(String(input)))
  return fetch(input, init)
}
const paths = () => asked.map((url) => url.pathname)

/** A client as the kit builds it: its network checks cached in a QueryClient (a fresh one unless given). */
function newClient(options: Partial<Parameters<typeof createDataApiClient>[0]> = {}): DataApiClient {
  return createDataApiClient({
    api: api.origin,
    projectId,
    fetch: spy,
    queryClient: new QueryClient(),
    ...options,
  })
}

async function mined(hash: Hex): Promise<Hex> {
  const reader = createPublicClient({ transport: http(chain.rpcUrl), pollingInterval: 20 })
  await reader.waitForTransactionReceipt({ hash, pollingInterval: 20 })
  return hash
}

function walletOf(privateKey: Hex) {
  return createWalletClient({
    account: privateKeyToAccount(privateKey),
    chain: chain.viemChain,
    transport: http(chain.rpcUrl),
  })
}

async function fault(service: { origin: string }, body: object) {
  const res = await fetch(`${service.origin}/__fault`, { method: 'POST', body: JSON.stringify(body) })
  expect(res.status).toBe(200)
}

/** A token with decimals 0, deployed for real, so the API lists a balance the kit must drop (SPEC §5). */
let wholeToken: Address

beforeAll(async () => {
  ;[chain, db] = await Promise.all([startChain(), openDatabase()])
  const deployer = walletOf(chain.accounts[0]!.privateKey)
  const reader = createPublicClient({ transport: http(chain.rpcUrl), pollingInterval: 20 })
  const deployed = await reader.waitForTransactionReceipt({
    hash: await deployer.deployContract({
      abi: sandboxTokenAbi,
      bytecode: sandboxTokenBytecode,
      args: ['Whole Points', 'PTS', 0],
    }),
    pollingInterval: 20,
  })
  wholeToken = getAddress(deployed.contractAddress!)
  await mined(
    await deployer.writeContract({
      address: wholeToken,
      abi: sandboxTokenAbi,
      functionName: 'mint',
      args: [chain.accounts[1]!.address, 42n],
    }),
  )
  api = await startDataApi({
    rpcUrl: chain.rpcUrl,
    chainId: chain.chainId,
    tokens: [...chain.tokens, { address: wholeToken, name: 'Whole Points', symbol: 'PTS', decimals: 0 }],
    db,
  })
})
afterEach(async () => {
  asked = []
  await fault(api, { mode: 'off' })
})
afterAll(async () => {
  await api?.close()
  await db?.close()
  await chain?.close()
})

describe('every call', () => {
  it('carries projectId, st and sv, and the network check comes first, once', async () => {
    const client = newClient()
    const dev = chain.accounts[0]!.address
    await client.getBalances({ address: dev, chainId: CHAIN })
    await client.getHistory({ account: dev, chainId: CHAIN })
    await client.getNfts({ account: dev, chainId: CHAIN })
    await client.getIdentity({ address: dev, chainId: CHAIN })
    await client.getNames({ address: dev, chainId: CHAIN })
    await client.getNameRecord({ name: SEEDED_NAME })
    await client.getPrices({ addresses: [`${CHAIN}:${NATIVE_TOKEN_ADDRESS}`] })
    expect(paths()).toEqual([
      '/v1/supported-chains',
      `/v1/account/${dev}/balance`,
      `/v1/account/${dev}/history`,
      `/v1/account/${dev}/nfts`,
      `/v1/identity/${dev}`,
      `/v1/profile/reverse/${dev}`,
      `/v1/profile/account/${SEEDED_NAME}`,
      '/v1/fungible/price',
    ])
    for (const url of asked) {
      expect([...url.searchParams.entries()].slice(0, 3), url.pathname).toEqual([
        ['projectId', projectId],
        ['st', SDK_TYPE],
        ['sv', SDK_VERSION],
      ])
    }
  })

  it('the supported-networks answer lives in the QueryClient: shared by concurrent calls, asked again when stale', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    try {
      const queryClient = new QueryClient()
      const client = newClient({ queryClient })
      const answers = await Promise.all([
        client.isNetworkSupported(CHAIN),
        client.isNetworkSupported('eip155:1'),
        client.getSupportedChains(),
      ])
      expect(answers).toEqual([true, false, { http: [CHAIN], ws: [] }])
      expect(paths()).toEqual(['/v1/supported-chains'])
      expect(queryClient.getQueryData(dataApiKeys.supportedChains(client))).toEqual({ http: [CHAIN], ws: [] })
      vi.setSystemTime(Date.now() + SUPPORTED_CHAINS_CACHE_MS - 1)
      await client.isNetworkSupported(CHAIN)
      expect(asked).toHaveLength(1)
      vi.setSystemTime(Date.now() + 1)
      await client.isNetworkSupported(CHAIN)
      expect(asked).toHaveLength(2)
      // Another client on the same QueryClient and API shares the cached answer.
      await newClient({ queryClient }).isNetworkSupported(CHAIN)
      expect(asked).toHaveLength(2)
    } finally {
      vi.useRealTimers()
    }
  })

  it('without a QueryClient the client keeps no cache: every network check asks', async () => {
    const client = createDataApiClient({ api: api.origin, projectId, fetch: spy })
    await client.isNetworkSupported(CHAIN)
    await client.isNetworkSupported(CHAIN)
    expect(paths()).toEqual(['/v1/supported-chains', '/v1/supported-chains'])
  })

  it('a caller that stops waiting does not cancel the shared network check', async () => {
    const queryClient = new QueryClient()
    const client = newClient({ queryClient })
    const controller = new AbortController()
    const first = client.isNetworkSupported(CHAIN, { signal: controller.signal })
    const second = client.isNetworkSupported(CHAIN)
    controller.abort(new Error('left'))
    await expect(first).rejects.toThrow('left')
    await expect(second).resolves.toBe(true)
    expect(paths()).toEqual(['/v1/supported-chains'])
  })
})

describe('balances', () => {
  it('default: the chain’s balances, decimals "0" tokens dropped', async () => {
    const { balances, supported } = await newClient().getBalances({
      address: chain.accounts[1]!.address,
      chainId: CHAIN,
    })
    expect(supported).toBe(true)
    expect(balances.map((b) => [b.symbol, b.quantity.numeric])).toEqual([
      ['ETH', '10000'],
      ['USDC', '10000'],
      ['STK', '1000'],
      ['USDT', '10000'],
    ])
    // The API did list the 0-decimals token: the kit dropped it.
    const raw = await fetch(
      `${api.origin}/v1/account/${chain.accounts[1]!.address}/balance?${new URLSearchParams({ projectId, st: 'x', sv: '1', chainId: CHAIN })}`,
    )
    const listed = ((await raw.json()) as { balances: Array<{ symbol: string }> }).balances
    expect(listed.map((b) => b.symbol)).toContain('PTS')
    expect(balances[1]).toEqual({
      name: 'Sandbox USD Coin',
      symbol: 'USDC',
      chainId: CHAIN,
      address: `${CHAIN}:${chain.contracts.usdc}`,
      value: 10_000,
      price: 1,
      quantity: { decimals: '6', numeric: '10000' },
      iconUrl: `${api.origin}/icons/USDC.svg`,
    })
  })

  it('behavior: an unsupported network gives an empty list, no balance call and no error', async () => {
    const client = newClient()
    expect(await client.getBalances({ address: chain.accounts[1]!.address, chainId: 'eip155:1' })).toEqual({
      balances: [],
      supported: false,
    })
    expect(
      await client.getBalances({ address: 'x', chainId: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp' }),
    ).toEqual({
      balances: [],
      supported: false,
    })
    expect(paths()).toEqual(['/v1/supported-chains'])
  })

  it('behavior: a failing balance call, or a failing network check, is "Token Balance Unavailable"', async () => {
    const client = newClient()
    await fault(api, { mode: 'fail', times: 1, path: '/v1/account' })
    const failed = await client
      .getBalances({ address: chain.accounts[1]!.address, chainId: CHAIN })
      .catch((e: unknown) => e)
    expect(failed).toBeInstanceOf(DataApiError)
    expect(failed).toBeInstanceOf(BaseError)
    expect(failed).toMatchObject({
      name: 'DataApiError',
      call: 'balance',
      kind: 'http',
      status: 500,
      shortMessage: 'Token Balance Unavailable',
      details: 'HTTP 500: Internal error (sandbox fault switch)',
    })

    await fault(api, { mode: '429', times: 1, retryAfterSeconds: 1, path: '/v1/supported-chains' })
    const unchecked = await newClient()
      .getBalances({ address: chain.accounts[1]!.address, chainId: CHAIN })
      .catch((e: unknown) => e)
    expect(unchecked).toMatchObject({
      call: 'balance',
      status: 429,
      shortMessage: 'Token Balance Unavailable',
    })
    expect((unchecked as DataApiError).details).toMatch(/^The network check failed: HTTP 429/)
    expect((unchecked as DataApiError).walk()).toMatchObject({ call: 'supportedChains' })
  })

  it('behavior: a stalled API times out; an abort rejects with its reason', async () => {
    const client = newClient({ timeoutMs: 200 })
    await client.getSupportedChains()
    await fault(api, { mode: 'stall', times: 1, path: '/v1/account' })
    const stalled = await client
      .getBalances({ address: chain.accounts[1]!.address, chainId: CHAIN })
      .catch((e: unknown) => e)
    expect(stalled).toMatchObject({ kind: 'timeout', shortMessage: 'Token Balance Unavailable' })

    await fault(api, { mode: 'stall', times: 1, path: '/v1/account' })
    const controller = new AbortController()
    const pending = client.getHistory({
      account: chain.accounts[1]!.address,
      chainId: CHAIN,
      signal: controller.signal,
    })
    controller.abort(new Error('view closed'))
    await expect(pending).rejects.toThrow('view closed')
  })
})

describe('history and NFTs', () => {
  it('pages the history of what happened on the chain, newest first', async () => {
    const account = privateKeyToAccount(generatePrivateKey()).address
    const sender = walletOf(chain.accounts[4]!.privateKey)
    const hashes: Hex[] = []
    for (let n = 1; n <= 11; n++) {
      hashes.push(
        await sender.writeContract({
          address: chain.contracts.usdc,
          abi: chain.abis.erc20,
          functionName: 'transfer',
          args: [account, parseUnits(String(n), 6)],
        }),
      )
    }
    await mined(hashes.at(-1)!)
    const client = newClient()
    const first = await client.getHistory({ account, chainId: CHAIN })
    expect(first.supported).toBe(true)
    expect(first.data).toHaveLength(10)
    expect(first.data[0]).toEqual({
      id: hashes[10],
      metadata: {
        operationType: 'receive',
        hash: hashes[10],
        minedAt: expect.any(String),
        sentFrom: chain.accounts[4]!.address,
        sentTo: chain.contracts.usdc,
        status: 'confirmed',
        nonce: expect.any(Number),
        chain: CHAIN,
      },
      transfers: [
        {
          fungible_info: {
            name: 'Sandbox USD Coin',
            symbol: 'USDC',
            icon: { url: `${api.origin}/icons/USDC.svg` },
          },
          direction: 'in',
          quantity: { numeric: '11' },
          value: 11,
          price: 1,
        },
      ],
    })
    const second = await client.getHistory({ account, chainId: CHAIN, cursor: first.next })
    expect(second.next).toBeNull()
    expect([...first.data, ...second.data].map((item) => item.id)).toEqual([...hashes].reverse())

    // Activity is eip155 only; unsupported networks answer nothing.
    expect(await client.getHistory({ account, chainId: 'eip155:1' })).toEqual({
      data: [],
      next: null,
      supported: false,
    })
    expect(await client.getHistory({ account, chainId: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp' })).toEqual({
      data: [],
      next: null,
      supported: false,
    })
  })

  it('lists NFTs with the spam flag the kit hides them by', async () => {
    const { data, supported } = await newClient().getNfts({
      account: chain.accounts[0]!.address,
      chainId: CHAIN,
    })
    expect(supported).toBe(true)
    expect(data.map((item) => [item.name, item.flags.is_spam])).toEqual([
      ['Sandbox Punk #1', false],
      ['Sandbox Punk #2', false],
      ['Sandbox Punk #3', false],
      ['Sandbox Punk #4', false],
      ['Sandbox Punk #5', true],
    ])
    expect(data[0]?.preview).toEqual({
      url: `${api.origin}/nft/${chain.contracts.nft}/1.svg`,
      content_type: 'image/svg+xml',
    })
  })
})

describe('identity and names', () => {
  it('the seeded name and avatar; reverse look-up; names resolve to addresses', async () => {
    const client = newClient()
    const dev = chain.accounts[0]!.address
    expect(await client.getIdentity({ address: dev, chainId: CHAIN })).toEqual({
      name: SEEDED_NAME,
      avatar: `${api.origin}/avatars/sandbox-dev.svg`,
    })
    expect(await client.getIdentity({ address: chain.accounts[3]!.address, chainId: CHAIN })).toEqual({
      name: null,
      avatar: null,
    })
    expect((await client.getNames({ address: dev, chainId: CHAIN })).map((record) => record.name)).toEqual([
      SEEDED_NAME,
    ])
    expect(await client.resolveName(` ${SEEDED_NAME.toUpperCase()} `)).toEqual({
      address: dev,
      name: SEEDED_NAME,
      imageUrl: `${api.origin}/avatars/sandbox-dev.svg`,
    })
    expect(await client.resolveName('nobody-here.reown.id')).toBeUndefined()
    asked = []
    expect(await client.resolveName('not a name')).toBeUndefined()
    expect(asked).toEqual([])
    // A name registered on the sandbox chain is keyed by its ENSIP-11 coin type (issue 20): it resolves too.
    const holder = chain.accounts[3]!.address
    await api.db.pg.query(
      `INSERT INTO profile_names (name, address, coin_type, registered_at, updated_at)
       VALUES ('ensip-eleven.reown.id', $1, $2, now(), now())`,
      [holder.toLowerCase(), (0x80000000 | 31337) >>> 0],
    )
    expect(await client.resolveName('ensip-eleven.reown.id')).toEqual({
      address: holder,
      name: 'ensip-eleven.reown.id',
    })
    // SPEC §5: a legacy `.wcn.id` name (never registered any more) still resolves.
    await api.db.pg.query(
      `INSERT INTO profile_names (name, address, coin_type, registered_at, updated_at)
       VALUES ('old-timer.wcn.id', $1, 60, now(), now())`,
      [holder.toLowerCase()],
    )
    expect(await client.resolveName('old-timer.wcn.id')).toEqual({
      address: holder,
      name: 'old-timer.wcn.id',
    })
    expect(await client.getIdentity({ address: dev, chainId: 'eip155:1' })).toEqual({
      name: null,
      avatar: null,
    })
    expect(await client.getNames({ address: dev, chainId: 'eip155:1' })).toEqual([])
    await expect(client.getIdentity({ address: 'nope', chainId: CHAIN })).rejects.toMatchObject({
      kind: 'input',
      shortMessage: 'Error fetching identity',
    })
  })

  it('a failing look-up carries the SPEC text for it', async () => {
    const client = newClient()
    await client.getSupportedChains()
    await fault(api, { mode: 'fail', times: 1, path: '/v1/profile/reverse' })
    await expect(
      client.getNames({ address: chain.accounts[0]!.address, chainId: CHAIN }),
    ).rejects.toMatchObject({
      shortMessage: 'Error fetching names for address',
    })
    await fault(api, { mode: 'fail', times: 1, path: '/v1/profile/account' })
    await expect(client.resolveName(SEEDED_NAME)).rejects.toMatchObject({
      shortMessage: 'Error resolving name',
    })
  })
})

describe('query factories', () => {
  it('cache balances 30 s and names 5 min, sharing one request between callers', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    try {
      const client = newClient()
      const queryClient = new QueryClient()
      const address = chain.accounts[2]!.address
      const options = balancesQuery(client, { address, chainId: CHAIN })
      expect(options.staleTime).toBe(BALANCE_CACHE_MS)
      expect(options.queryKey).toEqual([...dataApiKeys.account(client, address), 'balances', CHAIN])

      const [a, b] = await Promise.all([queryClient.fetchQuery(options), queryClient.fetchQuery(options)])
      expect(a).toBe(b)
      await queryClient.fetchQuery(options)
      expect(paths().filter((p) => p.endsWith('/balance'))).toHaveLength(1)
      vi.setSystemTime(Date.now() + BALANCE_CACHE_MS - 1_000)
      await queryClient.fetchQuery(options)
      expect(paths().filter((p) => p.endsWith('/balance'))).toHaveLength(1)
      vi.setSystemTime(Date.now() + 2_000)
      await queryClient.fetchQuery(options)
      expect(paths().filter((p) => p.endsWith('/balance'))).toHaveLength(2)

      const identity = identityQuery(client, { address, chainId: CHAIN })
      expect(identity.staleTime).toBe(NAME_CACHE_MS)
      expect(namesQuery(client, { address, chainId: CHAIN }).staleTime).toBe(NAME_CACHE_MS)
      expect(resolvedNameQuery(client, { name: SEEDED_NAME }).staleTime).toBe(NAME_CACHE_MS)
      await queryClient.fetchQuery(identity)
      vi.setSystemTime(Date.now() + NAME_CACHE_MS - 1_000)
      await queryClient.fetchQuery(identity)
      expect(paths().filter((p) => p.startsWith('/v1/identity'))).toHaveLength(1)
      expect(
        await queryClient.fetchQuery(resolvedNameQuery(client, { name: 'nobody-here.reown.id' })),
      ).toBeNull()
      const named = resolvedNameQuery(client, { name: SEEDED_NAME })
      await expect(queryClient.fetchQuery(named)).resolves.toMatchObject({ name: SEEDED_NAME })
      await fetchQueryFor(queryClient, named)
      expect(paths().filter((p) => p === `/v1/profile/account/${SEEDED_NAME}`)).toHaveLength(1)
    } finally {
      vi.useRealTimers()
    }
  })

  it('history and NFTs page through useInfiniteQuery-style options', async () => {
    const client = newClient()
    const queryClient = new QueryClient()
    const account = chain.accounts[0]!.address
    const pages = await queryClient.fetchInfiniteQuery({
      ...historyQuery(client, { account, chainId: CHAIN }),
      pages: 2,
    })
    expect(pages.pages).toHaveLength(2)
    expect(pages.pageParams).toEqual([null, pages.pages[0]!.next])
    const ids = pages.pages.flatMap((page) => page.data.map((item) => item.id))
    expect(new Set(ids).size).toBe(20)
    const nfts = await queryClient.fetchInfiniteQuery(nftsQuery(client, { account, chainId: CHAIN }))
    expect(nfts.pages[0]?.data.length).toBeGreaterThan(0)
  })

  it('a forced balances query takes nothing from the cache', async () => {
    const client = newClient()
    const queryClient = new QueryClient()
    const address = chain.accounts[2]!.address
    await queryClient.fetchQuery(balancesQuery(client, { address, chainId: CHAIN }))
    await queryClient.fetchQuery(balancesQuery(client, { address, chainId: CHAIN, forceUpdate: true }))
    const balanceCalls = asked.filter((url) => url.pathname.endsWith('/balance'))
    expect(balanceCalls.map((url) => url.searchParams.get('forceUpdate'))).toEqual([null, 'true'])
  })

  it('fetchQueryFor: an aborted caller stops waiting, the request goes on for the others', async () => {
    const client = newClient()
    const queryClient = new QueryClient()
    const options = identityQuery(client, { address: chain.accounts[3]!.address, chainId: CHAIN })
    const controller = new AbortController()
    const leaving = fetchQueryFor(queryClient, options, controller.signal)
    const staying = fetchQueryFor(queryClient, options)
    controller.abort(new Error('left'))
    await expect(leaving).rejects.toThrow('left')
    await expect(staying).resolves.toHaveProperty('name')
    expect(paths().filter((p) => p.startsWith('/v1/identity'))).toHaveLength(1)
  })

  it('the native balance comes from the chain through wagmi and the kit’s transport', async () => {
    const rpc: SandboxService = await startRpcService({ chain })
    try {
      const config = resolveConfig({
        projectId,
        features: { email: false, socials: false },
        endpoints: { rpc: rpc.origin, api: api.origin },
        networks: [
          defineEvmNetwork({
            id: 31337,
            name: 'Walletstate Sandbox',
            nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
            rpcUrls: { default: { http: [rpcEndpoint(rpc.origin, projectId)] } },
          }),
        ],
      })
      expect(getDataApiClient(config)).toBe(getDataApiClient(config))
      const queryClient = new QueryClient()
      expect(getDataApiClient(config, queryClient)).toBe(getDataApiClient(config, queryClient))
      expect(getDataApiClient(config, queryClient)).not.toBe(getDataApiClient(config))
      const address = chain.accounts[5]!.address
      // What the Account view's useBalance asks, in the same QueryClient.
      const options = getBalanceQueryOptions(getWagmiConfig(config), { address, chainId: 31337 })
      const reader = createPublicClient({ transport: http(chain.rpcUrl) })
      const balance = await queryClient.fetchQuery(options)
      expect(balance).toMatchObject({
        symbol: 'ETH',
        decimals: 18,
        value: await reader.getBalance({ address }),
      })
    } finally {
      await rpc.close()
    }
  })
})

describe('against malformed answers', () => {
  // A throwaway server, to show how the client treats answers the sandbox never gives.
  let stub: Server
  let stubOrigin: string
  let answer: (req: IncomingMessage, res: ServerResponse) => void
  const json =
    (body: unknown, status = 200) =>
    (req: IncomingMessage, res: ServerResponse) => {
      if (req.url?.startsWith('/v1/supported-chains')) {
        res.writeHead(200, { 'content-type': 'application/json' })
        res.end(JSON.stringify({ http: [CHAIN], ws: [] }))
        return
      }
      res.writeHead(status, { 'content-type': 'application/json' })
      res.end(typeof body === 'string' ? body : JSON.stringify(body))
    }

  beforeAll(async () => {
    stub = createServer((req, res) => answer(req, res))
    await new Promise<void>((resolve) => stub.listen(0, '127.0.0.1', resolve))
    stubOrigin = `http://127.0.0.1:${(stub.address() as AddressInfo).port}`
  })
  afterAll(async () => {
    stub.closeAllConnections()
    await new Promise<void>((resolve) => stub.close(() => resolve()))
  })

  const stubClient = () => createDataApiClient({ api: stubOrigin, projectId })
  const address = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

  it.each([
    ['not JSON', '<html>oops</html>', /not JSON/],
    ['balances not a list', { balances: 'none' }, /unexpected body/],
    ['a list at the top', [], /unexpected body/],
  ])('balances: %s is a malformed-answer DataApiError', async (_what, body, details) => {
    answer = json(body)
    const error = await stubClient()
      .getBalances({ address, chainId: CHAIN })
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(DataApiError)
    expect(error).toMatchObject({ kind: 'malformed', shortMessage: 'Token Balance Unavailable' })
    expect((error as DataApiError).details).toMatch(details)
  })

  it('items that do not fit are dropped one by one; unsafe images are removed, not followed', async () => {
    answer = json({
      balances: [
        {
          name: 'Good',
          symbol: 'GD',
          chainId: CHAIN,
          value: 1,
          price: 1,
          quantity: { decimals: '18', numeric: '1' },
          iconUrl: 'javascript:alert(1)',
        },
        { name: 'No quantity', symbol: 'NQ', chainId: CHAIN },
        { name: 'Bad number', symbol: 'BN', chainId: CHAIN, quantity: { decimals: '18', numeric: '1e9' } },
        'not an object',
      ],
    })
    const { balances } = await stubClient().getBalances({ address, chainId: CHAIN })
    expect(balances).toEqual([
      {
        name: 'Good',
        symbol: 'GD',
        chainId: CHAIN,
        value: 1,
        price: 1,
        quantity: { decimals: '18', numeric: '1' },
        iconUrl: '',
      },
    ])

    const item = (id: string, extra: object = {}) => ({
      id,
      metadata: {
        operationType: 'receive',
        hash: id,
        minedAt: '2025-01-01T00:00:00.000Z',
        sentFrom: address,
        sentTo: address,
        status: 'confirmed',
      },
      transfers: [
        {
          nft_info: {
            name: 'Punk',
            content: { preview: { url: 'data:text/html,<script>x</script>' } },
            flags: { is_spam: true },
          },
          direction: 'in',
          quantity: { numeric: '1' },
        },
        { direction: 'sideways', quantity: { numeric: '1' } },
      ],
      ...extra,
    })
    answer = json({ data: [item('0x1'), item('0x2', { metadata: { status: 'confirmed' } }), 7], next: null })
    const page = await stubClient().getHistory({ account: address, chainId: CHAIN })
    expect(page.data).toEqual([
      {
        id: '0x1',
        metadata: {
          operationType: 'receive',
          hash: '0x1',
          minedAt: '2025-01-01T00:00:00.000Z',
          sentFrom: address,
          sentTo: address,
          status: 'confirmed',
        },
        transfers: [
          {
            nft_info: { name: 'Punk', content: {}, flags: { is_spam: true } },
            direction: 'in',
            quantity: { numeric: '1' },
          },
        ],
      },
    ])

    answer = json({ name: 'evil\u202e.eth', avatar: 'javascript:alert(1)' })
    expect(await stubClient().getIdentity({ address, chainId: CHAIN })).toEqual({
      name: 'evil.eth',
      avatar: null,
    })
  })
  it('caps every list it keeps: prices, transfers per item, supported networks, a name’s addresses', async () => {
    const price = (i: number) => ({ name: `T${i}`, symbol: `T${i}`, iconUrl: '', price: i })
    answer = json({ fungibles: Array.from({ length: DATA_API_MAX_ITEMS + 1 }, (_, i) => price(i)) })
    const tooMany = await stubClient()
      .getPrices({ addresses: [`${CHAIN}:${address}`] })
      .catch((e: unknown) => e)
    expect(tooMany).toBeInstanceOf(DataApiError)
    expect(tooMany).toMatchObject({ kind: 'malformed', shortMessage: 'Error fetching token prices' })
    // No more prices than addresses asked for are kept.
    answer = json({ fungibles: Array.from({ length: 50 }, (_, i) => price(i)) })
    expect(await stubClient().getPrices({ addresses: [`${CHAIN}:${address}`, `${CHAIN}:0x1`] })).toHaveLength(
      2,
    )

    const transfer = { direction: 'in', quantity: { numeric: '1' } }
    answer = json({
      data: [
        {
          id: '0x1',
          metadata: {
            operationType: 'receive',
            hash: '0x1',
            minedAt: '2025-01-01T00:00:00.000Z',
            sentFrom: address,
            sentTo: address,
            status: 'confirmed',
          },
          transfers: Array.from({ length: 5_000 }, () => transfer),
        },
      ],
      next: null,
    })
    const page = await stubClient().getHistory({ account: address, chainId: CHAIN })
    expect(page.data[0]?.transfers).toHaveLength(DATA_API_MAX_TRANSFERS)

    answer = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(
        JSON.stringify({ http: Array.from({ length: DATA_API_MAX_ITEMS + 1 }, (_, i) => `eip155:${i}`) }),
      )
    }
    const networks = await stubClient()
      .getSupportedChains()
      .catch((e: unknown) => e)
    expect(networks).toBeInstanceOf(DataApiError)
    expect(networks).toMatchObject({ kind: 'malformed', shortMessage: 'Error fetching supported networks' })

    answer = json({
      name: 'many.reown.id',
      addresses: Object.fromEntries(
        Array.from({ length: 2_000 }, (_, i) => [
          String(i),
          { address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' },
        ]),
      ),
      attributes: Array.from({ length: 2_000 }, (_, i) => ({ bio: `bio ${i}` })),
    })
    const record = await stubClient().getNameRecord({ name: 'many.reown.id' })
    expect(Object.keys(record?.addresses ?? {})).toHaveLength(DATA_API_MAX_NAME_ADDRESSES)
    expect(record?.addresses['0']).toBeDefined()
    // Only the first entries of an attribute list are read.
    expect(record?.attributes.bio).toBe(`bio ${DATA_API_MAX_NAME_ATTRIBUTES - 1}`)
  })
})
