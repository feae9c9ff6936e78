import { fromPromise } from 'xstate'
import type { DomainVerification } from '../api/verify'
import type { ResolvedKitConfig } from '../config'

/**
 * The connection's `verifyDomain` slot for a WalletConnect pairing (eip155's and Solana's): registers the page's
 * attestation with `endpoints.verify`. The Verify client is fetched with the first pairing URI shown, not before.
 */
export function verifyDomainLogic(config: ResolvedKitConfig) {
  return fromPromise<DomainVerification, { uri: string }>(async ({ input, signal }) => {
    const { registerAttestation } = await import('../api/verify')
    return registerAttestation({
      verifyUrl: config.endpoints.verify,
      projectId: config.projectId,
      uri: input.uri,
      signal,
    })
  })
}
