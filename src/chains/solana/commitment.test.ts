import { describe, expect, it } from 'vitest'
import { SOLANA_PREFLIGHT_COMMITMENTS } from '../../constants'
import { SolanaInvalidCommitmentError } from '../../errors/solana'
import { checkPreflightCommitment, isPreflightCommitment } from './commitment'

describe('preflight commitment (SPEC §5)', () => {
  it('is exactly the SPEC’s list', () => {
    expect(SOLANA_PREFLIGHT_COMMITMENTS).toEqual([
      'processed',
      'confirmed',
      'finalized',
      'recent',
      'single',
      'singleGossip',
      'root',
      'max',
    ])
  })

  it('accepts each value and undefined', () => {
    for (const value of SOLANA_PREFLIGHT_COMMITMENTS) {
      expect(isPreflightCommitment(value)).toBe(true)
      expect(checkPreflightCommitment(value)).toBe(value)
    }
    expect(checkPreflightCommitment(undefined)).toBeUndefined()
  })

  it('refuses anything else with a clear error', () => {
    for (const value of ['Confirmed', 'singlegossip', '', 'soon', ' max', null, 1, {}]) {
      expect(isPreflightCommitment(value)).toBe(false)
      expect(() => checkPreflightCommitment(value)).toThrow(SolanaInvalidCommitmentError)
    }
    expect(() => checkPreflightCommitment('soon')).toThrowErrorMatchingInlineSnapshot(`
      [SolanaInvalidCommitmentError: Invalid preflight commitment

      Details: "soon" is not one of processed, confirmed, finalized, recent, single, singleGossip, root, max]
    `)
  })
})
