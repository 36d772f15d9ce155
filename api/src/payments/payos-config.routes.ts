import {
  createPayosConfigSchema,
  idParam,
  payosConfigQuery,
  testPayosConnectionSchema,
  updatePayosConfigSchema,
  paymentMessage,
  payosConfigSavedSchema,
  paymentEnvelope,
  payosConfigSchema,
  connectionResultSchema,
  webhookConfirmationSchema,
  effectivePayosConfigSchema,
} from '@doanhoi/shared';
import { Hono, type Context } from 'hono';
import { requireAuth, requirePermission } from '../access/middleware';
import type { AppEnv } from '../lib/context';
import { validate } from '../lib/validate';
import { fromCampaignParam, P } from '../access/payments';
import { reqInfo } from './http';
import { payosConfigService } from './payos-config.service';
import { ok, created } from '../lib/openapi/contract';
import { z } from 'zod';

const service = (c: Context<AppEnv>) => payosConfigService(c.get('deps'), c.get('actor'), reqInfo(c));
const inCampaign = fromCampaignParam();

/**
 * /payment-campaigns/{id}/payos-config (001 §7). Reading (masked) needs read; every write, the
 * connection test and revealing the keys need update, all in the campaign's organization.
 */
export function payosConfigRoutes() {
  return (
    new Hono<AppEnv>()
      .get(
        '/:id/payos-config/effective',
        ok(paymentEnvelope(effectivePayosConfigSchema)),
        requireAuth,
        requirePermission(P.read, inCampaign),
        validate('param', idParam),
        async (c) => c.json({ success: true, data: await service(c).effective(c.req.valid('param').id) }),
      )
      .post(
        '/:id/payos-config/toggle-active',
        ok(paymentEnvelope(payosConfigSchema)),
        requireAuth,
        requirePermission(P.update, inCampaign),
        validate('param', idParam),
        async (c) => {
          const data = await service(c).toggleActive(c.req.valid('param').id);
          return c.json({ success: true, data, message: data.isActive ? 'Đã bật cấu hình PayOS' : 'Đã tắt cấu hình PayOS' });
        },
      )
      .get(
        '/:id/payos-config/webhook-url',
        ok(paymentEnvelope(z.object({ webhookUrl: z.string() })), 'The URL to register at payOS'),
        requireAuth,
        requirePermission(P.read, inCampaign),
        validate('param', idParam),
        async (c) => c.json({ success: true, data: await service(c).webhookUrl(c.req.valid('param').id) }),
      )
      .post(
        '/:id/payos-config/confirm-webhook',
        ok(paymentEnvelope(webhookConfirmationSchema), "payOS's answer to registering the webhook"),
        requireAuth,
        requirePermission(P.update, inCampaign),
        validate('param', idParam),
        async (c) => {
          const data = await service(c).confirmWebhook(c.req.valid('param').id);
          return c.json({ success: data.confirmed, data, message: data.message });
        },
      )
      .post(
        '/:id/payos-config/test-connection',
        ok(connectionResultSchema, 'Whether payOS accepts the credentials'),
        requireAuth,
        requirePermission(P.update, inCampaign),
        validate('param', idParam),
        validate('json', testPayosConnectionSchema),
        async (c) => {
          const r = await service(c).testConnection(c.req.valid('param').id, c.req.valid('json'));
          return c.json({ success: r.connected, data: { connected: r.connected, reason: r.reason }, message: r.message });
        },
      )
      .get(
        '/:id/payos-config',
        ok(paymentEnvelope(payosConfigSchema.nullable()), 'The config with masked keys, or null'),
        requireAuth,
        requirePermission(P.read, inCampaign),
        validate('param', idParam),
        validate('query', payosConfigQuery),
        async (c) => c.json({ success: true, data: await service(c).get(c.req.valid('param').id, c.req.valid('query').reveal ?? false) }),
      )
      // Saving registers the webhook URL with payOS; its answer comes back beside the config (issue 11.8).
      .post(
        '/:id/payos-config',
        created(payosConfigSavedSchema, 'The created config'),
        requireAuth,
        requirePermission(P.update, inCampaign),
        validate('param', idParam),
        validate('json', createPayosConfigSchema),
        async (c) => {
          const id = c.req.valid('param').id;
          await service(c).create(id, c.req.valid('json'));
          const webhook = await service(c).confirmWebhook(id);
          return c.json({ success: true, data: await service(c).get(id), webhook, message: 'Đã tạo cấu hình PayOS' }, 201);
        },
      )
      .put(
        '/:id/payos-config',
        ok(payosConfigSavedSchema, 'The updated config'),
        requireAuth,
        requirePermission(P.update, inCampaign),
        validate('param', idParam),
        validate('json', updatePayosConfigSchema),
        async (c) => {
          const id = c.req.valid('param').id;
          await service(c).update(id, c.req.valid('json'));
          const webhook = await service(c).confirmWebhook(id);
          return c.json({ success: true, data: await service(c).get(id), webhook, message: 'Đã cập nhật cấu hình PayOS' });
        },
      )
      // Deleting or swapping the keys closes the campaign's open links at payOS first (issue 25, 3b).
      .delete(
        '/:id/payos-config',
        ok(paymentMessage, 'Deleted'),
        requireAuth,
        requirePermission(P.update, inCampaign),
        validate('param', idParam),
        async (c) => {
          await service(c).remove(c.req.valid('param').id);
          return c.json({ success: true, message: 'Đã xóa cấu hình PayOS' });
        },
      )
  );
}
