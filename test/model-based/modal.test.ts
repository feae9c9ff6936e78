import { describe, expect, it } from 'vitest'
import { assertCoverage, type ReplayResult, replayPath } from '../../src/testing'
import { modalInvariant, modalModel } from './modal.model'

const model = modalModel()

describe('modal machine, model-based', () => {
  it('has the expected number of covering paths (a change to the machine shows here)', () => {
    expect(model.paths.length).toBe(16)
  })

  const results: ReplayResult[] = []
  for (const path of model.paths) {
    it(`replays ${path.description}`, () => {
      results.push(replayPath(model, path, { invariant: modalInvariant }))
    })
  }

  it('reaches every state and takes every transition of the machine', () => {
    expect(results).toHaveLength(model.paths.length)
    assertCoverage(model, results)
  })
})
