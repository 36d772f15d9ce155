/** POST /export/users, /export/organizations/:id/members, /export/payment-assignments/:campaignId (000 §7, 001 §7). */
import { ASSIGNMENT_EXPORT_FIELDS, exportRequestSchema, normalizeText, USER_EXPORT_FIELDS } from '@doanhoi/shared';
import { and, eq, exists, like, type SQL } from 'drizzle-orm';
import { Hono } from 'hono';
import { z } from 'zod';
import { audit, auditContext } from '../lib/audit';
import { fromParam, requireAuth, requirePermission, type OrganizationFrom } from '../lib/auth';
import type { AppEnv } from '../lib/context';
import { notFound } from '../lib/errors';
import { validate } from '../lib/validate';
import { organizationMembers, organizations } from '../organizations/schema';
import { paymentCampaigns } from '../payments/schema';
import { users } from '../users/schema';
import { assignmentPages } from './assignments';
import { memberPages, userExportScope, userPages } from './users';
import { exportFileName, pickFields, streamXlsx } from './writer';

const idParam = z.object({ id: z.coerce.number().int().positive() });
const campaignParam = z.object({ campaignId: z.coerce.number().int().positive() });

const campaignOrganization: OrganizationFrom = (c) => {
  const id = Number(c.req.param('campaignId'));
  if (!Number.isInteger(id)) return null;
  return c.get('deps').db.select({ org: paymentCampaigns.organizationId }).from(paymentCampaigns).where(eq(paymentCampaigns.id, id)).get()?.org ?? null;
};

export function exportRoutes() {
  return new Hono<AppEnv>()
    .post('/users', requireAuth, requirePermission('users.export'), validate('json', exportRequestSchema), (c) => {
      const body = c.req.valid('json');
      const fields = pickFields(USER_EXPORT_FIELDS, body.fields);
      const { db } = c.get('deps');
      const filters: (SQL | undefined)[] = [userExportScope(db, c.get('actor').roles)];
      if (body.userType) filters.push(eq(users.userType, body.userType as 'student' | 'staff'));
      if (body.membershipStatus) filters.push(eq(users.membershipStatus, body.membershipStatus as 'none'));
      if (body.search) for (const w of normalizeText(body.search).split(' ')) filters.push(like(users.searchText, `%${w}%`));
      if (body.organizationId) {
        const org = db.select({ path: organizations.path }).from(organizations).where(eq(organizations.id, body.organizationId)).get();
        if (!org) notFound('Không tìm thấy tổ chức');
        filters.push(
          exists(
            db
              .select({ one: organizationMembers.id })
              .from(organizationMembers)
              .innerJoin(organizations, eq(organizations.id, organizationMembers.organizationId))
              .where(and(eq(organizationMembers.userId, users.id), like(organizations.path, `${org!.path}%`))),
          ),
        );
      }
      const { actorId, ip } = auditContext(c);
      db.transaction((tx) => audit(tx, { actorId, action: 'export.users', entity: 'user', after: { fields: body.fields }, ip }));
      return streamXlsx(exportFileName('users', 'danh sach nguoi dung'), 'Người dùng', fields, () => userPages(db, and(...filters)));
    })
    .post('/organizations/:id/members', requireAuth, validate('param', idParam), requirePermission('organizations.export', fromParam()), validate('json', exportRequestSchema), (c) => {
      const { db } = c.get('deps');
      const org = db.select().from(organizations).where(eq(organizations.id, c.req.valid('param').id)).get();
      if (!org) notFound('Không tìm thấy tổ chức');
      const fields = pickFields(USER_EXPORT_FIELDS, c.req.valid('json').fields);
      const { actorId, ip } = auditContext(c);
      db.transaction((tx) => audit(tx, { actorId, action: 'export.organization_members', entity: 'organization', entityId: org!.id, ip }));
      return streamXlsx(exportFileName('members', org!.name), 'Thành viên', fields, () => memberPages(db, org!.id));
    })
    .post('/payment-assignments/:campaignId', requireAuth, validate('param', campaignParam), requirePermission('payment-campaigns.export', campaignOrganization), validate('json', exportRequestSchema), (c) => {
      const { db } = c.get('deps');
      const campaign = db.select().from(paymentCampaigns).where(eq(paymentCampaigns.id, c.req.valid('param').campaignId)).get();
      if (!campaign) notFound('Không tìm thấy đợt thu');
      const fields = pickFields(ASSIGNMENT_EXPORT_FIELDS, c.req.valid('json').fields);
      const { actorId, ip } = auditContext(c);
      db.transaction((tx) => audit(tx, { actorId, action: 'export.payment_assignments', entity: 'payment_campaign', entityId: campaign!.id, ip }));
      return streamXlsx(exportFileName('assignments', campaign!.name), 'Phân công', fields, () => assignmentPages(db, campaign!.id));
    });
}
