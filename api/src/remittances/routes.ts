import {
  createRemittanceSchema,
  duesRatesQuery as campaignsQuery,
  idParam,
  remittanceQuery,
  remittanceSchema,
  remittanceCampaignsResponse,
  remittanceReportSchema,
} from '@doanhoi/shared';
import { Hono, type Context } from 'hono';
import { clientIp } from '../lib/headers';
import { requireAuth, requirePermission, type OrganizationFrom } from '../access/middleware';
import type { AppEnv } from '../lib/context';
import { rateLimit } from '../lib/rate-limit';
import { validate } from '../lib/validate';
import { loadCampaign } from '../payments/rules';
import { remittanceXlsx } from './export';
import { campaignsCovering } from './figures';
import { defaultUnit, remittanceSide, remittancesService, RP } from './service';
import { ok, created, xlsx } from '../lib/openapi/contract';

const positive = (v: unknown): number | null => {
  const n = Number(v);
  return Number.isInteger(n) && n > 0 ? n : null;
};

/** The unit asked about (?organizationId=), else the campaign's own organization. */
const askedUnit: OrganizationFrom = async (c) => {
  const campaignId = positive(c.req.param('id'));
  if (campaignId == null) return null;
  return positive(c.req.query('organizationId')) ?? (await defaultUnit(c.get('deps').db, campaignId));
};
const bodySender: OrganizationFrom = async (c) =>
  positive(((await c.req.json().catch(() => null)) as { fromOrganizationId?: unknown } | null)?.fromOrganizationId);
const receiver: OrganizationFrom = async (c) => {
  const id = positive(c.req.param('id'));
  return id == null ? null : await remittanceSide(c.get('deps').db, id, 'to');
};

const service = (c: Context<AppEnv>) => remittancesService(c.get('deps').db, c.get('actor'), clientIp(c));

async function report(c: Context<AppEnv>, campaignId: number, organizationId: number | undefined) {
  return service(c).report(campaignId, organizationId ?? (await defaultUnit(c.get('deps').db, campaignId)) ?? 0);
}

/** GET /payment-campaigns/:id/remittance(/export), POST /remittances, /remittances/:id/{confirm,cancel} (issue 30 item 5). */
export function remittancesRoutes() {
  return (
    new Hono<AppEnv>()
      // An export like the others: the same per-user and per-address throttle (issue 25 item 14).
      .get(
        '/payment-campaigns/:id/remittance/export',
        xlsx('The same figures as xlsx'),
        requireAuth,
        validate('param', idParam),
        requirePermission(RP.view, askedUnit),
        rateLimit('export'),
        validate('query', remittanceQuery),
        async (c) => {
          const id = c.req.valid('param').id;
          const r = await report(c, id, c.req.valid('query').organizationId);
          return remittanceXlsx(r, (await loadCampaign(c.get('deps').db, id)).name);
        },
      )
      .get(
        '/payment-campaigns/:id/remittance',
        ok(remittanceReportSchema, 'The unit and its direct units: collected, kept, owed up, received, confirmed'),
        requireAuth,
        validate('param', idParam),
        requirePermission(RP.view, askedUnit),
        validate('query', remittanceQuery),
        async (c) => c.json(await report(c, c.req.valid('param').id, c.req.valid('query').organizationId)),
      )
      .get(
        '/remittances/campaigns',
        ok(remittanceCampaignsResponse, 'Campaigns (not drafts) of the unit and the levels above it'),
        requireAuth,
        requirePermission(RP.view, (c) => positive(c.req.query('organizationId'))),
        validate('query', campaignsQuery),
        async (c) => {
          const rows = await campaignsCovering(c.get('deps').db, c.req.valid('query').organizationId);
          return c.json({ campaigns: rows.map((r) => ({ ...r, startDate: new Date(r.startDate).toISOString() })) });
        },
      )
      .post(
        '/remittances',
        created(remittanceSchema, 'The recorded remittance (PENDING until the level above confirms)'),
        requireAuth,
        requirePermission(RP.remit, bodySender),
        validate('json', createRemittanceSchema),
        async (c) => c.json(await service(c).create(c.req.valid('json')), 201),
      )
      .post(
        '/remittances/:id/confirm',
        ok(remittanceSchema, 'Confirmed by the receiving level'),
        requireAuth,
        validate('param', idParam),
        requirePermission(RP.confirm, receiver),
        async (c) => c.json(await service(c).confirm(c.req.valid('param').id)),
      )
      .post(
        '/remittances/:id/cancel',
        ok(remittanceSchema, 'Withdrawn or turned down before confirmation'),
        requireAuth,
        validate('param', idParam),
        async (c) => c.json(await service(c).cancel(c.req.valid('param').id)),
      )
  );
}
