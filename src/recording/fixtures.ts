import { expect } from 'vitest'
import { assign, createActor, fromPromise, setup } from 'xstate'
import type { Recording } from './format'
import { createRecorder } from './recorder'

/** A small machine with a guard, a named action, a promise slot and a delay, and one session of it recorded. */
export const lookup = setup({
  types: {
    context: {} as { query: string; result: string | undefined; tries: number },
    events: {} as { type: 'type'; query: string } | { type: 'submit' } | { type: 'retry' },
  },
  actors: {
    search: fromPromise<string, { query: string }>(async ({ input }) => `found ${input.query}`),
  },
  actions: {
    keepQuery: assign({ query: ({ event }) => (event.type === 'type' ? event.query : '') }),
  },
  guards: {
    queryValid: ({ context }) => context.query.length >= 3,
  },
  delays: { settle: 300 },
}).createMachine({
  id: 'lookup',
  context: { query: '', result: undefined, tries: 0 },
  initial: 'editing',
  states: {
    editing: {
      on: {
        type: { actions: 'keepQuery' },
        submit: { guard: 'queryValid', target: 'searching' },
      },
    },
    searching: {
      invoke: {
        src: 'search',
        input: ({ context }) => ({ query: context.query }),
        onDone: { target: 'settling', actions: assign({ result: ({ event }) => event.output }) },
        onError: 'failed',
      },
    },
    settling: { after: { settle: 'found' } },
    found: {},
    failed: { on: { retry: 'searching' } },
  },
})

export async function recordSession(machine = lookup): Promise<Recording> {
  const recorder = createRecorder()
  const actor = createActor(machine, { inspect: recorder.inspect }).start()
  actor.send({ type: 'type', query: 'ab' })
  actor.send({ type: 'submit' })
  actor.send({ type: 'type', query: 'abc' })
  actor.send({ type: 'submit' })
  await new Promise((resolve) => setTimeout(resolve, 350))
  expect(actor.getSnapshot().value).toBe('found')
  actor.stop()
  return JSON.parse(JSON.stringify(recorder.recording()))
}
