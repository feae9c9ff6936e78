import { describe, expect, it } from 'vitest'
import { createActor } from 'xstate'
import {
  assertCoverage,
  describeEvent,
  type ModelPath,
  type ReplayResult,
  replayPath,
} from '../../src/testing'
import {
  frameInputs,
  frameInvariant,
  frameModel,
  frameModelMachine,
  requestModel,
  serializeFrame,
} from './frame.model'

/** A readable path name: the frame's answers by command, envelopes by id. */
function short(path: ModelPath): string {
  if (path.steps.length === 0) return '(initial state)'
  return path.steps
    .map(({ event }) => {
      if (event.type === 'frame.authDone') {
        const result = JSON.stringify(event.result ?? null)
        return `done(${event.command}${result === 'null' ? '' : ` ${result.slice(0, 40)}`})`
      }
      if (event.type === 'frame.authFailed') return `failed(${event.command})`
      if (event.type === 'frame.rpcSettled') return `settled(${event.id}, ${event.reply.ok ? 'ok' : 'error'})`
      if (event.type === 'frame.showIn') return 'frame.showIn(container)'
      return describeEvent(event)
    })
    .join(' → ')
}

describe('frame machine, model-based', () => {
  const fresh = frameModel('fresh')
  const restored = frameModel('restored')
  const results: ReplayResult[] = []

  it('has the expected number of covering paths (a change to the machine shows here)', () => {
    // 113: + the frame refusing the smart account from an EOA (SmartAccountUnsupportedError).
    // 114: + a switchNetwork answer the protocol refuses (issue 17: an EVM address for a Solana chain).
    // 123: + the smart account's setup after a login on it (answered, answered badly, refused) and a fresh
    // login given the config's account type (setPreferredAccount, then getUser again) (issue 36).
    // 126: the Farcaster wait starts at once (no 100 ms wait, -1); a Farcaster login left reloads the frame 100 ms
    // later (SPEC §9 Farcaster reload delay: farcasterLeft, reloadingFrame answered or failed, +4).
    expect(fresh.paths.length).toBe(126)
    // 27: the replies and the timeout of the stored login's check are the request actor's now (its model below).
    // 28: + the stored login on the smart account, set up once it is back (initSmartAccount) (issue 36).
    expect(restored.paths.length).toBe(28)
  })

  for (const [name, model] of [
    ['a first visit', fresh],
    ['a stored login and cooldown', restored],
  ] as const) {
    describe(name, () => {
      for (const path of model.paths) {
        it(`replays ${short(path)}`, () => {
          results.push(replayPath(model, path, { invariant: frameInvariant }))
        })
      }
    })
  }

  it('reaches every state and takes every transition of the machine, over both models', () => {
    expect(results).toHaveLength(fresh.paths.length + restored.paths.length)
    assertCoverage(fresh, results)
  })

  it('the invariant holds in every state of the abstraction, not only along the covering paths', () => {
    const states = fresh.reachable!
    for (const snapshot of states) {
      expect(() => frameInvariant(snapshot), serializeFrame(snapshot)).not.toThrow()
    }
    // 352: each state with an EOA or a smart account (the account type decides where a refused switch goes).
    // 1426: and whether the config's type was already asked for, and whether the network has a smart account
    // (both decide where a login or a switch goes) (issue 36).
    // 1442: + the Farcaster login left and the frame reloading (SPEC §9 Farcaster reload delay).
    expect(states).toHaveLength(1442)
  })

  describe('the request actor', () => {
    const models = [requestModel('login'), requestModel('signing')] as const
    const replayed: ReplayResult[] = []
    it('has the expected number of covering paths', () => {
      expect(models.map((m) => m.paths.length)).toEqual([3, 1])
    })
    for (const model of models) {
      for (const path of model.paths) {
        it(`replays ${short(path)}`, () => {
          replayed.push(replayPath(model, path))
        })
      }
    }
    it('reaches every state and takes every transition of the request actor, over both models', () => {
      expect(replayed).toHaveLength(models[0].paths.length + models[1].paths.length)
      assertCoverage(models[0], replayed)
    })
  })

  it('the model serializes the start of both inputs differently (the stored login is checked)', () => {
    const start = (input: typeof frameInputs.fresh) => {
      const actor = createActor(frameModelMachine, { input }).start()
      const key = serializeFrame(actor.getSnapshot())
      actor.stop()
      return key
    }
    expect(start(frameInputs.fresh)).not.toBe(start(frameInputs.restored))
  })
})
