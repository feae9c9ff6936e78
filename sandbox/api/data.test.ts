import { createServer } from 'node:net'
import { createWalletClient, http, parseEther, parseUnits } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Chain, startChain } from '../chain/chain.ts'
import {
  type BalanceItem,
  type DataApi,
  NATIVE_TOKEN_ADDRESS,
  startDataApi,
  type TelemetryEvent,
} from './data.ts'
import { openDatabase, type SandboxDb } from './db.ts'

const SDK = { projectId: 'test-project', st: 'appkit', sv: 'html-wagmi-0.1.0' }

let chain: Chain
let db: SandboxDb
let api: DataApi

function url(path: string, query: Record<string, string> = {}, sdk: Partial<typeof SDK> = SDK): string {
  return `${api.origin}${path}?${new URLSearchParams({ ...sdk, ...query })}`
}

async function balances(address: string, query: Record<string, string> = {}): Promise<BalanceItem[]> {
  const res = await fetch(
    url(`/v1/account/${address}/balance`, { currency: 'usd', chainId: 'eip155:31337', ...query }),
  )
  expect(res.status).toBe(200)
  return ((await res.json()) as { balances: BalanceItem[] }).balances
}

function post(path: string, body: unknown, sdk: Partial<typeof SDK> = SDK): Promise<Response> {
  return fetch(url(path, {}, sdk), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })
}

beforeAll(async () => {
  // The chain and the database take a moment each; start them side by side.
  ;[chain, db] = await Promise.all([startChain(), openDatabase()])
  api = await startDataApi({ rpcUrl: chain.rpcUrl, chainId: chain.chainId, tokens: chain.tokens, db })
})
afterAll(async () => {
  await api?.close()
  await db?.close()
  await chain?.close()
})

describe('GET /v1/supported-chains', () => {
  it('lists the sandbox chain', async () => {
    const res = await fetch(url('/v1/supported-chains'))
    expect(await res.json()).toEqual({ http: ['eip155:31337'], ws: [] })
  })
})

describe('GET /v1/account/{address}/balance', () => {
  it('reads a funded dev account: native first, then each ERC-20, priced in USD', async () => {
    const list = await balances(chain.accounts[1]!.address)
    expect(list.map((b) => b.symbol)).toEqual(['ETH', 'USDC', 'STK', 'USDT'])
    const [eth, usdc, stk, usdt] = list
    expect(eth).toMatchObject({
      name: 'Ether',
      chainId: 'eip155:31337',
      price: 3000,
      quantity: { decimals: '18', numeric: '10000' },
      value: 30_000_000,
    })
    expect(eth).not.toHaveProperty('address')
    expect(usdc).toMatchObject({
      name: 'Sandbox USD Coin',
      address: `eip155:31337:${chain.contracts.usdc}`,
      price: 1,
      quantity: { decimals: '6', numeric: '10000' },
      value: 10_000,
    })
    expect(stk).toMatchObject({ price: 2.5, quantity: { decimals: '18', numeric: '1000' }, value: 2500 })
    expect(usdt).toMatchObject({ address: `eip155:31337:${chain.contracts.usdt}`, value: 10_000 })

    const icon = await fetch(usdc!.iconUrl)
    expect(icon.status).toBe(200)
    expect(icon.headers.get('content-type')).toBe('image/svg+xml')
  })

  it('sees a native and an ERC-20 transfer made moments before', async () => {
    const sender = chain.accounts[2]!
    const receiver = privateKeyToAccount(generatePrivateKey()).address
    expect(await balances(receiver)).toEqual([])

    const wallet = createWalletClient({
      account: privateKeyToAccount(sender.privateKey),
      chain: chain.viemChain,
      transport: http(chain.rpcUrl),
    })
    await wallet.sendTransaction({ to: receiver, value: parseEther('1.5') })
    await wallet.writeContract({
      address: chain.contracts.usdc,
      abi: chain.abis.erc20,
      functionName: 'transfer',
      args: [receiver, parseUnits('12.5', 6)],
    })
    await wallet.writeContract({
      address: chain.contracts.usdt,
      abi: chain.abis.usdt,
      functionName: 'transfer',
      args: [receiver, parseUnits('3', 6)],
    })

    const after = await balances(receiver, { forceUpdate: 'true' })
    expect(after.map((b) => [b.symbol, b.quantity.numeric, b.value])).toEqual([
      ['ETH', '1.5', 4500],
      ['USDC', '12.5', 12.5],
      ['USDT', '3', 3],
    ])
    // Lower-case addresses are accepted too.
    expect(await balances(receiver.toLowerCase())).toEqual(after)

    const senderUsdc = (await balances(sender.address)).find((b) => b.symbol === 'USDC')
    expect(senderUsdc?.quantity.numeric).toBe('9987.5')
  })

  it('answers an empty list for chains it does not serve', async () => {
    const address = chain.accounts[1]!.address
    expect(await balances(address, { chainId: 'eip155:1' })).toEqual([])
    expect(
      await balances('So11111111111111111111111111111111111111112', {
        chainId: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
      }),
    ).toEqual([])
  })

  it('refuses invalid addresses, chain ids and currencies with 400', async () => {
    const address = chain.accounts[1]!.address
    const cases: Array<[string, Record<string, string>, RegExp]> = [
      ['0x1234', {}, /^Invalid address: 0x1234$/],
      ['not-an-address', {}, /^Invalid address/],
      [address, { chainId: '31337' }, /^Invalid query parameter chainId/],
      [address, { currency: 'eur' }, /Unsupported currency/],
    ]
    for (const [who, query, message] of cases) {
      const res = await fetch(
        url(`/v1/account/${who}/balance`, { currency: 'usd', chainId: 'eip155:31337', ...query }),
      )
      expect(res.status, `${who} ${JSON.stringify(query)}`).toBe(400)
      expect(((await res.json()) as { error: string }).error).toMatch(message)
    }
  })

  it('answers 502 when the chain is unreachable', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number }
        probe.close(() => resolve(port))
      })
    })
    const dead = await startDataApi({
      rpcUrl: `http://127.0.0.1:${port}`,
      chainId: 31337,
      tokens: chain.tokens,
      db,
    })
    try {
      const res = await fetch(
        `${dead.origin}/v1/account/${chain.accounts[0]!.address}/balance?${new URLSearchParams(SDK)}`,
      )
      expect(res.status).toBe(502)
      expect(((await res.json()) as { error: string }).error).toMatch(/^Chain RPC unavailable/)
    } finally {
      await dead.close()
    }
    // The shared database outlives a service that did not open it.
    expect(await api.telemetry()).toBeInstanceOf(Array)
  })
})

