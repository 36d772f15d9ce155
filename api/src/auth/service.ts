import {
  effectivePermissions,
  isSuperAdmin,
  type ChangePasswordInput,
  type LoginResponse,
  type MyOrganizations,
  type PermissionsResponse,
} from '@doanhoi/shared';
import { and, asc, eq, isNull, ne } from 'drizzle-orm';
import { audit } from '../audit/writer';
import type { Deps } from '../lib/context';
import { fail, forbidden, invalidField, notFound, unauthorized } from '../lib/errors';
import { orgContext } from '../access/organization-context';
import { organizationMembers } from '../db/tables/organizations';
import { loadRoleGrants } from '../access/grants';
import { toSessionUser as sessionUserOf } from '../access/user-mapper';

/**
 * The signed-in user as the session sees it. A session on the public default password may be
 * anyone who knows the student code: it is not shown the owner's phone until the owner has
 * proved themself with a code (issue 25 item 7). Other screens show the record as it is.
 */
const toSessionUser = (u: Parameters<typeof sessionUserOf>[0]) => ({ ...sessionUserOf(u), phone: u.mustChangePassword ? null : u.phone });
import { users } from '../db/tables/users';
import { loadActor, markFamilyRevoked } from '../access/actor';
import { checkPassword, hashPassword } from '../lib/passwords';
import type { LoginRateLimiter } from './rate-limit';
import { passwordCodes } from './password-codes';
import { oneTimeCodes, refreshTokens } from '../db/tables/auth';
import { hashToken, newFamilyId, newRefreshToken, signAccessToken } from '../access/tokens';
import { allRows, firstRow, runQuery, withTransaction } from '../db/engine';

const BAD_CREDENTIALS = 'Email hoặc mật khẩu không đúng';
/** How long the Google callback's code may wait for the browser's exchange. */
const GOOGLE_CODE_TTL_MS = 60_000;

/** Signed in with the e-mail's local part (no hash of its own yet): anyone could have. */
const onDefaultPassword = (u: { passwordHash: string | null; mustChangePassword: boolean }) =>
  u.passwordHash === null && u.mustChangePassword;

interface ClientInfo {
  ip: string | null;
  userAgent: string | null;
}

