import * as v from 'valibot'
import type { SdkParams } from './common.ts'
import type { SandboxDb } from './db.ts'

const text = (max: number) => v.pipe(v.string(), v.maxLength(max, `at most ${max} characters`))
const required = (max: number) => v.pipe(v.string(), v.minLength(1, 'must not be empty'), v.maxLength(max))

/**
 * The body of `POST /e` (SPEC §7, Telemetry). `props` keeps any further keys a newer client sends; the
 * documented ones are checked.
 */
export const TelemetryBodySchema = v.object({
  eventId: required(128),
  url: text(2048),
  domain: text(253),
  timestamp: v.pipe(v.number(), v.integer('must be an integer (ms since epoch)'), v.minValue(0)),
  props: v.looseObject({
    type: required(100),
    event: required(100),
    errorType: v.optional(text(200)),
    errorMessage: v.optional(text(5_000)),
    stackTrace: v.optional(text(20_000)),
  }),
})

export type TelemetryBody = v.InferOutput<typeof TelemetryBodySchema>

/** A stored telemetry event: the body as sent, with the SDK query parameters and the time it arrived. */
export interface TelemetryEvent extends TelemetryBody {
  projectId: string
  st: string
  sv: string
  /** ISO 8601 */
  receivedAt: string
}

/** Stores an event; answers `false` when an event with the same id was already stored (clients may retry). */
export async function storeTelemetry(db: SandboxDb, sdk: SdkParams, body: TelemetryBody): Promise<boolean> {
  const result = await db.pg.query(
    `INSERT INTO telemetry_events (event_id, project_id, sdk_type, sdk_version, url, domain, timestamp_ms, props)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
     ON CONFLICT (event_id) DO NOTHING`,
    [
      body.eventId,
      sdk.projectId,
      sdk.st,
      sdk.sv,
      body.url,
      body.domain,
      body.timestamp,
      JSON.stringify(body.props),
    ],
  )
  return (result.affectedRows ?? 0) > 0
}

interface TelemetryRow {
  event_id: string
  project_id: string
  sdk_type: string
  sdk_version: string
  url: string
  domain: string
  timestamp_ms: number
  props: TelemetryBody['props']
  received_at: Date
}

/** Stored events in arrival order, optionally only one project's. */
export async function listTelemetry(db: SandboxDb, projectId?: string): Promise<TelemetryEvent[]> {
  const { rows } = await db.pg.query<TelemetryRow>(
    `SELECT event_id, project_id, sdk_type, sdk_version, url, domain, timestamp_ms::float8 AS timestamp_ms, props,
            received_at
       FROM telemetry_events
      WHERE $1::text IS NULL OR project_id = $1
      ORDER BY seq`,
    [projectId ?? null],
  )
  return rows.map((row) => ({
    eventId: row.event_id,
    url: row.url,
    domain: row.domain,
    timestamp: row.timestamp_ms,
    props: row.props,
    projectId: row.project_id,
    st: row.sdk_type,
    sv: row.sdk_version,
    receivedAt: row.received_at.toISOString(),
  }))
}
