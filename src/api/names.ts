import * as v from 'valibot'
import { DATA_API_TIMEOUT_MS, NAME_SUFFIX, NAME_ZONE } from '../constants'
import { NameLabelError, NameRegistrationError, NameSuggestionsError } from '../errors/names'
import type { NameRegisterRequest, NameSuggestion, RegisteredNameRecord } from '../machines/names/types'
import { safeText } from '../utils/links'
import {
  fullNameOf,
  isRegistrableLabel,
  nameCoinTypeOf,
  nameLabelRuleOf,
  normaliseNameLabel,
  parseNameRegistrationMessage,
} from '../utils/names'
import { dataApiCall, type RequestFailure } from './http'

/**
 * Client of the Data API's name calls (SPEC §7: `GET /v1/profile/suggestions/{name}?zone=`, `POST
 * /v1/profile/account`), loaded with the names flow. Every answer is parsed with a schema: a body that does not
 * fit fails the call; among the suggestions, an entry that is not a `.reown.id` name is dropped, the rest kept,
 * and an answer without the name asked for fails (it is not about that name). Failures leave as the names
 * errors (src/errors/names.ts) with SPEC §8's texts: 'Error fetching name suggestions', 'Error registering name
 * {name}', what the API said in `details` (409 'Name is already registered', 400, 401).
 */

export interface NamesClientOptions {
  /** `endpoints.api` of the kit config. */
  api: string
  projectId: string
  /** Per request; default {@link DATA_API_TIMEOUT_MS}. */
  timeoutMs?: number
  fetch?: typeof fetch
}

/** Suggestions read per answer; the rest are not shown. Ours (the API sends five). */
export const NAME_SUGGESTIONS_MAX = 10
const SUGGESTIONS_READ_MAX = 100
/** A full name's longest form the kit reads back (DNS's 253). */
const FULL_NAME_MAX_LENGTH = 253

const FullNameSchema = v.pipe(
  v.string(),
  v.maxLength(FULL_NAME_MAX_LENGTH),
  v.toLowerCase(),
  v.check(
    (name) => name.endsWith(NAME_SUFFIX) && isRegistrableLabel(name.slice(0, -NAME_SUFFIX.length)),
    `is not a ${NAME_SUFFIX} name`,
  ),
)

const SuggestionSchema = v.object({ name: FullNameSchema, registered: v.boolean() })

const SuggestionsSchema = v.object({
  suggestions: v.pipe(v.array(v.unknown()), v.maxLength(SUGGESTIONS_READ_MAX)),
})

const RecordSchema = v.object({
  name: v.pipe(v.string(), v.maxLength(FULL_NAME_MAX_LENGTH), v.toLowerCase()),
  registered: v.optional(v.pipe(v.number(), v.finite())),
})

/** The name a registration message names (the text is ours: src/utils/names.ts), for the error text. */
function nameInMessage(message: string): string {
  const parsed = parseNameRegistrationMessage(message)
  // Not ours: the error says so without a name.
  return parsed ? safeText(parsed.name, FULL_NAME_MAX_LENGTH) : ''
}

/**
 * What is wrong with a registration before it is sent (nothing registered for it): a message that is not ours,
 * names another account or a chain other than the coin type's, or a name that is not a registrable `.reown.id`
 * one (the LDH rules' error as the cause).
 */
function registrationProblem(request: NameRegisterRequest): { details: string; cause?: Error } | undefined {
  const parsed = parseNameRegistrationMessage(request.message)
  if (!parsed) return { details: 'The message is not a registration message' }
  if (parsed.address.toLowerCase() !== request.address.toLowerCase())
    return { details: 'The message names another account' }
  if (nameCoinTypeOf(parsed.chainId) !== request.coinType)
    return { details: 'The message names another chain than the coin type' }
  const name = parsed.name.toLowerCase()
  if (!name.endsWith(NAME_SUFFIX)) return { details: `The message names no ${NAME_SUFFIX} name` }
  const label = name.slice(0, -NAME_SUFFIX.length)
  const rule = nameLabelRuleOf(label)
  if (rule) return { details: `Not a name the kit registers`, cause: new NameLabelError({ label, rule }) }
  if (!isRegistrableLabel(label)) return { details: 'Not a name the kit registers' }
  return undefined
}

/**
 * @example
 * const names = createNamesClient({ api: config.endpoints.api, projectId: config.projectId })
 * const [own, ...alternatives] = await names.suggestions('alice')
 */
export function createNamesClient(options: NamesClientOptions) {
  const target = { ...options, timeoutMs: options.timeoutMs ?? DATA_API_TIMEOUT_MS }
  const suggestionsFailure = (failure: Omit<RequestFailure, 'kind'> & { kind?: string }) =>
    new NameSuggestionsError({
      details: failure.details,
      ...(failure.status === undefined ? {} : { status: failure.status }),
      ...(failure.cause === undefined ? {} : { cause: failure.cause }),
    })
  const registrationFailure = (name: string) => (failure: Omit<RequestFailure, 'kind'> & { kind?: string }) =>
    new NameRegistrationError({
      name,
      details: failure.details,
      ...(failure.status === undefined ? {} : { status: failure.status }),
      ...(failure.cause === undefined ? {} : { cause: failure.cause }),
    })

  return {
    api: options.api,
    projectId: options.projectId,
    /**
     * The name's own entry first (with whether someone holds it), then alternatives, for a label as typed (the
     * suffix optional, any case). A label that is not registrable is refused before any request.
     */
    async suggestions(value: string, signal?: AbortSignal): Promise<NameSuggestion[]> {
      const label = normaliseNameLabel(value)
      if (!isRegistrableLabel(label)) {
        const rule = nameLabelRuleOf(label)
        throw suggestionsFailure({
          details: `Not a name the kit registers: ${safeText(label, 80)}`,
          ...(rule ? { cause: new NameLabelError({ label, rule }) } : {}),
        })
      }
      const answer = await dataApiCall(
        target,
        { path: `v1/profile/suggestions/${encodeURIComponent(label)}`, query: { zone: NAME_ZONE }, signal },
        SuggestionsSchema,
        suggestionsFailure,
      )
      const own = fullNameOf(label)
      const out: NameSuggestion[] = []
      for (const item of answer.suggestions) {
        const parsed = v.safeParse(SuggestionSchema, item)
        if (!parsed.success || out.some((s) => s.name === parsed.output.name)) continue
        out.push(parsed.output)
      }
      const first = out.find((s) => s.name === own)
      if (!first)
        throw suggestionsFailure({ details: `The Data API's suggestions do not hold ${own}`, status: 200 })
      return [first, ...out.filter((s) => s !== first)].slice(0, NAME_SUGGESTIONS_MAX)
    },

    /** Registers the name a signed message names for the address; the API's record of it. */
    async register(request: NameRegisterRequest, signal?: AbortSignal): Promise<RegisteredNameRecord> {
      const name = nameInMessage(request.message)
      const fail = registrationFailure(name)
      const problem = registrationProblem(request)
      if (problem) throw fail(problem)
      const record = await dataApiCall(
        target,
        {
          path: 'v1/profile/account',
          body: {
            coin_type: request.coinType,
            address: request.address,
            message: request.message,
            signature: request.signature,
          },
          signal,
        },
        RecordSchema,
        fail,
      )
      if (record.name !== name)
        throw fail({
          details: `The Data API registered ${safeText(record.name, 80)}, not ${name}`,
          status: 201,
        })
      return record.registered === undefined
        ? { name: record.name }
        : { name: record.name, registered: record.registered }
    },
  }
}

export type NamesClient = ReturnType<typeof createNamesClient>
