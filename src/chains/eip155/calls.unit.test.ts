import { describe, expect, it } from 'vitest'
import { InvalidCallsStatusError, InvalidCapabilitiesError } from '../../errors/calls'
import { atomicStatusOf, callsStatusOf, isSequentialBatchId, isUnsupportedMethod } from './calls'

const HASH = `0x${'ab'.repeat(32)}`

describe("the wallet's wallet_getCapabilities answer, per chain", () => {
  it('reads the chain’s own entry, else the one for every chain (0x0), else no atomic batching', () => {
    const answer = {
      '0x7a69': { atomic: { status: 'supported' } },
      '0x1': { atomic: { status: 'unsupported' } },
      '0x0': { atomic: { status: 'ready' } },
    }
    expect(atomicStatusOf(answer, 31337)).toBe('supported')
    expect(atomicStatusOf(answer, 1)).toBe('unsupported')
    expect(atomicStatusOf(answer, 10)).toBe('ready')
    expect(atomicStatusOf({ '0x7a69': { paymasterService: { supported: true } } }, 31337)).toBe('unsupported')
    expect(atomicStatusOf({}, 31337)).toBe('unsupported')
  })

  it('reads the pre-v2 shape (atomicBatch.supported) too', () => {
    expect(atomicStatusOf({ '0x7a69': { atomicBatch: { supported: true } } }, 31337)).toBe('supported')
    expect(atomicStatusOf({ '0x7a69': { atomicBatch: { supported: false } } }, 31337)).toBe('unsupported')
  })

  it('refuses a hostile or malformed answer with a clear error, never a guess', () => {
    const hostile: unknown[] = [
      null,
      'supported',
      [],
      { '31337': { atomic: { status: 'supported' } } },
      { '0x7a69': { atomic: { status: 'yes' } } },
      { '0x7a69': { atomic: 'supported' } },
      { '0x7a69': { atomicBatch: { supported: 'true' } } },
      { '0x7a69': 'supported' },
      Object.fromEntries(Array.from({ length: 600 }, (_, i) => [`0x${(i + 1).toString(16)}`, {}])),
    ]
    for (const answer of hostile) {
      expect(() => atomicStatusOf(answer, 31337)).toThrow(InvalidCapabilitiesError)
    }
    try {
      atomicStatusOf({ '0x7a69': { atomic: { status: 'yes' } } }, 31337)
    } catch (error) {
      expect((error as InvalidCapabilitiesError).shortMessage).toBe(
        'The wallet answered wallet_getCapabilities with an invalid result',
      )
    }
  })
})

describe("the wallet's wallet_getCallsStatus answer", () => {
  const receipt = { transactionHash: HASH, blockNumber: '0x10', status: '0x1', logs: [], gasUsed: '0x5208' }

  it('reads the status classes of EIP-5792 and the receipts', () => {
    expect(callsStatusOf({ status: 100, atomic: true })).toEqual({
      status: 'pending',
      atomic: true,
      receipts: [],
    })
    expect(callsStatusOf({ status: 200, atomic: true, receipts: [receipt] })).toEqual({
      status: 'success',
      atomic: true,
      receipts: [{ transactionHash: HASH, blockNumber: '16', status: 'success' }],
    })
    expect(callsStatusOf({ status: 500, receipts: [{ ...receipt, status: '0x0' }] })).toMatchObject({
      status: 'failure',
      atomic: false,
      receipts: [{ status: 'reverted' }],
    })
    expect(callsStatusOf({ status: 600 }).status).toBe('failure')
    expect(callsStatusOf({ status: 'CONFIRMED' }).status).toBe('success')
  })

  it('refuses a hostile or malformed answer with a clear error', () => {
    const hostile: unknown[] = [
      undefined,
      { status: 'done' },
      { status: 42 },
      { status: 700 },
      { status: 200, receipts: 'all good' },
      { status: 200, receipts: [{ ...receipt, transactionHash: '0x12' }] },
      { status: 200, receipts: [{ ...receipt, status: '0x2' }] },
      { status: 200, receipts: [{ ...receipt, blockNumber: 16 }] },
    ]
    for (const answer of hostile) expect(() => callsStatusOf(answer)).toThrow(InvalidCallsStatusError)
  })
})

describe('wallets without EIP-5792', () => {
  it('are told by the codes a missing method is answered with (EIP-1193 4200, JSON-RPC -32601, -32004)', () => {
    expect(isUnsupportedMethod({ code: 4200 })).toBe(true)
    expect(isUnsupportedMethod(new Error('wrapped', { cause: { code: -32601 } }))).toBe(true)
    expect(isUnsupportedMethod({ code: -32004 })).toBe(true)
    expect(isUnsupportedMethod({ code: 4001 })).toBe(false)
  })

  it('a batch sent as separate transactions is told by its id (viem’s fallback id)', () => {
    const id = `${HASH}${'0'.repeat(60)}7a69${'5792'.repeat(16)}`
    expect(isSequentialBatchId(id)).toBe(true)
    expect(isSequentialBatchId(HASH)).toBe(false)
  })
})
