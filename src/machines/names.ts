import {
  type ActorRefFrom,
  and,
  assertEvent,
  assign,
  emit,
  fromPromise,
  type SnapshotFrom,
  setup,
} from 'xstate'
import { NAME_CHECK_DEBOUNCE_MS, SEND_REQUEST_TIMEOUT_MS } from '../constants'
import { NameRegistrationError, NameSuggestionsError } from '../errors/names'
import {
  fullNameOf,
  nameLdhRuleOf,
  nameRuleOf,
  nameSpecRuleOf,
  normaliseNameLabel,
  ownSuggestion,
} from './names/rules'
import type {
  NameRegisterRequest,
  NameSignedRegistration,
  NameSignRequest,
  NameSuggestion,
  NameSuggestionsRequest,
  NamesContext,
  NamesEvent,
  NamesInput,
  NamesNotice,
  RegisteredNameRecord,
} from './names/types'

/**
 * The account names flow (SPEC §5 names rule, §7 profile calls, §8 texts; issue 20).
 *
 * editing: every `names.type` (or `names.pick` of a suggestion) goes through `validating`: nothing typed rests in
 * `empty`; a name against SPEC §5 (letters, digits, hyphens, at least NAME_MIN_LENGTH characters; `.reown.id`
 * optional and stripped; the legacy `.wcn.id` not registrable) or against the LDH rules (`nameLdh`: no `xn--`,
 * no hyphen first or last or in the 3rd and 4th positions) in `invalid`, its rule shown and nothing asked;
 * else `debouncing` (`nameCheckDebounce`: typing coalesces) → `checking` (`fetchSuggestions` for the label) →
 * `available` or `taken` (the suggestions shown), or `suggestionsFailed` ('Error fetching name suggestions',
 * `names.retry` checks again). A change while checking leaves `checking`, so the answer for the old name is
 * never read; an answer that does not hold the name asked for is no answer.
 *
 * `names.register` (from `available`) → registering: `signing` (`signRegistration`: the message built and signed
 * by the connected wallet; a wallet silent for `signatureTimeout` has failed) → `submitting` (`registerName`) →
 * `registered`. Either failing goes back to `editing.available` with 'Error registering name {name}', the typed
 * value kept.
 *
 * Notices for the kit: `names.signing`, `names.registered`, `names.failed`. Every effect is a named actor slot:
 * `fetchSuggestions`, `signRegistration`, `registerName`. Tests fill them with fakes; src/kit/load/names.ts with
 * the real ones (src/actors/names.ts).
 */

export {
  fullNameOf,
  NAME_LABEL_RULE_TEXTS,
  NAME_LEGACY_RULE_MESSAGE,
  NAME_LENGTH_RULE_MESSAGE,
  NAME_RULE_MESSAGE,
  nameCoinTypeOf,
  nameLabelRuleOf,
  nameRegistrationMessage,
  nameRuleOf,
  normaliseNameLabel,
} from './names/rules'
export type * from './names/types'

const notProvided = (slot: string) => () => {
  throw new Error(`namesMachine: the "${slot}" actor slot was not provided`)
}

/** An answer's suggestions, for `params`. */
const suggestionsOf = ({ event }: { event: { output: NameSuggestion[] } }) => event.output

/** A failed registration (the wallet refused, or the API): back to the form, the value kept, the SPEC text. */
const REGISTRATION_FAILED = {
  target: '#names.editing.available',
  actions: ['setRegistrationError', 'emitFailed'],
} as const

