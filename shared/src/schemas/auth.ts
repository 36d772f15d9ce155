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

/** A password-change code: six digits (e-mailed to the owner or issued by an administrator). */
export const passwordCodeField = z
  .string({ error: 'validation.passwordCodeRequired' })
  .trim()
  .min(1, { error: 'validation.passwordCodeRequired', abort: true })
  .regex(/^\d{6}$/, 'validation.passwordCodeInvalid');

export const changePasswordSchema = z.object({
  currentPassword: z
    .string({ error: 'validation.passwordRequired' })
    .min(1, 'validation.passwordRequired')
    .max(PASSWORD_INPUT_MAX, 'validation.textTooLong'),
  newPassword: newPasswordField,
  /** Required while the account is on its default password (mustChangePassword). */
  code: passwordCodeField.optional(),
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

/** POST /auth/change-password/code: e-mail me a code (nothing to send). */
export const requestPasswordCodeSchema = z.object({}).strict();

/** POST /auth/password-codes: an administrator issues a code for a user they may manage. */
export const issuePasswordCodeSchema = z.object({ userId: z.number({ error: 'validation.invalidValue' }).int().positive() });
export type IssuePasswordCodeInput = z.infer<typeof issuePasswordCodeSchema>;

export const passwordCodeSentSchema = z.object({ message: z.string(), expiresAt: z.string() });
export type PasswordCodeSent = z.infer<typeof passwordCodeSentSchema>;

/** Shown once to the administrator; only its hash is kept. */
export const issuedPasswordCodeSchema = z.object({ message: z.string(), code: z.string(), expiresAt: z.string() });
export type IssuedPasswordCode = z.infer<typeof issuedPasswordCodeSchema>;

/** POST /auth/forgot-password: the address to send a reset link to (the same e-mail rule as the sign-in). */
export const forgotPasswordSchema = loginSchema.pick({ email: true });
export type ForgotPasswordInput = z.infer<typeof forgotPasswordSchema>;

/** POST /auth/reset-password: the token of the e-mailed link and the new password (the shared password rule). */
export const resetPasswordSchema = z.object({
  token: z
    .string({ error: 'validation.resetTokenRequired' })
    .trim()
    .min(1, { error: 'validation.resetTokenRequired', abort: true })
    .max(200, 'validation.resetTokenInvalid')
    .regex(/^[A-Za-z0-9_-]{20,}$/, 'validation.resetTokenInvalid'),
  password: newPasswordField,
});
export type ResetPasswordInput = z.infer<typeof resetPasswordSchema>;

/** POST /auth/reset-password/check: whether a link still works, asked when its page opens. */
export const resetTokenSchema = resetPasswordSchema.pick({ token: true });
export const resetLinkSchema = z.object({ expiresAt: z.string() });

/** POST /auth/google/exchange: the one-time code the Google callback put in the URL. */
export const googleExchangeSchema = z.object({
  code: z.string({ error: 'validation.invalidValue' }).trim().min(20, 'validation.invalidValue').max(200, 'validation.textTooLong'),
});
