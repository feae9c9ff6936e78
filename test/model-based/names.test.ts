import { describe, expect, it } from 'vitest'
import { createActor, fromPromise, SimulatedClock } from 'xstate'
import { NAME_CHECK_DEBOUNCE_MS, SEND_REQUEST_TIMEOUT_MS } from '../../src/constants'
import {
  NAME_LABEL_RULE_TEXTS,
  NAME_LEGACY_RULE_MESSAGE,
  NAME_LENGTH_RULE_MESSAGE,
  NAME_RULE_MESSAGE,
  type NameRegisterRequest,
  type NameSignedRegistration,
  type NameSignRequest,
  type NameSuggestion,
  type NameSuggestionsRequest,
  type NamesNotice,
  namesMachine,
  type RegisteredNameRecord,
  selectFullName,
  selectNameRule,
  selectNameStatus,
} from '../../src/machines/names'
import { assertCoverage, type ReplayResult, replayPath } from '../../src/testing'
import { ALICE, ANVIL, answerFor, INPUT, invariant, model, never, SIGNED, short } from './names.model'

/** The names machine's model (names.model.ts): every path replayed, the invariants checked in every state. */
describe('names machine, model-based', () => {
  it('has the expected number of covering paths (a change to the machine shows here)', () => {
    expect(model.paths.length).toBe(16)
  })

  for (const path of model.paths) {
    it(`replays ${short(path)}`, () => {
      replayPath(model, path, { invariant })
    })
  }

  it('reaches every state and takes every transition of the machine (replaying every path itself)', () => {
    const results: ReplayResult[] = model.paths.map((path) => replayPath(model, path, { invariant }))
    expect(results).toHaveLength(16)
    assertCoverage(model, results)
  })
})

// ---------------------------------------------------------------------------------------------------------
// Scenarios: the machine with fakes on a simulated clock. Each fake records what it was asked and answers with
// what the scenario hands it (a deferred answer per call, so a test decides when and in which order they land).

interface Deferred<T> {
  promise: Promise<T>
  resolve: (value: T) => void
  reject: (error: unknown) => void
}
function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void
  let reject!: (error: unknown) => void
  const promise = new Promise<T>((res, rej) => {
    resolve = res
    reject = rej
  })
  return { promise, resolve, reject }
}

const flush = async () => {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setTimeout(resolve, 0))
}

interface Scenario {
  /** By label; unlisted labels: free. `'defer'`: the test answers through `pending`. */
  suggestions?: Record<string, NameSuggestion[] | Error | 'defer'>
  sign?: NameSignedRegistration | Error
  register?: RegisteredNameRecord | Error
}

function start(scenario: Scenario = {}) {
  const checks: NameSuggestionsRequest[] = []
  const signs: NameSignRequest[] = []
  const registers: NameRegisterRequest[] = []
  const pending = new Map<string, Deferred<NameSuggestion[]>>()
  const notices: NamesNotice[] = []
  const clock = new SimulatedClock()
  const machine = namesMachine.provide({
    actors: {
      fetchSuggestions: fromPromise(async ({ input }: { input: NameSuggestionsRequest }) => {
        checks.push(input)
        const answer = scenario.suggestions?.[input.label] ?? answerFor(input.label, false)
        if (answer === 'defer') {
          const d = deferred<NameSuggestion[]>()
          pending.set(input.label, d)
          return d.promise
        }
        if (answer instanceof Error) throw answer
        return answer
      }),
      signRegistration: fromPromise(async ({ input }: { input: NameSignRequest }) => {
        signs.push(input)
        if (scenario.sign instanceof Error) throw scenario.sign
        return scenario.sign ?? SIGNED
      }),
      registerName: fromPromise(async ({ input }: { input: NameRegisterRequest }) => {
        registers.push(input)
        if (scenario.register instanceof Error) throw scenario.register
        return scenario.register ?? { name: 'alice.reown.id' }
      }),
    },
  })
  const actor = createActor(machine, { input: INPUT, clock })
  actor.on('*', (notice) => notices.push(notice as NamesNotice))
  actor.start()
  const snapshot = () => actor.getSnapshot()
  const status = () => selectNameStatus(snapshot())
  /** Types a value and waits out the debounce and the answer. */
  const type = async (value: string) => {
    actor.send({ type: 'names.type', value })
    clock.increment(NAME_CHECK_DEBOUNCE_MS)
    await flush()
  }
  return { actor, clock, checks, signs, registers, pending, notices, snapshot, status, type }
}

