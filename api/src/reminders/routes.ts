import {
  idParam,
  outboxQuery,
  reminderListQuery,
  reminderScheduleSchema,
  resendOutboxSchema,
  sendRemindersSchema,
  paymentEnvelope,
  myReminder,
  resendOutboxResult,
  outboxResponse,
  reminderHistoryResponse,
  sendRemindersResult,
} from '@doanhoi/shared';
import { Hono, type Context } from 'hono';
import { requireAuth, requirePermission } from '../access/middleware';
import type { AppEnv } from '../lib/context';
import { validate } from '../lib/validate';
import { fromCampaignParam, P, requireAnyPermission } from '../access/payments';
import { reqInfo } from '../payments/http';
import { resendOutbox } from './resend';
import { remindersService, SEND_REMINDERS } from './service';
import { ok } from '../lib/openapi/contract';
import { z } from 'zod';

const resentMessage = (d: { sent: number; failed: number }) =>
  d.failed ? `Đã gửi ${d.sent} thư, ${d.failed} thư gửi lỗi` : `Đã gửi ${d.sent} thư`;
const service = (c: Context<AppEnv>) => remindersService(c.get('deps'), c.get('actor'), reqInfo(c));

/**
 * Unpaid-fee reminders (issue 15.2), mounted at /api: sending and the schedule need
 * send_reminders in the campaign's organization, reading them read or send_reminders there;
 * /reminders/mine is every member's own; the outbox is scoped by the service.
 */
export function remindersRoutes() {
  const campaign = fromCampaignParam();
  return (
    new Hono<AppEnv>()
      .post(
        '/payment-campaigns/:id/reminders',
        ok(paymentEnvelope(sendRemindersResult), 'How many were reminded, and who was skipped'),
        requireAuth,
        requirePermission(SEND_REMINDERS, campaign),
        validate('param', idParam),
        validate('json', sendRemindersSchema),
        async (c) => {
          const data = await service(c).send(c.req.valid('param').id, c.req.valid('json'));
          const more = [
            data.skippedLimit
              ? `${data.skippedLimit} người đã nhận đủ ${c.get('deps').env.REMINDER_MAX_PER_MEMBER_PER_DAY} nhắc nhở trong 24 giờ`
              : '',
            data.skippedOutside ? `${data.skippedOutside} người không còn thuộc đơn vị của đợt thu` : '',
          ].filter(Boolean);
          return c.json({
            success: true,
            data,
            message: [`Đã gửi ${data.sent} nhắc nhở, bỏ qua ${data.skippedRecent} người vừa được nhắc`, ...more].join(', '),
          });
        },
      )
      .get(
        '/payment-campaigns/:id/reminders',
        ok(paymentEnvelope(reminderHistoryResponse), 'Who was reminded, when and by whom'),
        requireAuth,
        requireAnyPermission([P.read, SEND_REMINDERS], campaign),
        validate('param', idParam),
        validate('query', reminderListQuery),
        async (c) => c.json({ success: true, data: await service(c).history(c.req.valid('param').id, c.req.valid('query')) }),
      )
      .get(
        '/payment-campaigns/:id/reminder-schedule',
        ok(paymentEnvelope(reminderScheduleSchema), "The campaign's reminder schedule"),
        requireAuth,
        requireAnyPermission([P.read, SEND_REMINDERS], campaign),
        validate('param', idParam),
        async (c) => c.json({ success: true, data: await service(c).schedule(c.req.valid('param').id) }),
      )
      .put(
        '/payment-campaigns/:id/reminder-schedule',
        ok(paymentEnvelope(reminderScheduleSchema), 'The schedule saved'),
        requireAuth,
        requirePermission(SEND_REMINDERS, campaign),
        validate('param', idParam),
        validate('json', reminderScheduleSchema),
        async (c) =>
          c.json({
            success: true,
            data: await service(c).saveSchedule(c.req.valid('param').id, c.req.valid('json')),
            message: 'Đã lưu lịch nhắc nhở',
          }),
      )
      .get(
        '/reminders/outbox',
        ok(paymentEnvelope(outboxResponse), 'E-mails kept or sent, in campaigns of the caller'),
        requireAuth,
        validate('query', outboxQuery),
        async (c) => c.json({ success: true, data: await service(c).outbox(c.req.valid('query')) }),
      )
      // Kept or failed reminder e-mails sent again; the rights are per e-mail's campaign (resend.ts).
      .post(
        '/reminders/outbox/resend',
        ok(
          paymentEnvelope(resendOutboxResult),
          'Kept or failed reminder e-mails sent again (send_reminders in their campaign; 409 without SMTP or once the fee is paid)',
        ),
        requireAuth,
        validate('json', resendOutboxSchema),
        async (c) => {
          const data = await resendOutbox(c.get('deps'), c.get('actor'), reqInfo(c).ip, [...new Set(c.req.valid('json').ids)]);
          return c.json({ success: true, data, message: resentMessage(data) });
        },
      )
      .post(
        '/reminders/outbox/:id/resend',
        ok(paymentEnvelope(resendOutboxResult), 'One kept or failed reminder e-mail sent again'),
        requireAuth,
        validate('param', idParam),
        async (c) => {
          const data = await resendOutbox(c.get('deps'), c.get('actor'), reqInfo(c).ip, [c.req.valid('param').id]);
          return c.json({ success: true, data, message: resentMessage(data) });
        },
      )
      .get('/reminders/mine', ok(paymentEnvelope(z.array(myReminder)), "The caller's reminded, unpaid fees"), requireAuth, async (c) =>
        c.json({ success: true, data: await service(c).mine() }),
      )
  );
}
