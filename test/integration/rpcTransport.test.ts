import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import {
  type BaseError,
  createPublicClient,
  HttpRequestError,
  MethodNotFoundRpcError,
  MethodNotSupportedRpcError,
  parseEther,
  RpcRequestError,
} from 'viem'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { getBalance, getBlockNumber } from 'wagmi/actions'
import { type Chain, startChain } from '../../sandbox/chain/chain.ts'
import { rpcEndpoint, startRpcService } from '../../sandbox/chain/rpc.ts'
import type { SandboxService } from '../../sandbox/shared/http.ts'
import { chainTransport, kitTransport, type RpcRetryEvent } from '../../src/chains/eip155/transport'
import { getWagmiConfig } from '../../src/chains/eip155/wagmi'
import { defineEvmNetwork, resolveConfig } from '../../src/config'

describe('against the sandbox RPC host', () => {
  let chain: Chain
  let rpc: SandboxService
  let url: string
  const projectId = 'transport-test'

  beforeAll(async () => {
    chain = await startChain()
    rpc = await startRpcService({ chain })
    url = rpcEndpoint(rpc.origin, projectId)
  })
  afterEach(async () => {
    await fault({ mode: 'off' })
  })
  afterAll(async () => {
    await rpc?.close()
    await chain?.close()
  })

  const fault = (body: object) =>
    fetch(`${rpc.origin}/__fault`, { method: 'POST', body: JSON.stringify(body) }).then((r) => {
      expect(r.status).toBe(200)
    })

  function client(urls: [string, ...string[]], events: RpcRetryEvent[], fetchSpy?: typeof fetch) {
    return createPublicClient({
      chain: chain.viemChain,
      transport: kitTransport({
        urls,
        onRetry: (event) => events.push(event),
        ...(fetchSpy ? { fetch: fetchSpy } : {}),
      }),
    })
  }

  it('behavior: two 429s with Retry-After 1, then the call succeeds, having waited as long as asked', async () => {
    await fault({ mode: '429', times: 2, retryAfterSeconds: 1 })
    const events: RpcRetryEvent[] = []
    const started = performance.now()
    const chainId = await client([url], events).getChainId()
    const elapsed = performance.now() - started
    expect(chainId).toBe(31337)
    expect(rpc.fault.applied).toBe(2)
    expect(
      events.map(({ retry, delayMs, retryAfter, status }) => ({ retry, delayMs, retryAfter, status })),
    ).toEqual([
      { retry: 1, delayMs: 1000, retryAfter: true, status: 429 },
      { retry: 2, delayMs: 1000, retryAfter: true, status: 429 },
    ])
    // Not a budget: the call cannot have come back before the two waits the host asked for.
    expect(elapsed).toBeGreaterThanOrEqual(2000)
  })

  it('behavior: 500s back off 150, 300, 600 ms and the fourth attempt answers', async () => {
    await fault({ mode: 'fail', times: 3 })
    const events: RpcRetryEvent[] = []
    const started = performance.now()
    const block = await client([url], events).getBlockNumber({ cacheTime: 0 })
    expect(block).toBeGreaterThan(0n)
    expect(performance.now() - started).toBeGreaterThanOrEqual(150 + 300 + 600)
    expect(events.map((event) => [event.delayMs, event.status, event.retryAfter])).toEqual([
      [150, 500, false],
      [300, 500, false],
      [600, 500, false],
    ])
  })

  it('behavior: after 3 retries the HTTP error is thrown; a Retry-After beyond the limit is not waited for', async () => {
    await fault({ mode: 'fail', times: 4 })
    const events: RpcRetryEvent[] = []
    const error = await client([url], events)
      .getChainId()
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(HttpRequestError)
    expect((error as HttpRequestError).status).toBe(500)
    expect(rpc.fault.applied).toBe(4)
    expect(events).toHaveLength(3)

    await fault({ mode: '429', times: 1, retryAfterSeconds: 120 })
    const none: RpcRetryEvent[] = []
    const limited = await client([url], none)
      .getChainId()
      .catch((e: unknown) => e)
    expect((limited as HttpRequestError).status).toBe(429)
    expect(rpc.fault.applied).toBe(1)
    expect(none).toEqual([])
  })

  it('behavior: a JSON-RPC refusal is the chain’s answer, thrown at once', async () => {
    const events: RpcRetryEvent[] = []
    const refused = await client([url], events)
      .request({ method: 'eth_sendTransaction', params: [{ from: chain.accounts[0]!.address }] } as never)
      .catch((e: unknown) => e)
    expect(refused).toBeInstanceOf(MethodNotFoundRpcError)
    expect(events).toEqual([])
  })

  it('behavior: a dropped socket is not retried on the same URL; the next URL answers and stays first', async () => {
    await fault({ mode: 'drop', times: 1 })
    const dropped = await client([url], [])
      .getChainId()
      .catch((e: unknown) => e)
    expect(dropped).toBeInstanceOf(HttpRequestError)
    expect(rpc.fault.applied).toBe(1)

    // The provider host first, then the chain's own URL (anvil here).
    const asked: string[] = []
    const spy: typeof fetch = (input, init) => {
      asked.push(String(input))
      return fetch(input, init)
    }
    await fault({ mode: 'fail' })
    const reader = client([url, chain.rpcUrl], [], spy)
    const balance = await reader.getBalance({ address: chain.accounts[1]!.address })
    expect(balance).toBeGreaterThan(parseEther('1'))
    // Four attempts on the failing host (the first and three retries), then the fallback.
    expect(asked).toEqual([url, url, url, url, chain.rpcUrl])
    asked.length = 0
    await reader.getChainId()
    expect(asked).toEqual([chain.rpcUrl])
  })

  it('wagmi reads through it: getWagmiConfig uses the provider host and its retries', async () => {
    const config = resolveConfig({
      projectId,
      features: { email: false, socials: false },
      endpoints: { rpc: rpc.origin },
      networks: [
        defineEvmNetwork({
          id: 31337,
          name: 'Walletstate Sandbox',
          nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
          // Not reachable: only the provider host (endpoints.rpc) can answer.
          rpcUrls: { default: { http: ['http://127.0.0.1:9'] } },
        }),
      ],
    })
    const wagmi = getWagmiConfig(config)
    await fault({ mode: '429', times: 2, retryAfterSeconds: 1 })
    const started = performance.now()
    const balance = await getBalance(wagmi, { address: chain.accounts[2]!.address, chainId: 31337 })
    expect(balance.value).toBeGreaterThan(parseEther('1'))
    expect(rpc.fault.applied).toBe(2)
    expect(performance.now() - started).toBeGreaterThanOrEqual(2000)
    expect(await getBlockNumber(wagmi, { chainId: 31337 })).toBeGreaterThan(0n)
  })
})

