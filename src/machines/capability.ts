import {
  type ActorRefFrom,
  type AnyActorRef,
  type AnyEventObject,
  and,
  assertEvent,
  assign,
  enqueueActions,
  fromCallback,
  fromPromise,
  raise,
  sendTo,
  setup,
} from 'xstate'
import { ON_DEMAND_LOAD_TIMEOUT_MS } from '../constants'
import type {
  AccountsChange,
  CapabilityKit,
  CapabilityKitEvent,
  CapabilityScope,
  KitAccounts,
  KitBalances,
  LoadedCapability,
  RegisteredCapability,
} from './capability/contract'

export type {
  AccountsChange,
  Capability,
  CapabilityEvent,
  CapabilityEvents,
  CapabilityKit,
  CapabilityKitEvent,
  CapabilityScope,
  CapabilityServices,
  KitAccounts,
  KitBalances,
  LoadedCapability,
  RegisteredCapability,
} from './capability/contract'
export { isEventFor } from './capability/contract'

export interface CapabilityHostContext {
  capability: RegisteredCapability
  /** The kit's scope when the capability was last asked for (its statechart starts from it). */
  scope: CapabilityScope | undefined
  /** Its code, once loaded (kept: a reset spawns a fresh statechart from it without loading again). */
  loaded: LoadedCapability | undefined
  /** Its running statechart (systemId: the capability's id). */
  actor: AnyActorRef | undefined
  /** The view the modal shows (undefined while closed), as the kit told it: its glue reads it. */
  view: string | undefined
  /** The kit's connected accounts, as last told: its statechart hears them when it starts (`accounts`). */
  accounts: KitAccounts
  /** Its events sent before its statechart ran: they loaded it, and reach it, in order, once it runs. */
  held: AnyEventObject[]
}

export type CapabilityHostEvent =
  /** The modal shows a view (none: closed): one of its own loads it, if it is offered in the kit's scope. */
  | { type: 'capability.view'; view: string | undefined; scope: CapabilityScope }
  /** Asked for by the kit (its `atStart`, a view's "Try again"): it loads, if offered in this scope. */
  | { type: 'capability.load'; scope: CapabilityScope }
  /**
   * The account, its chain or the namespace shown changed: a capability for one account ends, and starts again
   * for the account shown now if one of its views still shows.
   */
  | { type: 'capability.accountChanged'; view: string | undefined; scope: CapabilityScope }
  /** An event of the capability's (its prefix), from the views or the host page: to its statechart. */
  | { type: 'capability.forward'; event: AnyEventObject; scope: CapabilityScope }
  /** The account's latest balances (to a capability that takes them). */
  | { type: 'capability.balances'; balances: KitBalances }
  /** A connect, chain change or disconnect, any namespace's (to a capability that follows the accounts). */
  | { type: 'capability.accounts'; change: AccountsChange }
  /** The visitor leaves the view shown (back, close, Escape): one of its own tells its statechart (`leave`). */
  | { type: 'capability.leave'; view: string }
  /** Internal: its statechart started and its glue listens (raised on entering `running`). */
  | { type: 'capability.started' }
  /** From its glue: an event for the kit. */
  | { type: 'capability.tell'; event: CapabilityKitEvent }

/**
 * What the host tells the kit: its glue's events (`capabilities.tell`: the kit moves the modal, or takes them),
 * and whether its statechart runs (`capabilities.running`).
 */
export type CapabilityHostNotice =
  | { type: 'capabilities.tell'; event: CapabilityKitEvent }
  | { type: 'capabilities.running'; id: string; running: boolean }

/**
 * One capability beside the kit's root (the capability contract, src/machines/capability/contract.ts): its code
 * loads when one of its views shows (or at the kit's start), its statechart runs with the capability's id as its
 * systemId, and its glue turns the statechart's notices into the kit's events.
 *
 * `idle` → (`capability.load`, when `offered`) → `loading` → `running` (its statechart spawned, its glue
 * invoked) or `failed` (an error, or nothing within `onDemandLoad`: the next load tries again). A capability
 * for one account (`perAccount`) goes back to `idle` when the account changes; its next load starts it afresh
 * from the code already loaded.
 *
 * Pure: its loader and glue are the capability's own (`load`, `glue`), run in the `load` and `glue` slots.
 */
