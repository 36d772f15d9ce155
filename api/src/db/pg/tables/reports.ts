/** PostgreSQL's reports tables: db/tables/reports.ts mapped by the rules in docs/decisions.md (issue 29). */
import { index, integer, primaryKey, pgTable, text } from 'drizzle-orm/pg-core';

export const reportMemberCells = pgTable(
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

export const reportLiveMembers = pgTable(
  'report_live_members',
  {
    membershipId: integer().primaryKey(),
    organizationId: integer().notNull(),
    userId: integer().notNull(),
  },
  (t) => [index('report_live_members_org_idx').on(t.organizationId), index('report_live_members_user_idx').on(t.userId)],
);
