import * as v from 'valibot'
import {
  type Address,
  BaseError,
  type Chain,
  createWalletClient,
  defineChain,
  formatEther,
  type Hex,
  hexToBytes,
  http,
  type LocalAccount,
  type SignableMessage,
  type TypedDataDefinition,
  toHex,
} from 'viem'
import type { WalletChain } from '../config.ts'

/*
 * What both dev wallets share: EIP-1193 errors, parsing of the signing methods' params (they come from the
 * page or the dapp, so they are untrusted) and the signing/sending itself with a viem local account.
 */

/** An EIP-1193 provider error: `code` is what dapps (and wagmi/viem) switch on. */
export class ProviderRpcError extends Error {
  readonly code: number
  readonly data?: unknown

  constructor(code: number, message: string, data?: unknown) {
    super(message)
    this.name = 'ProviderRpcError'
    this.code = code
    if (data !== undefined) this.data = data
  }
}

/** The EIP-1193 / EIP-1474 errors the wallets answer. */
export const rpcErrors = {
  userRejected: () => new ProviderRpcError(4001, 'User rejected the request.'),
  unauthorized: () =>
    new ProviderRpcError(4100, 'The requested account and/or method has not been authorized by the user.'),
  unsupportedMethod: (method: string) =>
    new ProviderRpcError(4200, `The Walletstate Dev Wallet does not support the method ${method}.`),
  chainDisconnected: (chain: { id: number; name: string }) =>
    new ProviderRpcError(
      4901,
      `The Walletstate Dev Wallet has no node for ${chain.name} (chain ${chain.id}): switch to the sandbox chain.`,
    ),
  unrecognizedChain: (chainId: string) =>
    new ProviderRpcError(
      4902,
      `Unrecognized chain ID ${chainId}. Try adding the chain using wallet_addEthereumChain first.`,
    ),
  invalidRequest: (message: string) => new ProviderRpcError(-32600, message),
  invalidParams: (message: string) => new ProviderRpcError(-32602, message),
  internal: (message: string) => new ProviderRpcError(-32603, message),
}

/** The chain the dev wallets can switch to but do not serve, so a dapp's "unsupported network" view can be shown. */
export function unsupportedChainFor(servedChainId: number): { id: number; name: string } {
  return servedChainId === 1 ? { id: 10, name: 'OP Mainnet' } : { id: 1, name: 'Ethereum' }
}

/** A viem chain for the served chain, reads and raw transactions going to its RPC URL. */
export function toViemChain(chain: WalletChain): Chain {
  return defineChain({
    id: chain.id,
    name: chain.name,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [chain.rpcUrl] } },
  })
}

/** Read-only methods (plus raw transaction submission) the wallets pass to the node unchanged. */
export const FORWARDED_METHODS: ReadonlySet<string> = new Set([
  'eth_blobBaseFee',
  'eth_blockNumber',
  'eth_call',
  'eth_createAccessList',
  'eth_estimateGas',
  'eth_feeHistory',
  'eth_gasPrice',
  'eth_getBalance',
  'eth_getBlockByHash',
  'eth_getBlockByNumber',
  'eth_getBlockReceipts',
  'eth_getBlockTransactionCountByHash',
  'eth_getBlockTransactionCountByNumber',
  'eth_getCode',
  'eth_getFilterChanges',
  'eth_getFilterLogs',
  'eth_getLogs',
  'eth_getProof',
  'eth_getStorageAt',
  'eth_getTransactionByBlockHashAndIndex',
  'eth_getTransactionByBlockNumberAndIndex',
  'eth_getTransactionByHash',
  'eth_getTransactionCount',
  'eth_getTransactionReceipt',
  'eth_maxPriorityFeePerGas',
  'eth_newBlockFilter',
  'eth_newFilter',
  'eth_newPendingTransactionFilter',
  'eth_sendRawTransaction',
  'eth_simulateV1',
  'eth_syncing',
  'eth_uninstallFilter',
  'web3_clientVersion',
])

const RpcAnswerSchema = v.object({
  result: v.optional(v.unknown()),
  error: v.optional(v.object({ code: v.number(), message: v.string(), data: v.optional(v.unknown()) })),
})