export const namesMachine = setup({
  types: {
    context: {} as NamesContext,
    events: {} as NamesEvent,
    input: {} as NamesInput,
    emitted: {} as NamesNotice,
    tags: {} as 'loading' | 'busy',
  },
  actors: {
    fetchSuggestions: fromPromise<NameSuggestion[], NameSuggestionsRequest>(notProvided('fetchSuggestions')),
    signRegistration: fromPromise<NameSignedRegistration, NameSignRequest>(notProvided('signRegistration')),
    registerName: fromPromise<RegisteredNameRecord, NameRegisterRequest>(notProvided('registerName')),
  },
  delays: {
    /** Ours (src/constants.ts): typing coalesces into one availability check. */
    nameCheckDebounce: NAME_CHECK_DEBOUNCE_MS,
    /** Ours: as long as a wallet may take over a transaction (the visitor reads and approves); then it failed. */
    signatureTimeout: SEND_REQUEST_TIMEOUT_MS,
  },
  guards: {
    /** Nothing typed: nothing to check. */
    nameEmpty: ({ context }) => context.label === '',
    /** SPEC §5: letters, digits and hyphens, at least NAME_MIN_LENGTH characters, not a legacy `.wcn.id` name. */
    nameValid: ({ context }) => nameSpecRuleOf(context.value) === undefined,
    /**
     * An LDH label (RFC 5891): not an IDNA `xn--` one (a look-alike of another script), no hyphen first or last,
     * none in the 3rd and 4th positions (`NameLabelRule`, src/errors/names.ts).
     */
    nameLdh: ({ context }) => nameLdhRuleOf(context.value) === undefined,
    /** The answer does not hold the name asked for: it is not about it. */
    answerForOtherName: ({ context }, suggestions: NameSuggestion[]) =>
      ownSuggestion(context.label, suggestions) === undefined,
    /** Someone holds the name. */
    nameTaken: ({ context }, suggestions: NameSuggestion[]) =>
      ownSuggestion(context.label, suggestions)?.registered === true,
  },
  actions: {
    /**
     * A new value: its label, and nothing of the old one's answer or error. A suggestion picked is written as its
     * label, as a visitor types it (the suffix is shown beside the field).
     */
    setValue: assign(({ event }) => {
      assertEvent(event, ['names.type', 'names.pick'])
      const label = normaliseNameLabel(event.type === 'names.type' ? event.value : event.name)
      const value = event.type === 'names.type' ? event.value : label
      return { value, label, suggestions: [], error: undefined }
    }),
    setSuggestions: assign((_, suggestions: NameSuggestion[]) => ({ suggestions })),
    setSuggestionsError: assign({ suggestions: [], error: new NameSuggestionsError().shortMessage }),
    clearError: assign({ error: undefined }),
    setSigned: assign((_, signed: NameSignedRegistration) => ({ signed })),
    setRegistrationError: assign(({ context }) => ({
      signed: undefined,
      error: new NameRegistrationError({ name: fullNameOf(context.label) }).shortMessage,
    })),
    setRegistered: assign(({ context }) => ({
      signed: undefined,
      error: undefined,
      registeredName: fullNameOf(context.label),
    })),
    emitSigning: emit({ type: 'names.signing' as const }),
    emitRegistered: emit(({ context }) => ({
      type: 'names.registered' as const,
      name: context.registeredName!,
      address: context.address,
    })),
    emitFailed: emit(({ context }) => ({ type: 'names.failed' as const, name: fullNameOf(context.label) })),
  },
}).createMachine({
  id: 'names',
  context: ({ input }) => ({
    address: input.address,
    chainId: input.chainId,
    value: '',
    label: '',
    suggestions: [],
    error: undefined,
    signed: undefined,
    registeredName: undefined,
  }),
  initial: 'editing',
  states: {
    editing: {
      initial: 'empty',
      on: {
        'names.type': { target: '.validating', actions: 'setValue' },
        'names.pick': { target: '.validating', actions: 'setValue' },
      },
      states: {
        /** Where a new value stands: nothing typed, against the rule, or to be checked. */
        validating: {
          always: [
            { guard: 'nameEmpty', target: 'empty' },
            { guard: and(['nameValid', 'nameLdh']), target: 'debouncing' },
            { target: 'invalid' },
          ],
        },
        empty: {},
        /** The rule is shown (`selectNameRule`); nothing is asked. */
        invalid: {},
        debouncing: {
          tags: 'loading',
          after: { nameCheckDebounce: 'checking' },
        },
        /** Bounded by the names client's DATA_API_TIMEOUT_MS; any edit leaves it. */
        checking: {
          tags: 'loading',
          invoke: {
            id: 'fetchSuggestions',
            src: 'fetchSuggestions',
            input: ({ context }) => ({ label: context.label }),
            onDone: [
              {
                guard: { type: 'answerForOtherName', params: suggestionsOf },
                target: 'suggestionsFailed',
                actions: 'setSuggestionsError',
              },
              {
                guard: { type: 'nameTaken', params: suggestionsOf },
                target: 'taken',
                actions: { type: 'setSuggestions', params: suggestionsOf },
              },
              { target: 'available', actions: { type: 'setSuggestions', params: suggestionsOf } },
            ],
            onError: { target: 'suggestionsFailed', actions: 'setSuggestionsError' },
          },
        },
        available: {
          on: { 'names.register': '#names.registering' },
        },
        /** The suggestions (alternatives nobody holds) are shown. */
        taken: {},
        suggestionsFailed: {
          on: { 'names.retry': { target: 'checking', actions: 'clearError' } },
        },
      },
    },
    registering: {
      tags: 'busy',
      entry: 'clearError',
      initial: 'signing',
      states: {
        signing: {
          entry: 'emitSigning',
          invoke: {
            id: 'signRegistration',
            src: 'signRegistration',
            input: ({ context }) => ({
              address: context.address,
              chainId: context.chainId,
              name: fullNameOf(context.label),
            }),
            onDone: {
              target: 'submitting',
              actions: { type: 'setSigned', params: ({ event }) => event.output },
            },
            onError: REGISTRATION_FAILED,
          },
          after: { signatureTimeout: REGISTRATION_FAILED },
        },
        /** Bounded by the names client's DATA_API_TIMEOUT_MS: its failure comes back as an error. */
        submitting: {
          invoke: {
            id: 'registerName',
            src: 'registerName',
            input: ({ context }) => ({
              address: context.address,
              coinType: context.signed!.coinType,
              message: context.signed!.message,
              signature: context.signed!.signature,
            }),
            onDone: { target: '#names.registered', actions: ['setRegistered', 'emitRegistered'] },
            onError: REGISTRATION_FAILED,
          },
        },
      },
    },
    registered: {},
  },
})

