import { describe, expect, it } from 'vitest'
import { createActor, fromPromise, waitFor } from 'xstate'
import { callsMachine } from '../../machines/calls'
import type { CallsStatus } from '../../machines/calls/types'
import type { CapabilityKitEvent } from '../../machines/capability'
import { callsGlue } from './calls'

const ALICE = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const HASH = `0x${'ab'.repeat(32)}` as const

/** The calls machine whose `showCallsStatus` slot reads `status` (as for the embedded wallet), glued to a kit. */
function glued(status: CallsStatus | null) {
  const sent: CapabilityKitEvent[] = []
  const calls = createActor(
    callsMachine.provide({ actors: { showCallsStatus: fromPromise(async () => status) } }),
    { input: { account: { address: ALICE, chainId: 31337 } } },
  ).start()
  callsGlue(calls, { send: (event) => sent.push(event), view: () => undefined })
  return { calls, sent }
}

describe("the calls glue shows a batch's status the wallet does not show itself", () => {
  const receipt = { transactionHash: HASH, blockNumber: '16', status: 'success' as const }
  const cases: [CallsStatus, string, string][] = [
    [
      { status: 'success', atomic: true, receipts: [receipt] },
      'success',
      'Batch status: confirmed (1 receipt)',
    ],
    [{ status: 'pending', atomic: true, receipts: [] }, 'success', 'Batch status: pending (0 receipts)'],
    [
      { status: 'failure', atomic: false, receipts: [receipt, { ...receipt, status: 'reverted' }] },
      'error',
      'Batch status: reverted (2 receipts)',
    ],
  ]
  for (const [status, variant, message] of cases)
    it(`${status.status}: "${message}"`, async () => {
      const { calls, sent } = glued(status)
      calls.send({ type: 'calls.showStatus', id: 1, batchId: HASH })
      await waitFor(calls, (s) => s.context.shown?.phase === 'shown')
      expect(sent).toEqual([{ type: 'toast.show', variant, message }])
    })

  it('a wallet that showed it itself: no toast', async () => {
    const { calls, sent } = glued(null)
    calls.send({ type: 'calls.showStatus', id: 1, batchId: HASH })
    await waitFor(calls, (s) => s.context.shown?.phase === 'shown')
    expect(sent).toEqual([])
  })
})
