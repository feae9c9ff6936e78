import { chainNamespaceOf as caipNamespaceOf, isCaip2, isCaip10, parseAccountId } from '../utils/caip'
import type { Namespaces, ProposalNamespace, ProposalNamespaces } from './types'

/**
 * CAIP helpers over SPEC §3 namespaces: which chains, methods and events a session or a proposal holds.
 * Chains are CAIP-2 (`namespace:reference`), accounts CAIP-10 (`namespace:reference:address`), parsed by
 * `src/utils/caip.ts`.
 */

/** `eip155:1` and the like: a CAIP-2 chain id. */
export function isChainId(value: unknown): value is string {
  return isCaip2(value)
}

/** `eip155:1:0xabc…`: a CAIP-10 account id. */
export function isAccountId(value: unknown): value is string {
  return isCaip10(value)
}

/** The namespace of a chain id (`eip155:1`), an account id, or a namespace key that is one already (`eip155`). */
export function chainNamespaceOf(key: string): string {
  return caipNamespaceOf(key) ?? key
}

/** `eip155:1:0xabc…` → `eip155:1` (empty when it is not an account id). */
export function chainOfAccount(account: string): string {
  return parseAccountId(account)?.chainId ?? ''
}

/** `eip155:1:0xabc…` → `0xabc…` (empty when it is not an account id). */
export function addressOfAccount(account: string): string {
  return parseAccountId(account)?.address ?? ''
}

/** The chains a proposal namespace asks for: inline (`eip155:1` as the key) or listed. */
export function proposalChains(key: string, namespace: ProposalNamespace): string[] {
  return isCaip2(key) ? [key] : (namespace.chains ?? [])
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
  return unique(Object.keys(namespaces).map(chainNamespaceOf))
}

export function unique<T>(items: readonly T[]): T[] {
  return [...new Set(items)]
}
