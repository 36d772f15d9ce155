/**
 * Forgotten passwords (issue 30 item 7). A request names an e-mail and always gets the same 202,
 * before anything about the e-mail is looked up: the work (finding the account, the token, the
 * e-mail) runs after the answer, so neither the body nor the timing tells whether it exists.
 * Requests are counted per e-mail and per address (in memory, like the sign-in throttle).
 *
 * The link holds 32 random bytes; only an HMAC of them under the server's secret is stored (in
 * one_time_codes, purpose password_reset), so a copy of the database opens no account. A link
 * works once within 30 minutes; a reset kills it and every other live link and password-change
 * code of the account, sets the password as one the owner chose (mustChangePassword cleared),
 * revokes every session and refresh family, and is audited.
 */
import type { ResetPasswordInput } from '@doanhoi/shared';
import { and, eq, gt, inArray, isNotNull, isNull } from 'drizzle-orm';
import { createHmac, randomBytes } from 'node:crypto';
import { audit } from '../audit/writer';
import type { Deps } from '../lib/context';
import { fail } from '../lib/errors';
import { SharedWindowCounter } from '../lib/fixed-window';
import { logger } from '../lib/logger';
import { publicOrigin } from '../payos/origin';
import { deliver, initialEmailStatus, withoutUrls } from '../reminders/mailer';
import { emailOutbox } from '../db/tables/reminders';
import { loadRoleGrants } from '../access/grants';
import { users } from '../db/tables/users';
import { passwordCodes } from './password-codes';
import { hashPassword } from '../lib/passwords';
import { markRevoked, revokeUserSessions } from '../access/revocation';
import { oneTimeCodes } from '../db/tables/auth';
import { allRows, firstRow, runQuery, withTransaction } from '../db/engine';

const RESET_TTL_MS = 30 * 60_000;
/** Staff open the link in the admin, members in the portal (decisions.md). */
const ADMIN_RESET_PATH = '/reset-password';
const PORTAL_RESET_PATH = '/payment/reset-password';
const LINK = /https?:\/\/\S*reset-password\?token=[A-Za-z0-9_-]+/g;
const HIDDEN_LINK = '[liên kết đã ẩn / link hidden]';

const RESET_REQUESTED =
  'Nếu email này thuộc một tài khoản đang hoạt động, chúng tôi đã gửi đến đó một liên kết đặt lại mật khẩu. Liên kết dùng được một lần trong 30 phút.';
const LINK_DEAD = 'Liên kết đặt lại mật khẩu không hợp lệ, đã hết hạn hoặc đã được dùng. Vui lòng yêu cầu một liên kết mới';

const tokenHash = (secret: string, token: string) => createHmac('sha256', secret).update(`password_reset:${token}`).digest('hex');

/** One counter per app (its deps), counting in its database so every API process counts together (issue 28). */
const counters = new WeakMap<Deps, SharedWindowCounter>();

function counterOf(deps: Deps): SharedWindowCounter {
  let c = counters.get(deps);
  if (!c) counters.set(deps, (c = new SharedWindowCounter(deps.db, 'forgot', deps.env.FORGOT_PASSWORD_WINDOW_SECONDS * 1000)));
  return c;
}

function resetEmail(name: string, email: string, link: string) {
  const minutes = RESET_TTL_MS / 60_000;
  return {
    subject: 'Đặt lại mật khẩu / Password reset',
    text: [
      `Chào ${name},`,
      '',
      `Có người (có thể là bạn) đã yêu cầu đặt lại mật khẩu cho tài khoản ${email}.`,
      `Mở liên kết sau để đặt mật khẩu mới. Liên kết dùng được một lần, trong ${minutes} phút:`,
      link,
      '',
      'Nếu bạn không yêu cầu, hãy bỏ qua email này: mật khẩu hiện tại vẫn giữ nguyên.',
      '',
      `Hello ${name}, someone (probably you) asked to reset the password of ${email}. Open the link above within ${minutes} minutes to choose a new one (it works once). If it was not you, ignore this e-mail.`,
    ].join('\n'),
  };
}

