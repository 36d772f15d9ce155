import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { timestamps } from '../columns';
import { users } from './users';
import { organizations } from './organizations';

export const permissions = sqliteTable(
  'permissions',
  {
    id: integer().primaryKey({ autoIncrement: true }),
    code: text().notNull(),
    name: text().notNull(),
    category: text().notNull(),
    context: text({ enum: ['system', 'organization'] })
      .notNull()
      .default('organization'),
    isActive: integer({ mode: 'boolean' }).notNull().default(true),
    sortOrder: integer().notNull().default(0),
    ...timestamps,
  },
  (t) => [uniqueIndex('permissions_code_uq').on(t.code)],
);

export const roles = sqliteTable(
  'roles',
  {
    id: integer().primaryKey({ autoIncrement: true }),
    name: text().notNull(),
    displayName: text().notNull(),
    description: text(),
    isActive: integer({ mode: 'boolean' }).notNull().default(true),
    isSystemRole: integer({ mode: 'boolean' }).notNull().default(false),
    searchText: text().notNull().default(''),
    ...timestamps,
  },
  (t) => [uniqueIndex('roles_name_uq').on(t.name), index('roles_active_idx').on(t.isActive, t.id)],
);

export const rolePermissions = sqliteTable(
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

/** A role held by a user, globally (organizationId null) or in one organization. */
export const userRoles = sqliteTable(
  'user_roles',
  {
    id: integer().primaryKey({ autoIncrement: true }),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    roleId: integer()
      .notNull()
      .references(() => roles.id, { onDelete: 'cascade' }),
    organizationId: integer().references(() => organizations.id, { onDelete: 'cascade' }),
    isActive: integer({ mode: 'boolean' }).notNull().default(true),
    grantedBy: integer().references(() => users.id, { onDelete: 'set null' }),
    createdAt: integer({ mode: 'timestamp_ms' })
      .notNull()
      .$defaultFn(() => new Date()),
  },
  (t) => [
    index('user_roles_user_idx').on(t.userId),
    index('user_roles_role_idx').on(t.roleId),
    index('user_roles_org_idx').on(t.organizationId),
  ],
);
