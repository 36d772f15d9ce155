import { Hono } from 'hono';
import type { AppEnv } from '../lib/context';

/** PUT /users/{id}/organizations (000 §4 membership rules); filled in by step 2. */
export function userOrganizationsRoutes() {
  return new Hono<AppEnv>();
}
