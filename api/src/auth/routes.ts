import {
  authProvidersSchema,
  changePasswordSchema,
  forgotPasswordSchema,
  issuePasswordCodeSchema,
  loginSchema,
  myProfileUpdateSchema,
  permissionsQuery,
  refreshSchema,
  requestPasswordCodeSchema,
  resetPasswordSchema,
  resetTokenSchema,
  messageResponse,
  resetLinkSchema,
  issuedPasswordCodeSchema,
  passwordCodeSentSchema,
  myOrganizationsSchema,
  myProfileSchema,
  permissionsResponseSchema,
  sessionUserSchema,
  tokenPairSchema,
  loginResponseSchema,
} from '@doanhoi/shared';
import { Hono, type Context } from 'hono';
import { clientIp } from '../lib/headers';
import { requireAuth, requirePermission, requireSession } from '../access/middleware';
import type { AppEnv } from '../lib/context';
import { validate } from '../lib/validate';
import { googleRoutes } from './google';
import { passwordCodes } from './password-codes';
import { passwordReset } from './password-reset';
import { profileService } from './profile.service';
import { LoginRateLimiter } from './rate-limit';
import { authService } from './service';
import { ok, created, answers } from '../lib/openapi/contract';

const tooMany = (c: Context<AppEnv>, message: string, wait: number) =>
  c.json({ message, retryAfter: wait }, 429, { 'Retry-After': String(wait) });