describe('POST /v1/fungible/price', () => {
  it('prices the native currency and the sandbox tokens from the fixed table', async () => {
    const res = await post('/v1/fungible/price', {
      currency: 'usd',
      projectId: SDK.projectId,
      addresses: [
        `eip155:31337:${NATIVE_TOKEN_ADDRESS}`,
        `eip155:31337:${chain.contracts.usdc}`,
        `eip155:31337:${chain.contracts.stk.toLowerCase()}`,
        `eip155:31337:${chain.contracts.usdt}`,
        `eip155:31337:${chain.contracts.nft}`,
        `eip155:1:${chain.contracts.usdc}`,
      ],
    })
    expect(res.status).toBe(200)
    const { fungibles } = (await res.json()) as {
      fungibles: Array<{ name: string; symbol: string; iconUrl: string; price: number }>
    }
    expect(fungibles.map(({ symbol, price, name }) => ({ symbol, price, name }))).toEqual([
      { symbol: 'ETH', price: 3000, name: 'Ether' },
      { symbol: 'USDC', price: 1, name: 'Sandbox USD Coin' },
      { symbol: 'STK', price: 2.5, name: 'Sandbox Token' },
      { symbol: 'USDT', price: 1, name: 'Sandbox Tether' },
    ])
    for (const fungible of fungibles)
      expect(fungible.iconUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/icons\/\w+\.svg$/)
  })

  it('refuses malformed price requests with 400', async () => {
    const bodies: Array<[unknown, RegExp]> = [
      ['{not json', /^price request body must be JSON$/],
      [{ currency: 'usd', addresses: ['0xabc'] }, /CAIP-10/],
      [{ currency: 'eur', addresses: [] }, /Unsupported currency/],
      [{ currency: 'usd' }, /^Invalid price request body/],
    ]
    for (const [body, message] of bodies) {
      const res = await post('/v1/fungible/price', body)
      expect(res.status).toBe(400)
      expect(((await res.json()) as { error: string }).error).toMatch(message)
    }
  })
})

