import { type AnySQLiteColumn, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { sql, type SQL } from 'drizzle-orm';
import { timestamps } from '../columns';
import { termStartSql } from '../term';
import { users } from './users';

export const organizations = sqliteTable(
  'organizations',
  {
    id: integer().primaryKey({ autoIncrement: true }),
    name: text().notNull(),
    code: text().notNull(),
    type: text({
      enum: ['doan_truong', 'doan_co_so', 'chi_doan', 'hoi_sinh_vien_truong', 'lien_chi_hoi', 'chi_hoi', 'clb_truong', 'clb_khoa'],
    }).notNull(),
    description: text(),
    parentId: integer().references((): AnySQLiteColumn => organizations.id, { onDelete: 'restrict' }),
    /** Materialised ancestry "/1/5/12/" (self included): subtree = path LIKE '/1/5/%'. */
    path: text().notNull().default('/'),
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

export const organizationMembers = sqliteTable(
  'organization_members',
  {
    id: integer().primaryKey({ autoIncrement: true }),
    organizationId: integer()
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text().notNull().default('member'),
    isActive: integer({ mode: 'boolean' }).notNull().default(true),
    joinedAt: integer({ mode: 'timestamp_ms' })
      .notNull()
      .$defaultFn(() => new Date()),
    /** The term the membership began in, as its first instant in ms (db/term.ts): what the member-figure triggers count by. */
    joinedTerm: integer().generatedAlwaysAs((): SQL => termStartSql(sql`${organizationMembers.joinedAt}`)),
    /** Set with isActive = false when the membership ends (issue 30 item 2): the day, why, and a note. */
    endedAt: integer({ mode: 'timestamp_ms' }),
    endReason: text({ enum: ['graduated', 'over_age', 'moved_away', 'removed', 'deceased', 'other', 'transferred'] }),
    endNote: text(),
  },
  (t) => [
    uniqueIndex('organization_members_org_user_uq').on(t.organizationId, t.userId),
    index('organization_members_user_idx').on(t.userId),
    // The members list filtered by status (active / ended) of one organization.
    index('organization_members_org_active_idx').on(t.organizationId, t.isActive),
  ],
);

/**
 * Member counts kept by triggers on organization_members (migration 0003_member_counts):
 * `direct` counts the organization's own active members, `subtree` the distinct users with an
 * active membership in it or anywhere beneath it. The tree and scoped user totals read them
 * instead of counting 100k memberships per request.
 */
export const organizationMemberCounts = sqliteTable('organization_member_counts', {
  organizationId: integer()
    .primaryKey()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  direct: integer().notNull().default(0),
  subtree: integer().notNull().default(0),
});

/**
 * The dashboard's member figures, kept by triggers (migration member_figures): per organization
 * subtree, or everything (organizationId 0), the distinct users with an active membership there.
 * termStart 0 holds all members with their Đoàn/Hội split; termStart T (the term's first instant,
 * dashboard/scope.ts currentTerm) holds the distinct users whose membership there began in that term.
 * No foreign key: row 0 stands for everything, and an organization's rows go with it by trigger.
 */
export const memberFigures = sqliteTable(
  'member_figures',
  {
    organizationId: integer().notNull(),
    termStart: integer().notNull(),
    members: integer().notNull().default(0),
    doan: integer().notNull().default(0),
    hoi: integer().notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.termStart] })],
);

/**
 * Holds a row only inside a transaction that writes many new users' memberships at once
 * (organizations/bulk-members.ts): while it does, the per-row membership triggers that keep the
 * figures stand aside and the batch updates them in a few set-wise statements. Other connections
 * never see a row (it is deleted before the transaction commits).
 */
export const triggerPauses = sqliteTable('trigger_pauses', {
  name: text().primaryKey(),
});

/**
 * The organization screens' statistics (000 §3), kept by triggers (migration unit_member_figures):
 * per organization subtree (0 = everything) and bucket (an organization type, its group doan/hoi/clb,
 * or 'all'), the distinct users with an active membership in an organization of that bucket there,
 * per user type and Đoàn/Hội status. A detail page reads its ~100 rows instead of counting memberships.
 */
export const unitMemberFigures = sqliteTable(
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
