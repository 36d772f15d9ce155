import {
  duesRatesQuery,
  generateDuesSchema,
  updateDuesRatesSchema,
  updateDuesSharesSchema,
  duesGeneratedSchema,
  duesPlanSchema,
  duesSharesResponse,
  duesRatesResponse,
} from '@doanhoi/shared';
import { Hono, type Context } from 'hono';
import { clientIp } from '../lib/headers';
import { requireAuth, requirePermission, type OrganizationFrom } from '../access/middleware';
import type { AppEnv } from '../lib/context';
import { validate } from '../lib/validate';
import { fromBodyOrganization, P } from '../access/payments';
import { reqInfo } from '../payments/http';
import { duesService, GENERATE_DUES } from './generate';
import { effectiveRates, listShares, setRates, setShares } from './rates';
import { created, ok } from '../lib/openapi/contract';

export const DUES_RATES = 'payment-campaigns.dues_rates';

const queryOrganization: OrganizationFrom = (c) => {
  const v = Number(c.req.query('organizationId'));
  return Number.isInteger(v) && v > 0 ? v : null;
};
const generator = (c: Context<AppEnv>) => duesService(c.get('deps'), c.get('actor'), reqInfo(c));

/** /dues: rates per organization and member type, kept shares per organization type, campaign generation (issue 30 items 4–5). */
export function duesRoutes() {
  return (
    new Hono<AppEnv>()
      .get(
        '/rates',
        ok(duesRatesResponse, "The rate per member type in force in the organization (own, inherited or the rule's)"),
        requireAuth,
        requirePermission(P.access, queryOrganization),
        validate('query', duesRatesQuery),
        async (c) => {
          const { organizationId } = c.req.valid('query');
          return c.json({ organizationId, rates: await effectiveRates(c.get('deps').db, organizationId) });
        },
      )
      .put(
        '/rates',
        ok(duesRatesResponse, 'The rates after the change (null removes the own rate)'),
        requireAuth,
        requirePermission(DUES_RATES, fromBodyOrganization),
        validate('json', updateDuesRatesSchema),
        async (c) => {
          const input = c.req.valid('json');
          return c.json({
            organizationId: input.organizationId,
            rates: await setRates(c.get('deps').db, c.get('actor'), clientIp(c), input),
          });
        },
      )
      .get(
        '/shares',
        ok(duesSharesResponse, 'The share each organization type keeps'),
        requireAuth,
        requirePermission(P.access),
        async (c) => c.json({ shares: await listShares(c.get('deps').db) }),
      )
      // One table for the whole system: a global right.
      .put(
        '/shares',
        ok(duesSharesResponse, 'The shares after the change'),
        requireAuth,
        requirePermission('system.manage_settings', () => null),
        validate('json', updateDuesSharesSchema),
        async (c) => c.json({ shares: await setShares(c.get('deps').db, c.get('actor'), clientIp(c), c.req.valid('json')) }),
      )
      .post(
        '/campaigns/preview',
        ok(duesPlanSchema, 'What generating would create: levels with counts, total, examples'),
        requireAuth,
        requirePermission(GENERATE_DUES, fromBodyOrganization),
        validate('json', generateDuesSchema),
        async (c) => c.json(await generator(c).preview(c.req.valid('json'))),
      )
      .post(
        '/campaigns',
        created(duesGeneratedSchema, 'The DRAFT campaign with its levels and assignments'),
        requireAuth,
        requirePermission(GENERATE_DUES, fromBodyOrganization),
        validate('json', generateDuesSchema),
        async (c) => c.json(await generator(c).generate(c.req.valid('json')), 201),
      )
  );
}
