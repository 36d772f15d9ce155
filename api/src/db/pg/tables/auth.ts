/** PostgreSQL's auth tables: db/tables/auth.ts mapped by the rules in docs/decisions.md (issue 29). */
import { index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { epochMs } from '../columns';
import { emailOutbox } from './reminders';
import { users } from './users';

export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text().notNull(),
    familyId: text().notNull(),
    expiresAt: epochMs().notNull(),
    revokedAt: epochMs(),
    revokedReason: text({ enum: ['rotated', 'logout', 'reuse', 'password_change', 'password_reset', 'account_change'] }),
    ip: text(),
    userAgent: text(),
    createdAt: epochMs()
      .notNull()
      .$defaultFn(() => new Date()),
  },
  (t) => [
    uniqueIndex('refresh_tokens_hash_uq').on(t.tokenHash),
    index('refresh_tokens_family_idx').on(t.familyId),
    index('refresh_tokens_user_idx').on(t.userId),
    index('refresh_tokens_revoked_idx').on(t.revokedAt),
  ],
);

export const oneTimeCodes = pgTable(
  'one_time_codes',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text({ enum: ['password_change', 'google_sign_in', 'password_reset'] }).notNull(),
    codeHash: text().notNull(),
    bindingHash: text(),
    issuedBy: integer().references(() => users.id, { onDelete: 'set null' }),
    outboxId: integer().references(() => emailOutbox.id, { onDelete: 'set null' }),
    attempts: integer().notNull().default(0),
    expiresAt: epochMs().notNull(),
    usedAt: epochMs(),
    createdAt: epochMs()
      .notNull()
      .$defaultFn(() => new Date()),
  },
  (t) => [index('one_time_codes_user_idx').on(t.userId, t.purpose, t.createdAt), index('one_time_codes_hash_idx').on(t.codeHash)],
);
