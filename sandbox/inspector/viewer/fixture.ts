import { assign, createActor, fromPromise, SimulatedClock, setup } from 'xstate'
import type { RecordEntry } from '../../../src/recording/format.ts'
import { createRecorder } from '../../../src/recording/recorder.ts'

/**
 * A small machine with what the viewer draws (nested and parallel states, a guard, a delay, an invoked slot, a
 * final state), for the viewer's tests.
 */
export const fixtureMachine = setup({
  types: { context: {} as { doubled: number }, events: {} as { type: 'start'; allowed: boolean } },
  actors: { load: fromPromise<number, number>(async ({ input }) => input * 2) },
  guards: { allowed: ({ event }) => event.allowed },
  delays: { wait: 1_000 },
}).createMachine({
  id: 'demo',
  context: { doubled: 0 },
  initial: 'idle',
  states: {
    idle: { on: { start: { guard: 'allowed', target: 'busy' } } },
    busy: {
      type: 'parallel',
      states: {
        fetch: {
          initial: 'loading',
          states: {
            loading: {
              invoke: {
                src: 'load',
                input: 21,
                onDone: { target: 'loaded', actions: assign({ doubled: ({ event }) => event.output }) },
              },
            },
            loaded: { type: 'final' },
          },
        },
        timer: { initial: 'ticking', states: { ticking: { after: { wait: 'rung' } }, rung: {} } },
      },
    },
  },
})

/**
 * A real recording of it (`createRecorder`): refused start, start, the slot's answer, the delay.
 */
export async function recordFixture(): Promise<RecordEntry[]> {
  const recorder = createRecorder()
  const clock = new SimulatedClock()
  const actor = createActor(fixtureMachine, { inspect: recorder.inspect, clock }).start()
  actor.send({ type: 'start', allowed: false })
  actor.send({ type: 'start', allowed: true })
  await new Promise((resolve) => setTimeout(resolve, 0))
  clock.increment(1_000)
  actor.stop()
  return recorder.records()
}
