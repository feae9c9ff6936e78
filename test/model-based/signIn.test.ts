import { describe, expect, it } from 'vitest'
import { assertCoverage, type ReplayResult, replayPath } from '../../src/testing'
import { invariant, models } from './signIn.model'

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
})
