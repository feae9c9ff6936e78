import { describe, expect, it } from 'vitest'
import { assign, createMachine, type SnapshotFrom } from 'xstate'
import {
  type CapabilityScope,
  capabilityHostMachine,
  type RegisteredCapability,
} from '../../src/machines/capability'
import { assertCoverage, createModel, replayPath } from '../../src/testing'
import { kitTestInput, testAccount } from './kit.fixtures'
import { replayAll } from './paths'

/**
 * A capability's host (src/machines/capability.ts), over a capability from the contract alone: it loads when
 * its own view shows and it is offered in the kit's scope, retries after a failed load, runs its statechart, takes
 * its events while it runs, and a capability for one account ends on an account change and starts again for the
 * account shown when its view still shows. The kit's side (what it tells the hosts) is kit.test.ts's; what each
 * of the kit's capabilities does with its notices is kit.rules.test.ts's.
 */
const { config } = kitTestInput('capability-model')
const connected: CapabilityScope = {
  config,
  connected: testAccount('injected'),
  balances: [],
  accounts: {},
  timeZone: undefined,
}
const anonymous: CapabilityScope = { ...connected, connected: undefined }
const standIn = createMachine({})

const capability = (perAccount: boolean): RegisteredCapability => ({
  id: 'standIn',
  views: ['Own'],
  offered: (scope) => scope.connected !== undefined,
  perAccount,
  load: async () => ({ logic: standIn }),
  input: () => ({}),
  balances: (balances) => ({ type: 'standIn.balances', balances }) as never,
  accounts: (change) => ({ type: 'standIn.accounts', change }) as never,
  leave: (view) => (view === 'Own' ? ({ type: 'standIn.left' } as never) : undefined),
})

/** Graph traversal reuses one actor system, so the statechart (spawned with its systemId) is a stand-in ref. */
const machine = capabilityHostMachine.provide({
  actions: {
    start: assign(({ context, spawn }) =>
      context.actor || !context.loaded ? {} : { actor: spawn(standIn) as never },
    ),
    // Alone, the host has no kit to tell: what the kit does with its glue's events is kit.rules.test.ts's.
    tellKit: () => {},
    tellRunning: () => {},
    tellStopped: () => {},
    relay: () => {},
  },
})

const events = [
  { type: 'capability.view', view: 'Own', scope: connected },
  { type: 'capability.view', view: 'Own', scope: anonymous },
  { type: 'capability.view', view: 'Other', scope: connected },
  { type: 'capability.load', scope: connected },
  { type: 'capability.load', scope: anonymous },
  { type: 'capability.accountChanged', view: 'Own', scope: connected },
  { type: 'capability.accountChanged', view: 'Other', scope: connected },
  { type: 'capability.forward', event: { type: 'standIn.ping' }, scope: connected },
  { type: 'capability.forward', event: { type: 'standIn.ping' }, scope: anonymous },
  { type: 'capability.view', view: undefined, scope: connected },
  { type: 'capability.balances', balances: [] },
  {
    type: 'capability.accounts',
    change: {
      change: 'chainChanged',
      chain: 'eip155',
      accounts: { eip155: connected.connected },
      shown: connected.connected,
      shownChanged: true,
    },
  },
  { type: 'capability.leave', view: 'Own' },
  // Its statechart's notice to its parent (a namespace's connection): relayed to the kit.
  { type: 'account.connected', account: testAccount('injected'), method: 'browser', reconnected: false },
  { type: 'capability.leave', view: 'Other' },
  { type: 'capability.tell', event: { type: 'toast.show', variant: 'success', message: 'Done' } },
  { type: 'xstate.done.actor.load', output: { logic: standIn } },
  { type: 'xstate.error.actor.load', error: new Error('offline') },
] as unknown as Parameters<typeof createModel<typeof machine>>[1]['events']

type HostSnapshot = SnapshotFrom<typeof machine>
const serializeState = (s: HostSnapshot) =>
  JSON.stringify([
    s.value,
    s.context.view,
    !!s.context.loaded,
    !!s.context.actor,
    !!s.context.scope?.connected,
  ])

const modelFor = (perAccount: boolean) =>
  createModel(machine, { input: { capability: capability(perAccount) }, events, serializeState })
const perAccount = modelFor(true)
const lasting = modelFor(false)
const PATHS = 26
const LASTING_PATHS = 24

function invariant(s: HostSnapshot) {
  // Its statechart runs only while the host is running, from code that loaded, for a scope it is offered in.
  if (s.context.actor && !s.matches('running')) throw new Error('a statechart outside running')
  if (s.matches('running') && !s.context.loaded) throw new Error('running without its code')
  if (s.matches('running') && !s.context.scope?.connected) throw new Error('running where it is not offered')
}

describe('capability host, model-based', () => {
  it('has the expected number of covering paths (a change to the machine shows here)', () => {
    expect([perAccount.paths.length, lasting.paths.length]).toEqual([PATHS, LASTING_PATHS])
  })
  for (const [name, model] of [
    ['for one account', perAccount],
    ['lasting', lasting],
  ] as const)
    for (const path of model.paths)
      it(`replays, ${name}, ${path.description}`, () => {
        replayPath(model, path, { invariant })
      })

  it('reaches every state and takes every transition of the machine', () => {
    assertCoverage(perAccount, replayAll([perAccount, lasting], { invariant }))
  })
})
