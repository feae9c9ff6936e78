import type { Address } from 'viem'
import { type EventFromLogic, fromPromise, type SnapshotFrom } from 'xstate'
import {
  fullNameOf,
  type NameSignedRegistration,
  type NameStatus,
  type NameSuggestion,
  nameRuleOf,
  namesMachine,
  normaliseNameLabel,
  type RegisteredNameRecord,
  selectFullName,
  selectNameRule,
  selectNameStatus,
} from '../../src/machines/names'
import { createModel, describeEvent, type ModelPath } from '../../src/testing'

/**
 * The names machine's model. Slots never settle on their own: each answer is an event of the path
 * (`xstate.done.actor.<id>` with an output, `xstate.error.actor.<id>` with an error), and the debounce is explored
 * as a delayed event, so every order of answers, the timer and the visitor's typing is a path. The answers
 * include one about another name than the one asked for (what a stale answer would look like).
 *
 * The notices (`emit`) are replaced by checks that throw when a notice would go out without its facts.
 *
 * Shared by names.test.ts (every path replayed on the machine, then scenarios with answering fakes).
 */
export const never = <T>() => new Promise<T>(() => {})
export const modelMachine = namesMachine.provide({
  actors: {
    fetchSuggestions: fromPromise(never<NameSuggestion[]>),
    signRegistration: fromPromise(never<NameSignedRegistration>),
    registerName: fromPromise(never<RegisteredNameRecord>),
  },
  actions: {
    emitRegistered: ({ context }) => {
      if (context.registeredName !== fullNameOf(context.label))
        throw new Error('names.registered without the name')
    },
    emitFailed: ({ context }) => {
      if (nameRuleOf(context.value) !== undefined || context.label === '')
        throw new Error('names.failed for a name never offered')
    },
  },
})

type Machine = typeof modelMachine
export type Snapshot = SnapshotFrom<Machine>
export type Event = EventFromLogic<Machine>

export const ALICE: Address = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
export const ANVIL = 31337
export const INPUT = { address: ALICE, chainId: ANVIL } as const
export const SIGNATURE: `0x${string}` = `0x${'ab'.repeat(65)}`

/** The API's answers: the label first with its real flag, then alternatives nobody holds. */
export const alternativesOf = (label: string): NameSuggestion[] =>
  [`${label}1`, `${label}-wallet`, `my-${label}`].map((l) => ({ name: fullNameOf(l), registered: false }))
export const answerFor = (label: string, registered: boolean): NameSuggestion[] => [
  { name: fullNameOf(label), registered },
  ...alternativesOf(label),
]

export const SIGNED: NameSignedRegistration = {
  message: '{"name":"alice.reown.id","attributes":{},"timestamp":1700000000}',
  signature: SIGNATURE,
  coinType: (0x80000000 | ANVIL) >>> 0,
}

// The done and error events of invoked actors are machine-internal types, so they are cast as events.
const answers = [
  { type: 'xstate.done.actor.fetchSuggestions', output: answerFor('alice', false) },
  { type: 'xstate.done.actor.fetchSuggestions', output: answerFor('alice', true) },
  // An answer about another name (a stale one): never shown.
  { type: 'xstate.done.actor.fetchSuggestions', output: answerFor('bobby', false) },
  { type: 'xstate.error.actor.fetchSuggestions', error: new Error('HTTP 503') },
  { type: 'xstate.done.actor.signRegistration', output: SIGNED },
  { type: 'xstate.error.actor.signRegistration', error: new Error('User rejected the request.') },
  { type: 'xstate.done.actor.registerName', output: { name: 'alice.reown.id' } },
  { type: 'xstate.error.actor.registerName', error: new Error('HTTP 409: Name is already registered') },
] as unknown as Event[]

export const events: Event[] = [
  { type: 'names.type', value: '' },
  { type: 'names.type', value: 'ali' },
  { type: 'names.type', value: 'alice.wcn.id' },
  // The LDH rules (`nameLdh`): SPEC §5's characters, but hyphens in the 3rd and 4th positions.
  { type: 'names.type', value: 'al--ice' },
  { type: 'names.type', value: ' Alice.reown.id ' },
  { type: 'names.pick', name: 'alice-wallet.reown.id' },
  ...answers,
]

/** State identity: the state and what decides where the machine goes and what the invariants speak of. */
export function serialize(snapshot: Snapshot): string {
  const c = snapshot.context
  return JSON.stringify({
    value: snapshot.value,
    typed: c.value,
    suggestions: c.suggestions.map((s) => `${s.name}${s.registered ? '!' : ''}`),
    error: c.error ?? null,
    signed: c.signed !== undefined,
    registered: c.registeredName ?? null,
  })
}

export const model = createModel(modelMachine, { events, input: INPUT, serializeState: serialize })

