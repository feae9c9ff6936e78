import * as v from 'valibot'
import {
  decodeDeployData,
  decodeFunctionData,
  deploylessCallViaBytecodeBytecode,
  type Hex,
  multicall3Abi,
  parseAbi,
} from 'viem'
import { parseJson, type SandboxResponse, type SandboxService, startService } from '../shared/http.ts'
import type { AllowedOrigins } from '../shared/origins.ts'
import { type Chain, SANDBOX_CAIP_CHAIN_ID } from './chain.ts'

export interface RpcServiceOptions {
  chain: Chain
  /** Further chains served beside `chain`, each by its own `chainId` query (reads only: the bundler is `chain`'s). */
  moreChains?: Chain[]
  /** 0 (the default) binds a free port. */
  port?: number
  /** When set, only this project id is accepted (others get 401); otherwise any well-formed id is. */
  projectId?: string
  /** Page origins that may call it (CORS). Default: loopback pages. */
  origins?: AllowedOrigins
  /**
   * The ERC-4337 bundler's own URL (alto), a promise of it while it starts, or a function that starts it on the first
   * bundler call and gives its URL: `POST /v1/bundler` forwards to it.
   * Unset: that path answers 404.
   */
  bundlerUrl?: string | Promise<string> | (() => Promise<string>)
}

/** The bundler this host fronts (SPEC §7 `bundler` query parameter): alto is Pimlico's. */
export const BUNDLER_NAME = 'pimlico'

/** Entries the request log keeps (`GET /__log`); the oldest go first. */
export const RPC_LOG_MAX = 2_000

/**
 * One HTTP request the RPC host took (`GET /__log`, from Node): the page that sent it, the chain it named and
 * each call in it, an
 * `eth_call` with the number of contract reads it carries (more than one when it is a Multicall3 `aggregate3`,
 * at an address or deployless). Tests read it to see how the kit asks the chain: batched, cached.
 */
export interface RpcLogEntry {
  at: number
  /** The page that asked (its `Origin` header), if a page did. */
  origin?: string
  chainId: string
  calls: { method: string; reads?: number; to?: string }[]
}

/** Batches larger than this are refused, as hosted RPC providers do. */
export const MAX_BATCH = 100
/** How long a call may wait for anvil before the service answers 504. */
const UPSTREAM_TIMEOUT_MS = 30_000

/**
 * Methods a hosted RPC endpoint does not offer: it holds no keys (signing, node accounts) and no node controls
 * (anvil's cheat codes). Refusing them keeps the kit honest: it must sign through the wallet, not the RPC.
 * Tests and the orchestrator reach cheat codes through `chain.rpcUrl` (anvil direct).
 */
const REFUSED_PREFIXES = ['anvil_', 'evm_', 'hardhat_', 'personal_', 'admin_', 'miner_', 'debug_', 'txpool_']
const REFUSED_METHODS = new Set([
  'eth_sendTransaction',
  'eth_sign',
  'eth_signTransaction',
  'eth_signTypedData',
  'eth_signTypedData_v3',
  'eth_signTypedData_v4',
  'eth_requestAccounts',
  'eth_coinbase',
])

const ProjectIdSchema = v.pipe(
  v.string(),
  v.regex(/^[\w-]{1,100}$/, 'projectId must be 1-100 letters, digits, _ or -'),
)

const RequestIdSchema = v.union([v.string(), v.number(), v.null()])

const JsonRpcRequestSchema = v.object({
  jsonrpc: v.literal('2.0'),
  id: v.optional(RequestIdSchema),
  method: v.pipe(v.string(), v.minLength(1), v.maxLength(200)),
  params: v.optional(v.union([v.array(v.unknown()), v.record(v.string(), v.unknown())])),
})
type JsonRpcRequest = v.InferOutput<typeof JsonRpcRequestSchema>
type RequestId = v.InferOutput<typeof RequestIdSchema>

const BodySchema = v.union([
  JsonRpcRequestSchema,
  v.pipe(
    v.array(JsonRpcRequestSchema),
    v.minLength(1, 'a batch needs at least one request'),
    v.maxLength(MAX_BATCH, `a batch holds at most ${MAX_BATCH} requests`),
  ),
])

/** The RPC host URL the kit uses for the sandbox chain: `{origin}/v1/?chainId=eip155:31337&projectId={id}`. */
export function rpcEndpoint(
  origin: string,
  projectId: string,
  chainId: string = SANDBOX_CAIP_CHAIN_ID,
): string {
  const query = new URLSearchParams({ chainId, projectId })
  return `${origin}/v1/?${query.toString()}`
}

/**
 * The bundler URL for the sandbox chain (SPEC §7): `{origin}/v1/bundler?chainId=eip155:31337&projectId={id}&bundler=pimlico`.
 */
