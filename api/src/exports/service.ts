/** The three exports (000 §7, 001 §7), built per request with the caller: scoping, audit, then a streamed file. */
import { ASSIGNMENT_EXPORT_FIELDS, USER_EXPORT_FIELDS, type ExportRequest } from '@doanhoi/shared';
import { eq } from 'drizzle-orm';
import { audit } from '../audit/writer';
import type { OrganizationFrom } from '../access/middleware';
import type { Actor, Deps } from '../lib/context';
import { notFound } from '../lib/errors';
import { organizations } from '../db/tables/organizations';
import { paymentCampaigns } from '../db/tables/payments';
import { assignmentPages } from './assignments';
import { memberPages, userExportFilter, userPages } from './users';
import { exportFileName, pickFields, streamXlsx } from '../lib/xlsx-writer';
import { firstRow, withTransaction } from '../db/engine';

/** The campaign's organization is where payment-campaigns.export must be held (null: unknown campaign). */
export const campaignOrganization: OrganizationFrom = async (c) => {
  const id = Number(c.req.param('campaignId'));
  if (!Number.isInteger(id)) return null;
  return (
    (
      await firstRow(
        c.get('deps').db.select({ org: paymentCampaigns.organizationId }).from(paymentCampaigns).where(eq(paymentCampaigns.id, id)),
      )
    )?.org ?? null
  );
};

export function exportService({ db }: Deps, actor: Actor, ip: string | null) {
  const record = async (action: string, entity: string, entityId: number | null, fields: string[]) =>
    await withTransaction(db, async (tx) => audit(tx, { actorId: actor.id, action, entity, entityId, after: { fields }, ip }));

  return {
    async users(body: ExportRequest): Promise<Response> {
      const fields = pickFields(USER_EXPORT_FIELDS, body.fields);
      const query = await userExportFilter(db, actor, body);
      await record('export.users', 'user', null, body.fields);
      return streamXlsx(exportFileName('users', 'danh sach nguoi dung'), 'Người dùng', fields, () => userPages(db, query));
    },

    async members(organizationId: number, body: ExportRequest): Promise<Response> {
      const org = await firstRow(
        db.select({ id: organizations.id, name: organizations.name }).from(organizations).where(eq(organizations.id, organizationId)),
      );
      if (!org) notFound('Không tìm thấy tổ chức');
      const fields = pickFields(USER_EXPORT_FIELDS, body.fields);
      await record('export.organization_members', 'organization', org!.id, body.fields);
      return streamXlsx(exportFileName('members', org!.name), 'Thành viên', fields, () => memberPages(db, org!.id));
    },

    async assignments(campaignId: number, body: ExportRequest): Promise<Response> {
      const campaign = await firstRow(
        db
          .select({ id: paymentCampaigns.id, name: paymentCampaigns.name })
          .from(paymentCampaigns)
          .where(eq(paymentCampaigns.id, campaignId)),
      );
      if (!campaign) notFound('Không tìm thấy đợt thu');
      const fields = pickFields(ASSIGNMENT_EXPORT_FIELDS, body.fields);
      await record('export.payment_assignments', 'payment_campaign', campaign!.id, body.fields);
      return streamXlsx(exportFileName('assignments', campaign!.name), 'Phân công', fields, () => assignmentPages(db, campaign!.id));
    },
  };
}
