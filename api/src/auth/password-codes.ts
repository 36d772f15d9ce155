/**
 * The first password of an account on its default password (issue 25 item 7). That password is
 * the e-mail's local part, on every class list, so knowing it proves nothing: the change also
 * needs a code only the owner can have — e-mailed to the account's address (through the reminders'
 * outbox/SMTP) or issued by an administrator who may manage the account, shown to them once.
 *
 * Codes are six digits, live 15 minutes, are spent by one change, and are stored as an HMAC under
 * the server's secret (a copy of the database does not give them away). A wrong code counts
 * against every live code of the account; at MAX_ATTEMPTS they are dead and a new one is needed.
 */
import type { IssuedPasswordCode, PasswordCodeSent } from '@doanhoi/shared';
import { and, desc, eq, gt, inArray, isNotNull, isNull, lt } from 'drizzle-orm';
import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import type { Tx } from '../db/client';
import { audit } from '../audit/writer';
import type { Actor, Deps } from '../lib/context';
import { conflict, fail, forbidden, notFound } from '../lib/errors';
import { logger } from '../lib/logger';
import { deliver, initialEmailStatus } from '../reminders/mailer';
import { emailOutbox } from '../db/tables/reminders';
import { assertManageable } from '../users/manage';
import { userScope, usersInScope } from '../access/scope';
import { users } from '../db/tables/users';
import { oneTimeCodes } from '../db/tables/auth';

const PASSWORD_CODE_TTL_MS = 15 * 60_000;
const MAX_CODE_ATTEMPTS = 5;
/** E-mailed codes: one a minute, five an hour per account (the owner's inbox is not a megaphone). */
const RESEND_AFTER_MS = 60_000;
const MAX_SENT_PER_HOUR = 5;

const CODE_REQUIRED =
  'Tài khoản đang dùng mật khẩu mặc định: cần mã xác nhận gửi đến email của bạn (hoặc do quản trị viên cấp) để đổi mật khẩu';
const CODE_WRONG = 'Mã xác nhận không đúng, đã hết hạn hoặc đã được dùng';
const NOT_NEEDED = 'Tài khoản này không cần mã xác nhận để đổi mật khẩu';
const MASK = '••••••';

const codeHash = (secret: string, userId: number, code: string) =>
  createHmac('sha256', secret).update(`password_change:${userId}:${code}`).digest('hex');

const newCode = () => String(randomInt(0, 1_000_000)).padStart(6, '0');

function codeEmail(name: string, code: string) {
  return {
    subject: 'Mã xác nhận đổi mật khẩu / Password change code',
    text: [
      `Chào ${name},`,
      '',
      'Mã xác nhận để đặt mật khẩu mới cho tài khoản của bạn:',
      code,
      `Mã dùng được một lần, trong ${PASSWORD_CODE_TTL_MS / 60_000} phút. Nếu bạn không yêu cầu, hãy bỏ qua email này.`,
      '',
      `Hello ${name}, your code to set a new password is ${code}. It works once, within ${PASSWORD_CODE_TTL_MS / 60_000} minutes.`,
    ].join('\n'),
  };
}