describe('names machine, behaviour', () => {
  it('an invalid name is refused with the rule, and nothing is asked', async () => {
    const run = start()
    for (const value of ['ali', 'al ice', 'alice_1', 'alice.eth', 'ålice', 'ali.reown.id']) {
      await run.type(value)
      expect(run.status()).toBe('invalid')
      expect(selectNameRule(run.snapshot())).toBe(NAME_RULE_MESSAGE)
      expect(selectFullName(run.snapshot())).toBeUndefined()
    }
    await run.type('alice.wcn.id')
    expect(selectNameRule(run.snapshot())).toBe(NAME_LEGACY_RULE_MESSAGE)
    // 63 characters are a name; 64 are refused, saying so (no longer name could be looked up again).
    await run.type('a'.repeat(64))
    expect(selectNameRule(run.snapshot())).toBe(NAME_LENGTH_RULE_MESSAGE)
    expect(NAME_LENGTH_RULE_MESSAGE).toBe('Use at most 63 characters')
    expect(NAME_RULE_MESSAGE).toMatchInlineSnapshot(
      `"Use only letters, digits and hyphens, at least 4 characters"`,
    )
    expect(NAME_LEGACY_RULE_MESSAGE).toMatchInlineSnapshot(
      `"Names ending in .wcn.id can no longer be registered: choose a .reown.id name"`,
    )
    run.clock.increment(NAME_CHECK_DEBOUNCE_MS * 10)
    await flush()
    expect(run.checks).toEqual([])
    await run.type('   ')
    expect(run.status()).toBe('empty')
    expect(run.checks).toEqual([])
    await run.type('a'.repeat(63))
    expect(selectNameRule(run.snapshot())).toBeUndefined()
    expect(run.status()).not.toBe('invalid')
  })

  // The LDH rules (the `nameLdh` guard of src/machines/names.ts): SPEC §5's characters allow these, the DNS does
  // not; a punycode label is another script's look-alike (`xn--80ak6aa92e` shows as Cyrillic "аррӏе").
  it('an xn-- label, a hyphen first or last, hyphens in the 3rd and 4th positions: refused with the rule, nothing asked', async () => {
    const run = start()
    for (const [value, rule] of [
      ['xn--80ak6aa92e', 'punycode'],
      ['XN--80AK6AA92E.reown.id', 'punycode'],
      ['-alice-', 'hyphenEdge'],
      ['-alice', 'hyphenEdge'],
      ['alice-', 'hyphenEdge'],
      ['al--ice', 'hyphen34'],
      ['ab--', 'hyphenEdge'],
    ] as const) {
      await run.type(value)
      expect(run.status(), value).toBe('invalid')
      expect(selectNameRule(run.snapshot()), value).toBe(NAME_LABEL_RULE_TEXTS[rule])
      expect(selectFullName(run.snapshot())).toBeUndefined()
    }
    run.clock.increment(NAME_CHECK_DEBOUNCE_MS * 10)
    await flush()
    expect(run.checks).toEqual([])
    expect(run.snapshot().can({ type: 'names.register' })).toBe(false)
    // Hyphens elsewhere stay allowed.
    for (const value of ['alice-bob', 'a-l-i-c-e', 'ali--ce', 'xn-alice']) {
      await run.type(value)
      expect(run.status(), value).not.toBe('invalid')
    }
    expect(NAME_LABEL_RULE_TEXTS).toMatchInlineSnapshot(`
      {
        "hyphen34": "Do not use hyphens in both the 3rd and 4th positions",
        "hyphenEdge": "Start and end the name with a letter or digit",
        "punycode": "Names starting with xn-- cannot be registered: type the name in plain letters and digits",
      }
    `)
  })

  it('checks a valid name once after the debounce, normalised (suffix stripped, lowercased)', async () => {
    const run = start()
    for (const value of ['A', 'Al', 'Ali', 'Alic', ' Alice.REOWN.id ']) {
      run.actor.send({ type: 'names.type', value })
      run.clock.increment(NAME_CHECK_DEBOUNCE_MS - 1)
    }
    await flush()
    expect(run.checks).toEqual([])
    expect(run.status()).toBe('debouncing')
    run.clock.increment(1)
    await flush()
    expect(run.checks).toEqual([{ label: 'alice' }])
    expect(run.status()).toBe('available')
    expect(run.snapshot().context).toMatchObject({ value: ' Alice.REOWN.id ', label: 'alice' })
    expect(selectFullName(run.snapshot())).toBe('alice.reown.id')
  })

  it('a taken name shows the suggestions; picking one checks it', async () => {
    const run = start({ suggestions: { alice: answerFor('alice', true) } })
    await run.type('alice')
    expect(run.status()).toBe('taken')
    expect(run.snapshot().context.suggestions).toEqual(answerFor('alice', true))
    expect(run.snapshot().can({ type: 'names.register' })).toBe(false)
    run.actor.send({ type: 'names.pick', name: 'alice-wallet.reown.id' })
    run.clock.increment(NAME_CHECK_DEBOUNCE_MS)
    await flush()
    expect(run.checks.at(-1)).toEqual({ label: 'alice-wallet' })
    expect(run.status()).toBe('available')
    expect(run.snapshot().context.value).toBe('alice-wallet')
  })

  it('drops a stale answer: the answer for the old value is never shown for the new one', async () => {
    const run = start({ suggestions: { alice: 'defer', alicia: 'defer' } })
    await run.type('alice')
    expect(run.status()).toBe('checking')
    run.actor.send({ type: 'names.type', value: 'alicia' })
    // The old check answers (taken) while the new value waits for its debounce.
    run.pending.get('alice')!.resolve(answerFor('alice', true))
    await flush()
    expect(run.status()).toBe('debouncing')
    expect(run.snapshot().context.suggestions).toEqual([])
    run.clock.increment(NAME_CHECK_DEBOUNCE_MS)
    await flush()
    expect(run.status()).toBe('checking')
    run.pending.get('alicia')!.resolve(answerFor('alicia', false))
    await flush()
    expect(run.status()).toBe('available')
    expect(run.snapshot().context.suggestions).toEqual(answerFor('alicia', false))
    expect(run.checks).toEqual([{ label: 'alice' }, { label: 'alicia' }])
  })

  it('drops a stale answer that lands during the new check, and an answer about another name is no answer', async () => {
    const run = start({ suggestions: { alice: 'defer', alicia: 'defer' } })
    await run.type('alice')
    await run.type('alicia')
    expect(run.status()).toBe('checking')
    run.pending.get('alice')!.resolve(answerFor('alice', false))
    await flush()
    expect(run.status()).toBe('checking')
    run.pending.get('alicia')!.resolve(answerFor('alice', false))
    await flush()
    expect(run.status()).toBe('suggestionsFailed')
    expect(run.snapshot().context.suggestions).toEqual([])
  })

  it('a failed check says so and is retried', async () => {
    const scenario: Scenario = { suggestions: { alice: new Error('HTTP 503') } }
    const run = start(scenario)
    await run.type('alice')
    expect(run.status()).toBe('suggestionsFailed')
    expect(run.snapshot().context.error).toBe('Error fetching name suggestions')
    scenario.suggestions = {}
    run.actor.send({ type: 'names.retry' })
    await flush()
    expect(run.status()).toBe('available')
    expect(run.snapshot().context.error).toBeUndefined()
    expect(run.checks).toEqual([{ label: 'alice' }, { label: 'alice' }])
  })

  it('registers: signs the name for the account on its chain, submits the signed message, says so', async () => {
    const run = start()
    await run.type('Alice')
    run.actor.send({ type: 'names.register' })
    await flush()
    expect(run.signs).toEqual([{ address: ALICE, chainId: ANVIL, name: 'alice.reown.id' }])
    expect(run.registers).toEqual([
      { address: ALICE, coinType: SIGNED.coinType, message: SIGNED.message, signature: SIGNED.signature },
    ])
    expect(run.status()).toBe('registered')
    expect(run.snapshot().context.registeredName).toBe('alice.reown.id')
    expect(run.notices).toEqual([
      { type: 'names.signing' },
      { type: 'names.registered', name: 'alice.reown.id', address: ALICE },
    ])
  })

  it('shows busy while the wallet signs, ignores typing meanwhile; a wallet silent too long has failed', async () => {
    const machine = namesMachine.provide({
      actors: {
        fetchSuggestions: fromPromise(async () => answerFor('alice', false)),
        signRegistration: fromPromise(never<NameSignedRegistration>),
      },
    })
    const clock = new SimulatedClock()
    const actor = createActor(machine, { input: INPUT, clock }).start()
    actor.send({ type: 'names.type', value: 'alice' })
    clock.increment(NAME_CHECK_DEBOUNCE_MS)
    await flush()
    actor.send({ type: 'names.register' })
    expect(selectNameStatus(actor.getSnapshot())).toBe('signing')
    expect(actor.getSnapshot().hasTag('busy')).toBe(true)
    actor.send({ type: 'names.type', value: 'bobby' })
    expect(selectNameStatus(actor.getSnapshot())).toBe('signing')
    expect(actor.getSnapshot().context.value).toBe('alice')
    clock.increment(SEND_REQUEST_TIMEOUT_MS - 1)
    expect(selectNameStatus(actor.getSnapshot())).toBe('signing')
    clock.increment(1)
    expect(selectNameStatus(actor.getSnapshot())).toBe('available')
    expect(actor.getSnapshot().context.error).toBe('Error registering name alice.reown.id')
    actor.stop()
  })

  for (const [failing, scenario] of [
    ['the wallet refuses to sign', { sign: new Error('User rejected the request.') }],
    ['the API refuses the registration', { register: new Error('HTTP 409: Name is already registered') }],
  ] as const) {
    it(`a failed registration (${failing}) goes back to the form, the value kept, with the SPEC text`, async () => {
      const run = start(scenario)
      await run.type(' Alice.reown.id')
      run.actor.send({ type: 'names.register' })
      await flush()
      expect(run.status()).toBe('available')
      expect(run.snapshot().context).toMatchObject({
        value: ' Alice.reown.id',
        label: 'alice',
        error: 'Error registering name alice.reown.id',
        registeredName: undefined,
        signed: undefined,
      })
      expect(run.notices).toEqual([
        { type: 'names.signing' },
        { type: 'names.failed', name: 'alice.reown.id' },
      ])
      // Registering again clears the error; typing does too.
      expect(run.snapshot().can({ type: 'names.register' })).toBe(true)
      await run.type('alice2')
      expect(run.snapshot().context.error).toBeUndefined()
    })
  }
})
