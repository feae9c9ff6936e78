import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MIGRATIONS, migrate, openDatabase, type SandboxDb } from './db.ts'

let db: SandboxDb

beforeAll(async () => {
  db = await openDatabase({
    migrations: [{ id: 1, name: 'first', sql: 'CREATE TABLE first (id INT PRIMARY KEY)' }],
  })
})
afterAll(async () => {
  await db.close()
})

describe('migrations', () => {
  it('the shipped list has unique, increasing ids and creates the telemetry table', async () => {
    const ids = MIGRATIONS.map((m) => m.id)
    expect(ids).toEqual([...ids].sort((a, b) => a - b))
    expect(new Set(ids).size).toBe(ids.length)
    expect(MIGRATIONS[0]?.sql).toContain('CREATE TABLE telemetry_events')
  })

  it('runs each migration once, in id order, and records it', async () => {
    expect(await db.applied()).toEqual([1])
    // Re-running with one more: the first (which would fail if run twice) is skipped.
    await migrate(db.pg, [
      { id: 2, name: 'second', sql: 'CREATE TABLE second (first_id INT REFERENCES first (id))' },
      { id: 1, name: 'first', sql: 'CREATE TABLE first (id INT PRIMARY KEY)' },
    ])
    expect(await db.applied()).toEqual([1, 2])
    await db.pg.query('INSERT INTO first (id) VALUES (7)')
    await db.pg.query('INSERT INTO second (first_id) VALUES (7)')
  })

  it('rolls a failing migration back whole and leaves it unrecorded', async () => {
    await expect(
      migrate(db.pg, [
        { id: 3, name: 'broken', sql: 'CREATE TABLE third (id INT); SELECT no_such_function()' },
      ]),
    ).rejects.toThrow(/no_such_function/)
    expect(await db.applied()).toEqual([1, 2])
    const { rows } = await db.pg.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM information_schema.tables WHERE table_name = 'third'",
    )
    expect(rows[0]?.n).toBe(0)
  })

  it('refuses duplicate ids', async () => {
    const twice = { id: 9, name: 'dup', sql: 'SELECT 1' }
    await expect(migrate(db.pg, [twice, twice])).rejects.toThrow('Migration ids must be unique')
  })
})
