import { describe, expect, it } from 'vitest'
import type { SnapshotFrom } from 'xstate'
import { toastMachine } from '../../src/machines/toast'
import { assertCoverage, createModel, type ReplayResult, replayPath } from '../../src/testing'

type ToastSnapshot = SnapshotFrom<typeof toastMachine>

const model = createModel(toastMachine, {
  events: [
    { type: 'toast.show', variant: 'success', message: 'Saved' },
    { type: 'toast.show', variant: 'loading', message: 'Sending' },
    { type: 'toast.show', variant: 'error', message: 'Failed' },
    { type: 'toast.hide' },
  ],
})

function invariant(snapshot: ToastSnapshot): void {
  const { current, pending } = snapshot.context
  if (snapshot.matches('closed') && (current || pending)) throw new Error('closed with a toast left')
  if (snapshot.matches('open') && (!current || pending)) throw new Error('open without exactly one toast')
  if (snapshot.matches('replacing') && (current || !pending))
    throw new Error('replacing without a waiting toast')
  if (snapshot.hasTag('visible') !== snapshot.matches('open')) throw new Error('visible tag out of step')
}

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
