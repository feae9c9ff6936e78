/**
 * CAIP-2 chain ids (`eip155:1`) and CAIP-10 account ids (`eip155:1:0xab…`): the one place they are parsed and
 * built. Everything else asks this module instead of splitting on ':' itself.
 * Grammar: https://chainagnostic.org/CAIPs/caip-2 and caip-10.
 */
import { getAddress, isAddress } from 'viem'

/** `namespace:reference`, as CAIP-2 defines both parts. */
export const CAIP2_PATTERN = /^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}$/
/** `namespace:reference:address`, as CAIP-10 defines the address part. */
export const CAIP10_PATTERN = /^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}:[-.%a-zA-Z0-9]{1,128}$/

export type Caip2 = `${string}:${string}`
export type Caip10 = `${string}:${string}:${string}`

export interface ChainIdParts {
  namespace: string
  reference: string
}

export interface AccountIdParts extends ChainIdParts {
  /** The CAIP-2 chain id of the account. */
  chainId: Caip2
  address: string
}

/** Whether `value` is a CAIP-2 chain id. */
export function isCaip2(value: unknown): value is Caip2 {
  return typeof value === 'string' && CAIP2_PATTERN.test(value)
}

/** Whether `value` is a CAIP-10 account id. */
export function isCaip10(value: unknown): value is Caip10 {
  return typeof value === 'string' && CAIP10_PATTERN.test(value)
}

/**
 * The parts of a CAIP-2 chain id; undefined when it is not one.
 *
 * @example parseChainId('eip155:1') // { namespace: 'eip155', reference: '1' }
 */
export function parseChainId(value: unknown): ChainIdParts | undefined {
  if (!isCaip2(value)) return undefined
  const at = value.indexOf(':')
  return { namespace: value.slice(0, at), reference: value.slice(at + 1) }
}

/**
 * The parts of a CAIP-10 account id; undefined when it is not one.
 *
 * @example parseAccountId('eip155:1:0xab…') // { namespace: 'eip155', reference: '1', chainId: 'eip155:1', address: '0xab…' }
 */
export function parseAccountId(value: unknown): AccountIdParts | undefined {
  if (!isCaip10(value)) return undefined
  const first = value.indexOf(':')
  const second = value.indexOf(':', first + 1)
  const namespace = value.slice(0, first)
  const reference = value.slice(first + 1, second)
  return { namespace, reference, chainId: `${namespace}:${reference}`, address: value.slice(second + 1) }
}

/** The namespace of a CAIP-2 chain id or CAIP-10 account id (`eip155`), or undefined. */
export function chainNamespaceOf(value: unknown): string | undefined {
  return (parseAccountId(value) ?? parseChainId(value))?.namespace
}

/** `namespace:reference`. */
export function formatChainId(namespace: string, reference: string | number): Caip2 {
  return `${namespace}:${reference}`
}

/** `chainId:address`. */
export function formatAccountId(chainId: Caip2, address: string): Caip10 {
  return `${chainId}:${address}`
}

/** An EVM chain's CAIP-2 id: `eip155:{chainId}`. */
export function eip155ChainId(chainId: number | bigint): Caip2 {
  return formatChainId('eip155', chainId.toString())
}

/**
 * The CAIP-2 id of a kit chain id: `eip155:{n}` for an EVM chain's number; a Solana (or Bitcoin) chain id is
 * already one.
 *
 * @example caipChainId(1) // 'eip155:1'
 * caipChainId('solana:Hq4dzz54z5Mz3UNbSXtqh2tF4zCBtKZx') // the same
 */
export function caipChainId(chainId: number | `solana:${string}` | `bip122:${string}`): Caip2 {
  return typeof chainId === 'number' ? eip155ChainId(chainId) : (chainId as Caip2)
}

/** The configured network of a chain id (eip155's number, Solana's CAIP-2 id). */
export function networkOfChain<
  N extends { chainNamespace: string; id: number | string; caipNetworkId: string },
>(networks: readonly N[], chainId: number | string): N | undefined {
  return networks.find((n) =>
    typeof chainId === 'number'
      ? n.chainNamespace === 'eip155' && Number(n.id) === chainId
      : n.caipNetworkId === chainId,
  )
}

/** The numeric chain id of an `eip155:` CAIP-2 id; undefined for other namespaces or a malformed reference. */
export function eip155Reference(value: unknown): number | undefined {
  const parts = parseChainId(value)
  if (parts?.namespace !== 'eip155' || !/^[1-9][0-9]{0,15}$/.test(parts.reference)) return undefined
  const id = Number(parts.reference)
  return Number.isSafeInteger(id) ? id : undefined
}

/**
 * An EVM address, checksummed, from a CAIP-10 id or a plain address; undefined when it is neither (viem's
 * `isAddress`, which also rejects a wrong mixed-case checksum).
 */
export function evmAddressOf(value: unknown): `0x${string}` | undefined {
  if (typeof value !== 'string') return undefined
  const candidate = parseAccountId(value)?.address ?? value.trim()
  return isAddress(candidate) ? getAddress(candidate) : undefined
}

/** Whether `value` is an EVM address (checksum checked when mixed-case). */
export function isEvmAddress(value: unknown): value is `0x${string}` {
  return typeof value === 'string' && isAddress(value)
}
