import type { AtomicStatus, CallsRequest } from './types'

/**
 * SPEC §5 "Batched calls need a 'to' starting 0x; data, if present, starts 0x": why the batch breaks the rule
 * (which call, which field), or `undefined` when every call meets it. Read from what the host passed, whatever
 * it is (a JavaScript host's batch is not checked by the compiler), before any wallet is asked. An empty batch
 * breaks it too: it has no call with a `to`.
 *
 * @example
 * batchedCallsRuleBroken({ calls: [{ to: 'vitalik.eth' }] }) // "call 1: 'to' does not start with 0x"
 */
export function batchedCallsRuleBroken(request: CallsRequest | undefined): string | undefined {
  const calls: unknown = request?.calls
  if (!Array.isArray(calls) || calls.length === 0) return 'the batch has no calls'
  for (const [index, call] of calls.entries()) {
    const at = `call ${index + 1}`
    if (typeof call !== 'object' || call === null) return `${at} is not an object`
    const { to, data, value } = call as Record<string, unknown>
    if (typeof to !== 'string' || !to.startsWith('0x')) return `${at}: 'to' does not start with 0x`
    if (data !== undefined && (typeof data !== 'string' || !data.startsWith('0x')))
      return `${at}: 'data' does not start with 0x`
    if (value !== undefined && (typeof value !== 'string' || !/^0x[0-9a-fA-F]{1,64}$/.test(value)))
      return `${at}: 'value' is not a quantity`
  }
  return undefined
}

/** The wallet executes a batch atomically on that chain (in one confirmation), or can after an upgrade. */
export const atomicBatching = (atomic: AtomicStatus | undefined): boolean =>
  atomic === 'supported' || atomic === 'ready'
