import { SOLANA_PREFLIGHT_COMMITMENTS } from '../../constants'
import { SolanaInvalidCommitmentError } from '../../errors/solana'

/** A preflight commitment SPEC §5 allows (web3.js' `Commitment`, deprecated aliases included). */
export type PreflightCommitment = (typeof SOLANA_PREFLIGHT_COMMITMENTS)[number]

/**
 * Whether `value` is one of SPEC §5's preflight commitments (case-sensitive, as the RPC reads them).
 *
 * @example isPreflightCommitment('singleGossip') // true
 * isPreflightCommitment('Confirmed') // false
 */
export function isPreflightCommitment(value: unknown): value is PreflightCommitment {
  return typeof value === 'string' && (SOLANA_PREFLIGHT_COMMITMENTS as readonly string[]).includes(value)
}

/**
 * The preflight commitment to send with, checked: `undefined` stays `undefined` (the connection's own
 * commitment applies), anything outside SPEC §5's list throws `SolanaInvalidCommitmentError`.
 *
 * @example
 * checkPreflightCommitment('max') // 'max'
 * checkPreflightCommitment('soon') // throws 'Invalid preflight commitment'
 */
export function checkPreflightCommitment(value: unknown): PreflightCommitment | undefined {
  if (value === undefined) return undefined
  if (isPreflightCommitment(value)) return value
  const shown = typeof value === 'string' ? JSON.stringify(value.slice(0, 40)) : typeof value
  throw new SolanaInvalidCommitmentError({
    details: `${shown} is not one of ${SOLANA_PREFLIGHT_COMMITMENTS.join(', ')}`,
  })
}
