import { Hono } from 'hono';
import { catalogueImportRoutes, importKinds } from '../imports/routes';
import type { AppEnv } from '../lib/context';
import { userOrganizationsRoutes } from '../organizations/user-organizations.routes';
import { userRolesRoutes } from '../roles/user-roles.routes';
import { bulkUpdateRoutes } from './bulk-update.routes';
import { userHistoryRoutes } from './history.routes';
import { usersRoutes } from './routes';

/**
 * Everything under /api/users, in one mount: the import routes and other fixed paths
 * (/users/template, /users/import/…) come before /users/:id, then a user's roles and
 * organizations, then the users CRUD itself.
 */
export function usersApi() {
  return new Hono<AppEnv>()
    .route('/', catalogueImportRoutes(importKinds.users, 'users.create', false))
    .route('/', userRolesRoutes())
    .route('/', userOrganizationsRoutes())
    .route('/', bulkUpdateRoutes())
    .route('/', userHistoryRoutes())
    .route('/', usersRoutes());
}
