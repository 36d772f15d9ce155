/**
 * The campaigns' reminder schedules, run beside the payment jobs (payments/jobs.ts pattern): at
 * start and every few minutes. Each assignment gets at most one BEFORE_DUE and one OVERDUE
 * reminder from the schedule, and the interval rule still applies to them (send.ts).
 */
import { and, eq, gt, isNotNull, lte, notExists, or, sql, type SQL } from 'drizzle-orm';
import type { Deps } from '../lib/context';
import { leasedInterval } from '../lib/lease';
import { logger } from '../lib/logger';
import { paymentAssignments, paymentCampaigns } from '../db/tables/payments';
import { remind } from './send';
import { paymentReminders, reminderSchedules } from '../db/tables/reminders';
import { allRows } from '../db/engine';

const DAY_MS = 86_400_000;
export const REMINDER_JOB_INTERVAL_MS = 10 * 60_000;

const a = paymentAssignments;
const due = sql`coalesce(${a.dueDate}, ${paymentCampaigns.endDate})`;
const notYet = (kind: 'BEFORE_DUE' | 'OVERDUE') =>
  notExists(sql`(select 1 from ${paymentReminders} r2 where r2.assignment_id = ${a.id} and r2.kind = ${kind})`);

/** One pass over every ACTIVE campaign with a schedule; returns how many reminders it made. */
export async function runReminderSchedules(deps: Deps, now = new Date()): Promise<{ sent: number }> {
  const schedules = await allRows(
    deps.db
      .select({
        campaignId: reminderSchedules.campaignId,
        daysBefore: reminderSchedules.daysBefore,
        onOverdue: reminderSchedules.onOverdue,
      })
      .from(reminderSchedules)
      .innerJoin(paymentCampaigns, eq(paymentCampaigns.id, reminderSchedules.campaignId))
      .where(
        and(eq(paymentCampaigns.status, 'ACTIVE'), or(isNotNull(reminderSchedules.daysBefore), eq(reminderSchedules.onOverdue, true))),
      ),
  );
  let sent = 0;
  for (const s of schedules) {
    const runs: { kind: 'BEFORE_DUE' | 'OVERDUE'; where: SQL }[] = [];
    if (s.daysBefore != null) {
      // Due within the next N days and not yet past.
      runs.push({
        kind: 'BEFORE_DUE',
        where: and(gt(due, now.getTime()), lte(due, now.getTime() + s.daysBefore * DAY_MS), notYet('BEFORE_DUE'))!,
      });
    }
    if (s.onOverdue) {
      // Past its due date (the OVERDUE status comes only at the campaign's end; a fee's own due date counts first).
      runs.push({ kind: 'OVERDUE', where: and(or(lte(due, now.getTime()), eq(a.status, 'OVERDUE')), notYet('OVERDUE'))! });
    }
    for (const run of runs) {
      sent += (await remind(deps, { campaignId: s.campaignId, kind: run.kind, sentBy: null, where: run.where, now })).sent;
    }
  }
  return { sent };
}

/** Run by the process holding the 'reminders' lease (lib/lease.ts), whichever of the API's processes that is. */
export async function startReminderJobs(deps: Deps, intervalMs = REMINDER_JOB_INTERVAL_MS): Promise<() => void> {
  let running = false;
  const run = () => {
    // Sending e-mail is slow: a pass still going when the next is due is not doubled.
    if (running) return;
    running = true;
    runReminderSchedules(deps)
      .then((r) => {
        if (r.sent > 0) logger.info(r, 'reminders: scheduled reminders sent');
      })
      .catch((err: unknown) => logger.error({ err }, 'reminders: schedule run failed'))
      .finally(() => (running = false));
  };
  return leasedInterval(deps.db, 'reminders', intervalMs, run);
}
