import type { Migration } from '../api/db.ts'

/**
 * The secure site's tables. Ids start at 1001 so they never collide with the shared list in `api/db.ts`
 * (which grows from 2): `migrate(db.pg, SECURE_SITE_MIGRATIONS)` can run on the sandbox's shared database.
 * Append; never edit one that has shipped.
 */
export const SECURE_SITE_MIGRATIONS: readonly Migration[] = [
  {
    id: 1001,
    name: 'secure site: embedded wallet accounts, logins, sessions, mailbox',
    sql: `
      CREATE TABLE secure_accounts (
        id                     TEXT PRIMARY KEY,
        email                  TEXT UNIQUE,
        farcaster_name         TEXT UNIQUE,
        address                TEXT NOT NULL UNIQUE,
        smart_account_address  TEXT NOT NULL UNIQUE,
        key_iv                 BYTEA NOT NULL,
        key_tag                BYTEA NOT NULL,
        key_ciphertext         BYTEA NOT NULL,
        preferred_account_type TEXT NOT NULL DEFAULT 'smartAccount'
                               CHECK (preferred_account_type IN ('eoa', 'smartAccount')),
        created_at             TIMESTAMPTZ NOT NULL,
        CHECK (email IS NOT NULL OR farcaster_name IS NOT NULL)
      );
      CREATE TABLE secure_devices (
        account_id  TEXT NOT NULL REFERENCES secure_accounts (id) ON DELETE CASCADE,
        device_id   TEXT NOT NULL,
        verified_at TIMESTAMPTZ NOT NULL,
        PRIMARY KEY (account_id, device_id)
      );
      CREATE TABLE secure_logins (
        id                 TEXT PRIMARY KEY,
        account_id         TEXT NOT NULL REFERENCES secure_accounts (id) ON DELETE CASCADE,
        device_id          TEXT NOT NULL,
        code_hash          TEXT,
        attempts           INTEGER NOT NULL DEFAULT 0,
        device_token_hash  TEXT UNIQUE,
        device_verified_at TIMESTAMPTZ,
        created_at         TIMESTAMPTZ NOT NULL,
        expires_at         TIMESTAMPTZ NOT NULL,
        finished_at        TIMESTAMPTZ
      );
      CREATE TABLE secure_sessions (
        token_hash TEXT PRIMARY KEY,
        account_id TEXT NOT NULL REFERENCES secure_accounts (id) ON DELETE CASCADE,
        device_id  TEXT NOT NULL,
        method     TEXT NOT NULL,
        created_at TIMESTAMPTZ NOT NULL,
        expires_at TIMESTAMPTZ NOT NULL,
        revoked_at TIMESTAMPTZ
      );
      CREATE TABLE secure_mail (
        seq        BIGSERIAL PRIMARY KEY,
        to_address TEXT NOT NULL,
        purpose    TEXT NOT NULL,
        subject    TEXT NOT NULL,
        body       TEXT NOT NULL,
        code       TEXT,
        link       TEXT,
        sent_at    TIMESTAMPTZ NOT NULL
      );
      CREATE INDEX secure_mail_to ON secure_mail (to_address, seq DESC);
      CREATE TABLE secure_identity_requests (
        id                TEXT PRIMARY KEY,
        kind              TEXT NOT NULL CHECK (kind IN ('social', 'farcaster')),
        provider          TEXT NOT NULL,
        device_id         TEXT NOT NULL,
        return_to         TEXT,
        email             TEXT,
        farcaster_name    TEXT,
        result_token_hash TEXT UNIQUE,
        completed_at      TIMESTAMPTZ,
        used_at           TIMESTAMPTZ,
        created_at        TIMESTAMPTZ NOT NULL,
        expires_at        TIMESTAMPTZ NOT NULL
      );
      CREATE TABLE secure_email_updates (
        account_id          TEXT PRIMARY KEY REFERENCES secure_accounts (id) ON DELETE CASCADE,
        new_email           TEXT NOT NULL,
        primary_code_hash   TEXT NOT NULL,
        secondary_code_hash TEXT,
        attempts            INTEGER NOT NULL DEFAULT 0,
        created_at          TIMESTAMPTZ NOT NULL,
        expires_at          TIMESTAMPTZ NOT NULL
      );
    `,
  },
  {
    id: 1002,
    name: 'secure site: a Solana (ed25519) key per embedded wallet account, sealed as the EVM key is',
    // Nullable: rows made before this migration get their key the first time they are used (AccountService).
    sql: `
      ALTER TABLE secure_accounts
        ADD COLUMN solana_address        TEXT UNIQUE,
        ADD COLUMN solana_key_iv         BYTEA,
        ADD COLUMN solana_key_tag        BYTEA,
        ADD COLUMN solana_key_ciphertext BYTEA,
        ADD CONSTRAINT secure_accounts_solana_key_whole CHECK (
          (solana_address IS NULL) = (solana_key_iv IS NULL)
          AND (solana_address IS NULL) = (solana_key_tag IS NULL)
          AND (solana_address IS NULL) = (solana_key_ciphertext IS NULL)
        );
    `,
  },
]
