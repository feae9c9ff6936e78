import { BaseError } from './base'

/**
 * Errors of the provider-hosted Data API client (src/api/dataApi.ts). The short messages are SPEC §8's texts
 * where it names one for the call, so the UI can show `shortMessage` as it is.
 */

/**
 * What went wrong, for callers that treat them differently (e.g. retry a timeout, report a malformed body);
 * 'input' means the call was not made because its input cannot be right (an address that is not one);
 * 'tooLarge' that the answer passed the byte limit of the HTTP client (src/api/http.ts) and was not read.
 */
/** SPEC §8: the wallet listing could not be read. */
export const WALLETS_API_ERROR_MESSAGE = 'Could not load wallets'

export type ApiFailureKind = 'network' | 'timeout' | 'http' | 'malformed' | 'tooLarge' | 'input'

/** The short message of each Data API call's failure. */
export const DATA_API_ERROR_MESSAGES = {
  /** Ours: SPEC §8 names no text for the network-support check. */
  supportedChains: 'Error fetching supported networks',
  /** SPEC §8. */
  balance: 'Token Balance Unavailable',
  /** SPEC §8 (the embedded wallet's text for the same failure). */
  history: 'Failed to fetch transactions',
  /** Ours. */
  nfts: 'Failed to fetch NFTs',
  /** Ours. */
  identity: 'Error fetching identity',
  /** SPEC §8. */
  names: 'Error fetching names for address',
  /** SPEC §8. */
  resolveName: 'Error resolving name',
  /** Ours. */
  prices: 'Error fetching token prices',
} as const

export type DataApiCall = keyof typeof DATA_API_ERROR_MESSAGES

export interface DataApiErrorParameters {
  kind: ApiFailureKind
  details: string
  status?: number
  cause?: unknown
}

/**
 * A Data API call failed: the network, a timeout, a non-2xx answer, or a body that is not what the call
 * answers (`kind: 'malformed'`). `call` names the call, `status` the HTTP status when there was an answer.
 *
 * @example
 * try { await client.getBalances({ address, chainId }) } catch (e) {
 *   if (e instanceof DataApiError) toast.error(e.shortMessage) // 'Token Balance Unavailable'
 * }
 */
export class DataApiError extends BaseError {
  override name = 'DataApiError'
  readonly call: DataApiCall
  readonly kind: ApiFailureKind
  readonly status: number | undefined

  constructor(call: DataApiCall, parameters: DataApiErrorParameters) {
    super(DATA_API_ERROR_MESSAGES[call], {
      details: parameters.details,
      ...(parameters.cause === undefined ? {} : { cause: parameters.cause }),
    })
    this.call = call
    this.kind = parameters.kind
    this.status = parameters.status
  }
}

/**
 * The domain-verification service (the relay's Verify stand-in, SPEC §3 Verify context) did not give an answer
 * the kit can use. Never shown as an alert: without an answer the domain is UNKNOWN, as a wallet sees it.
 */
export class VerifyApiError extends BaseError {
  override name = 'VerifyApiError'
  readonly kind: ApiFailureKind
  readonly status: number | undefined

  constructor(parameters: DataApiErrorParameters) {
    super('Could not verify the domain', {
      details: parameters.details,
      ...(parameters.cause === undefined ? {} : { cause: parameters.cause }),
    })
    this.kind = parameters.kind
    this.status = parameters.status
  }
}