export function bundlerEndpoint(
  origin: string,
  projectId: string,
  chainId: string = SANDBOX_CAIP_CHAIN_ID,
): string {
  const query = new URLSearchParams({ chainId, projectId, bundler: BUNDLER_NAME })
  return `${origin}/v1/bundler?${query.toString()}`
}

/**
 * Starts the stand-in for the provider's RPC host: `POST /v1/?chainId=eip155:31337&projectId=ID` forwards a
 * JSON-RPC request or batch to the sandbox chain and answers anvil's reply. A missing or malformed projectId,
 * an unknown chainId or a body that is not JSON-RPC is refused with a 4xx and a JSON-RPC error body; the shared
 * fault switch (`POST /__fault`) applies to every call. `POST /v1/bundler?chainId&projectId&bundler=pimlico`
 * checks the same and forwards the JSON-RPC (ERC-4337's `eth_sendUserOperation`, `eth_getUserOperationReceipt`,
 * ...) to the bundler, answering its reply.
 *
 * @example
 * const rpc = await startRpcService({ chain })
 * const client = createPublicClient({ transport: http(rpcEndpoint(rpc.origin, 'demo')) })
 */
export async function startRpcService(options: RpcServiceOptions): Promise<SandboxService> {
  const { chain } = options
  const served = new Map<string, Chain>(
    [chain, ...(options.moreChains ?? [])].map((c) => [`eip155:${c.chainId}`, c]),
  )
  const servedList = [...served.keys()].join(', ')
  const log: RpcLogEntry[] = []
  return startService({
    name: 'rpc',
    ...(options.origins ? { origins: options.origins } : {}),
    port: options.port ?? 0,
    privatePaths: ['/__log'],
    async handler(req) {
      if (req.url.pathname === '/__log' && req.method === 'GET') return { json: { entries: log } }
      const path = req.url.pathname.replace(/\/$/, '')
      if (path !== '/v1' && path !== '/v1/bundler') return undefined
      if (req.method !== 'POST') {
        return {
          ...refusal(405, -32600, 'JSON-RPC calls must use POST'),
          headers: { Allow: 'POST, OPTIONS' },
        }
      }
      const bundler = path === '/v1/bundler'

      const projectId = req.url.searchParams.get('projectId')
      if (projectId === null || projectId === '')
        return refusal(400, -32602, 'Missing projectId query parameter')
      const project = v.safeParse(ProjectIdSchema, projectId)
      if (!project.success) return refusal(400, -32602, `Invalid projectId: ${v.summarize(project.issues)}`)
      if (options.projectId !== undefined && project.output !== options.projectId) {
        return refusal(401, -32602, `Invalid projectId: ${project.output} is not a known project`)
      }
      const chainId = req.url.searchParams.get('chainId')
      if (chainId === null || chainId === '') {
        return refusal(400, -32602, `Missing chainId query parameter (e.g. chainId=${SANDBOX_CAIP_CHAIN_ID})`)
      }
      const target = served.get(chainId)
      const bundlerChain = `eip155:${chain.chainId}`
      if (target === undefined || (bundler && chainId !== bundlerChain)) {
        return refusal(
          400,
          -32602,
          `Unsupported chainId ${chainId}: this ${bundler ? 'bundler' : 'RPC host'} serves ${bundler ? bundlerChain : servedList}`,
        )
      }
      let upstream = target.rpcUrl
      if (bundler) {
        const name = req.url.searchParams.get('bundler')
        if (name === null || name === '') {
          return refusal(400, -32602, `Missing bundler query parameter (e.g. bundler=${BUNDLER_NAME})`)
        }
        if (name !== BUNDLER_NAME) {
          return refusal(400, -32602, `Unsupported bundler ${name}: this host serves ${BUNDLER_NAME}`)
        }
        if (options.bundlerUrl === undefined) return refusal(404, -32601, 'No bundler runs on this RPC host')
        try {
          upstream = await (typeof options.bundlerUrl === 'function'
            ? options.bundlerUrl()
            : options.bundlerUrl)
        } catch {
          return refusal(502, -32603, 'The bundler did not start')
        }
      }

      const json = parseJson(req.body)
      if (json === undefined) return refusal(400, -32700, 'Parse error: the body is not JSON')
      const parsed = v.safeParse(BodySchema, json)
      if (!parsed.success)
        return refusal(400, -32600, `Invalid JSON-RPC request: ${v.summarize(parsed.issues)}`)

      const answer = (request: JsonRpcRequest) =>
        bundler ? forward(upstream, request, 'bundler') : answerOne(upstream, request)
      const requests = parsed.output
      if (!bundler) {
        const origin = typeof req.headers.origin === 'string' ? req.headers.origin : undefined
        log.push({
          at: Date.now(),
          ...(origin ? { origin } : {}),
          chainId,
          calls: [requests].flat().map(logged),
        })
        if (log.length > RPC_LOG_MAX) log.splice(0, log.length - RPC_LOG_MAX)
      }
      if (!Array.isArray(requests)) return answer(requests)
      // Each call of a batch goes upstream on its own so a refused method only fails its own entry.
      const answers = await Promise.all(requests.map(answer))
      const failed = answers.find((answer) => (answer.status ?? 200) >= 500)
      if (failed !== undefined) return failed
      // Notifications (no id) get no reply, as JSON-RPC 2.0 says.
      const replies = answers.filter((_, index) => requests[index]?.id !== undefined).map((a) => a.json)
      return replies.length === 0 ? { status: 204 } : { json: replies }
    },
  })
}

