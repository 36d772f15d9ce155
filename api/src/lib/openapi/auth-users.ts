/** Success answers of /auth, /users (with their role and organization links) and /audit-logs. */
import {
  auditListResponse,
  authProvidersSchema,
  availableRoleSchema,
  grantRolesResponse,
  issuedPasswordCodeSchema,
  loginResponseSchema,
  messageResponse,
  myOrganizationsSchema,
  myProfileSchema,
  passwordCodeSentSchema,
  resetLinkSchema,
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
  'POST /auth/change-password': ok(messageResponse, 'Password changed (on a default password only with a one-time code)'),
  'POST /auth/change-password/code': ok(
    passwordCodeSentSchema,
    'A one-time code e-mailed to the account (kept in the outbox without SMTP); 429 when asked too often',
  ),
  'POST /auth/password-codes': created(
    issuedPasswordCodeSchema,
    'A one-time password-change code for a user the caller may manage, shown this once',
  ),
  'GET /auth/providers': ok(authProvidersSchema, 'Which sign-in providers are configured'),
  'POST /auth/forgot-password': {
    status: 202,
    description:
      'Public. Always the same answer, whether the e-mail belongs to an account or not; an active account gets a single-use link valid 30 minutes by e-mail (kept in the outbox without SMTP). 429 with Retry-After past FORGOT_PASSWORD_EMAIL_LIMIT per e-mail or FORGOT_PASSWORD_IP_LIMIT per address in the window',
    schema: messageResponse,
  },
  'POST /auth/reset-password/check': ok(
    resetLinkSchema,
    'Public. The link still works until expiresAt; 400 RESET_LINK_INVALID when it is wrong, used or expired (its page says so before a password is typed)',
  ),
  'POST /auth/reset-password': ok(
    messageResponse,
    "Public. The link's token and a new password (the shared rule): the password is set, the link and every other live link or password code of the account die, every session and refresh token is revoked. 400 RESET_LINK_INVALID for a wrong, used or expired token; 429 past the address limit",
  ),
  'GET /auth/google': redirect('To Google'),
  'GET /auth/google/callback': redirect('To /auth/callback with a one-time code (60 s, this browser only), or with an error'),
  'POST /auth/google/exchange': ok(
    loginResponseSchema,
    "The callback's one-time code exchanged for tokens by the browser that started the sign-in",
  ),

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