let forwardId = 0

/** Sends one JSON-RPC call to the node and answers its result, or throws its error as a {@link ProviderRpcError}. */
export async function forwardRpc(rpcUrl: string, method: string, params: unknown): Promise<unknown> {
  forwardId += 1
  let response: Response
  try {
    response = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: forwardId, method, params: params ?? [] }),
    })
  } catch {
    throw rpcErrors.internal(`The RPC endpoint ${rpcUrl} is unreachable`)
  }
  let json: unknown
  try {
    json = await response.json()
  } catch {
    throw rpcErrors.internal(`The RPC endpoint answered HTTP ${response.status} with no JSON`)
  }
  const answer = v.safeParse(RpcAnswerSchema, json)
  if (answer.success && answer.output.error) {
    const { code, message, data } = answer.output.error
    throw new ProviderRpcError(code, message, data)
  }
  if (!answer.success || !response.ok || !('result' in answer.output)) {
    throw rpcErrors.internal(`The RPC endpoint answered HTTP ${response.status} with no JSON-RPC result`)
  }
  return answer.output.result
}

const HexString = v.pipe(v.string(), v.regex(/^0x[0-9a-fA-F]*$/, 'must be a 0x-prefixed hex string'))
const Quantity = v.pipe(v.string(), v.regex(/^0x[0-9a-fA-F]{1,64}$/, 'must be a hex quantity'))
const AddressString = v.pipe(v.string(), v.regex(/^0x[0-9a-fA-F]{40}$/, 'must be an address'))
const ChainIdValue = v.union([
  v.pipe(v.number(), v.integer(), v.minValue(1)),
  v.pipe(v.string(), v.regex(/^(0x[0-9a-fA-F]{1,16}|[0-9]{1,20})$/, 'must be a chain id')),
])

function sameAddress(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase()
}

function invalid(
  method: string,
  issues: [v.BaseIssue<unknown>, ...v.BaseIssue<unknown>[]],
): ProviderRpcError {
  return rpcErrors.invalidParams(`Invalid ${method} params: ${v.summarize(issues)}`)
}

/** A chain id as dapps send it (number, decimal or hex string) as a number. */
export function chainIdNumber(value: number | string): number {
  return typeof value === 'number' ? value : Number(BigInt(value))
}

/** Shows bytes as text when they are printable UTF-8 (what people sign), otherwise as hex. */
export function displayMessage(data: Hex): string {
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(hexToBytes(data))
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what we look for
    if (!/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(text)) return text
  } catch {
    // not UTF-8: shown as hex below
  }
  return data
}

export interface PersonalSignRequest {
  message: SignableMessage
  /** The message as the person reads it. */
  text: string
}

const PersonalSignParams = v.looseTuple([v.string(), AddressString])

/** Parses `personal_sign` params `[data, address]`; the address must be the wallet's. */
export function parsePersonalSign(params: unknown, address: Address): PersonalSignRequest {
  const parsed = v.safeParse(PersonalSignParams, params)
  if (!parsed.success) throw invalid('personal_sign', parsed.issues)
  const [data, from] = parsed.output
  if (!sameAddress(from, address)) throw rpcErrors.unauthorized()
  const isHex = /^0x([0-9a-fA-F]{2})*$/.test(data)
  return isHex
    ? { message: { raw: data as Hex }, text: displayMessage(data as Hex) }
    : { message: data, text: data }
}

const TypedDataSchema = v.object({
  types: v.record(v.string(), v.array(v.object({ name: v.string(), type: v.string() }))),
  primaryType: v.pipe(v.string(), v.minLength(1)),
  domain: v.object({
    name: v.optional(v.string()),
    version: v.optional(v.string()),
    chainId: v.optional(ChainIdValue),
    verifyingContract: v.optional(AddressString),
    salt: v.optional(HexString),
  }),
  message: v.record(v.string(), v.unknown()),
})

export interface TypedDataRequest {
  typedData: TypedDataDefinition
  /** The typed data as the person reads it (pretty JSON). */
  text: string
  primaryType: string
  domainName: string | undefined
}

