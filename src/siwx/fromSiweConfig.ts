import { SIWE_SESSION_TTL_MS } from '../constants'
import { InvalidSignInMessageError, SignatureVerificationError } from '../errors/signIn'
import { defaultStorage, eip155ChainNumber, localStore, messageData } from './siwe'
import type { SiweConfig, SiwxConfig } from './types'

/**
 * AppKit's SIWE configuration (`siweConfig`) as SIWX, so the kit's one sign-in machine serves both (issue 15):
 *
 * - `createMessage`: the host's `getMessageParams` and `getNonce`, then its `createMessage` for the account's
 *   DID; the text must parse back as an EIP-4361 message for that account and chain.
 * - `addSession`: the host's server verifies the message (`verifyMessage`, which starts its session) after the
 *   kit has; the signed message is also kept in this browser, then `onSignIn`.
 * - `getSessions`: the server's session (`getSession`), when it is this account on this chain, with the signed
 *   message kept here, which the kit checks again. No server session, no session; a server session without a
 *   message kept here (another browser) asks the visitor to sign here too.
 * - `revokeSession`: forgets the message, then the server's `signOut` and `onSignOut`.
 *
 * Loaded with the sign-in machine, only for a host that passes `siweConfig`.
 */
export function siwxFromSiweConfig(config: SiweConfig, storage = defaultStorage()): SiwxConfig {
  const kept = localStore(storage)
  return {
    async createMessage({ accountAddress, chainId }) {
      const chain = eip155ChainNumber(chainId)
      const params = (await config.getMessageParams?.()) ?? {}
      const domain = params.domain ?? globalThis.location?.host
      const uri = params.uri ?? globalThis.location?.origin
      if (!domain || !uri) throw new InvalidSignInMessageError('the message needs the page’s domain and URI')
      const nonce = await config.getNonce(accountAddress)
      const iat = params.iat ?? new Date().toISOString()
      // Every session ends: without the host's own expiry, the kit's (a message without one is refused).
      const issued = Date.parse(iat)
      const exp =
        params.exp ??
        new Date((Number.isFinite(issued) ? issued : Date.now()) + SIWE_SESSION_TTL_MS).toISOString()
      const message = config.createMessage({
        ...params,
        domain,
        uri,
        address: `did:pkh:${chainId}:${accountAddress}`,
        chainId: chain,
        nonce,
        version: '1',
        iat,
        exp,
      })
      const data = messageData(message)
      if (!data)
        throw new InvalidSignInMessageError('siweConfig.createMessage did not make an EIP-4361 message')
      return { message, data }
    },
    async addSession(session) {
      let accepted: boolean
      try {
        accepted = await config.verifyMessage({ message: session.message, signature: session.signature })
      } catch (error) {
        throw new SignatureVerificationError({ cause: error })
      }
      if (accepted !== true)
        throw new SignatureVerificationError({ details: 'siweConfig.verifyMessage refused it' })
      await kept.add(session)
      config.onSignIn?.({
        address: session.data.accountAddress,
        chainId: eip155ChainNumber(session.data.chainId),
      })
    },
    async getSessions(chainId, address) {
      const server = await config.getSession()
      if (
        !server ||
        typeof server.address !== 'string' ||
        server.address.toLowerCase() !== address.toLowerCase() ||
        `eip155:${server.chainId}` !== chainId
      )
        return []
      return kept.list(chainId, address)
    },
    async revokeSession(chainId, address) {
      await kept.revoke(chainId, address)
      await config.signOut()
      config.onSignOut?.()
    },
    getRequired: () => config.required ?? false,
    async getDomain() {
      const params = (await config.getMessageParams?.()) ?? {}
      const domain = params.domain ?? globalThis.location?.host
      const uri = params.uri ?? globalThis.location?.origin
      return domain && uri ? { domain, uri } : undefined
    },
  }
}
