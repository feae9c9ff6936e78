import { startDataApi } from '../../sandbox/api/data.ts'
import { startChain } from '../../sandbox/chain/chain.ts'
import { startRpcService } from '../../sandbox/chain/rpc.ts'
import { Stops } from '../../sandbox/shared/stops.ts'

/**
 * The sandbox's chain, RPC host and Data API in a process of their own, for UI tests whose DOM environment
 * cannot run the sandbox's Node code. Prints one JSON line with where they run; stops them when its stdin
 * closes (or on SIGTERM, SIGINT), during the start too. A failed start stops what started and exits with 1.
 *
 * @example
 * const child = spawn(process.execPath, ['--import', 'tsx', 'test/integration/sandbox-services.ts'])
 */
const stops = new Stops()
let closing = false
const close = async (code: number) => {
  if (closing) return
  closing = true
  await stops.close()
  process.exit(code)
}
// Registered before anything starts: a parent that gives up during the start still stops everything.
process.stdin.on('end', () => void close(0))
process.stdin.resume()
for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(signal, () => void close(0))

try {
  const chain = await stops.track(startChain())
  const rpc = await stops.track(startRpcService({ chain }))
  const api = await stops.track(
    startDataApi({
      rpcUrl: chain.rpcUrl,
      chainId: chain.chainId,
      tokens: chain.tokens,
      swapRouter: chain.contracts.router,
    }),
  )
  process.stdout.write(
    `${JSON.stringify({
      rpcUrl: chain.rpcUrl,
      chainId: chain.chainId,
      rpcOrigin: rpc.origin,
      apiOrigin: api.origin,
      accounts: chain.accounts.map((a) => a.address),
      tokens: chain.tokens.map((t) => ({ address: t.address, symbol: t.symbol, decimals: t.decimals })),
      router: chain.contracts.router,
    })}\n`,
  )
} catch (error) {
  console.error('sandbox-services: the start failed:', error)
  await close(1)
}
