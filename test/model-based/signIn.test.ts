import { describe, expect, it } from 'vitest'
import { createActor, SimulatedClock } from 'xstate'
import { SIGN_IN_SIGNATURE_TIMEOUT_MS } from '../../src/constants'
import { SignInTimeoutError } from '../../src/errors/signIn'
import { assertCoverage, type ReplayResult, replayPath } from '../../src/testing'
import { events, invariant, modelMachine, models } from './signIn.model'

describe('sign-in machine, model-based', () => {
  for (const [name, model] of Object.entries(models)) {
    describe(`sign-in ${name}`, () => {
      it('has the expected number of covering paths', () => {
        expect(model.paths.length).toBe(name === 'optional' ? 41 : 40)
      })
      for (const path of model.paths) {
        it(`replays ${path.description}`, () => {
          replayPath(model, path, { invariant })
        })
      }
    })
  }
  it('the two models together reach every state and take every transition', () => {
    const results: ReplayResult[] = []
    for (const model of Object.values(models))
      for (const path of model.paths) results.push(replayPath(model, path, { invariant }))
    // Coverage over the union: `declined` is reached only when required, `skipped` only when optional.
    const merged: ReplayResult = { stateIds: new Set(), transitions: new Set() }
    for (const r of results) {
      for (const id of r.stateIds) merged.stateIds.add(id)
      for (const t of r.transitions) merged.transitions.add(t)
    }
    // Both models are of the one machine: its state nodes and transitions are either's.
    assertCoverage(models.optional, [merged])
  })
  // The graph's paths take no delayed transition: the wallet's silence is shown on a simulated clock.
  it('a wallet silent past signatureTimeout fails with the timeout text, not the generic one', () => {
    const clock = new SimulatedClock()
    const actor = createActor(modelMachine, { input: { required: false }, clock }).start()
    const first = (type: string) => events.find((e) => e.type === type)!
    actor.send(first('signIn.account'))
    actor.send({ type: 'xstate.done.actor.findSession', output: undefined } as never)
    actor.send({ type: 'signIn.sign' })
    actor.send(first('xstate.done.actor.createMessage'))
    expect(actor.getSnapshot().value).toBe('signing')
    clock.increment(SIGN_IN_SIGNATURE_TIMEOUT_MS - 1)
    expect(actor.getSnapshot().value).toBe('signing')
    clock.increment(1)
    expect(actor.getSnapshot().value).toBe('failed')
    expect(actor.getSnapshot().context.error).toBe(new SignInTimeoutError().shortMessage)
    actor.stop()
  })
})
