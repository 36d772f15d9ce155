import { Hono } from 'hono';
import type { AppEnv } from '../lib/context';

/** /users/{id}/roles, /users/available-roles, /users/{id}/assign-role (000 §7); filled in by step 2. */
export function userRolesRoutes() {
  return new Hono<AppEnv>();
}
