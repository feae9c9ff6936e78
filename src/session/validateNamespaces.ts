import {
  InvalidAccountsError,
  InvalidChainsError,
  InvalidEventsError,
  InvalidMethodsError,
  InvalidParamsError,
  NonConformingNamespacesError,
  NullPropertyError,
  ScopedPropertiesError,
  type SessionError,
} from '../errors/session'
import {
  allProposalChains,
  chainNamespaceOf,
  chainOfAccount,
  eventsForChain,
  isAccountId,
  isChainId,
  methodsForChain,
  namespaceKeys,
  proposalChains,
  sessionChains,
} from './namespaces'
import type { Namespaces, ProposalNamespace, ProposalNamespaces } from './types'

/** The shape rules shared by connect, approve and settle (SPEC §5). */

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false
  const prototype = Object.getPrototypeOf(value)
  return prototype === Object.prototype || prototype === null
}

const isStringList = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === 'string' && item.trim() !== '')

/**
 * Requested namespaces (a proposal's required or optional ones): chains written `namespace:chainId`, either as
 * the key or listed, and methods and events as lists of names. Absent is fine.
 */
export function validateProposalNamespaces(namespaces: unknown, what: string): SessionError | undefined {
  if (namespaces === undefined) return undefined
  if (!isPlainObject(namespaces)) return new InvalidParamsError(`${what} must be an object`)
  for (const [key, namespace] of Object.entries(namespaces)) {
    if (!isPlainObject(namespace)) return new InvalidParamsError(`${what}.${key} must be an object`)
    if (!isStringList(namespace.methods ?? [])) return new InvalidMethodsError({ details: `${what}.${key}` })
    if (!isStringList(namespace.events ?? [])) return new InvalidEventsError({ details: `${what}.${key}` })
    if (key.includes(':')) {
      if (!isChainId(key)) return new InvalidChainsError({ details: key })
    } else {
      const chains = namespace.chains
      if (!Array.isArray(chains) || chains.length === 0) return new InvalidChainsError({ details: key })
      const bad = chains.find((chain) => !isChainId(chain))
      if (bad !== undefined) return new InvalidChainsError({ details: String(bad) })
    }
  }
  return undefined
}

/** Approved namespaces (a session's): a non-empty object whose accounts are `namespace:chainId:address`. */
export function validateSessionNamespaces(namespaces: unknown): SessionError | undefined {
  if (!isPlainObject(namespaces) || Object.keys(namespaces).length === 0) {
    return new InvalidParamsError('Namespaces must be an object with data')
  }
  for (const [key, namespace] of Object.entries(namespaces)) {
    if (!isPlainObject(namespace)) return new InvalidParamsError(`namespaces.${key} must be an object`)
    if (!Array.isArray(namespace.accounts)) return new InvalidAccountsError({ details: key })
    const badAccount = namespace.accounts.find((account) => !isAccountId(account))
    if (badAccount !== undefined) return new InvalidAccountsError({ details: String(badAccount) })
    if (!isStringList(namespace.methods)) return new InvalidMethodsError({ details: key })
    if (!isStringList(namespace.events)) return new InvalidEventsError({ details: key })
    if (namespace.chains !== undefined) {
      if (!Array.isArray(namespace.chains)) return new InvalidChainsError({ details: key })
      const badChain = namespace.chains.find((chain) => !isChainId(chain))
      if (badChain !== undefined) return new InvalidChainsError({ details: String(badChain) })
    }
  }
  return undefined
}

/** Session or scoped properties: an object whose values are never null (SPEC §5). */
export function validateProperties(properties: unknown, what: string): SessionError | undefined {
  if (properties === undefined) return undefined
  if (!isPlainObject(properties)) return new InvalidParamsError(`${what} must be an object`)
  const empty = Object.entries(properties).find(([, value]) => value === null || value === undefined)
  if (empty) return new NullPropertyError({ details: `${what}.${empty[0]}` })
  return undefined
}

/** Scoped properties are keyed by namespaces (or inline chains) the session has (SPEC §5). */
export function validateScopedSubset(
  scoped: unknown,
  namespaces: Record<string, unknown>,
): SessionError | undefined {
  if (!isPlainObject(scoped)) return undefined
  const allowed = new Set(namespaceKeys(namespaces))
  const outside = Object.keys(scoped).find((key) => !allowed.has(chainNamespaceOf(key)))
  return outside === undefined ? undefined : new ScopedPropertiesError({ details: outside })
}

/**
 * SPEC §5 approve: the approved namespaces satisfy the required ones. Every required namespace is approved,
 * every required chain has an account, and on it every required method and event is approved.
 */
export function validateConforming(
  required: ProposalNamespaces,
  approved: Namespaces,
): SessionError | undefined {
  const approvedKeys = new Set(namespaceKeys(approved))
  const missingKey = namespaceKeys(required).find((key) => !approvedKeys.has(key))
  if (missingKey) return new NonConformingNamespacesError({ details: `namespace ${missingKey} not approved` })
  const approvedChains = new Set(sessionChains(approved))
  for (const chain of allProposalChains(required)) {
    if (!approvedChains.has(chain)) return new NonConformingNamespacesError({ details: `chain ${chain}` })
    const wanted = requiredFor(required, chain)
    const methods = new Set(methodsForChain(approved, chain))
    const events = new Set(eventsForChain(approved, chain))
    const method = wanted.methods.find((m) => !methods.has(m))
    if (method) return new NonConformingNamespacesError({ details: `method ${method} on ${chain}` })
    const event = wanted.events.find((e) => !events.has(e))
    if (event) return new NonConformingNamespacesError({ details: `event ${event} on ${chain}` })
  }
  // Inline approved chains (`eip155:1` as a key) must hold accounts on that chain.
  for (const [key, namespace] of Object.entries(approved)) {
    if (key.includes(':') && !namespace.accounts.some((account) => chainOfAccount(account) === key)) {
      return new NonConformingNamespacesError({ details: `accounts for ${key}` })
    }
  }
  return undefined
}

function requiredFor(required: ProposalNamespaces, chain: string): ProposalNamespace {
  const methods: string[] = []
  const events: string[] = []
  for (const [key, namespace] of Object.entries(required)) {
    if (!proposalChains(key, namespace).includes(chain)) continue
    methods.push(...namespace.methods)
    events.push(...namespace.events)
  }
  return { methods, events }
}
