import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { emailOutbox } from './reminders';
import { users } from './users';

/** Refresh tokens are stored as SHA-256 hashes; a family is one sign-in and its rotations. */
export const refreshTokens = sqliteTable(
  'refresh_tokens',
  {
    id: integer().primaryKey({ autoIncrement: true }),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text().notNull(),
    familyId: text().notNull(),
    expiresAt: integer({ mode: 'timestamp_ms' }).notNull(),
    /** Set when rotated (replaced) or revoked; a used token presented again revokes its family. */
    revokedAt: integer({ mode: 'timestamp_ms' }),
    revokedReason: text({ enum: ['rotated', 'logout', 'reuse', 'password_change', 'password_reset', 'account_change'] }),
    ip: text(),
    userAgent: text(),
    createdAt: integer({ mode: 'timestamp_ms' })
      .notNull()
      .$defaultFn(() => new Date()),
  },
  (t) => [
    uniqueIndex('refresh_tokens_hash_uq').on(t.tokenHash),
    index('refresh_tokens_family_idx').on(t.familyId),
    index('refresh_tokens_user_idx').on(t.userId),
    // Start-up reads the recently revoked families (access/revocation.ts).
    index('refresh_tokens_revoked_idx').on(t.revokedAt),
  ],
);

/**
 * Single-use codes, stored as keyed hashes (issue 25): `password_change` proves the owner of an
 * account on its default password (e-mailed, or issued by an administrator); `google_sign_in` is
 * what the Google callback hands the browser instead of tokens, bound to a cookie of that browser;
 * `password_reset` is the token of a forgotten-password link (issue 30, auth/password-reset.ts).
 * In the database, not in memory, so any process may redeem a code another one issued.
 */
export const oneTimeCodes = sqliteTable(
  'one_time_codes',
  {
    id: integer().primaryKey({ autoIncrement: true }),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text({ enum: ['password_change', 'google_sign_in', 'password_reset'] }).notNull(),
    codeHash: text().notNull(),
    /** Hash of the cookie the browser that started the sign-in holds (google_sign_in). */
    bindingHash: text(),
    /** The administrator who issued it; null when e-mailed to the owner or made by the Google callback. */
    issuedBy: integer().references(() => users.id, { onDelete: 'set null' }),
    /** The e-mail that carried it, so the code can be masked there once spent. */
    outboxId: integer().references(() => emailOutbox.id, { onDelete: 'set null' }),
    /** Wrong codes tried while this one was live; dead at the limit. */
    attempts: integer().notNull().default(0),
    expiresAt: integer({ mode: 'timestamp_ms' }).notNull(),
    usedAt: integer({ mode: 'timestamp_ms' }),
    createdAt: integer({ mode: 'timestamp_ms' })
      .notNull()
      .$defaultFn(() => new Date()),
  },
  (t) => [index('one_time_codes_user_idx').on(t.userId, t.purpose, t.createdAt), index('one_time_codes_hash_idx').on(t.codeHash)],
);
