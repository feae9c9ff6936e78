import * as v from 'valibot'
import { VERIFY_TIMEOUT_MS } from '../constants'
import { VerifyApiError } from '../errors/api'
import { apiUrl, requestJson } from './http'

/**
 * Domain verification (SPEC §3 "Verify context: origin, validation (VALID, INVALID, UNKNOWN), isScam"): when a
 * WalletConnect pairing URI is shown, the page registers an attestation for its pairing topic with the Verify
 * service (`POST {verify}/v1/attestation`). The service takes the page's origin from the browser's `Origin`
 * header, which page script cannot forge, and answers how a wallet will see it: VALID when the origin is one of
 * the project's verified domains, INVALID when it is not, UNKNOWN when the project lists none, and `isScam`
 * for an origin on its scam list. A wallet resolves the same attestation by the pairing topic of the proposal
 * it receives (`GET {verify}/v1/attestation/{topic}`) and checks it against the app's claimed metadata URL.
 *
 * Only the pairing topic leaves the page, never the URI's symmetric key.
 */

export const DomainValidationSchema = v.picklist(['VALID', 'INVALID', 'UNKNOWN'])
export type DomainValidation = v.InferOutput<typeof DomainValidationSchema>

/** How the Verify service sees this page (SPEC §3 Verify context). */
export interface DomainVerification {
  origin: string
  validation: DomainValidation
  isScam: boolean
}

const AttestationSchema = v.object({
  origin: v.pipe(v.string(), v.maxLength(2_048)),
  validation: DomainValidationSchema,
  isScam: v.boolean(),
})

/** The pairing topic of a WalletConnect URI (`wc:{topic}@2?…`), or `undefined` when it has none. */
export function pairingTopicOf(uri: string): string | undefined {
  return /^wc:([0-9a-f]{64})@2(?:\?|$)/.exec(uri)?.[1]
}

export interface RegisterAttestationParameters {
  /** The Verify service's base URL (`endpoints.verify`). */
  verifyUrl: string
  projectId: string
  /** The pairing URI shown to the visitor. */
  uri: string
  signal?: AbortSignal
  fetch?: typeof fetch
  timeoutMs?: number
}

/**
 * Registers this page's attestation for the pairing in `uri` and answers how wallets will see the domain.
 * Rejects with {@link VerifyApiError} when the URI has no pairing topic or the service gives no usable answer.
 *
 * @example
 * const { validation, isScam } = await registerAttestation({ verifyUrl, projectId, uri })
 * if (validation === 'INVALID' || isScam) warn()
 */
export async function registerAttestation(
  parameters: RegisterAttestationParameters,
): Promise<DomainVerification> {
  const pairingTopic = pairingTopicOf(parameters.uri)
  if (!pairingTopic) {
    throw new VerifyApiError({ kind: 'input', details: 'The pairing URI carries no pairing topic' })
  }
  const body = await requestJson(
    apiUrl(parameters.verifyUrl, 'v1/attestation', parameters.projectId),
    {
      method: 'POST',
      body: { pairingTopic },
      timeoutMs: parameters.timeoutMs ?? VERIFY_TIMEOUT_MS,
      label: 'The Verify service',
      ...(parameters.signal ? { signal: parameters.signal } : {}),
      ...(parameters.fetch ? { fetch: parameters.fetch } : {}),
      maxBytes: 16 * 1024,
    },
    (failure) => new VerifyApiError(failure),
  )
  const parsed = v.safeParse(AttestationSchema, body)
  if (!parsed.success) {
    throw new VerifyApiError({
      kind: 'malformed',
      details: `The Verify service answered an attestation of the wrong shape: ${v.summarize(parsed.issues)}`,
    })
  }
  return parsed.output
}