/** Profile, change-password (and its code) and logout stay open to a session that must change its password (access/middleware.ts). */
export function authRoutes(limiter: LoginRateLimiter) {
  return (
    new Hono<AppEnv>()
      .post('/login', ok(loginResponseSchema, 'Signed in: tokens and the user'), validate('json', loginSchema), async (c) => {
        const { email, password } = c.req.valid('json');
        const client = { ip: clientIp(c), userAgent: c.req.header('user-agent') ?? null };
        return c.json(await authService(c.get('deps')).login(email, password, client, limiter));
      })
      .post(
        '/refresh',
        ok(tokenPairSchema, 'A new token pair (the old refresh token is spent)'),
        validate('json', refreshSchema),
        async (c) => {
          const client = { ip: clientIp(c), userAgent: c.req.header('user-agent') ?? null };
          return c.json(await authService(c.get('deps')).refresh(c.req.valid('json').refreshToken, client));
        },
      )
      .post('/logout', ok(messageResponse, 'Signed out'), requireSession, async (c) => {
        await authService(c.get('deps')).logout(c.get('familyId'), c.get('actor').id, clientIp(c));
        return c.json({ message: 'Đã đăng xuất' });
      })
      .get('/profile', ok(sessionUserSchema, 'The signed-in user'), requireSession, async (c) =>
        c.json(await authService(c.get('deps')).profile(c.get('actor').id)),
      )
      .get(
        '/me/permissions',
        ok(permissionsResponseSchema, "The caller's roles and permission codes (in an organization when asked)"),
        requireAuth,
        validate('query', permissionsQuery),
        async (c) => c.json(await authService(c.get('deps')).permissions(c.get('actor').id, c.req.valid('query').organizationId)),
      )
      // Issue 15 part 6: the member's own profile in the portal; contact details only are writable.
      .get('/me/profile', ok(myProfileSchema, "The caller's own record, class, departments and organizations"), requireAuth, async (c) =>
        c.json(await profileService(c.get('deps'), c.get('actor').id).read()),
      )
      .patch(
        '/me/profile',
        ok(myProfileSchema, 'Contact details changed'),
        requireAuth,
        validate('json', myProfileUpdateSchema),
        async (c) => c.json(await profileService(c.get('deps'), c.get('actor').id).updateContact(c.req.valid('json'), clientIp(c))),
      )
      .get('/me/organizations', ok(myOrganizationsSchema, 'Organizations the caller is an active member of'), requireAuth, async (c) =>
        c.json(await authService(c.get('deps')).memberships(c.get('actor').id)),
      )
      .post(
        '/change-password',
        ok(messageResponse, 'Password changed (on a default password only with a one-time code)'),
        requireSession,
        validate('json', changePasswordSchema),
        async (c) => {
          await authService(c.get('deps')).changePassword(c.get('actor').id, c.get('familyId'), c.req.valid('json'), clientIp(c), limiter);
          return c.json({ message: 'Đổi mật khẩu thành công' });
        },
      )
      // Issue 25 item 7: the code a default password's first change needs, e-mailed to the account itself.
      .post(
        '/change-password/code',
        ok(passwordCodeSentSchema, 'A one-time code e-mailed to the account (kept in the outbox without SMTP); 429 when asked too often'),
        requireSession,
        validate('json', requestPasswordCodeSchema),
        async (c) => c.json(await passwordCodes(c.get('deps')).send(c.get('actor').id, clientIp(c))),
      )
      // …or issued by an administrator who may manage the account (shown to them once).
      .post(
        '/password-codes',
        created(issuedPasswordCodeSchema, 'A one-time password-change code for a user the caller may manage, shown this once'),
        requireAuth,
        requirePermission('users.update'),
        validate('json', issuePasswordCodeSchema),
        async (c) => c.json(await passwordCodes(c.get('deps')).issue(c.get('actor'), c.req.valid('json').userId, clientIp(c)), 201),
      )
      // Issue 30 item 7, public: the same 202 for every e-mail (the lookup and the e-mail run after the answer).
      .post(
        '/forgot-password',
        answers({
          status: 202,
          description:
            'Public. Always the same answer, whether the e-mail belongs to an account or not; an active account gets a single-use link valid 30 minutes by e-mail (kept in the outbox without SMTP). 429 with Retry-After past FORGOT_PASSWORD_EMAIL_LIMIT per e-mail or FORGOT_PASSWORD_IP_LIMIT per address in the window',
          schema: messageResponse,
        }),
        validate('json', forgotPasswordSchema),
        async (c) => {
          const email = c.req.valid('json').email.toLowerCase();
          const reset = passwordReset(c.get('deps'));
          const wait = await reset.throttle(email, clientIp(c));
          if (wait > 0)
            return tooMany(c, `Bạn đã yêu cầu đặt lại mật khẩu quá nhiều lần. Vui lòng thử lại sau ${Math.ceil(wait / 60)} phút`, wait);
          return c.json(reset.request(email, clientIp(c)), 202);
        },
      )
      .post(
        '/reset-password/check',
        ok(
          resetLinkSchema,
          'Public. The link still works until expiresAt; 400 RESET_LINK_INVALID when it is wrong, used or expired (its page says so before a password is typed)',
        ),
        validate('json', resetTokenSchema),
        async (c) => {
          const reset = passwordReset(c.get('deps'));
          const wait = await reset.resetThrottle(clientIp(c));
          if (wait > 0)
            return tooMany(c, `Quá nhiều lần đặt lại mật khẩu từ địa chỉ này. Vui lòng thử lại sau ${Math.ceil(wait / 60)} phút`, wait);
          return c.json(await reset.check(c.req.valid('json').token));
        },
      )
      .post(
        '/reset-password',
        ok(
          messageResponse,
          "Public. The link's token and a new password (the shared rule): the password is set, the link and every other live link or password code of the account die, every session and refresh token is revoked. 400 RESET_LINK_INVALID for a wrong, used or expired token; 429 past the address limit",
        ),
        validate('json', resetPasswordSchema),
        async (c) => {
          const reset = passwordReset(c.get('deps'));
          const wait = await reset.resetThrottle(clientIp(c));
          if (wait > 0)
            return tooMany(c, `Quá nhiều lần đặt lại mật khẩu từ địa chỉ này. Vui lòng thử lại sau ${Math.ceil(wait / 60)} phút`, wait);
          const email = await reset.reset(c.req.valid('json'), clientIp(c));
          // The owner proved themselves: earlier failed sign-ins no longer hold the new password back.
          await limiter.clearAccount(clientIp(c), email);
          return c.json({ message: 'Đã đặt mật khẩu mới. Mọi phiên đăng nhập cũ đã bị đăng xuất; hãy đăng nhập bằng mật khẩu mới' });
        },
      )
      // Public: the sign-in screens show the Google button only when the server can complete the flow.
      .get('/providers', ok(authProvidersSchema, 'Which sign-in providers are configured'), (c) => {
        const { env } = c.get('deps');
        return c.json(authProvidersSchema.parse({ google: Boolean(env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET) }));
      })
      .route('/google', googleRoutes())
  );
}
