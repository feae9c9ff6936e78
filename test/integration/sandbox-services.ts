import { startDataApi } from '../../sandbox/api/data.ts'
import { startChain } from '../../sandbox/chain/chain.ts'
import { startRpcService } from '../../sandbox/chain/rpc.ts'

/**
 * The sandbox's chain, RPC host and Data API in a process of their own, for UI tests whose DOM environment
 * cannot run the sandbox's Node code. Prints one JSON line with where they run; stops them when its stdin
 * closes (or on SIGTERM).
 *
 * @example
 * const child = spawn(process.execPath, ['--import', 'tsx', 'test/integration/sandbox-services.ts'])
 */
const chain = await startChain()
const rpc = await startRpcService({ chain })
const api = await startDataApi({ rpcUrl: chain.rpcUrl, chainId: chain.chainId, tokens: chain.tokens })
process.stdout.write(
  `${JSON.stringify({
    rpcUrl: chain.rpcUrl,
    chainId: chain.chainId,
    rpcOrigin: rpc.origin,
    apiOrigin: api.origin,
    accounts: chain.accounts.map((a) => a.address),
    tokens: chain.tokens.map((t) => ({ address: t.address, symbol: t.symbol, decimals: t.decimals })),
  })}\n`,
)
let closing = false
const close = async () => {
  if (closing) return
  closing = true
  await api.close()
  await rpc.close()
  await chain.close()
  process.exit(0)
}
process.stdin.on('end', () => void close())
process.stdin.resume()
process.on('SIGTERM', () => void close())
