import type { RoleGrant } from '@doanhoi/shared';
import type { Db } from '../db/client';
import type { Env } from '../env';

export interface Deps {
  db: Db;
  env: Env;
}

/** The signed-in caller, with the roles the permission rule needs. */
export interface Actor {
  id: number;
  email: string;
  roles: RoleGrant[];
  isSuperAdmin: boolean;
  /** Still on a default or reset password: only profile, change-password and logout (access/middleware.ts). */
  mustChangePassword?: boolean;
}

export type AppEnv = {
  Variables: {
    deps: Deps;
    actor: Actor;
    /** Refresh-token family of the access token in use (logout revokes it). */
    familyId: string;
    lang: 'vi' | 'en';
    /** hono/request-id: the caller's X-Request-Id when well-formed, else a new UUID; echoed in the response. */
    requestId: string;
  };
};
