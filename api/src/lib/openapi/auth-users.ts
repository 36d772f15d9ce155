/** Success answers of /auth, /users (with their role and organization links) and /audit-logs. */
import {
  auditListResponse,
  authProvidersSchema,
  availableRoleSchema,
  grantRolesResponse,
  loginResponseSchema,
  messageResponse,
  myOrganizationsSchema,
  myProfileSchema,
  permissionsResponseSchema,
  roleAssignmentLinkSchema,
  sessionUserSchema,
  tokenPairSchema,
  userBulkDeleteResponse,
  userDetailSchema,
  userListResponse,
  userOrganizationsResponse,
} from '@doanhoi/shared';
import { z } from 'zod';
import { created, ok, redirect, type Contract } from './contract';

export const authUsersContract: Contract = {
  'POST /auth/login': ok(loginResponseSchema, 'Signed in: tokens and the user'),
  'POST /auth/refresh': ok(tokenPairSchema, 'A new token pair (the old refresh token is spent)'),
  'POST /auth/logout': ok(messageResponse, 'Signed out'),
  'GET /auth/profile': ok(sessionUserSchema, 'The signed-in user'),
  'GET /auth/me/permissions': ok(permissionsResponseSchema, "The caller's roles and permission codes (in an organization when asked)"),
  'GET /auth/me/profile': ok(myProfileSchema, "The caller's own record, class, departments and organizations"),
  'PATCH /auth/me/profile': ok(myProfileSchema, 'Contact details changed'),
  'GET /auth/me/organizations': ok(myOrganizationsSchema, 'Organizations the caller is an active member of'),
  'POST /auth/change-password': ok(messageResponse, 'Password changed'),
  'GET /auth/providers': ok(authProvidersSchema, 'Which sign-in providers are configured'),
  'GET /auth/google': redirect('To Google'),
  'GET /auth/google/callback': redirect('To the admin with tokens, or to the login page with an error'),

  'GET /users': ok(userListResponse, 'One page of users'),
  'POST /users': created(userDetailSchema, 'The created user'),
  'DELETE /users/bulk-delete': ok(userBulkDeleteResponse, 'How many users were deleted'),
  'GET /users/:id': ok(userDetailSchema),
  'PATCH /users/:id': ok(userDetailSchema, 'The updated user'),
  'DELETE /users/:id': ok(messageResponse, 'Deleted'),
  'GET /users/available-roles': ok(z.array(availableRoleSchema), 'Roles the caller may grant, and where'),
  'GET /users/:id/roles': ok(z.array(roleAssignmentLinkSchema), "The user's role links"),
  'POST /users/:id/roles': ok(grantRolesResponse, "The user's role links replaced"),
  'POST /users/:id/assign-role': { ...created(roleAssignmentLinkSchema, 'The new role link (200 when it already existed)') },
  'PUT /users/:id/organizations': ok(userOrganizationsResponse, "The user's memberships replaced"),

  'GET /audit-logs': ok(auditListResponse, 'One page of the audit log'),
};