describe('telemetry sink POST /e', () => {
  const event = (eventId: string) => ({
    eventId,
    url: 'http://127.0.0.1:5173/',
    domain: '127.0.0.1',
    timestamp: 1_760_000_000_000,
    props: {
      type: 'error',
      event: 'ERROR',
      errorType: 'Error',
      errorMessage: 'Token Balance Unavailable',
      stackTrace: 'Error: Token Balance Unavailable\n    at x',
    },
  })

  it('stores valid events and lists them', async () => {
    const id = crypto.randomUUID()
    const res = await post('/e', event(id))
    expect(res.status).toBe(202)
    expect(await res.json()).toEqual({ ok: true, duplicate: false })

    const again = await post('/e', event(id))
    expect(await again.json()).toEqual({ ok: true, duplicate: true })

    const other = await post(
      '/e',
      { ...event(crypto.randomUUID()), props: { type: 'track', event: 'MODAL_OPEN' } },
      {
        ...SDK,
        projectId: 'other-project',
      },
    )
    expect(other.status).toBe(202)

    const stored = (await api.telemetry()).filter((e) => e.eventId === id)
    expect(stored).toHaveLength(1)
    expect(stored[0]).toMatchObject({
      ...event(id),
      projectId: 'test-project',
      st: 'appkit',
      sv: 'html-wagmi-0.1.0',
    })
    expect(Date.parse(stored[0]!.receivedAt)).toBeGreaterThan(Date.now() - 60_000)

    const listed = (await (await fetch(`${api.origin}/__telemetry`)).json()) as { events: TelemetryEvent[] }
    expect(listed.events.map((e) => e.eventId)).toContain(id)
    const mine = (await (await fetch(`${api.origin}/__telemetry?projectId=other-project`)).json()) as {
      events: TelemetryEvent[]
    }
    expect(mine.events).toHaveLength(1)
    expect(mine.events[0]?.props).toEqual({ type: 'track', event: 'MODAL_OPEN' })
  })

  it('refuses malformed bodies with 400 and stores nothing', async () => {
    const before = (await api.telemetry()).length
    const bad: Array<[unknown, RegExp]> = [
      ['not json', /^telemetry body must be JSON$/],
      [{ ...event('x1'), props: { type: 'error' } }, /^Invalid telemetry body/],
      [{ ...event('x2'), timestamp: '2025-01-01' }, /^Invalid telemetry body/],
      [{ ...event(''), eventId: '' }, /must not be empty/],
      [{ ...event('x3'), props: { ...event('x3').props, errorMessage: 42 } }, /^Invalid telemetry body/],
      [[], /^Invalid telemetry body/],
    ]
    for (const [body, message] of bad) {
      const res = await post('/e', body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(((await res.json()) as { error: string }).error).toMatch(message)
    }
    const missing = await post('/e', event('x4'), { projectId: 'p', st: 'appkit' })
    expect(missing.status).toBe(400)
    expect(((await missing.json()) as { error: string }).error).toBe('Missing query parameter: sv')
    expect(await api.telemetry()).toHaveLength(before)
  })
})

describe('SDK query parameters, unknown paths, fault switch', () => {
  it('refuses every endpoint without projectId, st or sv', async () => {
    const address = chain.accounts[0]!.address
    const calls: Array<[string, 'GET' | 'POST']> = [
      ['/v1/supported-chains', 'GET'],
      [`/v1/account/${address}/balance`, 'GET'],
      ['/v1/fungible/price', 'POST'],
      ['/e', 'POST'],
    ]
    for (const [path, method] of calls) {
      for (const name of ['projectId', 'st', 'sv'] as const) {
        const sdk: Partial<typeof SDK> = { ...SDK }
        delete sdk[name]
        const res = await fetch(url(path, {}, sdk), { method, ...(method === 'POST' ? { body: '{}' } : {}) })
        expect(res.status, `${path} without ${name}`).toBe(400)
        expect(((await res.json()) as { error: string }).error).toBe(`Missing query parameter: ${name}`)
      }
    }
  })

  it('answers 404 for unknown paths and icons', async () => {
    expect((await fetch(url('/v1/nothing'))).status).toBe(404)
    expect((await fetch(url(`/v1/account/${chain.accounts[0]!.address}/balances`))).status).toBe(404)
    expect((await fetch(`${api.origin}/icons/NOPE.svg`)).status).toBe(404)
    expect((await fetch(url('/e'))).status).toBe(405)
  })

  it('fails, drops and recovers under the fault switch', async () => {
    const address = chain.accounts[0]!.address
    const set = (fault: object) =>
      fetch(`${api.origin}/__fault`, { method: 'POST', body: JSON.stringify(fault) }).then((r) => r.status)

    expect(await set({ mode: 'fail', times: 1, path: '/v1/account' })).toBe(200)
    expect((await fetch(url('/v1/supported-chains'))).status).toBe(200)
    const failed = await fetch(url(`/v1/account/${address}/balance`))
    expect(failed.status).toBe(500)
    expect((await fetch(url(`/v1/account/${address}/balance`))).status).toBe(200)

    expect(await set({ mode: 'drop', times: 1 })).toBe(200)
    await expect(fetch(url('/v1/supported-chains'))).rejects.toThrow()
    expect((await fetch(url('/v1/supported-chains'))).status).toBe(200)
    expect(api.fault.current.mode).toBe('off')
  })
})