/** Parses `eth_signTypedData_v4` params `[address, typedData]` (typedData as JSON text or object). */
export function parseTypedDataV4(params: unknown, address: Address, activeChainId: number): TypedDataRequest {
  const outer = v.safeParse(
    v.looseTuple([AddressString, v.union([v.string(), v.record(v.string(), v.unknown())])]),
    params,
  )
  if (!outer.success) throw invalid('eth_signTypedData_v4', outer.issues)
  const [from, raw] = outer.output
  if (!sameAddress(from, address)) throw rpcErrors.unauthorized()
  let json: unknown = raw
  if (typeof raw === 'string') {
    try {
      json = JSON.parse(raw)
    } catch {
      throw rpcErrors.invalidParams('Invalid eth_signTypedData_v4 params: the typed data is not JSON')
    }
  }
  const parsed = v.safeParse(TypedDataSchema, json)
  if (!parsed.success) throw invalid('eth_signTypedData_v4', parsed.issues)
  const { types, primaryType, domain, message } = parsed.output
  if (primaryType !== 'EIP712Domain' && !(primaryType in types)) {
    throw rpcErrors.invalidParams(
      `Invalid eth_signTypedData_v4 params: primaryType ${primaryType} is not in types`,
    )
  }
  const chainId = domain.chainId === undefined ? undefined : chainIdNumber(domain.chainId)
  if (chainId !== undefined && chainId !== activeChainId) {
    throw rpcErrors.invalidParams(
      `Provided chainId "${chainId}" must match the active chainId "${activeChainId}"`,
    )
  }
  const typedData = {
    types,
    primaryType,
    domain: {
      ...domain,
      chainId,
      verifyingContract: domain.verifyingContract as Address | undefined,
      salt: domain.salt as Hex | undefined,
    },
    message,
  } as unknown as TypedDataDefinition // validated above; viem checks field types again when it signs
  return {
    typedData,
    text: JSON.stringify({ domain: { ...domain, chainId }, primaryType, message }, null, 2),
    primaryType,
    domainName: domain.name,
  }
}

/** Signs parsed typed data, turning viem's validation errors into -32602. */
export async function signTypedData(account: LocalAccount, request: TypedDataRequest): Promise<Hex> {
  try {
    return await account.signTypedData(request.typedData)
  } catch (error) {
    const message = error instanceof BaseError ? error.shortMessage : String(error)
    throw rpcErrors.invalidParams(`Invalid typed data: ${message}`)
  }
}

const TransactionSchema = v.object({
  from: AddressString,
  to: v.optional(v.nullable(AddressString)),
  value: v.optional(Quantity),
  data: v.optional(HexString),
  input: v.optional(HexString),
  gas: v.optional(Quantity),
  gasPrice: v.optional(Quantity),
  maxFeePerGas: v.optional(Quantity),
  maxPriorityFeePerGas: v.optional(Quantity),
  nonce: v.optional(Quantity),
  chainId: v.optional(Quantity),
})

export interface TransactionRequest {
  to: Address | undefined
  value: bigint
  data: Hex | undefined
  gas: bigint | undefined
  nonce: number | undefined
  gasPrice: bigint | undefined
  maxFeePerGas: bigint | undefined
  maxPriorityFeePerGas: bigint | undefined
}

const big = (value: string | undefined) => (value === undefined ? undefined : BigInt(value))