const DEPLOYLESS_CALL = parseAbi(['constructor(bytes, bytes)'])

/** A call as the log keeps it: its method, and for an `eth_call` its target and how many reads it carries. */
function logged(request: JsonRpcRequest): RpcLogEntry['calls'][number] {
  if (request.method !== 'eth_call' || !Array.isArray(request.params)) return { method: request.method }
  const tx = request.params[0] as { to?: unknown; data?: unknown; input?: unknown } | undefined
  const to = typeof tx?.to === 'string' ? tx.to.toLowerCase() : undefined
  const data = typeof tx?.data === 'string' ? tx.data : typeof tx?.input === 'string' ? tx.input : undefined
  return { method: request.method, ...(to ? { to } : {}), reads: data ? readsIn(data as Hex, to) : 1 }
}

/**
 * How many contract reads an `eth_call` carries: the calls of a Multicall3 `aggregate3` (sent to a deployed
 * Multicall3, or deployless: viem's deployless-call bytecode with the multicall's code and calldata as its
 * constructor arguments, no `to`), else 1.
 */
function readsIn(data: Hex, to: string | undefined): number {
  const aggregate = (calldata: Hex) => {
    try {
      const { functionName, args } = decodeFunctionData({ abi: multicall3Abi, data: calldata })
      return functionName === 'aggregate3' ? (args[0] as readonly unknown[]).length : 1
    } catch {
      return 1
    }
  }
  if (to) return aggregate(data)
  if (!data.startsWith(deploylessCallViaBytecodeBytecode)) return 1
  try {
    const { args } = decodeDeployData({
      abi: DEPLOYLESS_CALL,
      bytecode: deploylessCallViaBytecodeBytecode,
      data,
    })
    return aggregate(args[1] as Hex)
  } catch {
    return 1
  }
}

/** Answers one JSON-RPC call: locally for methods a hosted RPC handles itself, otherwise from anvil. */
async function answerOne(rpcUrl: string, request: JsonRpcRequest): Promise<SandboxResponse> {
  const id = request.id ?? null
  const { method } = request
  if (REFUSED_METHODS.has(method) || REFUSED_PREFIXES.some((prefix) => method.startsWith(prefix))) {
    return { json: rpcError(id, -32601, `The method ${method} is not available on this RPC host`) }
  }
  // A hosted endpoint holds no accounts; anvil would list its unlocked dev accounts.
  if (method === 'eth_accounts') return { json: { jsonrpc: '2.0', id, result: [] } }
  return forward(rpcUrl, request, 'chain node')
}

/** Sends one JSON-RPC call upstream (anvil or the bundler) and answers its reply, or a 502/504 refusal. */
async function forward(url: string, request: JsonRpcRequest, upstream: string): Promise<SandboxResponse> {
  const id = request.id ?? null
  let response: Response
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(request),
      signal: AbortSignal.timeout(UPSTREAM_TIMEOUT_MS),
    })
  } catch (error) {
    const timedOut = error instanceof Error && error.name === 'TimeoutError'
    return timedOut
      ? refusal(504, -32603, `The ${upstream} did not answer in time`, id)
      : refusal(502, -32603, `The ${upstream} is unreachable`, id)
  }
  const text = await response.text()
  const answer = parseJson(text)
  if (answer === undefined)
    return refusal(502, -32603, `The ${upstream} answered ${response.status} with no JSON`, id)
  return { status: response.status, json: answer }
}

function rpcError(id: RequestId, code: number, message: string) {
  return { jsonrpc: '2.0', id, error: { code, message } }
}

/** An HTTP-level refusal with a JSON-RPC error body, so JSON-RPC clients can show the message. */
function refusal(status: number, code: number, message: string, id: RequestId = null): SandboxResponse {
  return { status, json: rpcError(id, code, message) }
}
