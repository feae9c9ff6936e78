import { getAddress } from 'viem'
import type { SandboxDb } from './db.ts'

/**
 * Account names in the sandbox database (table `profile_names`, migration 2): the identity and profile calls
 * of the Data API read them. Dev account 0 is seeded with {@link SEEDED_NAME}.
 */

/** The name dev account 0 holds from the start (SPEC §5 suffix `.reown.id`). */
export const SEEDED_NAME = 'sandbox-dev.reown.id'
/** SLIP-44 coin type of Ether: the key of an EVM address in a name record. */
export const ETH_COIN_TYPE = '60'

/**
 * A name record as `GET /v1/profile/reverse/{address}` and `GET /v1/profile/account/{name}` answer it (the
 * provider's shape): times in milliseconds since the epoch, addresses keyed by coin type.
 */
export interface NameRecord {
  name: string
  registered: number
  updated: number
  addresses: Record<string, { address: string; created: number }>
  attributes: { avatar?: string; bio?: string }
}

interface NameRow {
  name: string
  address: string
  coin_type: number
  avatar: string | null
  bio: string | null
  registered_at: Date
  updated_at: Date
}

/** Resolves an avatar path ('/avatars/x.svg') against the serving origin; full URLs stay as they are. */
function avatarUrl(avatar: string | null, origin: string): string | undefined {
  if (!avatar) return undefined
  return avatar.startsWith('/') ? `${origin}${avatar}` : avatar
}

function toRecord(row: NameRow, origin: string): NameRecord {
  const attributes: NameRecord['attributes'] = {}
  const avatar = avatarUrl(row.avatar, origin)
  if (avatar) attributes.avatar = avatar
  if (row.bio) attributes.bio = row.bio
  return {
    name: row.name,
    registered: row.registered_at.getTime(),
    updated: row.updated_at.getTime(),
    addresses: {
      [String(row.coin_type)]: { address: getAddress(row.address), created: row.registered_at.getTime() },
    },
    attributes,
  }
}

/** Every name an address holds, oldest first (the first is its primary name). */
export async function namesOf(db: SandboxDb, address: string, origin: string): Promise<NameRecord[]> {
  const { rows } = await db.pg.query<NameRow>(
    `SELECT name, address, coin_type, avatar, bio, registered_at, updated_at FROM profile_names
      WHERE address = $1 ORDER BY registered_at, name`,
    [address.toLowerCase()],
  )
  return rows.map((row) => toRecord(row, origin))
}

/** One name's record, or `undefined` when nobody holds it. */
export async function nameRecord(
  db: SandboxDb,
  name: string,
  origin: string,
): Promise<NameRecord | undefined> {
  const { rows } = await db.pg.query<NameRow>(
    `SELECT name, address, coin_type, avatar, bio, registered_at, updated_at FROM profile_names
      WHERE name = $1`,
    [name.toLowerCase()],
  )
  return rows[0] ? toRecord(rows[0], origin) : undefined
}

/** What `GET /v1/identity/{address}` answers: the primary name and its avatar, `null` when there is none. */
export async function identityOf(
  db: SandboxDb,
  address: string,
  origin: string,
): Promise<{ name: string | null; avatar: string | null }> {
  const [primary] = await namesOf(db, address, origin)
  return { name: primary?.name ?? null, avatar: primary?.attributes.avatar ?? null }
}

/** Whether an avatar slug (`/avatars/{slug}.svg`) belongs to a stored name, so only those are served. */
export async function avatarLabel(db: SandboxDb, path: string): Promise<string | undefined> {
  const { rows } = await db.pg.query<{ name: string }>('SELECT name FROM profile_names WHERE avatar = $1', [
    path,
  ])
  return rows[0]?.name
}
