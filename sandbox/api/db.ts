import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
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
  {
    id: 2,
    name: 'profile names',
    // One row per registered name (SPEC §7 profile calls). Addresses are stored lower-case so look-ups need no
    // function index; `avatar` is a URL, or a path starting with '/' served by the Data API itself.
    sql: `
      CREATE TABLE profile_names (
        name          TEXT PRIMARY KEY CHECK (name = lower(name)),
        address       TEXT NOT NULL CHECK (address ~ '^0x[0-9a-f]{40}$'),
        coin_type     INTEGER NOT NULL DEFAULT 60,
        avatar        TEXT,
        bio           TEXT,
        registered_at TIMESTAMPTZ NOT NULL DEFAULT now(),
        updated_at    TIMESTAMPTZ NOT NULL DEFAULT now()
      );
      CREATE INDEX profile_names_address ON profile_names (address, registered_at);
      -- Dev account 0 of the sandbox's well-known mnemonic has a name from the start.
      INSERT INTO profile_names (name, address, avatar, bio, registered_at, updated_at)
      VALUES ('sandbox-dev.reown.id', '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266',
              '/avatars/sandbox-dev.svg', 'Dev account 0 of the Walletstate sandbox',
              '2025-01-01T00:00:00Z', '2025-01-01T00:00:00Z');
    `,
  },
  {
    id: 3,
    name: 'chain index',
    // What the Data API derives from the chain: transactions, the transfers in them (native value, ERC-20 and
    // ERC-721 Transfer logs), the contracts seen, NFT owners and a spam list. Rebuilt from block 0 whenever
    // the chain no longer has the block the index stopped at (a restarted anvil, a revert).
    sql: `
      CREATE TABLE chain_index_state (
        chain_id   TEXT PRIMARY KEY,
        last_block BIGINT NOT NULL,
        last_hash  TEXT NOT NULL
      );
      CREATE TABLE chain_transactions (
        chain_id         TEXT NOT NULL,
        hash             TEXT NOT NULL,
        block_number     BIGINT NOT NULL,
        tx_index         INTEGER NOT NULL,
        mined_at         TIMESTAMPTZ NOT NULL,
        from_address     TEXT NOT NULL,
        to_address       TEXT,
        contract_address TEXT,
        nonce            INTEGER NOT NULL,
        selector         TEXT,
        status           TEXT NOT NULL CHECK (status IN ('confirmed', 'failed')),
        PRIMARY KEY (chain_id, hash)
      );
      CREATE INDEX chain_transactions_order ON chain_transactions (chain_id, block_number DESC, tx_index DESC);
      CREATE INDEX chain_transactions_from ON chain_transactions (chain_id, from_address);
      CREATE INDEX chain_transactions_to ON chain_transactions (chain_id, to_address);
      CREATE TABLE chain_transfers (
        chain_id     TEXT NOT NULL,
        tx_hash      TEXT NOT NULL,
        -- The log index; -1 for the transaction's native value, -2 for the transfer a failed call meant.
        position     INTEGER NOT NULL,
        kind         TEXT NOT NULL CHECK (kind IN ('native', 'erc20', 'erc721')),
        contract     TEXT,
        from_address TEXT NOT NULL,
        to_address   TEXT NOT NULL,
        amount       NUMERIC(78, 0) NOT NULL,
        token_id     NUMERIC(78, 0),
        PRIMARY KEY (chain_id, tx_hash, position)
      );
      CREATE INDEX chain_transfers_from ON chain_transfers (chain_id, from_address);
      CREATE INDEX chain_transfers_to ON chain_transfers (chain_id, to_address);
      CREATE TABLE chain_contracts (
        chain_id TEXT NOT NULL,
        address  TEXT NOT NULL,
        kind     TEXT NOT NULL CHECK (kind IN ('erc20', 'erc721')),
        name     TEXT NOT NULL,
        symbol   TEXT NOT NULL,
        decimals INTEGER,
        PRIMARY KEY (chain_id, address)
      );
      CREATE TABLE nft_items (
        chain_id TEXT NOT NULL,
        contract TEXT NOT NULL,
        token_id NUMERIC(78, 0) NOT NULL,
        owner    TEXT NOT NULL,
        -- tokenURI's JSON (name, image), read from the chain the first time the item is served.
        metadata JSONB,
        PRIMARY KEY (chain_id, contract, token_id)
      );
      CREATE INDEX nft_items_owner ON nft_items (chain_id, owner);
      -- Items flagged as spam, by contract, or by collection symbol when the contract address is not known
      -- up front (the sandbox's own collection is deployed at start).
      CREATE TABLE nft_spam (
        id                SERIAL PRIMARY KEY,
        contract          TEXT,
        collection_symbol TEXT,
        token_id          NUMERIC(78, 0) NOT NULL,
        reason            TEXT NOT NULL,
        CHECK (contract IS NOT NULL OR collection_symbol IS NOT NULL),
        UNIQUE (contract, collection_symbol, token_id)
      );
      -- The last Sandbox Punk minted at start is the sandbox's spam item, so the kit has one to hide.
      INSERT INTO nft_spam (collection_symbol, token_id, reason)
      VALUES ('SPUNK', 5, 'sandbox seed: an unsolicited item');
    `,
  },
  {
    id: 4,
    name: 'sign-in sessions',
    // SIWE (EIP-4361) sessions the Data API verified (`sessions.ts`). A nonce signs in once per domain: the
    // unique key refuses a replayed message. Addresses are checksummed, chain ids CAIP-2.
    sql: `
      CREATE TABLE siwe_sessions (
        id         TEXT PRIMARY KEY CHECK (id ~ '^[0-9a-f]{32}$'),
        address    TEXT NOT NULL CHECK (address ~ '^0x[0-9a-fA-F]{40}$'),
        chain_id   TEXT NOT NULL,
        domain     TEXT NOT NULL,
        uri        TEXT NOT NULL,
        nonce      TEXT NOT NULL,
        message    TEXT NOT NULL,
        signature  TEXT NOT NULL,
        issued_at  TIMESTAMPTZ NOT NULL,
        expires_at TIMESTAMPTZ,
        revoked_at TIMESTAMPTZ,
        created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
        UNIQUE (domain, nonce)
      );
    `,
  },
  {
    id: 5,
    name: 'onramp orders',
    // Purchases made through the onramp's URL generator and delivered by the sandbox partner page
    // (`sandbox/onramp/orders.ts`). Addresses and hashes lower-case; fiat amounts to the cent; the purchase as
    // the decimal the buyer saw and in base units (what the partner transfers). `seq` orders the listing.
    sql: `
      CREATE TABLE onramp_orders (
        seq               BIGSERIAL UNIQUE,
        id                TEXT PRIMARY KEY CHECK (id ~ '^[0-9a-f]{32}$'),
        provider          TEXT NOT NULL,
        partner_user_id   TEXT NOT NULL,
        address           TEXT NOT NULL CHECK (address ~ '^0x[0-9a-f]{40}$'),
        chain_id          TEXT NOT NULL,
        network           TEXT NOT NULL,
        purchase_currency TEXT NOT NULL,
        token_address     TEXT CHECK (token_address ~ '^0x[0-9a-f]{40}$'),
        decimals          INTEGER NOT NULL,
        payment_currency  TEXT NOT NULL,
        payment_method    TEXT NOT NULL,
        payment_total     NUMERIC(14, 2) NOT NULL,
        payment_subtotal  NUMERIC(14, 2) NOT NULL,
        fee               NUMERIC(14, 2) NOT NULL,
        purchase_amount   TEXT NOT NULL,
        purchase_base     NUMERIC(78, 0) NOT NULL CHECK (purchase_base > 0),
        partner_address   TEXT NOT NULL CHECK (partner_address ~ '^0x[0-9a-f]{40}$'),
        status            TEXT NOT NULL DEFAULT 'pending'
                          CHECK (status IN ('pending', 'delivering', 'confirmed', 'failed')),
        tx_hash           TEXT CHECK (tx_hash ~ '^0x[0-9a-f]{64}$'),
        failure           TEXT,
        created_at        TIMESTAMPTZ NOT NULL DEFAULT now(),
        opened_at         TIMESTAMPTZ,
        completed_at      TIMESTAMPTZ
      );
      CREATE INDEX onramp_orders_account ON onramp_orders (provider, address, seq DESC);
      CREATE INDEX onramp_orders_delivery ON onramp_orders (tx_hash);
    `,
  },
  {
    id: 6,
    name: 'name registrations',
    // Names registered through `POST /v1/profile/account` (`names.ts`): the coin type becomes BIGINT, since an
    // ENSIP-11 coin type (0x80000000 | chainId) does not fit an INTEGER; the signed message and its signature
    // are kept for audit (NULL for the seeded name). The primary key on `name` decides between two
    // registrations of one name at once.
    sql: `
      ALTER TABLE profile_names ALTER COLUMN coin_type TYPE BIGINT;
      ALTER TABLE profile_names ADD CONSTRAINT profile_names_coin_type CHECK (coin_type BETWEEN 0 AND 4294967295);
      ALTER TABLE profile_names ADD COLUMN message TEXT;
      ALTER TABLE profile_names ADD COLUMN signature TEXT CHECK (signature ~ '^0x([0-9a-f]{2})+$');
    `,
  },
  {
    id: 7,
    name: 'onramp orders on Solana',
    // Orders delivered on the sandbox Solana chain: the buyer, the SPL mint and the partner in base58, the
    // delivery's signature in base58; eip155 orders keep their hex checks.
    sql: `
      ALTER TABLE onramp_orders DROP CONSTRAINT onramp_orders_address_check;
      ALTER TABLE onramp_orders DROP CONSTRAINT onramp_orders_token_address_check;
      ALTER TABLE onramp_orders DROP CONSTRAINT onramp_orders_partner_address_check;
      ALTER TABLE onramp_orders DROP CONSTRAINT onramp_orders_tx_hash_check;
      ALTER TABLE onramp_orders ADD CONSTRAINT onramp_orders_addresses CHECK (
        CASE WHEN chain_id LIKE 'solana:%'
          THEN address ~ '^[1-9A-HJ-NP-Za-km-z]{32,44}$'
            AND (token_address IS NULL OR token_address ~ '^[1-9A-HJ-NP-Za-km-z]{32,44}$')
            AND partner_address ~ '^[1-9A-HJ-NP-Za-km-z]{32,44}$'
            AND (tx_hash IS NULL OR tx_hash ~ '^[1-9A-HJ-NP-Za-km-z]{64,88}$')
          ELSE address ~ '^0x[0-9a-f]{40}$'
            AND (token_address IS NULL OR token_address ~ '^0x[0-9a-f]{40}$')
            AND partner_address ~ '^0x[0-9a-f]{40}$'
            AND (tx_hash IS NULL OR tx_hash ~ '^0x[0-9a-f]{64}$')
        END
      );
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
 * to date. Opening takes a second or two (a few tenths once the image of the migrated schema is cached, see
 * `schemaImagePath`), so services that start together should share one.
 *
 * @example
 * const db = await openDatabase()
 * const { rows } = await db.pg.query<{ n: number }>('SELECT count(*)::int AS n FROM telemetry_events')
 * await db.close()
 */
export async function openDatabase(options: SandboxDbOptions = {}): Promise<SandboxDb> {
  // An in-memory database of the sandbox's own schema starts from the cached image of a migrated one (~0.3 s
  // instead of ~1.5 s of initdb and migrations: every e2e file starts a sandbox); `migrate` below then finds
  // nothing left to run.
  const cached = !options.dataDir && !options.migrations
  const image = cached ? await readSchemaImage() : undefined
  const pg = options.dataDir
    ? new PGlite(options.dataDir)
    : image
      ? new PGlite({ loadDataDir: image })
      : new PGlite()
  await pg.waitReady
  try {
    await migrate(pg, options.migrations ?? MIGRATIONS)
    if (cached && !image) await writeSchemaImage(pg)
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

/**
 * Where the image of a freshly migrated database is kept: node_modules/.cache (ignored by git, gone with a clean
 * install), one file per PGlite version and schema, so a new migration or PGlite makes a new one.
 */
function schemaImagePath(): string {
  imagePath ??= imagePathFor()
  return imagePath
}

let imagePath: string | undefined

function imagePathFor(): string {
  const manifest = new URL('../../node_modules/@electric-sql/pglite/package.json', import.meta.url)
  const { version } = JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }
  const key = createHash('sha256')
    .update(version)
    .update(JSON.stringify(MIGRATIONS))
    .digest('hex')
    .slice(0, 16)
  return fileURLToPath(
    new URL(`../../node_modules/.cache/walletstate-sandbox/db-${key}.tar`, import.meta.url),
  )
}

/** The cached image, or undefined (none yet, or unreadable: the database is then built and migrated). */
async function readSchemaImage(): Promise<Blob | undefined> {
  try {
    return new Blob([await readFile(schemaImagePath())])
  } catch {
    return undefined
  }
}

/**
 * Keeps the image of a database just migrated. Written beside and renamed into place, so two sandboxes starting
 * at once never read half a file; a failure only means the next start migrates again.
 */
async function writeSchemaImage(pg: PGlite): Promise<void> {
  const path = schemaImagePath()
  const partial = `${path}.${process.pid}.${Date.now()}`
  try {
    const image = await pg.dumpDataDir('none')
    await mkdir(join(path, '..'), { recursive: true })
    await writeFile(partial, new Uint8Array(await image.arrayBuffer()))
    await rename(partial, path)
  } catch {
    await rm(partial, { force: true })
  }
}