/** What must hold in every state of the names flow. */
export function invariant(snapshot: Snapshot): void {
  const c = snapshot.context
  const fail = (message: string) => {
    throw new Error(`${message} in ${JSON.stringify(snapshot.value)}`)
  }
  if (snapshot.status !== 'active') fail(`actor ${snapshot.status}`)
  const editing = (state: string) => snapshot.matches({ editing: state } as never)
  const loading = editing('debouncing') || editing('checking')
  if (snapshot.hasTag('loading') !== loading) fail('loading tag out of step')
  if (snapshot.hasTag('busy') !== snapshot.matches('registering')) fail('busy tag out of step')

  // The label is the value normalised; the states follow the rule.
  if (c.label !== normaliseNameLabel(c.value)) fail('a label that is not the value normalised')
  const rule = nameRuleOf(c.value)
  if (editing('empty') !== (c.label === '' && snapshot.matches('editing'))) fail('empty out of step')
  if (editing('invalid') !== (rule !== undefined && snapshot.matches('editing'))) fail('invalid out of step')
  if (selectNameRule(snapshot) !== (editing('invalid') ? rule : undefined)) fail('the rule shown out of step')
  if (editing('invalid') && !selectNameRule(snapshot)) fail('invalid without its rule')
  const valid = c.label !== '' && rule === undefined
  if (selectFullName(snapshot) !== (valid ? fullNameOf(c.label) : undefined))
    fail('the full name out of step')
  if (!valid && !snapshot.matches('editing')) fail('an invalid name past the form')

  // Suggestions: only the answer for the label as it is, from available or taken on (kept while registering).
  const past = snapshot.matches('registering') || snapshot.matches('registered')
  const shown = editing('available') || editing('taken') || past
  if (shown !== c.suggestions.length > 0) fail('suggestions out of step')
  if (shown) {
    const own = c.suggestions.find((s) => s.name === fullNameOf(c.label))
    if (!own) fail('suggestions for another name')
    if (own?.registered !== editing('taken')) fail('taken out of step with the answer')
  }

  // Errors: the SPEC §8 texts, where they occur.
  if (editing('suggestionsFailed') !== (c.error === 'Error fetching name suggestions'))
    fail('the suggestions error out of step')
  if (c.error !== undefined && !editing('suggestionsFailed')) {
    if (!editing('available') || c.error !== `Error registering name ${fullNameOf(c.label)}`)
      fail(`an unexpected error ${c.error}`)
  }
  if (snapshot.can({ type: 'names.retry' }) !== editing('suggestionsFailed'))
    fail('retry offered out of step')
  if (snapshot.can({ type: 'names.register' }) !== editing('available')) fail('register offered out of step')
  const canType = snapshot.can({ type: 'names.type', value: 'alice' })
  if (canType !== snapshot.matches('editing')) fail('typing offered out of step')

  // Registration: the message signed before it is submitted; the name once registered.
  if (snapshot.matches({ registering: 'submitting' }) !== (c.signed !== undefined)) fail('signed out of step')
  if (snapshot.matches('registered') !== (c.registeredName !== undefined)) fail('registeredName out of step')
  if (c.registeredName !== undefined && c.registeredName !== fullNameOf(c.label))
    fail('registered another name')

  // The status the views read follows the states.
  const status = selectNameStatus(snapshot)
  const statusStates: Array<[NameStatus, boolean]> = [
    ['empty', editing('empty')],
    ['invalid', editing('invalid')],
    ['debouncing', editing('debouncing')],
    ['checking', editing('checking')],
    ['available', editing('available')],
    ['taken', editing('taken')],
    ['suggestionsFailed', editing('suggestionsFailed')],
    ['signing', snapshot.matches({ registering: 'signing' })],
    ['submitting', snapshot.matches({ registering: 'submitting' })],
    ['registered', snapshot.matches('registered')],
  ]
  for (const [name, inState] of statusStates)
    if ((status === name) !== inState) fail(`status ${status} vs ${name}`)
}

/** A readable path name: answers are named by the slot. */
export function short(path: ModelPath): string {
  if (path.steps.length === 0) return '(initial state)'
  return path.steps
    .map(({ event }) => {
      const answer = /^xstate\.(done|error)\.actor\.(.+)$/.exec(event.type)
      if (!answer) return describeEvent(event).replace(/^names\./, '')
      if (answer[1] === 'error') return `failure(${answer[2]})`
      const output = (event as { output?: unknown }).output
      const detail = Array.isArray(output)
        ? (output as NameSuggestion[])
            .slice(0, 1)
            .map((s) => `${s.name}${s.registered ? ' taken' : ' free'}`)
            .join('')
        : ''
      return `answer(${answer[2]}${detail ? `: ${detail}` : ''})`
    })
    .join(' → ')
}