/** Parses `eth_sendTransaction` params `[tx]`; `from` must be the wallet's, `chainId` (if any) the active one. */
export function parseTransaction(
  params: unknown,
  address: Address,
  activeChainId: number,
): TransactionRequest {
  const parsed = v.safeParse(v.looseTuple([TransactionSchema]), params)
  if (!parsed.success) throw invalid('eth_sendTransaction', parsed.issues)
  const [tx] = parsed.output
  if (!sameAddress(tx.from, address)) throw rpcErrors.unauthorized()
  if (tx.chainId !== undefined && Number(BigInt(tx.chainId)) !== activeChainId) {
    throw rpcErrors.invalidParams(
      `Transaction chainId ${tx.chainId} does not match the active chain ${toHex(activeChainId)}`,
    )
  }
  const data = (tx.data ?? tx.input) as Hex | undefined
  if (!tx.to && (data === undefined || data === '0x')) {
    throw rpcErrors.invalidParams(
      'Invalid eth_sendTransaction params: a transaction needs `to` or contract `data`',
    )
  }
  return {
    to: (tx.to ?? undefined) as Address | undefined,
    value: big(tx.value) ?? 0n,
    data,
    gas: big(tx.gas),
    nonce: tx.nonce === undefined ? undefined : Number(BigInt(tx.nonce)),
    gasPrice: big(tx.gasPrice),
    maxFeePerGas: big(tx.maxFeePerGas),
    maxPriorityFeePerGas: big(tx.maxPriorityFeePerGas),
  }
}

/** A transaction's fields as the person reads them. */
export function describeTransaction(tx: TransactionRequest): Array<{ label: string; value: string }> {
  const lines = [
    { label: 'To', value: tx.to ?? 'New contract' },
    { label: 'Value', value: `${formatEther(tx.value)} ETH` },
  ]
  if (tx.data !== undefined && tx.data !== '0x') {
    const bytes = (tx.data.length - 2) / 2
    lines.push({ label: 'Data', value: `${tx.data.slice(0, 10)}… (${bytes} bytes)` })
  }
  if (tx.gas !== undefined) lines.push({ label: 'Gas limit', value: tx.gas.toString() })
  return lines
}

/** Signs the transaction locally and submits it raw through the chain's RPC URL; answers the hash. */
export async function sendTransaction(
  account: LocalAccount,
  chain: Chain,
  tx: TransactionRequest,
): Promise<Hex> {
  const client = createWalletClient({ account, chain, transport: http(undefined, { retryCount: 0 }) })
  const fees =
    tx.gasPrice !== undefined
      ? { gasPrice: tx.gasPrice }
      : { maxFeePerGas: tx.maxFeePerGas, maxPriorityFeePerGas: tx.maxPriorityFeePerGas }
  try {
    return await client.sendTransaction({
      account,
      chain,
      to: tx.to,
      value: tx.value,
      data: tx.data,
      gas: tx.gas,
      nonce: tx.nonce,
      ...fees,
    })
  } catch (error) {
    throw toProviderError(error)
  }
}

/** Keeps the node's JSON-RPC error code when viem wrapped one (e.g. a revert in eth_estimateGas). */
export function toProviderError(error: unknown): ProviderRpcError {
  if (error instanceof ProviderRpcError) return error
  if (error instanceof BaseError) {
    const coded = error.walk((cause) => typeof (cause as { code?: unknown }).code === 'number') as
      | (Error & { code: number; data?: unknown; shortMessage?: string })
      | null
    if (coded) return new ProviderRpcError(coded.code, coded.shortMessage ?? coded.message, coded.data)
    return rpcErrors.internal(error.shortMessage)
  }
  return rpcErrors.internal(error instanceof Error ? error.message : String(error))
}

const ClaimedFrom = v.looseObject({ from: v.string() })
const claimedFrom = (tx: unknown): string | undefined => {
  const parsed = v.safeParse(ClaimedFrom, tx)
  return parsed.success ? parsed.output.from : undefined
}

/**
 * Which of a wallet's accounts a signing request names (`personal_sign`'s second param, `eth_signTypedData_v4`'s
 * first, `eth_sendTransaction`'s `from`): that account, or the first when it names none of them (the request's
 * own parser then refuses it as unauthorised).
 */
export function signerFor<A extends { address: Address }>(
  accounts: readonly [A, ...A[]],
  method: string,
  params: unknown,
): A {
  const list = Array.isArray(params) ? params : []
  const claimed =
    method === 'personal_sign'
      ? list[1]
      : method === 'eth_signTypedData_v4'
        ? list[0]
        : method === 'eth_sendTransaction'
          ? claimedFrom(list[0])
          : undefined
  if (typeof claimed !== 'string') return accounts[0]
  return accounts.find((account) => sameAddress(claimed, account.address)) ?? accounts[0]
}