/** In a scripted answer: the id of the request it answers. */
const ECHO = Symbol('echo the request id')

describe('against a JSON-RPC server answering error codes', () => {
  // A throwaway server, to show how the transport treats answers the sandbox host never gives.
  let server: Server
  let origin: string
  /** A body, or a function of the request's id (answers echo the id the transport sent, as JSON-RPC asks). */
  type Answer = {
    status?: number
    headers?: Record<string, string>
    body: unknown
  }
  let answers: Answer[] = []
  let seen = 0

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = []
      req.on('data', (chunk: Buffer) => chunks.push(chunk))
      req.on('end', () => {
        seen += 1
        const id = (JSON.parse(Buffer.concat(chunks).toString()) as { id: unknown }).id
        const next = answers.shift() ?? { body: { jsonrpc: '2.0', id: ECHO, result: '0x1' } }
        const body =
          next.body && typeof next.body === 'object' && 'id' in next.body && next.body.id === ECHO
            ? { ...next.body, id }
            : next.body
        res.writeHead(next.status ?? 200, { 'content-type': 'application/json', ...next.headers })
        res.end(JSON.stringify(body))
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
  })
  afterEach(() => {
    answers = []
    seen = 0
  })
  afterAll(async () => {
    server.closeAllConnections()
    await new Promise<void>((resolve) => server.close(() => resolve()))
  })

  const rpcError = (code: number) => ({
    body: { jsonrpc: '2.0', id: ECHO, error: { code, message: `code ${code}` } },
  })

  it('behavior: an error member of any shape, or no result, is an RPC error, never a success with undefined', async () => {
    const hostile: unknown[] = [
      { jsonrpc: '2.0', id: ECHO, error: { code: '-32000' } },
      { jsonrpc: '2.0', id: ECHO, error: { message: 'x' } },
      { jsonrpc: '2.0', id: ECHO },
      { jsonrpc: '2.0', id: ECHO, error: 'boom' },
      { jsonrpc: '2.0', id: ECHO, error: [] },
      { jsonrpc: '2.0', id: ECHO, error: { code: 1.5, message: 'x' } },
      { jsonrpc: '2.0', id: ECHO, error: { code: Number.MAX_SAFE_INTEGER + 2, message: 'x' } },
      { jsonrpc: '2.0', id: ECHO, error: { code: -32000, message: 'x' }, result: '0x1' },
      { jsonrpc: '2.0', id: ECHO, error: null },
    ]
    const reader = createPublicClient({ transport: kitTransport({ urls: [origin], retryDelayMs: 1 }) })
    for (const body of hostile) {
      answers = [{ body }]
      seen = 0
      const outcome = await reader.request({ method: 'eth_chainId' }).then(
        (value) => ({ value }),
        (error: unknown) => ({ error }),
      )
      const label = JSON.stringify(body)
      expect(outcome, label).toHaveProperty('error')
      const error = (outcome as { error: BaseError }).error
      const rpc = error.walk((e) => e instanceof RpcRequestError) as RpcRequestError | null
      expect(rpc, label).toBeInstanceOf(RpcRequestError)
      // A code the answer gives as a JSON-RPC code is kept; anything else is SPEC §8's -32603 internal error.
      const given = (body as { error?: { code?: unknown } }).error?.code
      expect(rpc?.code, label).toBe(Number.isSafeInteger(given) ? given : -32603)
      // The chain's answer: thrown at once, not retried, not asked elsewhere.
      expect(seen, label).toBe(1)
    }
    // A null result is a result (a receipt not yet mined); an error member of null beside it is no error.
    answers = [{ body: { jsonrpc: '2.0', id: ECHO, result: null } }]
    expect(await reader.request({ method: 'eth_getTransactionReceipt', params: ['0x00'] })).toBeNull()
    answers = [{ body: { jsonrpc: '2.0', id: ECHO, result: '0x2', error: null } }]
    expect(await reader.request({ method: 'eth_chainId' })).toBe('0x2')
  })

  it('behavior: an answer to another request (wrong id, not JSON-RPC 2.0, a batch) fails the URL; the next one answers', async () => {
    const foreign: unknown[] = [
      { jsonrpc: '2.0', id: 987654, result: '0x5' },
      { jsonrpc: '2.0', id: '1', result: '0x5' },
      { jsonrpc: '1.0', id: ECHO, result: '0x5' },
      { id: ECHO, result: '0x5' },
      [{ jsonrpc: '2.0', id: 1, result: '0x5' }],
      'just a string',
    ]
    for (const body of foreign) {
      answers = [{ body }]
      seen = 0
      const reader = createPublicClient({
        transport: kitTransport({ urls: [`${origin}a`, `${origin}b`], retryDelayMs: 1 }),
      })
      // The first URL's answer is refused; the second answers for real.
      expect(await reader.request({ method: 'eth_chainId' }), JSON.stringify(body)).toBe('0x1')
      expect(seen, JSON.stringify(body)).toBe(2)
      answers = [{ body }]
      const alone = createPublicClient({ transport: kitTransport({ urls: [origin], retryDelayMs: 1 }) })
      await expect(alone.request({ method: 'eth_chainId' }), JSON.stringify(body)).rejects.toBeInstanceOf(
        HttpRequestError,
      )
    }
    // An error the server could not tie to a request carries id null (JSON-RPC 2.0 §5): still the chain's answer.
    answers = [{ body: { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid request' } } }]
    seen = 0
    const reader = createPublicClient({ transport: kitTransport({ urls: [origin] }) })
    await expect(reader.request({ method: 'eth_chainId' })).rejects.toThrow(/Invalid request/)
    expect(seen).toBe(1)
  })

  it('retries code -1 and "unsupported method" (-32004, 4200), not other codes', async () => {
    answers = [rpcError(-1), rpcError(-32004), rpcError(4200)]
    const events: RpcRetryEvent[] = []
    const reader = createPublicClient({
      transport: kitTransport({ urls: [origin], onRetry: (e) => events.push(e) }),
    })
    expect(await reader.getChainId()).toBe(1)
    expect(events.map((event) => event.code)).toEqual([-1, -32004, 4200])

    answers = [rpcError(-32004), rpcError(-32004), rpcError(-32004), rpcError(-32004)]
    const unsupported = await reader.getChainId().catch((e: unknown) => e)
    expect(unsupported).toBeInstanceOf(MethodNotSupportedRpcError)
    // Four calls before (three retried errors, then the answer), four now: the first and three retries.
    expect(seen).toBe(4 + 4)

    answers = [rpcError(-32602)]
    seen = 0
    await expect(reader.getChainId()).rejects.toThrow(/code -32602/)
    expect(seen).toBe(1)
  })

  it('retries the listed HTTP statuses only and honours a Retry-After given as an HTTP date', async () => {
    for (const status of [403, 408, 413, 429, 500, 502, 503, 504]) {
      answers = [{ status, body: {} }]
      seen = 0
      const reader = createPublicClient({ transport: kitTransport({ urls: [origin], retryDelayMs: 1 }) })
      expect(await reader.getChainId(), String(status)).toBe(1)
      expect(seen, String(status)).toBe(2)
    }
    for (const status of [400, 401, 404, 405]) {
      answers = [{ status, body: {} }]
      seen = 0
      const reader = createPublicClient({ transport: kitTransport({ urls: [origin], retryDelayMs: 1 }) })
      await expect(reader.getChainId(), String(status)).rejects.toBeInstanceOf(HttpRequestError)
      expect(seen, String(status)).toBe(1)
    }

    // HTTP dates have whole seconds: ask for the one two seconds on and measure against what was asked.
    const at = new Date(Math.ceil(Date.now() / 1000) * 1000 + 2000)
    answers = [{ status: 503, headers: { 'Retry-After': at.toUTCString() }, body: {} }]
    const events: RpcRetryEvent[] = []
    const reader = createPublicClient({
      transport: kitTransport({ urls: [origin], onRetry: (e) => events.push(e) }),
    })
    expect(await reader.getChainId()).toBe(1)
    expect(events[0]?.retryAfter).toBe(true)
    expect(Date.now()).toBeGreaterThanOrEqual(at.getTime() - 5)
  })

  it('chainTransport: an rpcMap URL alone, else the provider host then the network URLs', async () => {
    const transport = chainTransport({
      chainId: 1,
      projectId: 'p',
      rpc: origin,
      fallbackUrls: ['http://127.0.0.1:9/'],
    })({})
    expect(transport.value).toMatchObject({
      url: `${origin}v1/?chainId=eip155%3A1&projectId=p`,
      urls: [`${origin}v1/?chainId=eip155%3A1&projectId=p`, 'http://127.0.0.1:9/'],
    })
    const custom = chainTransport({
      chainId: 1,
      projectId: 'p',
      rpc: 'http://127.0.0.1:9',
      rpcMap: { 'eip155:1': origin },
      fallbackUrls: ['http://127.0.0.1:9/'],
    })({})
    expect(custom.value).toMatchObject({ urls: [origin] })
    expect(await custom.request({ method: 'eth_chainId' })).toBe('0x1')
    expect(seen).toBe(1)
  })
})