const capabilityHostSetup = setup({
  types: {
    context: {} as CapabilityHostContext,
    events: {} as CapabilityHostEvent,
    input: {} as { capability: RegisteredCapability },
  },
  actors: {
    /** The capability's code (its `load`): its statechart with its slots, and its glue. */
    load: fromPromise<LoadedCapability, { capability: RegisteredCapability }>(({ input }) =>
      input.capability.load(),
    ),
    /** Its glue, while it runs: the statechart's notices as the kit's events (`capability.tell`). */
    glue: fromCallback<
      AnyEventObject,
      { id: string; loaded: LoadedCapability; actor: AnyActorRef | undefined }
    >(({ input, sendBack, system }) => {
      const { actor, loaded } = input
      if (!actor || !loaded.glue) return () => {}
      const kit: CapabilityKit = {
        send: (event) => sendBack({ type: 'capability.tell', event }),
        view: () =>
          (system.get(hostId(input.id)) as CapabilityHostRef | undefined)?.getSnapshot().context.view,
      }
      return loaded.glue(actor as never, kit)
    }),
  },
  guards: {
    /** The capability is offered in the kit's scope now (its feature on, the right account). */
    offered: ({ context, event }) => {
      assertEvent(event, ['capability.load', 'capability.view', 'capability.forward'])
      return context.capability.offered(event.scope)
    },
    /** The modal shows one of its views. */
    showsItsView: ({ context, event }) => {
      assertEvent(event, 'capability.view')
      return event.view !== undefined && context.capability.views.includes(event.view)
    },
    /** Its code is here already: a fresh statechart starts without loading again. */
    loaded: ({ context }) => context.loaded !== undefined,
    /** Its statechart runs (a scope it has nothing for starts none). */
    started: ({ context }) => context.actor !== undefined,
    /** It is for one account: a change of account ends it. */
    perAccount: ({ context }) => context.capability.perAccount === true,
    /** Not the host's own event (nor XState's): its statechart's notice to its parent. */
    fromItsStatechart: ({ event }) =>
      !event.type.startsWith('capability.') && !event.type.startsWith('xstate.'),
    /** The view left is one of its own, and its statechart has something to do on leaving it. */
    leavesItsView: ({ context, event }) => {
      assertEvent(event, 'capability.leave')
      return context.capability.leave?.(event.view) !== undefined
    },
  },
  delays: {
    /** A chunk that never arrives counts as failed (ON_DEMAND_LOAD_TIMEOUT_MS): retryable. */
    onDemandLoad: ON_DEMAND_LOAD_TIMEOUT_MS,
  },
  actions: {
    keepScope: assign(({ event }) => {
      assertEvent(event, ['capability.load', 'capability.view', 'capability.forward'])
      return { scope: event.scope, accounts: event.scope.accounts }
    }),
    keepAccounts: assign(({ context, event }) => {
      assertEvent(event, 'capability.accounts')
      const { accounts, shown } = event.change
      return { accounts, scope: context.scope && { ...context.scope, accounts, connected: shown } }
    }),
    keepView: assign(({ event }) => {
      assertEvent(event, ['capability.view', 'capability.accountChanged'])
      return { view: event.view }
    }),
    /** After its end for another account: the view shown is judged again, in the kit's scope now. */
    askAgain: raise(({ event }) => {
      assertEvent(event, 'capability.accountChanged')
      return { type: 'capability.view' as const, view: event.view, scope: event.scope }
    }),
    keepCode: assign(({ event }) => ({ loaded: (event as unknown as { output: LoadedCapability }).output })),
    /** Its statechart, for the scope it was asked in (none when the capability has nothing for that scope). */
    start: assign(({ context, spawn }) => {
      if (context.actor || !context.loaded || !context.scope) return {}
      const input = context.capability.input(context.scope)
      if (input === undefined) return {}
      return {
        actor: spawn(context.loaded.logic, { systemId: context.capability.id, input }) as AnyActorRef,
      }
    }),
    /** Its statechart, just started, hears the accounts connected now (a capability that follows them). */
    tellAccountsAtStart: enqueueActions(({ context, enqueue }) => {
      const told = context.capability.accounts?.({
        change: 'started',
        accounts: context.accounts,
        shown: context.scope?.connected,
        shownChanged: true,
      })
      if (context.actor) for (const event of eventsOf(told)) enqueue.sendTo(context.actor, event)
    }),
    /** A change of the accounts, to its running statechart (a capability that follows them). */
    tellAccounts: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, 'capability.accounts')
      const told = context.capability.accounts?.(event.change)
      if (context.actor) for (const each of eventsOf(told)) enqueue.sendTo(context.actor, each)
    }),
    /** The visitor left one of its views: its statechart hears it (`leave`). */
    tellLeave: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, 'capability.leave')
      const told = context.capability.leave?.(event.view)
      if (context.actor && told) enqueue.sendTo(context.actor, told)
    }),
    stop: enqueueActions(({ context, enqueue }) => {
      if (context.actor) enqueue.stopChild(context.actor)
      enqueue.assign({ actor: undefined })
    }),
    /** An event of its own before it runs: kept for its statechart. */
    hold: assign(({ context, event }) => {
      assertEvent(event, 'capability.forward')
      return { held: [...context.held, event.event] }
    }),
    /** Its statechart runs: the events that came before reach it, in order. */
    deliverHeld: enqueueActions(({ context, enqueue }) => {
      if (context.actor) for (const held of context.held) enqueue.sendTo(context.actor, held)
      enqueue.assign({ held: [] })
    }),
    /** Its statechart's notice, to the kit as its glue's would be. */
    relay: enqueueActions(({ event, enqueue }) => {
      enqueue.sendParent({
        type: 'capabilities.tell',
        event: event as unknown as CapabilityKitEvent,
      } satisfies CapabilityHostNotice)
    }),
    /** The kit hears whether its statechart runs (a scope it has nothing for starts none). */
    tellRunning: enqueueActions(({ context, enqueue }) => {
      enqueue.sendParent({
        type: 'capabilities.running',
        id: context.capability.id,
        running: context.actor !== undefined,
      } satisfies CapabilityHostNotice)
    }),
    /** Its statechart ended (another account): the kit hears it no longer runs. */
    tellStopped: enqueueActions(({ context, enqueue }) => {
      enqueue.sendParent({
        type: 'capabilities.running',
        id: context.capability.id,
        running: false,
      } satisfies CapabilityHostNotice)
    }),
    /** Its code did not load: the events that waited for it are answered as it says (`unavailable`), and dropped. */
    reportUnavailable: enqueueActions(({ context, enqueue }) => {
      for (const event of context.capability.unavailable?.(context.held as never) ?? [])
        enqueue.sendParent({ type: 'capabilities.tell', event } satisfies CapabilityHostNotice)
      enqueue.assign({ held: [] })
    }),
    /** Its statechart hears the view the modal shows now (a capability that follows the views). */
    tellView: enqueueActions(({ context, enqueue }) => {
      const told = context.capability.view?.(context.view)
      if (context.actor && told) enqueue.sendTo(context.actor, told)
    }),
    forward: sendTo(
      ({ context }) => context.actor!,
      ({ event }) => {
        assertEvent(event, 'capability.forward')
        return event.event
      },
    ),
    shareBalances: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, 'capability.balances')
      const { actor, capability } = context
      if (actor && capability.balances) enqueue.sendTo(actor, capability.balances(event.balances))
    }),
    tellKit: enqueueActions(({ event, enqueue }) => {
      assertEvent(event, 'capability.tell')
      enqueue.sendParent({ type: 'capabilities.tell', event: event.event } satisfies CapabilityHostNotice)
    }),
  },
})

