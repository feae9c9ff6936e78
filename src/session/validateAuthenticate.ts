import {
  AuthRequestNotFoundError,
  InvalidChainsError,
  InvalidParamsError,
  MultiNamespaceAuthError,
  NonEip155AuthError,
  type SessionError,
} from '../errors/session'
import { chainNamespaceOf, isChainId, unique } from './namespaces'
import { own } from './own'
import { isPlainObject } from './validateNamespaces'
import { isNonEmptyString } from './validateTopic'

/**
 * SPEC §5 authenticate (one-click auth): non-empty chains, and a uri, domain and nonce; one namespace only, and
 * it is eip155.
 *
 * @example
 * validateAuthenticate({ chains: ['solana:1'], uri, domain, nonce })?.shortMessage
 * // 'Only eip155 namespace is supported for authenticated sessions'
 */
export function validateAuthenticate(params: unknown): SessionError | undefined {
  if (!isPlainObject(params)) return new InvalidParamsError('authenticate() params must be an object')
  const { chains } = params
  if (!Array.isArray(chains) || chains.length === 0) {
    return new InvalidParamsError('authenticate() chains must be a non-empty list')
  }
  for (const field of ['uri', 'domain', 'nonce'] as const) {
    if (!isNonEmptyString(params[field])) return new InvalidParamsError(`authenticate() ${field} is required`)
  }
  const bad = chains.find((chain) => !isChainId(chain))
  if (bad !== undefined) return new InvalidChainsError({ details: String(bad) })
  const namespaces = unique((chains as string[]).map(chainNamespaceOf))
  if (namespaces.length > 1) return new MultiNamespaceAuthError({ details: namespaces.join(', ') })
  if (namespaces[0] !== 'eip155') return new NonEip155AuthError({ details: namespaces[0] })
  return undefined
}

/** Approving or rejecting one-click auth needs a pending auth request with that id. */
export function validateAuthResponse(
  id: unknown,
  pending: Readonly<Record<string, unknown>>,
): SessionError | undefined {
  if (typeof id !== 'number' || !own(pending, String(id))) return new AuthRequestNotFoundError(String(id))
  return undefined
}
