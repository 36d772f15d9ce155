import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { timestamps } from '../columns';
import { departments } from './departments';
import { classes } from './classes';

export const users = sqliteTable(
  'users',
  {
    id: integer().primaryKey({ autoIncrement: true }),
    code: text().notNull(),
    familyName: text().notNull(),
    givenName: text().notNull(),
    email: text().notNull(),
    phone: text(),
    /** Null for imported accounts that still have the default password (see docs/decisions.md). */
    passwordHash: text(),
    mustChangePassword: integer({ mode: 'boolean' }).notNull().default(false),
    userType: text({ enum: ['student', 'staff'] })
      .notNull()
      .default('student'),
    membershipStatus: text({ enum: ['none', 'doan_vien', 'hoi_vien', 'both'] })
      .notNull()
      .default('none'),
    isActive: integer({ mode: 'boolean' }).notNull().default(true),
    classId: integer().references(() => classes.id, { onDelete: 'set null' }),
    managementDepartmentId: integer().references(() => departments.id, { onDelete: 'set null' }),
    trainingDepartmentId: integer().references(() => departments.id, { onDelete: 'set null' }),
    /** The member record (issue 30 item 8); calendar days as YYYY-MM-DD, no time zone. */
    dateOfBirth: text(),
    gender: text({ enum: ['male', 'female', 'other'] }),
    /** Code of one of the 54 ethnic groups (shared ETHNICITIES: "01" Kinh … "54" Ơ Đu). */
    ethnicity: text(),
    religion: text(),
    doanJoinedAt: text(),
    hoiJoinedAt: text(),
    partyJoinedAt: text(),
    hometown: text(),
    /** Accent-stripped "family given code email phone" for search. */
    searchText: text().notNull().default(''),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('users_code_uq').on(t.code),
    uniqueIndex('users_email_uq').on(t.email),
    index('users_type_idx').on(t.userType, t.id),
    index('users_membership_idx').on(t.membershipStatus, t.id),
    index('users_active_idx').on(t.isActive, t.id),
    index('users_class_idx').on(t.classId),
    index('users_mgmt_dept_idx').on(t.managementDepartmentId),
    index('users_training_dept_idx').on(t.trainingDepartmentId),
    // The id alone, newest first: an unfiltered list's deep OFFSET page and its count walk this
    // narrow b-tree (~1 MB) instead of the table's wide rows (hash, search text; ~40 MB).
    index('users_id_idx').on(t.id),
  ],
);

/**
 * How many users of each (type, Đoàn/Hội status, active) combination there are in everything
 * (organization 0) and among the distinct active members of each organization's subtree, kept by
 * triggers (migration 0023): the users list's filtered totals read a few rows instead of counting
 * up to 100k users (users/list.ts).
 */
export const userFacetCounts = sqliteTable(
  'user_facet_counts',
  {
    organizationId: integer().notNull(),
    userType: text().notNull(),
    membershipStatus: text().notNull(),
    isActive: integer().notNull(),
    n: integer().notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.userType, t.membershipStatus, t.isActive] })],
);
