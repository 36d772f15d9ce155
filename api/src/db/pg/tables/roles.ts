/** PostgreSQL's roles tables: db/tables/roles.ts mapped by the rules in docs/decisions.md (issue 29). */
import { index, integer, primaryKey, pgTable, text, uniqueIndex, boolean } from 'drizzle-orm/pg-core';
import { epochMs, timestamps } from '../columns';
import { users } from './users';
import { organizations } from './organizations';

export const permissions = pgTable(
  'permissions',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    code: text().notNull(),
    name: text().notNull(),
    category: text().notNull(),
    context: text({ enum: ['system', 'organization'] })
      .notNull()
      .default('organization'),
    isActive: boolean().notNull().default(true),
    sortOrder: integer().notNull().default(0),
    ...timestamps,
  },
  (t) => [uniqueIndex('permissions_code_uq').on(t.code)],
);

export const roles = pgTable(
  'roles',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    name: text().notNull(),
    displayName: text().notNull(),
    description: text(),
    isActive: boolean().notNull().default(true),
    isSystemRole: boolean().notNull().default(false),
    searchText: text().notNull().default(''),
    ...timestamps,
  },
  (t) => [uniqueIndex('roles_name_uq').on(t.name), index('roles_active_idx').on(t.isActive, t.id)],
);

export const rolePermissions = pgTable(
  'role_permissions',
  {
    roleId: integer()
      .notNull()
      .references(() => roles.id, { onDelete: 'cascade' }),
    permissionId: integer()
      .notNull()
      .references(() => permissions.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.roleId, t.permissionId] }), index('role_permissions_permission_idx').on(t.permissionId)],
);

export const userRoles = pgTable(
  'user_roles',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    roleId: integer()
      .notNull()
      .references(() => roles.id, { onDelete: 'cascade' }),
    organizationId: integer().references(() => organizations.id, { onDelete: 'cascade' }),
    isActive: boolean().notNull().default(true),
    grantedBy: integer().references(() => users.id, { onDelete: 'set null' }),
    createdAt: epochMs()
      .notNull()
      .$defaultFn(() => new Date()),
  },
  (t) => [
    index('user_roles_user_idx').on(t.userId),
    index('user_roles_role_idx').on(t.roleId),
    index('user_roles_org_idx').on(t.organizationId),
  ],
);
