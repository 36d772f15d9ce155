/** PostgreSQL's users tables: db/tables/users.ts mapped by the rules in docs/decisions.md (issue 29). */
import { index, integer, primaryKey, pgTable, text, uniqueIndex, boolean } from 'drizzle-orm/pg-core';
import { timestamps } from '../columns';
import { departments } from './departments';
import { classes } from './classes';

export const users = pgTable(
  'users',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    code: text().notNull(),
    familyName: text().notNull(),
    givenName: text().notNull(),
    email: text().notNull(),
    phone: text(),
    passwordHash: text(),
    mustChangePassword: boolean().notNull().default(false),
    userType: text({ enum: ['student', 'staff'] })
      .notNull()
      .default('student'),
    membershipStatus: text({ enum: ['none', 'doan_vien', 'hoi_vien', 'both'] })
      .notNull()
      .default('none'),
    isActive: boolean().notNull().default(true),
    classId: integer().references(() => classes.id, { onDelete: 'set null' }),
    managementDepartmentId: integer().references(() => departments.id, { onDelete: 'set null' }),
    trainingDepartmentId: integer().references(() => departments.id, { onDelete: 'set null' }),
    dateOfBirth: text(),
    gender: text({ enum: ['male', 'female', 'other'] }),
    ethnicity: text(),
    religion: text(),
    doanJoinedAt: text(),
    hoiJoinedAt: text(),
    partyJoinedAt: text(),
    hometown: text(),
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
    index('users_id_idx').on(t.id),
  ],
);

export const userFacetCounts = pgTable(
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
