import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/**
 * The membership report's counts (issue 30 item 8), kept by triggers (migration
 * report_member_cells_triggers): for each organization (its whole subtree), how many memberships
 * of units without units beneath them (where a member always sits, figures.ts) share a member
 * record (Đoàn/Hội status, type, gender, ethnicity; '' not recorded), a joined day, an ended day
 * (0 still a member), a reason ('' still a member, a missing reason 'other') and whether an accepted
 * transfer brought them in. Days are Việt Nam calendar days since 1970 (the report's periods are whole
 * days), so a report reads a few hundred rows per unit instead of its tens of thousands of memberships.
 * Memberships that are switched off without a day are not counted, as the report leaves them out.
 */
export const reportMemberCells = sqliteTable(
  'report_member_cells',
  {
    organizationId: integer().notNull(),
    membershipStatus: text().notNull(),
    userType: text().notNull(),
    gender: text().notNull(),
    ethnicity: text().notNull(),
    joinedDay: integer().notNull(),
    endedDay: integer().notNull(),
    endReason: text().notNull(),
    transferIn: integer().notNull(),
    n: integer().notNull().default(0),
  },
  (t) => [
    primaryKey({
      columns: [
        t.organizationId,
        t.membershipStatus,
        t.userType,
        t.gender,
        t.ethnicity,
        t.joinedDay,
        t.endedDay,
        t.endReason,
        t.transferIn,
      ],
    }),
  ],
);

/**
 * The memberships the report still reads one by one (reports/figures.ts), kept by triggers (migration
 * report_live_members_triggers): those of units with units beneath them that no membership of the same
 * member beneath them covers — one that began no later and ends no earlier, which then overlaps every
 * period this one does, so this one never counts. A member joining a chi đoàn also joins its faculty
 * and the school (000 §4): those rows are covered and never read; a member of the faculty itself, or
 * one whose chi đoàn changed within it, is read.
 */
export const reportLiveMembers = sqliteTable(
  'report_live_members',
  {
    membershipId: integer().primaryKey(),
    organizationId: integer().notNull(),
    userId: integer().notNull(),
  },
  (t) => [index('report_live_members_org_idx').on(t.organizationId), index('report_live_members_user_idx').on(t.userId)],
);
