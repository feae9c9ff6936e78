import type { Namespaces, ProposalNamespace, ProposalNamespaces } from './types'

/**
 * CAIP helpers over SPEC §3 namespaces: which chains, methods and events a session or a proposal holds.
 * Chains are CAIP-2 (`namespace:reference`), accounts CAIP-10 (`namespace:reference:address`).
 */

const SEGMENT = /^[-a-zA-Z0-9]+$/

/** `eip155:1` and the like: two non-empty segments. */
export function isChainId(value: unknown): value is string {
  if (typeof value !== 'string') return false
  const parts = value.split(':')
  return parts.length === 2 && parts.every((part) => SEGMENT.test(part))
}

/** `eip155:1:0xabc…`: a chain id and a non-empty address. */
export function isAccountId(value: unknown): value is string {
  if (typeof value !== 'string') return false
  const parts = value.split(':')
  return parts.length === 3 && isChainId(`${parts[0]}:${parts[1]}`) && parts[2] !== ''
}

export function namespaceOf(chainId: string): string {
  return chainId.split(':')[0] ?? ''
}

export function chainOfAccount(account: string): string {
  const [namespace, reference] = account.split(':')
  return `${namespace}:${reference}`
}

export function addressOfAccount(account: string): string {
  return account.split(':')[2] ?? ''
}

/** The chains a proposal namespace asks for: inline (`eip155:1` as the key) or listed. */
export function proposalChains(key: string, namespace: ProposalNamespace): string[] {
  return key.includes(':') ? [key] : (namespace.chains ?? [])
}

/** Every chain a set of proposal namespaces asks for. */
export function allProposalChains(namespaces: ProposalNamespaces): string[] {
  return unique(Object.entries(namespaces).flatMap(([key, ns]) => proposalChains(key, ns)))
}

/** The chains approved in a session: those its accounts are on, plus any listed. */
export function sessionChains(namespaces: Namespaces): string[] {
  return unique(
    Object.values(namespaces).flatMap((ns) => [...ns.accounts.map(chainOfAccount), ...(ns.chains ?? [])]),
  )
}

/** Methods approved for one chain (the namespaces whose accounts are on it). */
export function methodsForChain(namespaces: Namespaces, chainId: string): string[] {
  return unique(
    Object.values(namespaces)
      .filter((ns) => ns.accounts.some((account) => chainOfAccount(account) === chainId))
      .flatMap((ns) => ns.methods),
  )
}

/** Events approved for one chain. */
export function eventsForChain(namespaces: Namespaces, chainId: string): string[] {
  return unique(
    Object.values(namespaces)
      .filter((ns) => ns.accounts.some((account) => chainOfAccount(account) === chainId))
      .flatMap((ns) => ns.events),
  )
}

/** Addresses of the accounts on one chain, without duplicates. */
export function addressesOnChain(namespaces: Namespaces, chainId: string): string[] {
  return unique(
    Object.values(namespaces)
      .flatMap((ns) => ns.accounts)
      .filter((account) => chainOfAccount(account) === chainId)
      .map(addressOfAccount),
  )
}

/** The namespace keys, with inline chains (`eip155:1`) reduced to their namespace. */
export function namespaceKeys(namespaces: Record<string, unknown>): string[] {
  return unique(Object.keys(namespaces).map(namespaceOf))
}

export function unique<T>(items: readonly T[]): T[] {
  return [...new Set(items)]
}
