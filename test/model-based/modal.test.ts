import { describe, expect, it } from 'vitest'
import { assertCoverage, replayPath } from '../../src/testing'
import { modalInvariant, modalModel } from './modal.model'

const model = modalModel()

describe('modal machine, model-based', () => {
  it('has the expected number of covering paths (a change to the machine shows here)', () => {
    expect(model.paths.length).toBe(16)
  })

  for (const path of model.paths) {
    it(`replays ${path.description}`, () => {
      replayPath(model, path, { invariant: modalInvariant })
    })
  }

  it('reaches every state and takes every transition of the machine', () => {
    // Replays the paths itself, so it stands on its own (e.g. run alone with -t).
    const results = model.paths.map((path) => replayPath(model, path, { invariant: modalInvariant }))
    expect(results).toHaveLength(16)
    assertCoverage(model, results)
  })
})
