import { PGlite } from '@electric-sql/pglite'

/**
 * One schema change. Migrations run in `id` order, each once, inside a transaction, and are recorded in
 * `schema_migrations`. To extend the schema, append a migration with the next id to `MIGRATIONS` below;
 * never edit one that has shipped (a database on disk may already have run it).
 */
export interface Migration {
  id: number
  name: string
  sql: string
}

/** The sandbox database schema, oldest first. Later features (names, onramp orders, e-mail accounts) append. */
export const MIGRATIONS: readonly Migration[] = [
  {
    id: 1,
    name: 'telemetry events',
    sql: `
      CREATE TABLE telemetry_events (
        seq          BIGSERIAL PRIMARY KEY,
        event_id     TEXT NOT NULL UNIQUE,
        project_id   TEXT NOT NULL,
        sdk_type     TEXT NOT NULL,
        sdk_version  TEXT NOT NULL,
        url          TEXT NOT NULL,
        domain       TEXT NOT NULL,
        timestamp_ms BIGINT NOT NULL,
        props        JSONB NOT NULL,
        received_at  TIMESTAMPTZ NOT NULL DEFAULT now()
      );
      CREATE INDEX telemetry_events_project ON telemetry_events (project_id, seq);
    `,
  },
]

export interface SandboxDbOptions {
  /** A directory to keep the database in; in memory when absent (the default: every start is fresh). */
  dataDir?: string
  /** Replaces `MIGRATIONS` (tests of the migration mechanism); normally left out. */
  migrations?: readonly Migration[]
}

/** The embedded SQL database the sandbox APIs share. */
export interface SandboxDb {
  /** The PGlite instance, for queries: `db.pg.query<Row>(sql, params)`. */
  pg: PGlite
  /** Ids of the migrations applied, in order. */
  applied(): Promise<number[]>
  close(): Promise<void>
}

/**
 * Opens the sandbox database (PGlite: Postgres compiled to WebAssembly, in process) and brings its schema up
 * to date. Opening takes a few seconds, so services that start together should share one.
 *
 * @example
 * const db = await openDatabase()
 * const { rows } = await db.pg.query<{ n: number }>('SELECT count(*)::int AS n FROM telemetry_events')
 * await db.close()
 */
export async function openDatabase(options: SandboxDbOptions = {}): Promise<SandboxDb> {
  const pg = options.dataDir ? new PGlite(options.dataDir) : new PGlite()
  await pg.waitReady
  try {
    await migrate(pg, options.migrations ?? MIGRATIONS)
  } catch (error) {
    await pg.close()
    throw error
  }
  let closed = false
  return {
    pg,
    async applied() {
      const { rows } = await pg.query<{ id: number }>('SELECT id FROM schema_migrations ORDER BY id')
      return rows.map((row) => row.id)
    },
    async close() {
      if (closed) return
      closed = true
      await pg.close()
    },
  }
}

/**
 * Brings a database up to `migrations`: creates `schema_migrations` if needed, then runs, in id order, each
 * migration not yet recorded, one transaction each (a failing one leaves nothing behind and stops the run).
 *
 * @example
 * await migrate(db.pg, [...MIGRATIONS, { id: 2, name: 'names', sql: 'CREATE TABLE names (...)' }])
 */
export async function migrate(pg: PGlite, migrations: readonly Migration[]): Promise<void> {
  const ids = migrations.map((m) => m.id)
  if (new Set(ids).size !== ids.length) throw new Error('Migration ids must be unique')
  await pg.exec(`
    CREATE TABLE IF NOT EXISTS schema_migrations (
      id         INTEGER PRIMARY KEY,
      name       TEXT NOT NULL,
      applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
    )
  `)
  const { rows } = await pg.query<{ id: number }>('SELECT id FROM schema_migrations')
  const done = new Set(rows.map((row) => row.id))
  for (const migration of [...migrations].sort((a, b) => a.id - b.id)) {
    if (done.has(migration.id)) continue
    await pg.transaction(async (tx) => {
      await tx.exec(migration.sql)
      await tx.query('INSERT INTO schema_migrations (id, name) VALUES ($1, $2)', [
        migration.id,
        migration.name,
      ])
    })
  }
}