export function passwordReset(deps: Deps) {
  const { db, env } = deps;
  const purpose = eq(oneTimeCodes.purpose, 'password_reset');

  async function hideLinks(outboxIds: number[]) {
    if (outboxIds.length === 0) return;
    for (const row of await allRows(
      db.select({ id: emailOutbox.id, text: emailOutbox.text }).from(emailOutbox).where(inArray(emailOutbox.id, outboxIds)),
    )) {
      await runQuery(
        db
          .update(emailOutbox)
          .set({ text: row.text.replace(LINK, HIDDEN_LINK) })
          .where(eq(emailOutbox.id, row.id)),
      );
    }
  }

  /** The unspent, unexpired link of an active account, or 400. */
  async function liveLink(token: string) {
    const link = await firstRow(
      db
        .select({ id: oneTimeCodes.id, userId: oneTimeCodes.userId, expiresAt: oneTimeCodes.expiresAt })
        .from(oneTimeCodes)
        .where(
          and(
            eq(oneTimeCodes.codeHash, tokenHash(env.jwtSecret, token)),
            purpose,
            isNull(oneTimeCodes.usedAt),
            gt(oneTimeCodes.expiresAt, new Date()),
          ),
        ),
    );
    const user = link
      ? await firstRow(
          db.select({ id: users.id, email: users.email, isActive: users.isActive }).from(users).where(eq(users.id, link.userId)),
        )
      : undefined;
    if (!link || !user?.isActive) fail(400, LINK_DEAD, { code: 'RESET_LINK_INVALID' });
    return { link: link!, user: user! };
  }

  /** The link's e-mail, for an active account with this address; nothing otherwise. Runs after the answer. */
  async function send(email: string, ip: string | null) {
    const user = await firstRow(db.select().from(users).where(eq(users.email, email)));
    if (!user || !user.isActive) return;
    const token = randomBytes(32).toString('base64url');
    const staff = (await loadRoleGrants(db, user.id)).some((g) => g.isActive);
    const link = `${publicOrigin(env)}${staff ? ADMIN_RESET_PATH : PORTAL_RESET_PATH}?token=${token}`;
    const now = Date.now();
    const mail = resetEmail(withoutUrls(`${user.familyName} ${user.givenName}`), user.email, link);
    const outboxId = await withTransaction(db, async (tx) => {
      const row = await firstRow(
        tx
          .insert(emailOutbox)
          .values({ campaignId: null, toAddress: user.email, ...mail, status: initialEmailStatus(env), createdAt: new Date(now) })
          .returning({ id: emailOutbox.id }),
      );
      await runQuery(
        tx.insert(oneTimeCodes).values({
          userId: user.id,
          purpose: 'password_reset',
          codeHash: tokenHash(env.jwtSecret, token),
          outboxId: row.id,
          expiresAt: new Date(now + RESET_TTL_MS),
          createdAt: new Date(now),
        }),
      );
      await audit(tx, { actorId: null, action: 'auth.password_reset_requested', entity: 'user', entityId: user.id, ip });
      return row.id;
    });
    // Once the mail server has it, the outbox no longer needs to show the link.
    void deliver(db, env, [outboxId])
      .then(async ({ sent }) => sent > 0 && (await hideLinks([outboxId])))
      .catch((err: unknown) => logger.warn({ err, outboxId }, 'auth: password reset e-mail not sent'));
  }

  return {
    /**
     * Counts the request for the e-mail and the address: seconds to wait when either is over its
     * limit (the same for every e-mail, known or not), else 0.
     */
    async throttle(email: string, ip: string | null, now = Date.now()): Promise<number> {
      const counter = counterOf(deps);
      const checks: [string, number][] = [[`email:${email}`, env.FORGOT_PASSWORD_EMAIL_LIMIT]];
      if (ip) checks.push([`ip:${ip.toLowerCase()}`, env.FORGOT_PASSWORD_IP_LIMIT]);
      let wait = 0;
      for (const [key, max] of checks) {
        const w = await counter.hitWindow(key, now);
        if (w.count > max) wait = Math.max(wait, Math.max(1, Math.ceil((w.resetAt - now) / 1000)));
      }
      return wait;
    },

    /** Answers first: the lookup and the e-mail run on the next turn of the event loop. */
    request(email: string, ip: string | null): { message: string } {
      setImmediate(
        () =>
          void (async () => {
            try {
              await send(email, ip);
            } catch (err) {
              logger.warn({ err }, 'auth: password reset request failed');
            }
          })(),
      );
      return { message: RESET_REQUESTED };
    },

    /** Attempts at a token from one address, counted like requests (a token cannot be guessed, but probing costs). */
    async resetThrottle(ip: string | null, now = Date.now()): Promise<number> {
      if (!ip) return 0;
      const counter = counterOf(deps);
      const key = `reset:${ip.toLowerCase()}`;
      const w = await counter.hitWindow(key, now);
      if (w.count <= env.FORGOT_PASSWORD_IP_LIMIT) return 0;
      return Math.max(1, Math.ceil((w.resetAt - now) / 1000));
    },

    /** When the link stops working, or 400 when it already has (the page says so before a password is typed). */
    async check(token: string): Promise<{ expiresAt: string }> {
      return { expiresAt: (await liveLink(token)).link.expiresAt.toISOString() };
    },

    /** Sets the password of the link's account; the link, its siblings and every session die. Returns the account's e-mail. */
    async reset({ token, password }: ResetPasswordInput, ip: string | null): Promise<string> {
      const { link: found, user } = await liveLink(token);
      const passwordHash = await hashPassword(password);
      const families = await withTransaction(db, async (tx) => {
        const now = new Date();
        // Re-read under the write: a parallel reset with the same link spends it once.
        const spent = await runQuery(
          tx
            .update(oneTimeCodes)
            .set({ usedAt: now })
            .where(and(eq(oneTimeCodes.id, found.id), isNull(oneTimeCodes.usedAt), gt(oneTimeCodes.expiresAt, now))),
        );
        if (spent.changes !== 1) fail(400, LINK_DEAD, { code: 'RESET_LINK_INVALID' });
        // Every other live link and password-change code of the account dies with it.
        await runQuery(
          tx
            .update(oneTimeCodes)
            .set({ usedAt: now })
            .where(
              and(
                eq(oneTimeCodes.userId, user.id),
                inArray(oneTimeCodes.purpose, ['password_reset', 'password_change']),
                isNull(oneTimeCodes.usedAt),
              ),
            ),
        );
        await runQuery(tx.update(users).set({ passwordHash, mustChangePassword: false }).where(eq(users.id, user.id)));
        const revoked = await revokeUserSessions(tx, user.id, 'password_reset');
        await audit(tx, { actorId: user.id, action: 'auth.password_reset', entity: 'user', entityId: user.id, ip });
        return revoked;
      });
      markRevoked(families);
      const mails = await allRows(
        db
          .select({ outboxId: oneTimeCodes.outboxId })
          .from(oneTimeCodes)
          .where(and(eq(oneTimeCodes.userId, user.id), purpose, isNotNull(oneTimeCodes.outboxId))),
      );
      await hideLinks(mails.map((r) => r.outboxId!));
      await passwordCodes(deps).maskSent(user.id);
      return user.email;
    },
  };
}
