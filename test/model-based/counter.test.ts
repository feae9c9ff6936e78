import { describe, expect, it } from 'vitest'
import { createActor } from 'xstate'
import type { CapabilityKitEvent } from '../../src'
import { assertCoverage, createModel, replayPath } from '../../src/testing'
import { COUNTER_GOAL, counterGlue, counterMachine } from './counter/capability'

/**
 * The test-only capability's model (the capability contract: a capability's model covers its own machine, and
 * its glue against the kit's side of the contract, a `CapabilityKit` that records what it is told).
 */
const model = createModel(counterMachine, {
  input: { address: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC' },
  events: [{ type: 'counter.increment' }, { type: 'counter.reset' }],
})

describe('counter capability (test-only), model-based', () => {
  it('has the expected number of covering paths', () => {
    expect(model.paths.length).toBe(3)
  })
  for (const path of model.paths)
    it(`replays ${path.description}`, () => {
      replayPath(model, path, {
        invariant: (s) => {
          if (s.matches('reached') !== s.context.count >= COUNTER_GOAL) throw new Error('goal out of step')
        },
      })
    })
  it('reaches every state and takes every transition of the machine', () => {
    assertCoverage(
      model,
      model.paths.map((path) => replayPath(model, path)),
    )
  })
})

describe('counter capability (test-only): its glue against the kit', () => {
  function glued(view: string | undefined) {
    const told: CapabilityKitEvent[] = []
    const actor = createActor(counterMachine, { input: { address: '0x0' } }).start()
    const stop = counterGlue(actor, { send: (event) => told.push(event), view: () => view })
    return { actor, told, stop }
  }

  it('the goal reached on its main view: a toast, then its "done" view', () => {
    const { actor, told } = glued('counter.Main')
    for (let i = 0; i < COUNTER_GOAL; i++) actor.send({ type: 'counter.increment' })
    expect(told).toEqual([
      { type: 'toast.show', variant: 'success', message: `Counted to ${COUNTER_GOAL}` },
      { type: 'router.push', view: 'counter.Done' },
    ])
  })

  it('elsewhere only the toast; once stopped, nothing', () => {
    const elsewhere = glued('Account')
    for (let i = 0; i < COUNTER_GOAL; i++) elsewhere.actor.send({ type: 'counter.increment' })
    expect(elsewhere.told.map((e) => e.type)).toEqual(['toast.show'])
    const stopped = glued('counter.Main')
    stopped.stop()
    for (let i = 0; i < COUNTER_GOAL; i++) stopped.actor.send({ type: 'counter.increment' })
    expect(stopped.told).toEqual([])
  })
})
