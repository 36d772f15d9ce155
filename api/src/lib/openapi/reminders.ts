/** Success answers of the unpaid-fee reminders (issue 15.2), in the payments envelope. */
import {
  myReminder,
  outboxResponse,
  paymentEnvelope,
  reminderHistoryResponse,
  reminderScheduleSchema,
  resendOutboxResult,
  sendRemindersResult,
} from '@doanhoi/shared';
import { z } from 'zod';
import { ok, type Contract } from './contract';

export const remindersContract: Contract = {
  'POST /payment-campaigns/:id/reminders': ok(paymentEnvelope(sendRemindersResult), 'How many were reminded, and who was skipped'),
  'GET /payment-campaigns/:id/reminders': ok(paymentEnvelope(reminderHistoryResponse), 'Who was reminded, when and by whom'),
  'GET /payment-campaigns/:id/reminder-schedule': ok(paymentEnvelope(reminderScheduleSchema), "The campaign's reminder schedule"),
  'PUT /payment-campaigns/:id/reminder-schedule': ok(paymentEnvelope(reminderScheduleSchema), 'The schedule saved'),
  'GET /reminders/outbox': ok(paymentEnvelope(outboxResponse), 'E-mails kept or sent, in campaigns of the caller'),
  'POST /reminders/outbox/resend': ok(
    paymentEnvelope(resendOutboxResult),
    'Kept or failed reminder e-mails sent again (send_reminders in their campaign; 409 without SMTP or once the fee is paid)',
  ),
  'POST /reminders/outbox/:id/resend': ok(paymentEnvelope(resendOutboxResult), 'One kept or failed reminder e-mail sent again'),
  'GET /reminders/mine': ok(paymentEnvelope(z.array(myReminder)), "The caller's reminded, unpaid fees"),
};
