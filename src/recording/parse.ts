import * as v from 'valibot'
import { RecordingFormatError } from '../errors/recording'
import { RECORDING_FORMAT, RECORDING_VERSION, type Recording } from './format'

const base = { rid: v.string(), seq: v.number() }
const json = v.unknown()
const RecordSchema = v.variant('type', [
  v.object({
    ...base,
    type: v.literal('@walletstate.recording'),
    format: v.literal(RECORDING_FORMAT),
    version: v.literal(RECORDING_VERSION),
    startedAt: v.string(),
    redacted: v.boolean(),
  }),
  v.object({
    ...base,
    type: v.literal('@walletstate.machine'),
    machine: v.object({
      id: v.string(),
      hash: v.string(),
      root: v.looseObject({ path: v.array(v.string()) }),
    }),
  }),
  v.object({
    ...base,
    type: v.literal('@xstate.actor'),
    sessionId: v.string(),
    id: v.string(),
    parentId: v.optional(v.string()),
    systemId: v.optional(v.string()),
    src: v.optional(v.string()),
    kind: v.picklist(['machine', 'promise', 'callback', 'observable', 'transition', 'other']),
    machine: v.optional(v.object({ id: v.string(), hash: v.string() })),
    input: v.optional(json),
  }),
  v.object({
    ...base,
    type: v.literal('@xstate.event'),
    sessionId: v.string(),
    sourceId: v.optional(v.string()),
    event: v.looseObject({ type: v.string() }),
  }),
  v.object({
    ...base,
    type: v.literal('@xstate.snapshot'),
    sessionId: v.string(),
    eventType: v.string(),
    status: v.picklist(['active', 'done', 'error', 'stopped']),
    value: v.optional(json),
    output: v.optional(json),
    error: v.optional(json),
  }),
])

const RecordingSchema = v.object({
  format: v.literal(RECORDING_FORMAT),
  version: v.literal(RECORDING_VERSION),
  startedAt: v.string(),
  redacted: v.boolean(),
  truncated: v.optional(v.boolean()),
  records: v.array(RecordSchema),
})

/**
 * Checks a parsed file (or its text) is a recording this kit reads, and returns it typed; otherwise throws
 * `RecordingFormatError` saying what is wrong (not a recording, another version, the first bad record).
 *
 * @example
 * ```ts
 * import { readFile } from 'node:fs/promises'
 * import { parseRecording } from 'walletstate/testing'
 *
 * const recording = parseRecording(await readFile('session.json', 'utf8'))
 * ```
 */
export function parseRecording(input: unknown): Recording {
  let value = input
  if (typeof input === 'string') {
    try {
      value = JSON.parse(input)
    } catch (error) {
      throw new RecordingFormatError('The recording is not JSON', { cause: error })
    }
  }
  if (!value || typeof value !== 'object' || (value as { format?: unknown }).format !== RECORDING_FORMAT) {
    throw new RecordingFormatError(`Not a walletstate recording (no "format": "${RECORDING_FORMAT}")`)
  }
  const version = (value as { version?: unknown }).version
  if (version !== RECORDING_VERSION) {
    throw new RecordingFormatError(
      `The recording is version ${String(version)}; this kit reads version ${RECORDING_VERSION}`,
    )
  }
  const result = v.safeParse(RecordingSchema, value)
  if (!result.success) {
    const issue = result.issues[0]
    const where = issue.path?.map((p) => String(p.key)).join('.') ?? ''
    throw new RecordingFormatError(`The recording has a malformed record${where ? ` at ${where}` : ''}`, {
      details: issue.message,
    })
  }
  return result.output as Recording
}