/**
 * Asked for: it starts at once when its code is here already (after a reset), else its code loads (the first
 * load, or again after a failed one).
 */
const startOrLoad = [
  { guard: and(['offered', 'loaded']), actions: 'keepScope', target: 'running' },
  { guard: 'offered', actions: 'keepScope', target: 'loading' },
] as const
/** An event of its own before it runs: it loads (if offered), and the event waits for its statechart. */
const onItsEvent = [
  { guard: and(['offered', 'loaded']), actions: ['keepScope', 'hold'], target: 'running' },
  { guard: 'offered', actions: ['keepScope', 'hold'], target: 'loading' },
] as const
/** A view of its own shows: as asked for. */
const onItsView = [
  {
    guard: and(['showsItsView', 'offered', 'loaded']),
    actions: ['keepScope', 'keepView'],
    target: 'running',
  },
  { guard: and(['showsItsView', 'offered']), actions: ['keepScope', 'keepView'], target: 'loading' },
] as const

export const capabilityHostMachine = capabilityHostSetup.createMachine({
  id: 'capability',
  context: ({ input }) => ({
    capability: input.capability,
    scope: undefined,
    loaded: undefined,
    actor: undefined,
    view: undefined,
    accounts: {},
    held: [],
  }),
  initial: 'idle',
  on: {
    'capability.tell': { actions: 'tellKit' },
    // Its statechart's own notices to its parent (a namespace's connection: `account.connected`, …): the kit's.
    '*': { guard: 'fromItsStatechart', actions: 'relay' },
    'capability.view': { actions: 'keepView' },
    'capability.accountChanged': { actions: 'keepView' },
    'capability.accounts': { actions: 'keepAccounts' },
  },
  states: {
    idle: {
      // Not offered in this scope: nothing loads (its view says so).
      on: {
        'capability.load': [...startOrLoad],
        'capability.view': [...onItsView, { actions: 'keepView' }],
        'capability.forward': [...onItsEvent],
      },
    },
    loading: {
      invoke: {
        id: 'load',
        src: 'load',
        input: ({ context }) => ({ capability: context.capability }),
        onDone: { target: 'running', actions: 'keepCode' },
        onError: { target: 'failed', actions: 'reportUnavailable' },
      },
      after: { onDemandLoad: { target: 'failed', actions: 'reportUnavailable' } },
      on: {
        'capability.forward': { actions: 'hold' },
        /** The account changed while its code loads: what loads was for the account before, and is not started. */
        'capability.accountChanged': [
          { guard: 'perAccount', target: 'idle', actions: ['keepView', 'askAgain'] },
          { actions: 'keepView' },
        ],
      },
    },
    running: {
      // What its statechart hears first is told once its glue listens (entry actions run before the invoked
      // glue starts; the raised event is taken after).
      entry: ['start', raise({ type: 'capability.started' })],
      exit: 'tellStopped',
      invoke: {
        id: 'glue',
        src: 'glue',
        input: ({ context }) => ({
          id: context.capability.id,
          loaded: context.loaded!,
          actor: context.actor,
        }),
      },
      on: {
        'capability.started': { actions: ['tellRunning', 'tellAccountsAtStart', 'deliverHeld'] },
        'capability.forward': { guard: 'started', actions: 'forward' },
        'capability.view': { actions: ['keepView', 'tellView'] },
        'capability.balances': { actions: 'shareBalances' },
        'capability.accounts': { actions: ['keepAccounts', 'tellAccounts'] },
        'capability.leave': { guard: and(['started', 'leavesItsView']), actions: 'tellLeave' },
        'capability.accountChanged': [
          { guard: 'perAccount', target: 'idle', actions: ['stop', 'keepView', 'askAgain'] },
          { actions: 'keepView' },
        ],
      },
    },
    /** Its code did not load (offline, a blocked chunk): the next load tries again. */
    failed: {
      on: {
        'capability.load': startOrLoad[1],
        'capability.view': [onItsView[1], { actions: 'keepView' }],
        'capability.forward': onItsEvent[1],
      },
    },
  },
})

/** A capability's host as an actor, by name (declarations that hold one name it instead of repeating its type). */
export interface CapabilityHostRef extends ActorRefFrom<CapabilityHostMachine> {}

/** What a mapping of the contract returned, as a list (none, one event, or several in order). */
function eventsOf(told: AnyEventObject | readonly AnyEventObject[] | undefined): readonly AnyEventObject[] {
  return told === undefined ? [] : Array.isArray(told) ? told : [told as AnyEventObject]
}

/** A capability's host's systemId. */
export const hostId = (id: string) => `capability.${id}`

/** Where a capability is: not asked for, its code loading, running, or its code failed to load. */
export type CapabilityStatus = 'idle' | 'loading' | 'running' | 'failed'

/** A host's status, from its snapshot. */
export const capabilityStatus = (snapshot: { value: unknown }): CapabilityStatus =>
  snapshot.value as CapabilityStatus

/**
 * `capabilityHostMachine`'s type by name: the declarations of what runs it name it instead of repeating its whole type
 * (what keeps the package's .d.ts files small).
 */
export interface CapabilityHostMachine extends CapabilityHostMachineType {}
type CapabilityHostMachineType = typeof capabilityHostMachine
