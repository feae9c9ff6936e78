import { describe, expect, it } from 'vitest'
import { BATCHED_CALLS_RULE, InvalidBatchedCallError } from '../../errors/calls'
import { atomicBatching, batchedCallsRuleBroken } from './rules'
import type { CallsRequest } from './types'

const BOB = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const batch = (...calls: unknown[]) => ({ calls }) as unknown as CallsRequest

describe("Batched calls need a 'to' starting 0x; data, if present, starts 0x (SPEC §5)", () => {
  it('a batch whose every call has a 0x `to` and 0x data (or none) meets it', () => {
    expect(
      batchedCallsRuleBroken(batch({ to: BOB }, { to: BOB, data: '0xa9059cbb', value: '0x1' })),
    ).toBeUndefined()
    expect(batchedCallsRuleBroken(batch({ to: BOB, data: '0x' }))).toBeUndefined()
  })

  it('a call without a 0x `to` breaks it, and the reason names the call', () => {
    expect(batchedCallsRuleBroken(batch({ to: BOB }, { to: 'vitalik.eth' }))).toBe(
      "call 2: 'to' does not start with 0x",
    )
    expect(batchedCallsRuleBroken(batch({ data: '0x' }))).toBe("call 1: 'to' does not start with 0x")
    expect(batchedCallsRuleBroken(batch({ to: `0X${BOB.slice(2)}` }))).toBe(
      "call 1: 'to' does not start with 0x",
    )
    expect(batchedCallsRuleBroken(batch({ to: 42 }))).toBe("call 1: 'to' does not start with 0x")
  })

  it('data present but not starting 0x breaks it', () => {
    expect(batchedCallsRuleBroken(batch({ to: BOB, data: 'a9059cbb' }))).toBe(
      "call 1: 'data' does not start with 0x",
    )
    expect(batchedCallsRuleBroken(batch({ to: BOB, data: null }))).toBe(
      "call 1: 'data' does not start with 0x",
    )
  })

  it('no calls, a call that is not an object, or a value that is not a hex quantity: refused too', () => {
    expect(batchedCallsRuleBroken(batch())).toBe('the batch has no calls')
    expect(batchedCallsRuleBroken({ calls: 'nope' } as unknown as CallsRequest)).toBe(
      'the batch has no calls',
    )
    expect(batchedCallsRuleBroken(undefined)).toBe('the batch has no calls')
    expect(batchedCallsRuleBroken(batch(null))).toBe('call 1 is not an object')
    expect(batchedCallsRuleBroken(batch({ to: BOB, value: '1' }))).toBe("call 1: 'value' is not a quantity")
    expect(batchedCallsRuleBroken(batch({ to: BOB, value: -1n }))).toBe("call 1: 'value' is not a quantity")
  })

  it('the refusal says the SPEC rule, in the kit’s one error family', () => {
    const error = new InvalidBatchedCallError({ details: "call 1: 'to' does not start with 0x" })
    expect(error.shortMessage).toBe(BATCHED_CALLS_RULE)
    expect(error.shortMessage).toBe("Batched calls need a 'to' starting 0x; data, if present, starts 0x.")
    expect(error.message).toContain("call 1: 'to' does not start with 0x")
  })
})

describe('atomic batching', () => {
  it('is what the wallet reports as supported or ready; unsupported and unknown are not', () => {
    expect([atomicBatching('supported'), atomicBatching('ready')]).toEqual([true, true])
    expect([atomicBatching('unsupported'), atomicBatching('unknown'), atomicBatching(undefined)]).toEqual([
      false,
      false,
      false,
    ])
  })
})
