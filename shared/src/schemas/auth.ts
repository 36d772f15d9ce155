import { z } from 'zod';
import { cleanLine, EMAIL_PATTERN, newPasswordField, PASSWORD_INPUT_MAX, PASSWORD_MIN } from './common';

export const loginSchema = z.object({
  email: z
    .string({ error: 'validation.emailRequired' })
    .overwrite(cleanLine)
    .trim()
    .min(1, { error: 'validation.emailRequired', abort: true })
    .regex(EMAIL_PATTERN, 'validation.emailInvalid'),
  password: z
    .string({ error: 'validation.passwordRequired' })
    .min(1, { error: 'validation.passwordRequired', abort: true })
    .min(PASSWORD_MIN, 'validation.passwordMinLength')
    .max(PASSWORD_INPUT_MAX, 'validation.textTooLong'),
});
export type LoginInput = z.infer<typeof loginSchema>;

export const refreshSchema = z.object({
  refreshToken: z.string({ error: 'validation.refreshTokenRequired' }).min(1, 'validation.refreshTokenRequired'),
});

export const changePasswordSchema = z.object({
  currentPassword: z
    .string({ error: 'validation.passwordRequired' })
    .min(1, 'validation.passwordRequired')
    .max(PASSWORD_INPUT_MAX, 'validation.textTooLong'),
  newPassword: newPasswordField,
});
export type ChangePasswordInput = z.infer<typeof changePasswordSchema>;

export const permissionsQuery = z.object({
  organizationId: z.coerce.number().int().positive().optional(),
});

/** The signed-in user as the API returns it (never a password hash). */
export const sessionUserSchema = z.object({
  id: z.number(),
  code: z.string(),
  email: z.string(),
  familyName: z.string(),
  givenName: z.string(),
  phone: z.string().nullable(),
  userType: z.enum(['student', 'staff']),
  membershipStatus: z.enum(['none', 'doan_vien', 'hoi_vien', 'both']),
  isActive: z.boolean(),
  mustChangePassword: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type SessionUser = z.infer<typeof sessionUserSchema>;

/** POST /auth/refresh: a new pair (the refresh token sent is spent). */
export const tokenPairSchema = z.object({ accessToken: z.string(), refreshToken: z.string() });

export const loginResponseSchema = tokenPairSchema.extend({ user: sessionUserSchema });
export type LoginResponse = z.infer<typeof loginResponseSchema>;

export const sessionRoleSchema = z.object({
  id: z.number(),
  name: z.string(),
  displayName: z.string(),
  organizationId: z.number().nullable(),
  isActive: z.boolean(),
  permissions: z.array(z.object({ code: z.string() })),
});
export type SessionRole = z.infer<typeof sessionRoleSchema>;

export const permissionsResponseSchema = z.object({
  roles: z.array(sessionRoleSchema),
  /** Effective codes in the asked organization (or globally when none was asked). */
  permissions: z.array(z.string()),
  isSuperAdmin: z.boolean(),
  organizationId: z.number().nullable(),
  ancestorIds: z.array(z.number()),
});
export type PermissionsResponse = z.infer<typeof permissionsResponseSchema>;

/** GET /auth/me/organizations: the caller's active memberships. */
export const myOrganizationsSchema = z.object({ organizationIds: z.array(z.number()) });
export type MyOrganizations = z.infer<typeof myOrganizationsSchema>;

/** GET /auth/providers (public): which sign-in methods beside the password this server offers. */
export const authProvidersSchema = z.object({ google: z.boolean() });
export type AuthProviders = z.infer<typeof authProvidersSchema>;