export function authService({ db, env }: Deps) {
  async function issueTokens(user: { id: number; email: string }, familyId: string, client: ClientInfo) {
    const refreshToken = newRefreshToken();
    await runQuery(
      db.insert(refreshTokens).values({
        userId: user.id,
        tokenHash: hashToken(refreshToken),
        familyId,
        expiresAt: new Date(Date.now() + env.REFRESH_TOKEN_TTL_DAYS * 86_400_000),
        ip: client.ip,
        userAgent: client.userAgent?.slice(0, 300) ?? null,
      }),
    );
    const accessToken = await signAccessToken(env.jwtSecret, user, familyId, env.ACCESS_TOKEN_TTL_SECONDS);
    return { accessToken, refreshToken };
  }

  /** When every access token issued so far has expired (a revoked family issues no more). */
  const accessTokensGoneAt = () => Date.now() + env.ACCESS_TOKEN_TTL_SECONDS * 1000 + 60_000;

  async function revokeFamily(familyId: string, reason: 'logout' | 'reuse' | 'password_change') {
    await runQuery(
      db
        .update(refreshTokens)
        .set({ revokedAt: new Date(), revokedReason: reason })
        .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt))),
    );
    markFamilyRevoked(familyId, accessTokensGoneAt());
  }

  return {
    async login(email: string, password: string, client: ClientInfo, limiter: LoginRateLimiter): Promise<LoginResponse> {
      const normalized = email.trim().toLowerCase();
      // Counted before the (async) check, taken back on success; an account under attack is
      // slowed, never locked (see LoginRateLimiter).
      const { retryAfter: wait, delayMs: delay } = await limiter.attempt(client.ip, normalized);
      if (wait > 0) {
        fail(429, `Bạn đã đăng nhập sai quá nhiều lần. Vui lòng thử lại sau ${Math.ceil(wait / 60)} phút`, { retryAfter: wait });
      }
      if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
      const user = await firstRow(db.select().from(users).where(eq(users.email, normalized)));
      // Same message (and, through checkPassword, the same cost) for an unknown e-mail and a wrong password.
      if (!(await checkPassword(user, password)) || !user) unauthorized(BAD_CREDENTIALS);
      if (onDefaultPassword(user!)) {
        // A public password proves nothing: counted per address like a failure (issue 25 item 7).
        const again = await limiter.defaultSignIn(client.ip, normalized);
        if (again > 0) {
          fail(429, `Quá nhiều lần đăng nhập bằng mật khẩu mặc định từ địa chỉ này. Vui lòng thử lại sau ${Math.ceil(again / 60)} phút`, {
            retryAfter: again,
          });
        }
      } else {
        await limiter.recordSuccess(client.ip, normalized);
      }
      if (!user!.isActive) forbidden('Tài khoản đã bị vô hiệu hóa. Vui lòng liên hệ quản trị viên');
      const tokens = await issueTokens(user!, newFamilyId(), client);
      await withTransaction(db, async (tx) =>
        audit(tx, { actorId: user!.id, action: 'auth.login', entity: 'user', entityId: user!.id, ip: client.ip }),
      );
      return { ...tokens, user: toSessionUser(user!) };
    },

    /** Rotate: the presented token is spent; presenting a spent token again revokes its whole family. */
    async refresh(refreshToken: string, client: ClientInfo) {
      const row = await firstRow(
        db
          .select()
          .from(refreshTokens)
          .where(eq(refreshTokens.tokenHash, hashToken(refreshToken))),
      );
      if (!row) unauthorized('Refresh token không hợp lệ');
      if (row!.revokedAt) {
        if (row!.revokedReason === 'rotated') {
          await revokeFamily(row!.familyId, 'reuse');
          await withTransaction(db, async (tx) =>
            audit(tx, { actorId: row!.userId, action: 'auth.refresh_reuse', entity: 'user', entityId: row!.userId, ip: client.ip }),
          );
        }
        unauthorized('Refresh token đã bị thu hồi');
      }
      if (row!.expiresAt.getTime() <= Date.now()) unauthorized('Refresh token đã hết hạn');
      const user = await firstRow(db.select().from(users).where(eq(users.id, row!.userId)));
      if (!user || !user.isActive) unauthorized();
      await runQuery(
        db.update(refreshTokens).set({ revokedAt: new Date(), revokedReason: 'rotated' }).where(eq(refreshTokens.id, row!.id)),
      );
      return issueTokens(user!, row!.familyId, client);
    },

    async logout(familyId: string, actorId: number, ip: string | null) {
      await withTransaction(db, async (tx) => {
        await runQuery(
          tx
            .update(refreshTokens)
            .set({ revokedAt: new Date(), revokedReason: 'logout' })
            .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt))),
        );
        await audit(tx, { actorId, action: 'auth.logout', entity: 'user', entityId: actorId, ip });
      });
      markFamilyRevoked(familyId, accessTokensGoneAt());
    },

    async profile(userId: number) {
      const user = await firstRow(db.select().from(users).where(eq(users.id, userId)));
      if (!user) notFound('Không tìm thấy người dùng');
      return toSessionUser(user!);
    },

    async permissions(userId: number, organizationId?: number): Promise<PermissionsResponse> {
      // The caller's actor, cached until roles change, already holds them.
      const grants = (await loadActor(db, userId))?.grants ?? (await loadRoleGrants(db, userId));
      const ctx = organizationId ? await orgContext(db, organizationId) : null;
      if (organizationId && !ctx) notFound('Không tìm thấy tổ chức');
      return {
        roles: grants.map((g) => ({
          id: g.roleId,
          name: g.name,
          displayName: g.displayName,
          organizationId: g.organizationId,
          isActive: g.isActive,
          permissions: g.permissions.map((code) => ({ code })),
        })),
        permissions: effectivePermissions(grants, ctx),
        isSuperAdmin: isSuperAdmin(grants),
        organizationId: organizationId ?? null,
        ancestorIds: ctx ? [...ctx.ancestorIds] : [],
      };
    },

    /** The organizations the caller is an active member of (the tree's "member" badge). */
    async memberships(userId: number): Promise<MyOrganizations> {
      const rows = await allRows(
        db
          .select({ id: organizationMembers.organizationId })
          .from(organizationMembers)
          .where(and(eq(organizationMembers.userId, userId), eq(organizationMembers.isActive, true)))
          .orderBy(asc(organizationMembers.organizationId)),
      );
      return { organizationIds: rows.map((r) => r.id) };
    },

    /** Changing the password signs out every other session of the user. */
    async changePassword(
      userId: number,
      currentFamilyId: string,
      input: ChangePasswordInput,
      ip: string | null,
      limiter: LoginRateLimiter,
    ) {
      const { currentPassword: current, newPassword: next } = input;
      const user = await firstRow(db.select().from(users).where(eq(users.id, userId)));
      if (!user) unauthorized();
      // A session is not a licence to guess the current password: it counts as a failed sign-in
      // of this account from this address (same throttle, same delays; never a lock-out elsewhere).
      const { retryAfter: wait, delayMs: delay } = await limiter.attempt(ip, user!.email);
      if (wait > 0)
        fail(429, `Bạn đã nhập sai mật khẩu quá nhiều lần. Vui lòng thử lại sau ${Math.ceil(wait / 60)} phút`, { retryAfter: wait });
      if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
      // Each refusal names its field, so the forms say it there (issue 26 item 7).
      if (!(await checkPassword(user!, current))) invalidField('currentPassword', 'Mật khẩu hiện tại không đúng');
      await limiter.recordSuccess(ip, user!.email);
      if (current === next) invalidField('newPassword', 'Mật khẩu mới phải khác mật khẩu hiện tại');
      // On a default password the session proves nothing: the owner's code does (password-codes.ts).
      const codes = passwordCodes({ db, env });
      const codeId = user!.mustChangePassword ? await codes.check(userId, input.code) : null;
      const passwordHash = await hashPassword(next);
      const revoked = await allRows(
        db
          .selectDistinct({ familyId: refreshTokens.familyId })
          .from(refreshTokens)
          .where(and(eq(refreshTokens.userId, userId), ne(refreshTokens.familyId, currentFamilyId), isNull(refreshTokens.revokedAt))),
      );
      await withTransaction(db, async (tx) => {
        if (codeId !== null && !(await codes.consume(tx, userId, codeId))) fail(400, 'Mã xác nhận đã được dùng');
        await runQuery(tx.update(users).set({ passwordHash, mustChangePassword: false }).where(eq(users.id, userId)));
        await runQuery(
          tx
            .update(refreshTokens)
            .set({ revokedAt: new Date(), revokedReason: 'password_change' })
            .where(and(eq(refreshTokens.userId, userId), ne(refreshTokens.familyId, currentFamilyId), isNull(refreshTokens.revokedAt))),
        );
        await audit(tx, { actorId: userId, action: 'auth.change_password', entity: 'user', entityId: userId, ip });
      });
      for (const r of revoked) markFamilyRevoked(r.familyId, accessTokensGoneAt());
      if (codeId !== null) await codes.maskSent(userId);
    },

    /**
     * Google vouched for this e-mail: a one-time code for the browser holding `binding` (a cookie
     * set when it started the sign-in), never tokens in a URL. Null when no active user has it.
     */
    async googleCode(email: string, binding: string): Promise<string | null> {
      const user = await firstRow(db.select().from(users).where(eq(users.email, email.trim().toLowerCase())));
      if (!user || !user.isActive) return null;
      const code = newRefreshToken();
      await runQuery(
        db.insert(oneTimeCodes).values({
          userId: user.id,
          purpose: 'google_sign_in',
          codeHash: hashToken(code),
          bindingHash: hashToken(binding),
          expiresAt: new Date(Date.now() + GOOGLE_CODE_TTL_MS),
        }),
      );
      return code;
    },

    /** Spends a Google sign-in code, whatever the outcome; tokens only for the browser it was made for. */
    async exchangeGoogleCode(code: string, binding: string | undefined, client: ClientInfo): Promise<LoginResponse> {
      const row = await firstRow(
        db
          .select()
          .from(oneTimeCodes)
          .where(and(eq(oneTimeCodes.codeHash, hashToken(code)), eq(oneTimeCodes.purpose, 'google_sign_in'))),
      );
      const spent = row
        ? (
            await runQuery(
              db
                .update(oneTimeCodes)
                .set({ usedAt: new Date() })
                .where(and(eq(oneTimeCodes.id, row.id), isNull(oneTimeCodes.usedAt))),
            )
          ).changes
        : 0;
      const bound = Boolean(row?.bindingHash && binding && row.bindingHash === hashToken(binding));
      if (!row || spent !== 1 || row.expiresAt.getTime() <= Date.now() || !bound)
        fail(400, 'Mã đăng nhập Google không hợp lệ hoặc đã hết hạn');
      const user = await firstRow(db.select().from(users).where(eq(users.id, row!.userId)));
      if (!user || !user.isActive) fail(400, 'Mã đăng nhập Google không hợp lệ hoặc đã hết hạn');
      const tokens = await issueTokens(user!, newFamilyId(), client);
      await withTransaction(db, async (tx) =>
        audit(tx, { actorId: user!.id, action: 'auth.login_google', entity: 'user', entityId: user!.id, ip: client.ip }),
      );
      return { ...tokens, user: toSessionUser(user!) };
    },

    revokeFamily,
  };
}
