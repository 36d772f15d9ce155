import {
  accessibleOrganizationsQuery,
  addMemberByCodeSchema,
  addMemberSchema,
  bulkEndMembershipsSchema,
  bulkRemoveMembersSchema,
  endMembershipSchema,
  memberRemovalQuery,
  createOrganizationSchema,
  idParam,
  organizationListQuery,
  organizationMembersQuery,
  organizationOfficersQuery,
  organizationTypeSchema,
  updateOrganizationSchema,
  memberAddedResponse,
  memberRemovedResponse,
  memberRemovalPlanSchema,
  membershipEndedResponse,
  membershipsEndedResponse,
  membersRemovedResponse,
  messageResponse,
  organizationSummarySchema,
  organizationMembersResponse,
  organizationOfficersResponse,
  organizationRefSchema,
  organizationStatsSchema,
  organizationNodeSchema,
  organizationDetailSchema,
  accessibleOrganizationSchema,
  organizationListResponse,
} from '@doanhoi/shared';
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { auditContext } from '../audit/writer';
import { acceptsGzip } from '../lib/compress';
import { completeJson } from '../lib/response-headers';
import { fromParam, requireAuth, requirePermission } from '../access/middleware';
import type { AppEnv } from '../lib/context';
import { validate } from '../lib/validate';
import { membershipService } from './membership';
import { membershipEndService } from './membership-end';
import { organizationOfficers } from './officers';
import { organizationsService } from './service';
import { created, ok } from '../lib/openapi/contract';

const memberParam = z.object({ id: z.coerce.number().int().positive(), userId: z.coerce.number().int().positive() });
const codeParam = z.object({ id: z.coerce.number().int().positive(), code: z.string().min(1).max(50) });
const typeParam = z.object({ type: organizationTypeSchema });
const typeCodeParam = z.object({ type: organizationTypeSchema, code: z.string().min(1).max(50) });

