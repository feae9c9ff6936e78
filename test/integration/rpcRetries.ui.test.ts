// @vitest-environment happy-dom
import { type ChildProcess, spawn } from 'node:child_process'
import { request as httpRequest } from 'node:http'
import { createInterface } from 'node:readline'
import { QueryClient, QueryObserver, type QueryObserverResult } from '@tanstack/react-query'
import type { Address } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getBalanceQueryOptions } from 'wagmi/query'
import { createKitMachine, defineEvmNetwork } from '../../src'
import { createDataApiClient } from '../../src/api/dataApi'
import { balancesQuery } from '../../src/api/queries'
import { RPC_RETRY_COUNT } from '../../src/constants'
import { DataApiError } from '../../src/errors/api'
import { kitHandleOf } from '../../src/kit/createKit'
import { type CountingProxy, startCountingProxy } from './countingProxy.ts'

/**
 * Issue 13 item 9: one layer retries. In a page (react-query retries 3 times by default in a browser, never on a
 * server, hence the DOM environment here) a query the kit's QueryClient runs over a failing RPC host makes
 * exactly 1 + RPC_RETRY_COUNT attempts per URL: the transport's retries (SPEC §7), none stacked on them.
 * Before the fix the kit's QueryClient kept react-query's default and each URL saw 16 attempts.
 *
 * The sandbox's chain and RPC host run in a process of their own (`sandbox-services.ts`; the DOM environment
 * cannot run the sandbox's Node code). Two pass-through proxies in front of that RPC host are the kit's two
 * URLs (the provider host, then the network's own) and count the JSON-RPC calls that reach each.
 */
interface Services {
  chainId: number
  rpcOrigin: string
  apiOrigin: string
  accounts: Address[]
}
let services: Services
let child: ChildProcess | undefined
const proxies: CountingProxy[] = []
const startProxy = async (target: () => string) => {
  const proxy = await startCountingProxy(target)
  proxies.push(proxy)
  return proxy
}

/** `POST /__fault` on the sandbox RPC host, from Node (not the page: the switch is no page's business). */
function setFault(fault: object, origin = services.rpcOrigin): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(new URL('/__fault', origin), { method: 'POST' }, (res) => {
      res.resume()
      res.on('end', () => resolve(res.statusCode ?? 0))
    })
    req.on('error', reject)
    req.end(JSON.stringify(fault))
  })
}

beforeAll(async () => {
  child = spawn(process.execPath, ['--import', 'tsx', 'test/integration/sandbox-services.ts'], {
    stdio: ['pipe', 'pipe', 'inherit'],
  })
  const firstLine = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child!.stdout! })
    lines.once('line', resolve)
    child!.once('exit', (code) => reject(new Error(`sandbox services exited (${code})`)))
  })
  services = JSON.parse(firstLine) as Services
}, 120_000)

afterAll(async () => {
  await Promise.all(proxies.map((proxy) => proxy.close()))
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child!.once('exit', resolve))
    child.stdin?.end()
    await exited
  }
})

describe('the kit’s QueryClient over the kit’s RPC transport', () => {
  it('behavior: a failing RPC host gets exactly 1 + RPC_RETRY_COUNT attempts per URL, however the query is observed', async () => {
    const providerHost = await startProxy(() => services.rpcOrigin)
    const networkUrl = await startProxy(() => services.rpcOrigin)
    const projectId = 'retries-test'
    const kit = createKitMachine({
      projectId,
      features: { email: false, socials: false },
      endpoints: { rpc: providerHost.origin },
      networks: [
        defineEvmNetwork({
          id: services.chainId,
          name: 'Walletstate Sandbox',
          nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
          rpcUrls: {
            default: {
              http: [`${networkUrl.origin}/v1/?chainId=eip155%3A${services.chainId}&projectId=${projectId}`],
            },
          },
        }),
      ],
    })
    const handle = kitHandleOf(kit)
    expect(handle).toBeDefined()
    const { queryClient, wagmi } = handle!
    expect(await setFault({ mode: 'fail' })).toBe(200)
    try {
      // What `useBalance` runs: wagmi's query options, observed as a hook observes them.
      const observer = new QueryObserver(
        queryClient,
        getBalanceQueryOptions(wagmi, { address: services.accounts[2]!, chainId: services.chainId }),
      )
      const outcome = await new Promise<QueryObserverResult>((resolve) => {
        const stop = observer.subscribe((result) => {
          if (result.status !== 'error') return
          stop()
          resolve(result)
        })
      })
      expect(outcome.error?.message).toMatch(/HTTP request failed/)
      expect(providerHost.seen.length).toBe(1 + RPC_RETRY_COUNT)
      expect(networkUrl.seen.length).toBe(1 + RPC_RETRY_COUNT)
    } finally {
      await setFault({ mode: 'off' })
    }
  }, 60_000)

  it('behavior: the Data API query factories do not retry, even in a host’s own QueryClient', async () => {
    const api = await startProxy(() => services.apiOrigin)
    const hostClient = new QueryClient()
    // The network check is cached in the QueryClient: only balance calls reach the API below.
    const client = createDataApiClient({
      api: api.origin,
      projectId: 'retries-test',
      queryClient: hostClient,
    })
    const address = services.accounts[2]!
    const chainId = `eip155:${services.chainId}`
    // The network check answers; then every balance call fails.
    expect(await client.isNetworkSupported(chainId)).toBe(true)
    api.seen.length = 0
    expect(await setFault({ mode: 'fail', path: '/v1/account' }, services.apiOrigin)).toBe(200)
    try {
      const observer = new QueryObserver(hostClient, balancesQuery(client, { address, chainId }))
      const outcome = await new Promise<QueryObserverResult>((resolve) => {
        const stop = observer.subscribe((result) => {
          if (result.status !== 'error') return
          stop()
          resolve(result)
        })
      })
      expect(outcome.error).toBeInstanceOf(DataApiError)
      expect(api.seen.length).toBe(1)
    } finally {
      await setFault({ mode: 'off' }, services.apiOrigin)
    }
  }, 60_000)
})
