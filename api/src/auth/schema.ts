import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { users } from '../users/schema';

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
    revokedReason: text({ enum: ['rotated', 'logout', 'reuse', 'password_change', 'account_change'] }),
    ip: text(),
    userAgent: text(),
    createdAt: integer({ mode: 'timestamp_ms' }).notNull().$defaultFn(() => new Date()),
  },
  (t) => [
    uniqueIndex('refresh_tokens_hash_uq').on(t.tokenHash),
    index('refresh_tokens_family_idx').on(t.familyId),
    index('refresh_tokens_user_idx').on(t.userId),
    // Start-up reads the recently revoked families (auth/revocation.ts).
    index('refresh_tokens_revoked_idx').on(t.revokedAt),
  ],
);
