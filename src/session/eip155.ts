import {
  CallStatusNotApprovedError,
  InvalidParamsError,
  NoRpcUrlError,
  NotConnectedError,
  type SessionError,
  SwitchChainFailedError,
  UnapprovedMethodError,
} from '../errors/session'
import { eip155ChainId, eip155Reference, parseChainId } from '../utils/caip'
import { addressesOnChain, methodsForChain, sessionChains } from './namespaces'
import type { Namespaces, Properties, RpcRequest } from './types'
import { isPlainObject } from './validateNamespaces'

/**
 * SPEC §7: eip155 methods the app answers itself, without a round trip to the wallet, from what the session
 * approved. A few need the wallet after all (a chain the session lacks, capabilities it did not announce); the
 * answer then says so.
 */
export const LOCAL_EIP155_METHODS = [
  'eth_requestAccounts',
  'eth_accounts',
  'wallet_switchEthereumChain',
  'eth_chainId',
  'wallet_getCapabilities',
  'wallet_getCallsStatus',
] as const

export type LocalEip155Method = (typeof LOCAL_EIP155_METHODS)[number]

export const isLocalEip155Method = (method: string): method is LocalEip155Method =>
  (LOCAL_EIP155_METHODS as readonly string[]).includes(method)

/** What the handler needs of the session and the app. */
export interface LocalEip155Context {
  /** The session's approved namespaces and properties; `undefined` when there is no session. */
  session:
    | { namespaces: Namespaces; sessionProperties?: Properties; scopedProperties?: Properties }
    | undefined
  /** The app's current chain (`eip155:1`). */
  chainId: string | undefined
  /** RPC URLs the app configured, by chain (`eip155:1` → URL). */
  rpcMap: Readonly<Record<string, string>>
}

export type LocalAnswer =
  /** Answered here. A switch also names the chain now current. */
  | { kind: 'result'; result: unknown; chainId?: string }
  /** Refused here, with the SPEC §8 text. */
  | { kind: 'error'; error: SessionError }
  /** Only the wallet can answer: send it on `chainId`. */
  | { kind: 'wallet'; chainId: string }

/**
 * Answers a locally handled eip155 method, or returns `undefined` for any other method.
 *
 * @example
 * answerLocally({ method: 'eth_chainId' }, { session, chainId: 'eip155:10', rpcMap })
 * // { kind: 'result', result: '0xa' }
 */
export function answerLocally(request: RpcRequest, context: LocalEip155Context): LocalAnswer | undefined {
  if (!isLocalEip155Method(request.method)) return undefined
  const { session, chainId } = context
  if (!session || !chainId) return { kind: 'error', error: new NotConnectedError() }
  const approvedMethods = methodsForChain(session.namespaces, chainId)
  switch (request.method) {
    case 'eth_requestAccounts':
    case 'eth_accounts':
      return { kind: 'result', result: addressesOnChain(session.namespaces, chainId) }
    case 'eth_chainId':
      return { kind: 'result', result: toHexChainId(chainId) }
    case 'wallet_switchEthereumChain':
      return switchChain(request.params, context, approvedMethods)
    case 'wallet_getCapabilities':
      return capabilities(request.params, session, chainId, approvedMethods)
    case 'wallet_getCallsStatus':
      // The status of batched calls is the wallet's to tell; without its approval there is no one to ask.
      return approvedMethods.includes('wallet_getCallsStatus')
        ? { kind: 'wallet', chainId }
        : { kind: 'error', error: new CallStatusNotApprovedError() }
  }
}

/** `eip155:10` → `0xa`. */
export function toHexChainId(chainId: string): string {
  return `0x${BigInt(eip155Reference(chainId) ?? 0).toString(16)}`
}

function switchChain(params: unknown, context: LocalEip155Context, approvedMethods: string[]): LocalAnswer {
  const first = Array.isArray(params) ? params[0] : undefined
  const raw = isPlainObject(first) ? first.chainId : undefined
  const reference = parseChainReference(raw)
  if (reference === undefined) {
    return { kind: 'error', error: new InvalidParamsError('wallet_switchEthereumChain needs a chainId') }
  }
  const target = eip155ChainId(BigInt(reference))
  const session = context.session!
  if (sessionChains(session.namespaces).includes(target)) {
    // Reads on the new chain go to its RPC; without one the app could not follow the switch.
    const rpcUrl = context.rpcMap[target] ?? rpcMapUrl(session.namespaces, target)
    if (!rpcUrl) return { kind: 'error', error: new NoRpcUrlError({ details: target }) }
    return { kind: 'result', result: null, chainId: target }
  }
  if (approvedMethods.includes('wallet_switchEthereumChain'))
    return { kind: 'wallet', chainId: context.chainId! }
  return { kind: 'error', error: new SwitchChainFailedError({ details: target }) }
}

function parseChainReference(raw: unknown): string | undefined {
  if (typeof raw === 'number' && Number.isSafeInteger(raw) && raw > 0) return String(raw)
  if (typeof raw !== 'string' || raw === '') return undefined
  try {
    const value = raw.startsWith('0x') ? BigInt(raw) : BigInt(`0x${raw}`)
    return value > 0n ? value.toString() : undefined
  } catch {
    return undefined
  }
}

function rpcMapUrl(namespaces: Namespaces, chainId: string): string | undefined {
  const reference = parseChainId(chainId)?.reference ?? ''
  for (const namespace of Object.values(namespaces)) {
    const url = namespace.rpcMap?.[reference] ?? namespace.rpcMap?.[chainId]
    if (url) return url
  }
  return undefined
}

/**
 * Capabilities the wallet announced in the session (EIP-5792): `sessionProperties.capabilities` for every chain,
 * `scopedProperties['eip155:<n>'].capabilities` for one chain and `scopedProperties['eip155:<n>:<address>']
 * .capabilities` for one account (each an object or its JSON). Keyed by hex chain id; the wallet is asked when
 * the session announced none.
 */
function capabilities(
  params: unknown,
  session: NonNullable<LocalEip155Context['session']>,
  chainId: string,
  approvedMethods: string[],
): LocalAnswer {
  const address = Array.isArray(params) && typeof params[0] === 'string' ? params[0] : undefined
  if (!address)
    return { kind: 'error', error: new InvalidParamsError('wallet_getCapabilities needs an address') }
  const asked: unknown = Array.isArray(params) ? params[1] : undefined
  const chains = Array.isArray(asked) && asked.length > 0 ? asked.map(String) : [toHexChainId(chainId)]
  const scoped = session.scopedProperties ?? {}
  const global = parseObject(session.sessionProperties?.capabilities)
  const result: Record<string, Record<string, unknown>> = {}
  for (const hex of chains) {
    const reference = parseChainReference(hex)
    if (reference === undefined) continue
    const chain = eip155ChainId(BigInt(reference))
    const merged = {
      ...global,
      ...parseObject(parseObject(scoped[chain]).capabilities),
      ...parseObject(parseObject(scoped[`${chain}:${address}`]).capabilities),
    }
    if (Object.keys(merged).length > 0) result[toHexChainId(chain)] = merged
  }
  if (Object.keys(result).length > 0) return { kind: 'result', result }
  if (approvedMethods.includes('wallet_getCapabilities')) return { kind: 'wallet', chainId }
  return {
    kind: 'error',
    error: new UnapprovedMethodError({ details: `wallet_getCapabilities on ${chainId}` }),
  }
}

function parseObject(value: unknown): Record<string, unknown> {
  if (typeof value === 'string') {
    try {
      return parseObject(JSON.parse(value))
    } catch {
      return {}
    }
  }
  return isPlainObject(value) ? { ...value } : {}
}