/** /api/organizations (000 §7). Member adds/removes check their permission inside the service (any of two codes). */
export function organizationsRoutes() {
  const svc = (c: Context<AppEnv>) => organizationsService(c.get('deps'), c.get('actor'), auditContext(c).ip);
  const members = (c: Context<AppEnv>) => membershipService(c.get('deps'), c.get('actor'), auditContext(c).ip);
  const ended = (c: Context<AppEnv>) => membershipEndService(c.get('deps'), c.get('actor'), auditContext(c).ip);
  const access = requirePermission('organizations.access');
  return new Hono<AppEnv>()
    .use('*', requireAuth)
    .get('/', ok(organizationListResponse, 'One page of organizations'), access, validate('query', organizationListQuery), async (c) =>
      c.json(await svc(c).list(c.req.valid('query'))),
    )
    .get(
      '/accessible',
      ok(z.array(accessibleOrganizationSchema), 'Organizations the caller sees, in tree order'),
      access,
      validate('query', accessibleOrganizationsQuery),
      async (c) => c.json(await svc(c).accessible(c.req.valid('query'))),
    )
    .get(
      '/tree',
      ok(z.array(organizationNodeSchema), 'The visible tree: roots and their children (deeper levels through child-nodes)'),
      access,
      async (c) => {
        const body = await svc(c).tree();
        const headers = { 'content-type': 'application/json; charset=UTF-8', vary: 'Accept-Encoding' };
        // The cached buffers are sent as they are (no copy); nothing writes to them.
        const [data, h] = acceptsGzip(c) ? [body.gzip(), { ...headers, 'content-encoding': 'gzip' }] : [body.json(), headers];
        return completeJson(c, data, 200, h) ?? c.body(data as Uint8Array<ArrayBuffer>, 200, h);
      },
    )
    .get('/stats', ok(organizationStatsSchema, 'Counts over the visible organizations (000 §3)'), access, async (c) =>
      c.json(await svc(c).stats()),
    )
    .get(
      '/type/:type',
      ok(z.array(organizationSummarySchema), 'Visible organizations of one type'),
      access,
      validate('param', typeParam),
      async (c) => c.json(await svc(c).byType(c.req.valid('param').type)),
    )
    .get('/by-type-code/:type/:code', ok(organizationDetailSchema), access, validate('param', typeCodeParam), async (c) => {
      const { type, code } = c.req.valid('param');
      return c.json(await svc(c).byTypeCode(type, code));
    })
    .post(
      '/',
      created(organizationSummarySchema, 'The created organization'),
      requirePermission('organizations.create'),
      validate('json', createOrganizationSchema),
      async (c) => c.json(await svc(c).create(c.req.valid('json')), 201),
    )
    .get(
      '/:id',
      ok(organizationDetailSchema),
      validate('param', idParam),
      requirePermission('organizations.access', fromParam()),
      async (c) => c.json(await svc(c).get(c.req.valid('param').id)),
    )
    .get(
      '/:id/children',
      ok(z.array(organizationSummarySchema)),
      validate('param', idParam),
      requirePermission('organizations.access', fromParam()),
      async (c) => c.json(await svc(c).children(c.req.valid('param').id)),
    )
    .get(
      '/:id/child-nodes',
      ok(z.array(organizationNodeSchema), 'One level below the node (children left empty)'),
      validate('param', idParam),
      requirePermission('organizations.access', fromParam()),
      async (c) => c.json(await svc(c).childNodes(c.req.valid('param').id)),
    )
    .get(
      '/:id/stats',
      ok(organizationStatsSchema, 'Counts over the organization and everything beneath it'),
      validate('param', idParam),
      requirePermission('organizations.view_member_count', fromParam()),
      async (c) => c.json(await svc(c).subtreeStats(c.req.valid('param').id)),
    )
    .get(
      '/:id/parent',
      ok(organizationSummarySchema.nullable(), 'The parent, or null for a root'),
      validate('param', idParam),
      requirePermission('organizations.access', fromParam()),
      async (c) => c.json(await svc(c).parent(c.req.valid('param').id)),
    )
    .get(
      '/:id/breadcrumb',
      ok(z.array(organizationRefSchema), 'From the root down to the organization'),
      validate('param', idParam),
      requirePermission('organizations.access', fromParam()),
      async (c) => c.json(await svc(c).breadcrumb(c.req.valid('param').id)),
    )
    .get(
      '/:id/officers',
      ok(organizationOfficersResponse, 'One page of the roles held in the unit (and, with inherited=true, in the visible units above it)'),
      validate('param', idParam),
      requirePermission('organizations.access', fromParam()),
      validate('query', organizationOfficersQuery),
      async (c) => c.json(await organizationOfficers(c.get('deps'), c.get('actor'), c.req.valid('param').id, c.req.valid('query'))),
    )
    .get(
      '/:id/members',
      ok(
        organizationMembersResponse,
        'One page of active members, or with ?status=ended those whose membership ended (endedAt, endReason, endNote)',
      ),
      validate('param', idParam),
      requirePermission('organizations.access', fromParam()),
      validate('query', organizationMembersQuery),
      async (c) => c.json(await svc(c).members(c.req.valid('param').id, c.req.valid('query'))),
    )
    .patch(
      '/:id',
      ok(organizationSummarySchema, 'The updated organization'),
      validate('param', idParam),
      requirePermission('organizations.update', fromParam()),
      validate('json', updateOrganizationSchema),
      async (c) => c.json(await svc(c).update(c.req.valid('param').id, c.req.valid('json'))),
    )
    .delete(
      '/:id',
      ok(messageResponse, 'Deleted'),
      validate('param', idParam),
      requirePermission('organizations.delete', fromParam()),
      async (c) => c.json(await svc(c).remove(c.req.valid('param').id)),
    )
    .delete(
      '/:id/members/bulk-remove',
      ok(membersRemovedResponse),
      validate('param', idParam),
      validate('json', bulkRemoveMembersSchema),
      async (c) => c.json(await members(c).bulkRemove(c.req.valid('param').id, c.req.valid('json').userIds)),
    )
    .post(
      '/:id/members/bulk-end',
      ok(membershipsEndedResponse, 'The year-end action: the chosen members (or a class) leave in one transaction, one audit row each'),
      validate('param', idParam),
      validate('json', bulkEndMembershipsSchema),
      async (c) => c.json(await ended(c).bulkEnd(c.req.valid('param').id, c.req.valid('json'))),
    )
    .post(
      '/:id/members/:userId/end',
      ok(
        membershipEndedResponse,
        'The membership ends with a date and a reason (with the units beneath and the parents left empty); history and fees stay',
      ),
      validate('param', memberParam),
      validate('json', endMembershipSchema),
      async (c) => {
        const { id, userId } = c.req.valid('param');
        return c.json(await ended(c).end(id, userId, c.req.valid('json')));
      },
    )
    .post(
      '/:id/members/:userId/with-parents',
      created(memberAddedResponse, 'Added here and to the parents the caller may add to'),
      validate('param', memberParam),
      async (c) => {
        const { id, userId } = c.req.valid('param');
        return c.json(await members(c).add(id, userId, 'member', true), 201);
      },
    )
    .post(
      '/:id/members/:userId',
      created(memberAddedResponse),
      validate('param', memberParam),
      validate('json', addMemberSchema),
      async (c) => {
        const { id, userId } = c.req.valid('param');
        return c.json(await members(c).add(id, userId, c.req.valid('json').role, false), 201);
      },
    )
    .delete(
      '/:id/members/:userId/safely',
      ok(memberRemovedResponse, 'Removed from this unit only; 409 while a unit beneath holds them'),
      validate('param', memberParam),
      async (c) => {
        const { id, userId } = c.req.valid('param');
        return c.json(await members(c).remove(id, userId, true));
      },
    )
    .get(
      '/:id/members/:userId/removal',
      ok(memberRemovalPlanSchema, 'The levels the member can be removed from: each names the units left and those stayed in'),
      validate('param', memberParam),
      async (c) => {
        const { id, userId } = c.req.valid('param');
        return c.json(await members(c).removalOptions(id, userId));
      },
    )
    .delete(
      '/:id/members/:userId',
      ok(memberRemovedResponse, 'Removed from ?from= (default the recommended level) and every unit beneath it'),
      validate('param', memberParam),
      validate('query', memberRemovalQuery),
      async (c) => {
        const { id, userId } = c.req.valid('param');
        return c.json(await members(c).remove(id, userId, false, c.req.valid('query').from));
      },
    )
    .post(
      '/:id/member/:code',
      created(memberAddedResponse, 'Added by user code (with parents)'),
      validate('param', codeParam),
      validate('json', addMemberByCodeSchema),
      async (c) => {
        const { id, code } = c.req.valid('param');
        const body = c.req.valid('json');
        return c.json(await members(c).addByCode(id, body.userCode || code, body.role || 'member'), 201);
      },
    );
}
