import { describe, expect, it } from 'vitest'
import { assertCoverage, type ReplayResult, replayPath } from '../../src/testing'
import { invariant, toastModel } from './toast.model'

const model = toastModel()

describe('toast machine, model-based', () => {
  it('has the expected number of covering paths', () => {
    expect(model.paths.length).toBe(7)
  })
  const results: ReplayResult[] = []
  for (const path of model.paths) {
    it(`replays ${path.description}`, () => {
      results.push(replayPath(model, path, { invariant }))
    })
  }
  it('reaches every state and takes every transition of the machine', () => {
    assertCoverage(model, results)
  })
})
