import { assign, emit, setup } from 'xstate'
import type { Capability, CapabilityKit } from '../../../src'

/**
 * A capability that exists only in the tests: it proves the capability contract (src/machines/capability/
 * contract.ts) lets a feature plug into the kit with no change to the kit's root. Registered through
 * `createKitMachine(config, { capabilities: [counterCapability] })`, it is offered to a connected account, loads
 * when its view shows, runs its statechart (systemId `counter`) for that account, ends on a disconnect, takes its
 * events (`counter.*`) through the kit, and its glue turns its notice into a toast and a move of the modal.
 */
export type CounterEvent = { type: 'counter.increment' } | { type: 'counter.reset' }
export type CounterNotice = { type: 'counter.reached'; count: number }

declare module '../../../src/machines/capability/contract' {
  interface CapabilityEvents {
    counter: CounterEvent
  }
}

/** Counts to its goal for one account; says so once reached. */
export const counterMachine = setup({
  types: {
    context: {} as { address: string; count: number },
    events: {} as CounterEvent,
    input: {} as { address: string },
    emitted: {} as CounterNotice,
  },
  guards: {
    /** The next increment reaches the goal. */
    reachesGoal: ({ context }) => context.count + 1 >= COUNTER_GOAL,
  },
}).createMachine({
  id: 'counter',
  context: ({ input }) => ({ address: input.address, count: 0 }),
  initial: 'counting',
  states: {
    counting: {
      on: {
        'counter.increment': [
          {
            guard: 'reachesGoal',
            target: 'reached',
            actions: [
              assign({ count: ({ context }) => context.count + 1 }),
              emit(({ context }) => ({ type: 'counter.reached' as const, count: context.count })),
            ],
          },
          { actions: assign({ count: ({ context }) => context.count + 1 }) },
        ],
      },
    },
    reached: {
      on: { 'counter.reset': { target: 'counting', actions: assign({ count: 0 }) } },
    },
  },
})

export const COUNTER_GOAL = 3

/** The counter's glue: its goal reached shows a toast and its "done" view (from its main view only). */
export function counterGlue(counter: { on: CounterOn }, kit: CapabilityKit) {
  const subscription = counter.on('counter.reached', (notice) => {
    kit.send({ type: 'toast.show', variant: 'success', message: `Counted to ${notice.count}` })
    if (kit.view() === 'counter.Main') kit.send({ type: 'router.push', view: 'counter.Done' })
  })
  return () => subscription.unsubscribe()
}
type CounterOn = (
  type: 'counter.reached',
  handler: (notice: CounterNotice) => void,
) => { unsubscribe(): void }

export const counterCapability: Capability<typeof counterMachine> = {
  id: 'counter',
  views: ['counter.Main', 'counter.Done'],
  components: {
    'counter.Main': () => import('./views').then((m) => ({ default: m.CounterMain })),
    'counter.Done': () => import('./views').then((m) => ({ default: m.CounterDone })),
  },
  offered: ({ connected }) => connected !== undefined,
  perAccount: true,
  load: async () => ({ logic: counterMachine, glue: counterGlue }),
  input: ({ connected }) => (connected ? { address: connected.address } : undefined),
}
