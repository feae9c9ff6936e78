import { describe, expect, it } from 'vitest'
import { createActor, type EventFromLogic, type SnapshotFrom } from 'xstate'
import { payMachine } from '../../src/machines/pay'
import { assertCoverage, createModel, replayPath } from '../../src/testing'
import { replayAll } from './paths'

/**
 * Pay's records (src/machines/pay.ts), alone: every order of the host's payments, the send flow's answers, a
 * transfer's outcome and the views shown, with Pay on and off. The invariant holds what the host reads
 * (src/react/pay.ts): a payment is pending only while the send flow checks it, open only while Pay is paying, a
 * refusal names the payment it refused, and with Pay off nothing is ever asked of the send flow. How the kit carries
 * these events (its glue) is kit.pay.test.ts's, with the real send flow.
 */
type Machine = typeof payMachine
type Snapshot = SnapshotFrom<Machine>
type Event = EventFromLogic<Machine>

const REQUEST = { recipient: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', amount: '0.25' }
const events: Event[] = [
  { type: 'pay.open', id: 1, request: REQUEST },
  { type: 'pay.open', id: 2, request: REQUEST },
  { type: 'pay.accepted' },
  { type: 'pay.refused', error: { name: 'PayRequestInvalidError', message: 'Invalid payment request' } },
  { type: 'pay.view', view: 'Pay' },
  { type: 'pay.view', view: 'Account' },
  { type: 'pay.view', view: undefined },
  { type: 'pay.transferFailed', error: { name: 'UserRejectedError', message: 'Declined', code: 4001 } },
  { type: 'pay.sent', hash: `0x${'ab'.repeat(32)}` },
]

const serializeState = (s: Snapshot) =>
  JSON.stringify([
    s.value,
    s.context.pay?.status,
    s.context.pay?.shown,
    !!s.context.pay?.lastError,
    s.context.payRefused?.error.name,
  ])

const modelFor = (enabled: boolean) => createModel(payMachine, { input: { enabled }, events, serializeState })
const on = modelFor(true)
const off = modelFor(false)
const ON_PATHS = 9
const OFF_PATHS = 1

function invariant(s: Snapshot) {
  const { pay, payPending, payRefused } = s.context
  if (s.matches('asking') !== (payPending !== undefined)) throw new Error('a pending payment outside asking')
  if (s.matches('paying') !== (pay?.status === 'paying')) throw new Error('a payment open outside paying')
  if (payRefused && payRefused.id !== 1 && payRefused.id !== 2) throw new Error('a refusal of no payment')
  if (!s.context.enabled && (payPending || pay)) throw new Error('Pay off, yet a payment went on')
  if (pay?.status === 'succeeded' && !pay.hash) throw new Error('paid without a hash')
  if (pay?.status === 'failed' && !pay.error) throw new Error('failed without its error')
}

describe('Pay’s records, model-based', () => {
  it('has the expected number of covering paths (a change to the machine shows here)', () => {
    expect([on.paths.length, off.paths.length]).toEqual([ON_PATHS, OFF_PATHS])
  })

  for (const [name, model] of [
    ['Pay on', on],
    ['Pay off', off],
  ] as const)
    for (const path of model.paths)
      it(`replays, ${name}, ${path.description}`, () => {
        replayPath(model, path, { invariant })
      })

  it('reaches every state and takes every transition of the machine', () => {
    assertCoverage(on, replayAll([on, off], { invariant }))
  })

  it('left before it showed, the payment stays open; shown then left, it ends cancelled, or with the transfer’s failure', () => {
    const pay = createActor(payMachine, { input: { enabled: true } }).start()
    const asked: unknown[] = []
    pay.on('pay.ask', (notice) => asked.push(notice))
    pay.send({ type: 'pay.open', id: 1, request: REQUEST })
    expect(asked).toEqual([{ type: 'pay.ask', request: REQUEST }])
    pay.send({ type: 'pay.accepted' })
    pay.send({ type: 'pay.view', view: 'Account' })
    expect(pay.getSnapshot().context.pay?.status).toBe('paying')
    pay.send({ type: 'pay.view', view: 'Pay' })
    pay.send({
      type: 'pay.transferFailed',
      error: { name: 'UserRejectedError', message: 'Declined', code: 4001 },
    })
    pay.send({ type: 'pay.view', view: undefined })
    expect(pay.getSnapshot().context.pay).toMatchObject({ status: 'failed', error: { code: 4001 } })
  })
})
