import {
  adminPaymentHistoryQuery,
  createPaymentLinkSchema,
  idParam,
  orderCodeParam,
  paymentHistoryQuery,
  payosWebhookSchema,
  resolveAttentionSchema,
  paymentEnvelope,
  paymentOrderSchema,
  memberPaymentHistorySchema,
  paymentLinkSchema,
  paymentMessage,
  adminPaymentHistoryItemSchema,
} from '@doanhoi/shared';
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { requireAuth, requirePermission } from '../access/middleware';
import type { AppEnv } from '../lib/context';
import { validate } from '../lib/validate';
import { fromCampaignParam, P } from '../access/payments';
import { fromOrderParam, resolveAttention } from './attention.service';
import { paymentHistory } from './history.service';
import { reqInfo } from './http';
import { ordersService } from './orders.service';
import { withOutcome } from './outcome';
import { handlePayosWebhook } from './webhook.service';
import { ok } from '../lib/openapi/contract';
import { mapInOrder } from '../lib/in-order';

const orders = (c: Context<AppEnv>) => ordersService(c.get('deps'), c.get('actor'), reqInfo(c));
const campaignIdParam = z.object({ campaignId: idParam.shape.id });
/** The member's routes tell what each order meant for the fee (issue 25.3c, 25.5). */
const told = <T extends Parameters<typeof withOutcome>[2]>(c: Context<AppEnv>, order: T) =>
  withOutcome(c.get('deps').db, c.get('deps').env, order);

/**
 * /payment (001 §7). Paying one's own fee needs only sign-in: every member may pay what they are
 * assigned (my-payments.* is not required). The webhook is called by payOS and is authenticated by its signature.
 */
export function paymentRoutes() {
  return new Hono<AppEnv>()
    .post(
      '/webhook/payos',
      ok(paymentMessage, 'Recorded or ignored (payOS needs a 2xx); 400 for a bad signature'),
      validate('json', payosWebhookSchema),
      async (c) => {
        const outcome = await handlePayosWebhook(c.get('deps'), c.req.valid('json'), reqInfo(c).ip);
        return c.json(outcome.body, outcome.status);
      },
    )
    .post(
      '/create-payment-link',
      ok(paymentEnvelope(paymentLinkSchema), 'Where the member pays'),
      requireAuth,
      validate('json', createPaymentLinkSchema),
      async (c) => c.json(await orders(c).createLink(c.req.valid('json'))),
    )
    .post(
      '/create',
      ok(paymentEnvelope(paymentLinkSchema), 'Where the member pays (the reference API name)'),
      requireAuth,
      validate('json', createPaymentLinkSchema),
      async (c) => c.json(await orders(c).createLink(c.req.valid('json'))),
    )
    .get(
      '/check-status/:orderCode',
      ok(paymentEnvelope(paymentOrderSchema), 'The order, synchronised with payOS'),
      requireAuth,
      validate('param', orderCodeParam),
      async (c) => c.json({ success: true, data: await told(c, await orders(c).checkStatus(c.req.valid('param').orderCode)) }),
    )
    .post(
      '/process/:id',
      ok(paymentEnvelope(paymentOrderSchema), 'The order, synchronised with payOS'),
      requireAuth,
      validate('param', idParam),
      async (c) => c.json({ success: true, data: await told(c, await orders(c).process(c.req.valid('param').id)) }),
    )
    .get(
      '/history',
      ok(paymentEnvelope(memberPaymentHistorySchema), "The caller's orders"),
      requireAuth,
      validate('query', paymentHistoryQuery),
      async (c) => {
        const page = await orders(c).history(c.req.valid('query'));
        return c.json({ success: true, data: { ...page, items: await mapInOrder(page.items, (o) => told(c, o)) } });
      },
    )
    .post(
      '/cancel/:id',
      ok(paymentEnvelope(paymentOrderSchema), 'The cancelled order'),
      requireAuth,
      validate('param', idParam),
      async (c) =>
        c.json({ success: true, data: await told(c, await orders(c).cancel(c.req.valid('param').id)), message: 'Đã hủy đơn thanh toán' }),
    );
}

/** /payment-admin: a campaign's payment history for its report viewers; resolving money that needs attention. */
export function paymentAdminRoutes() {
  return new Hono<AppEnv>()
    .get(
      '/payment-history/:campaignId',
      ok(
        paymentEnvelope(
          z.object({
            items: z.array(adminPaymentHistoryItemSchema),
            total: z.number(),
            page: z.number(),
            limit: z.number(),
            totalPages: z.number(),
          }),
        ),
        'Every order of the campaign, with masked payOS credentials',
      ),
      requireAuth,
      requirePermission(P.reports, fromCampaignParam('campaignId')),
      validate('param', campaignIdParam),
      validate('query', adminPaymentHistoryQuery),
      async (c) => c.json(await paymentHistory(c.get('deps'), c.req.valid('param').campaignId, c.req.valid('query'))),
    )
    .post(
      '/orders/:id/resolve',
      ok(paymentEnvelope(paymentOrderSchema), 'The order with its resolution'),
      requireAuth,
      requirePermission(P.manage, fromOrderParam),
      validate('param', idParam),
      validate('json', resolveAttentionSchema),
      async (c) => {
        const data = await resolveAttention(c.get('deps'), c.get('actor'), reqInfo(c).ip, c.req.valid('param').id, c.req.valid('json'));
        return c.json({ success: true, data, message: data.resolution === 'REFUNDED' ? 'Đã ghi nhận hoàn tiền' : 'Đã ghi nhận xử lý' });
      },
    );
}
