/**
 * Sending again what the outbox kept (issue 26 item 9): e-mails written while no SMTP server was
 * set (OUTBOX) and those the server refused (FAILED). Only reminder e-mails, only by someone who
 * may send reminders in that campaign's organization, only while the fee is still unpaid in an
 * open campaign (a kept reminder for a fee paid since would be wrong), and audited. Each row is
 * claimed with a conditional update, so two clicks cannot send it twice.
 */
import { hasPermission, type ResendOutboxResult } from '@doanhoi/shared';
import { and, eq, inArray } from 'drizzle-orm';
import { audit } from '../audit/writer';
import type { Actor, Deps } from '../lib/context';
import { conflict, forbidden, notFound } from '../lib/errors';
import { can } from '../access/payments';
import { paymentAssignments, paymentCampaigns } from '../db/tables/payments';
import { deliver } from './mailer';
import { emailOutbox, paymentReminders } from '../db/tables/reminders';
import { SEND_REMINDERS, VIEW_LOGS } from './codes';
import { allRows, withTransaction } from '../db/engine';

const RESENDABLE = ['OUTBOX', 'FAILED'] as const;
const UNPAID = ['PENDING', 'OVERDUE'];

type ResendBlock = 'FORBIDDEN' | 'NOT_REMINDER' | 'SENT' | 'NO_SMTP' | 'CLOSED' | 'PAID';

/** The refusals as the API says them (the admin translates the codes). */
const MESSAGES: Record<Exclude<ResendBlock, 'FORBIDDEN'>, string> = {
  NOT_REMINDER: 'Chỉ gửi lại được thư nhắc nộp phí của đợt thu',
  SENT: 'Thư đã được gửi hoặc đang gửi',
  NO_SMTP: 'Chưa cấu hình máy chủ gửi thư (SMTP_URL): thư vẫn được giữ trong hộp thư đi',
  CLOSED: 'Đợt thu không còn hoạt động: không gửi lại nhắc nhở',
  PAID: 'Khoản phí đã được thanh toán hoặc miễn: không gửi lại nhắc nhở',
};

/** Why this row may not be sent again by this caller; null when it may (the outbox screen offers the button by it). */
export async function resendBlock(
  deps: Deps,
  actor: Actor,
  row: {
    campaignId: number | null;
    status: string;
    organizationId: number | null;
    campaignStatus: string | null;
    feeStatus: string | null;
  },
): Promise<ResendBlock | null> {
  if (row.campaignId == null || row.organizationId == null) return 'NOT_REMINDER';
  if (!(await can(deps.db, actor, SEND_REMINDERS, row.organizationId))) return 'FORBIDDEN';
  if (!(RESENDABLE as readonly string[]).includes(row.status)) return 'SENT';
  if (!deps.env.SMTP_URL) return 'NO_SMTP';
  if (row.campaignStatus !== 'ACTIVE') return 'CLOSED';
  if (row.feeStatus != null && !UNPAID.includes(row.feeStatus)) return 'PAID';
  return null;
}

/** The rows with what resendBlock needs. */
async function resendRows(deps: Deps, ids: number[]) {
  if (ids.length === 0) return [];
  return await allRows(
    deps.db
      .select({
        id: emailOutbox.id,
        campaignId: emailOutbox.campaignId,
        status: emailOutbox.status,
        organizationId: paymentCampaigns.organizationId,
        campaignStatus: paymentCampaigns.status,
        feeStatus: paymentAssignments.status,
      })
      .from(emailOutbox)
      .leftJoin(paymentCampaigns, eq(paymentCampaigns.id, emailOutbox.campaignId))
      .leftJoin(paymentReminders, eq(paymentReminders.id, emailOutbox.reminderId))
      .leftJoin(paymentAssignments, eq(paymentAssignments.id, paymentReminders.assignmentId))
      .where(inArray(emailOutbox.id, ids)),
  );
}

export async function resendOutbox(deps: Deps, actor: Actor, ip: string | null, ids: number[]): Promise<ResendOutboxResult> {
  const { db, env } = deps;
  const rows = await resendRows(deps, ids);
  const found = new Map(rows.map((r) => [r.id, r]));
  for (const id of ids) {
    const r = found.get(id);
    // An e-mail the caller cannot see is not found, as outbox() would not list it.
    const visible =
      r &&
      (hasPermission(actor.roles, VIEW_LOGS, null) || (r.organizationId != null && (await resendBlock(deps, actor, r)) !== 'FORBIDDEN'));
    if (!visible) notFound('Không tìm thấy thư');
    const why = await resendBlock(deps, actor, r!);
    if (why === 'FORBIDDEN') forbidden('Bạn không có quyền gửi nhắc nhở của đợt thu này');
    else if (why) conflict(MESSAGES[why]);
  }
  const claimed = await withTransaction(db, async (tx) => {
    const got = await allRows(
      tx
        .update(emailOutbox)
        .set({ status: 'QUEUED', error: null })
        .where(and(inArray(emailOutbox.id, ids), inArray(emailOutbox.status, [...RESENDABLE])))
        .returning({ id: emailOutbox.id, campaignId: emailOutbox.campaignId }),
    );
    if (got.length !== ids.length) conflict('Thư vừa được gửi lại, vui lòng tải lại');
    const byCampaign = new Map<number, number[]>();
    for (const g of got) byCampaign.set(g.campaignId!, [...(byCampaign.get(g.campaignId!) ?? []), g.id]);
    for (const [campaignId, emailIds] of byCampaign) {
      await audit(tx, {
        actorId: actor.id,
        ip,
        action: 'reminder.resend',
        entity: 'payment_campaign',
        entityId: campaignId,
        after: { sent: emailIds.length, emailIds },
      });
    }
    return got.map((g) => g.id);
  });
  const result = await deliver(db, env, claimed);
  return { resent: claimed.length, sent: result.sent, failed: result.failed };
}