export type NamesMachine = typeof namesMachine
export type NamesActorRef = ActorRefFrom<typeof namesMachine>
export type NamesSnapshot = SnapshotFrom<typeof namesMachine>

/** Where the names flow stands, for the views (one per state the contract names). */
export type NameStatus =
  | 'empty'
  | 'invalid'
  | 'debouncing'
  | 'checking'
  | 'available'
  | 'taken'
  | 'suggestionsFailed'
  | 'signing'
  | 'submitting'
  | 'registered'

const NAME_STATUSES: ReadonlyArray<[Parameters<NamesSnapshot['matches']>[0], NameStatus]> = [
  [{ editing: 'invalid' }, 'invalid'],
  [{ editing: 'debouncing' }, 'debouncing'],
  [{ editing: 'checking' }, 'checking'],
  [{ editing: 'available' }, 'available'],
  [{ editing: 'taken' }, 'taken'],
  [{ editing: 'suggestionsFailed' }, 'suggestionsFailed'],
  [{ registering: 'signing' }, 'signing'],
  [{ registering: 'submitting' }, 'submitting'],
  ['registered', 'registered'],
]

/** The names flow's {@link NameStatus}. */
export function selectNameStatus(snapshot: NamesSnapshot): NameStatus {
  return NAME_STATUSES.find(([state]) => snapshot.matches(state))?.[1] ?? 'empty'
}

/** The SPEC §5 rule the typed name breaks (shown under it), or undefined. */
export function selectNameRule(snapshot: NamesSnapshot): string | undefined {
  return snapshot.matches({ editing: 'invalid' }) ? nameRuleOf(snapshot.context.value) : undefined
}

/** The full name the value stands for (`alice.reown.id`), or undefined while nothing valid is typed. */
export function selectFullName(snapshot: NamesSnapshot): string | undefined {
  const { label, value } = snapshot.context
  return label === '' || nameRuleOf(value) !== undefined ? undefined : fullNameOf(label)
}
