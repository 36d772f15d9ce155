/** PostgreSQL's organizations tables: db/tables/organizations.ts mapped by the rules in docs/decisions.md (issue 29). */
import { type AnyPgColumn, index, integer, primaryKey, pgTable, text, uniqueIndex, bigint, boolean } from 'drizzle-orm/pg-core';
import { byteText, epochMs, timestamps } from '../columns';
import { sql, type SQL } from 'drizzle-orm';
import { termStartSql } from '../term';
import { users } from './users';

export const organizations = pgTable(
  'organizations',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    name: text().notNull(),
    code: text().notNull(),
    type: text({
      enum: ['doan_truong', 'doan_co_so', 'chi_doan', 'hoi_sinh_vien_truong', 'lien_chi_hoi', 'chi_hoi', 'clb_truong', 'clb_khoa'],
    }).notNull(),
    description: text(),
    parentId: integer().references((): AnyPgColumn => organizations.id, { onDelete: 'restrict' }),
    path: byteText().notNull().default('/'),
    searchText: text().notNull().default(''),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('organizations_type_code_uq').on(t.type, t.code),
    index('organizations_parent_idx').on(t.parentId),
    index('organizations_path_idx').on(t.path),
    index('organizations_code_idx').on(t.code),
  ],
);

export const organizationMembers = pgTable(
  'organization_members',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    organizationId: integer()
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text().notNull().default('member'),
    isActive: boolean().notNull().default(true),
    joinedAt: epochMs()
      .notNull()
      .$defaultFn(() => new Date()),
    joinedTerm: bigint({ mode: 'number' }).generatedAlwaysAs((): SQL => termStartSql(sql`${organizationMembers.joinedAt}`)),
    endedAt: epochMs(),
    endReason: text({ enum: ['graduated', 'over_age', 'moved_away', 'removed', 'deceased', 'other', 'transferred'] }),
    endNote: text(),
  },
  (t) => [
    uniqueIndex('organization_members_org_user_uq').on(t.organizationId, t.userId),
    index('organization_members_user_idx').on(t.userId),
    index('organization_members_org_active_idx').on(t.organizationId, t.isActive),
  ],
);

export const organizationMemberCounts = pgTable('organization_member_counts', {
  organizationId: integer()
    .primaryKey()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  direct: integer().notNull().default(0),
  subtree: integer().notNull().default(0),
});

export const memberFigures = pgTable(
  'member_figures',
  {
    organizationId: integer().notNull(),
    termStart: bigint({ mode: 'number' }).notNull(),
    members: integer().notNull().default(0),
    doan: integer().notNull().default(0),
    hoi: integer().notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.termStart] })],
);

export const triggerPauses = pgTable('trigger_pauses', {
  name: text().primaryKey(),
});

export const unitMemberFigures = pgTable(
  'unit_member_figures',
  {
    organizationId: integer().notNull(),
    bucket: text().notNull(),
    userType: text().notNull(),
    membershipStatus: text().notNull(),
    n: integer().notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.bucket, t.userType, t.membershipStatus] })],
);
