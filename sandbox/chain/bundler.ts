import { randomBytes } from 'node:crypto'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import * as v from 'valibot'
import { type Address, getAddress } from 'viem'
import { spawnTied } from '../shared/process.ts'
import { ENTRY_POINT_ADDRESS, STACK_KEYS } from './account-abstraction.ts'

/** A running ERC-4337 bundler (Pimlico's alto) in front of the sandbox chain's EntryPoint v0.7. */
export interface Bundler {
  /** alto's own JSON-RPC URL, `http://127.0.0.1:PORT` (every bundler method, no project check). */
  url: string
  port: number
  /** The EntryPoint it bundles for (v0.7's canonical address). */
  entryPoint: Address
  /** alto's process id. */
  pid: number
  /** Stops alto and waits until the process has exited. Safe to call twice. */
  close(): Promise<void>
}

export interface StartBundlerOptions {
  /** anvil's own JSON-RPC URL (the EntryPoint must be deployed there: `startChain` does it). */
  chainRpcUrl: string
  /** 0 (the default): a free port. */
  port?: number
}

const START_TIMEOUT_MS = 60_000
const STOP_TIMEOUT_MS = 5_000
const OUTPUT_TAIL_LINES = 60
/** The preload that binds alto to 127.0.0.1 and reports the address it got. */
const LOOPBACK_SHIM = fileURLToPath(new URL('./alto-loopback.mjs', import.meta.url))

/** alto's CLI entry in `@pimlico/alto`. */
export function altoEntry(): string {
  // Its package exports only its library entry (esm/index.js); the CLI sits beside it.
  const require = createRequire(import.meta.url)
  return join(dirname(require.resolve('@pimlico/alto')), 'cli', 'alto.js')
}

const SupportedSchema = v.object({ result: v.array(v.string()) })

/**
 * Starts alto against anvil, on 127.0.0.1: the EntryPoint v0.7 at its canonical address, the sandbox's own
 * executor and utility keys (funded by `startChain`), safe mode off (anvil has no tracer for it), its simulations
 * contract deployed at start, bundles sent as soon as an operation arrives. Resolves once the alto this call
 * started (its pid, printed by the preload) listens and answers `eth_supportedEntryPoints` with the EntryPoint.
 *
 * @example
 * const bundler = await startBundler({ chainRpcUrl: chain.rpcUrl })
 * const client = createBundlerClient({ transport: http(bundler.url) })
 * await bundler.close()
 */
export async function startBundler(options: StartBundlerOptions): Promise<Bundler> {
  const marker = `walletstate-bundler-${randomBytes(6).toString('hex')}`
  const args = [
    '--import',
    LOOPBACK_SHIM,
    altoEntry(),
    '--entrypoints',
    ENTRY_POINT_ADDRESS,
    '--rpc-url',
    options.chainRpcUrl,
    '--executor-private-keys',
    STACK_KEYS.executor,
    '--utility-private-key',
    STACK_KEYS.utility,
    '--safe-mode',
    'false',
    '--deploy-simulations-contract',
    'true',
    '--port',
    String(options.port ?? 0),
    // anvil mines a block per transaction: no need to wait a second for one.
    '--block-time',
    '100',
    '--min-bundle-interval',
    '10',
    '--max-bundle-interval',
    '100',
    // Its refill monitor would top the executor up from the utility key every 15 s; both are funded already.
    '--utility-wallet-monitor',
    'false',
    '--refilling-wallets',
    'false',
    '--log-level',
    'warn',
  ]
  const child = await spawnTied(process.execPath, args, {
    graceMs: STOP_TIMEOUT_MS,
    env: { ...process.env, WALLETSTATE_LISTEN_MARKER: marker, NODE_OPTIONS: '' },
  })
  const stop = () => child.stop()
  const tail: string[] = []
  const keep = (line: string) => {
    tail.push(line)
    if (tail.length > OUTPUT_TAIL_LINES) tail.shift()
  }
  createInterface({ input: child.stderr }).on('line', keep)

  try {
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`the bundler (alto) did not listen in time:\n${tail.join('\n')}`)),
        START_TIMEOUT_MS,
      )
      createInterface({ input: child.stdout }).on('line', (line) => {
        keep(line)
        const listening = line.startsWith(`${marker} `) ? line.slice(marker.length + 1).split(' ') : undefined
        if (listening === undefined) return
        const [address = '', pid = ''] = listening
        const bound = /^127\.0\.0\.1:(\d+)$/.exec(address)
        // The line must come from the process started here (the guard's child), bound to loopback.
        if (bound?.[1] === undefined || Number(pid) !== child.pid) return
        clearTimeout(timer)
        resolve(Number(bound[1]))
      })
      void child.exited.then(() => {
        clearTimeout(timer)
        reject(new Error(`the bundler (alto) exited before listening:\n${tail.join('\n')}`))
      })
    })
    const url = `http://127.0.0.1:${port}`
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_supportedEntryPoints', params: [] }),
      signal: AbortSignal.timeout(10_000),
    })
    const supported = v.safeParse(SupportedSchema, await response.json().catch(() => undefined))
    if (!supported.success || !supported.output.result.some((a) => getAddress(a) === ENTRY_POINT_ADDRESS)) {
      throw new Error(`the bundler on ${url} does not answer for EntryPoint ${ENTRY_POINT_ADDRESS}`)
    }
    return { url, port, entryPoint: ENTRY_POINT_ADDRESS, pid: child.pid, close: stop }
  } catch (error) {
    await stop()
    throw error
  }
}

/** alto started when first needed (`onDemandBundler`). */
export interface OnDemandBundler {
  /** Starts alto the first time, and gives every caller that one; rejects once the sandbox is closing. */
  start(): Promise<Bundler>
}

/**
 * A bundler that starts on the first `start()`: `startOne` runs once, and `register` is handed the stop that ends
 * it (run by the sandbox's close, even while alto is still starting). After `isClosed()` nothing starts.
 */
export function onDemandBundler(
  startOne: () => Promise<Bundler>,
  register: (stop: () => Promise<void>) => void,
  isClosed: () => boolean,
): OnDemandBundler {
  let running: Promise<Bundler> | undefined
  return {
    start() {
      if (!running) {
        if (isClosed()) return Promise.reject(new Error('The sandbox is closed: no bundler starts'))
        const starting = startOne()
        running = starting
        register(async () => {
          const bundler = await starting.catch(() => undefined)
          await bundler?.close()
        })
      }
      return running
    },
  }
}
