import { describe, expect, it } from 'vitest'
import { assertCoverage, replayPath } from '../../src/testing'
import { invariant, toastModel } from './toast.model'

const model = toastModel()

describe('toast machine, model-based', () => {
  it('has the expected number of covering paths', () => {
    expect(model.paths.length).toBe(9)
  })
  for (const path of model.paths) {
    it(`replays ${path.description}`, () => {
      replayPath(model, path, { invariant })
    })
  }
  it('reaches every state and takes every transition of the machine', () => {
    // Replays the paths itself, so it stands on its own (e.g. run alone with -t).
    const results = model.paths.map((path) => replayPath(model, path, { invariant }))
    expect(results).toHaveLength(9)
    assertCoverage(model, results)
  })
})