export function passwordCodes({ db, env }: Deps) {
  const purpose = eq(oneTimeCodes.purpose, 'password_change');
  const liveCodes = (userId: number, now: Date) =>
    db
      .select()
      .from(oneTimeCodes)
      .where(
        and(
          eq(oneTimeCodes.userId, userId),
          purpose,
          isNull(oneTimeCodes.usedAt),
          gt(oneTimeCodes.expiresAt, now),
          lt(oneTimeCodes.attempts, MAX_CODE_ATTEMPTS),
        ),
      )
      .all();

  function loadUser(userId: number) {
    const user = db.select().from(users).where(eq(users.id, userId)).get() ?? notFound('Không tìm thấy người dùng');
    if (!user.mustChangePassword) conflict(NOT_NEEDED);
    return user;
  }

  /** Once the code is spent or sent, the outbox no longer needs to show it. */
  function maskOutbox(outboxIds: number[]) {
    if (outboxIds.length === 0) return;
    for (const row of db
      .select({ id: emailOutbox.id, text: emailOutbox.text })
      .from(emailOutbox)
      .where(inArray(emailOutbox.id, outboxIds))
      .all()) {
      db.update(emailOutbox)
        .set({ text: row.text.replace(/\b\d{6}\b/g, MASK) })
        .where(eq(emailOutbox.id, row.id))
        .run();
    }
  }

  return {
    /** E-mails a code to the account's own address; without SMTP it waits in the outbox (system.view_logs sees it). */
    send(userId: number, ip: string | null): PasswordCodeSent {
      const user = loadUser(userId);
      const now = Date.now();
      const recent = db
        .select({ createdAt: oneTimeCodes.createdAt })
        .from(oneTimeCodes)
        .where(
          and(
            eq(oneTimeCodes.userId, userId),
            purpose,
            isNotNull(oneTimeCodes.outboxId),
            gt(oneTimeCodes.createdAt, new Date(now - 3_600_000)),
          ),
        )
        .orderBy(desc(oneTimeCodes.createdAt))
        .all();
      const last = recent[0]?.createdAt.getTime();
      if (last !== undefined && now - last < RESEND_AFTER_MS) {
        const wait = Math.ceil((RESEND_AFTER_MS - (now - last)) / 1000);
        fail(429, `Vui lòng đợi ${wait} giây trước khi gửi lại mã`, { retryAfter: wait });
      }
      if (recent.length >= MAX_SENT_PER_HOUR) {
        const wait = Math.ceil((recent.at(-1)!.createdAt.getTime() + 3_600_000 - now) / 1000);
        fail(429, `Đã gửi quá nhiều mã. Vui lòng thử lại sau ${Math.ceil(wait / 60)} phút`, { retryAfter: wait });
      }
      const code = newCode();
      const expiresAt = new Date(now + PASSWORD_CODE_TTL_MS);
      const mail = codeEmail(`${user.familyName} ${user.givenName}`, code);
      const outboxId = db.transaction((tx) => {
        const row = tx
          .insert(emailOutbox)
          .values({ campaignId: null, toAddress: user.email, ...mail, status: initialEmailStatus(env), createdAt: new Date(now) })
          .returning({ id: emailOutbox.id })
          .get();
        tx.insert(oneTimeCodes)
          .values({ userId, purpose: 'password_change', codeHash: codeHash(env.jwtSecret, userId, code), outboxId: row.id, expiresAt })
          .run();
        audit(tx, { actorId: userId, action: 'auth.password_code_sent', entity: 'user', entityId: userId, ip });
        return row.id;
      });
      // After the commit, like the reminders: a slow SMTP server neither holds the request nor undoes the code.
      void deliver(db, env, [outboxId])
        .then(({ sent }) => sent > 0 && maskOutbox([outboxId]))
        .catch((err: unknown) => logger.warn({ err, outboxId }, 'auth: password code e-mail not sent'));
      return { message: 'Đã gửi mã xác nhận đến email của tài khoản', expiresAt: expiresAt.toISOString() };
    },

    /** An administrator who may manage the account issues a code; it is shown to them this once. */
    issue(actor: Actor, userId: number, ip: string | null): IssuedPasswordCode {
      const target = db.select({ id: users.id }).from(users).where(eq(users.id, userId)).get();
      if (!target || !usersInScope(db, userScope(db, actor, 'users.access'), [userId]).has(userId)) notFound('Không tìm thấy người dùng');
      if (!usersInScope(db, userScope(db, actor, 'users.update'), [userId]).has(userId)) forbidden();
      assertManageable(db, actor, [userId], 'users.update');
      loadUser(userId);
      const code = newCode();
      const expiresAt = new Date(Date.now() + PASSWORD_CODE_TTL_MS);
      db.transaction((tx) => {
        tx.insert(oneTimeCodes)
          .values({ userId, purpose: 'password_change', codeHash: codeHash(env.jwtSecret, userId, code), issuedBy: actor.id, expiresAt })
          .run();
        audit(tx, { actorId: actor.id, action: 'auth.password_code_issued', entity: 'user', entityId: userId, ip });
      });
      return { message: 'Đã cấp mã xác nhận: chỉ hiển thị một lần', code, expiresAt: expiresAt.toISOString() };
    },

    /** The live code this matches (its id), or 400; a miss counts against every live code. */
    check(userId: number, code: string | undefined): number {
      if (!code) fail(400, CODE_REQUIRED, { code: 'PASSWORD_CODE_REQUIRED', errors: { code: [CODE_REQUIRED] } });
      const live = liveCodes(userId, new Date());
      const given = Buffer.from(codeHash(env.jwtSecret, userId, code!), 'hex');
      const hit = live.find((r) => timingSafeEqual(Buffer.from(r.codeHash, 'hex'), given));
      if (hit) return hit.id;
      for (const r of live)
        db.update(oneTimeCodes)
          .set({ attempts: r.attempts + 1 })
          .where(eq(oneTimeCodes.id, r.id))
          .run();
      return fail(400, CODE_WRONG, { code: 'PASSWORD_CODE_INVALID', errors: { code: [CODE_WRONG] } });
    },

    /**
     * Inside the password change: spends the code, false when a parallel request spent it first.
     * Every other live code of the account dies with it.
     */
    consume(tx: Tx, userId: number, codeId: number): boolean {
      const now = new Date();
      const spent = tx
        .update(oneTimeCodes)
        .set({ usedAt: now })
        .where(and(eq(oneTimeCodes.id, codeId), isNull(oneTimeCodes.usedAt)))
        .run();
      if (spent.changes !== 1) return false;
      tx.update(oneTimeCodes)
        .set({ usedAt: now })
        .where(and(eq(oneTimeCodes.userId, userId), purpose, isNull(oneTimeCodes.usedAt)))
        .run();
      return true;
    },

    /** After the change: the e-mails that carried this account's codes stop showing them. */
    maskSent(userId: number) {
      const rows = db
        .select({ outboxId: oneTimeCodes.outboxId })
        .from(oneTimeCodes)
        .where(and(eq(oneTimeCodes.userId, userId), purpose, isNotNull(oneTimeCodes.outboxId)))
        .all();
      maskOutbox(rows.map((r) => r.outboxId!));
    },
  };
}
