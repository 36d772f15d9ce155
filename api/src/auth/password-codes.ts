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
import { allRows, firstRow, runQuery, withTransaction } from '../db/engine';

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
  const liveCodes = async (userId: number, now: Date) =>
    await allRows(
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
        ),
    );

  async function loadUser(userId: number) {
    const user = (await firstRow(db.select().from(users).where(eq(users.id, userId)))) ?? notFound('Không tìm thấy người dùng');
    if (!user.mustChangePassword) conflict(NOT_NEEDED);
    return user;
  }

  /** Once the code is spent or sent, the outbox no longer needs to show it. */
  async function maskOutbox(outboxIds: number[]) {
    if (outboxIds.length === 0) return;
    for (const row of await allRows(
      db.select({ id: emailOutbox.id, text: emailOutbox.text }).from(emailOutbox).where(inArray(emailOutbox.id, outboxIds)),
    )) {
      await runQuery(
        db
          .update(emailOutbox)
          .set({ text: row.text.replace(/\b\d{6}\b/g, MASK) })
          .where(eq(emailOutbox.id, row.id)),
      );
    }
  }

  return {
    /** E-mails a code to the account's own address; without SMTP it waits in the outbox (system.view_logs sees it). */
    async send(userId: number, ip: string | null): Promise<PasswordCodeSent> {
      const user = await loadUser(userId);
      const now = Date.now();
      const recent = await allRows(
        db
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
          .orderBy(desc(oneTimeCodes.createdAt)),
      );
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
      const outboxId = await withTransaction(db, async (tx) => {
        const row = await firstRow(
          tx
            .insert(emailOutbox)
            .values({ campaignId: null, toAddress: user.email, ...mail, status: initialEmailStatus(env), createdAt: new Date(now) })
            .returning({ id: emailOutbox.id }),
        );
        await runQuery(
          tx
            .insert(oneTimeCodes)
            .values({ userId, purpose: 'password_change', codeHash: codeHash(env.jwtSecret, userId, code), outboxId: row.id, expiresAt }),
        );
        await audit(tx, { actorId: userId, action: 'auth.password_code_sent', entity: 'user', entityId: userId, ip });
        return row.id;
      });
      // After the commit, like the reminders: a slow SMTP server neither holds the request nor undoes the code.
      void deliver(db, env, [outboxId])
        .then(async ({ sent }) => sent > 0 && (await maskOutbox([outboxId])))
        .catch((err: unknown) => logger.warn({ err, outboxId }, 'auth: password code e-mail not sent'));
      return { message: 'Đã gửi mã xác nhận đến email của tài khoản', expiresAt: expiresAt.toISOString() };
    },

    /** An administrator who may manage the account issues a code; it is shown to them this once. */
    async issue(actor: Actor, userId: number, ip: string | null): Promise<IssuedPasswordCode> {
      const target = await firstRow(db.select({ id: users.id }).from(users).where(eq(users.id, userId)));
      if (!target || !(await usersInScope(db, await userScope(db, actor, 'users.access'), [userId])).has(userId))
        notFound('Không tìm thấy người dùng');
      if (!(await usersInScope(db, await userScope(db, actor, 'users.update'), [userId])).has(userId)) forbidden();
      await assertManageable(db, actor, [userId], 'users.update');
      await loadUser(userId);
      const code = newCode();
      const expiresAt = new Date(Date.now() + PASSWORD_CODE_TTL_MS);
      await withTransaction(db, async (tx) => {
        await runQuery(
          tx
            .insert(oneTimeCodes)
            .values({ userId, purpose: 'password_change', codeHash: codeHash(env.jwtSecret, userId, code), issuedBy: actor.id, expiresAt }),
        );
        await audit(tx, { actorId: actor.id, action: 'auth.password_code_issued', entity: 'user', entityId: userId, ip });
      });
      return { message: 'Đã cấp mã xác nhận: chỉ hiển thị một lần', code, expiresAt: expiresAt.toISOString() };
    },

    /** The live code this matches (its id), or 400; a miss counts against every live code. */
    async check(userId: number, code: string | undefined): Promise<number> {
      if (!code) fail(400, CODE_REQUIRED, { code: 'PASSWORD_CODE_REQUIRED', errors: { code: [CODE_REQUIRED] } });
      const live = await liveCodes(userId, new Date());
      const given = Buffer.from(codeHash(env.jwtSecret, userId, code!), 'hex');
      const hit = live.find((r) => timingSafeEqual(Buffer.from(r.codeHash, 'hex'), given));
      if (hit) return hit.id;
      for (const r of live)
        await runQuery(
          db
            .update(oneTimeCodes)
            .set({ attempts: r.attempts + 1 })
            .where(eq(oneTimeCodes.id, r.id)),
        );
      return fail(400, CODE_WRONG, { code: 'PASSWORD_CODE_INVALID', errors: { code: [CODE_WRONG] } });
    },

    /**
     * Inside the password change: spends the code, false when a parallel request spent it first.
     * Every other live code of the account dies with it.
     */
    async consume(tx: Tx, userId: number, codeId: number): Promise<boolean> {
      const now = new Date();
      const spent = await runQuery(
        tx
          .update(oneTimeCodes)
          .set({ usedAt: now })
          .where(and(eq(oneTimeCodes.id, codeId), isNull(oneTimeCodes.usedAt))),
      );
      if (spent.changes !== 1) return false;
      await runQuery(
        tx
          .update(oneTimeCodes)
          .set({ usedAt: now })
          .where(and(eq(oneTimeCodes.userId, userId), purpose, isNull(oneTimeCodes.usedAt))),
      );
      return true;
    },

    /** After the change: the e-mails that carried this account's codes stop showing them. */
    async maskSent(userId: number) {
      const rows = await allRows(
        db
          .select({ outboxId: oneTimeCodes.outboxId })
          .from(oneTimeCodes)
          .where(and(eq(oneTimeCodes.userId, userId), purpose, isNotNull(oneTimeCodes.outboxId))),
      );
      await maskOutbox(rows.map((r) => r.outboxId!));
    },
  };
}
