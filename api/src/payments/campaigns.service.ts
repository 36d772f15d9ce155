import {
  normalizeText,
  parseVnDateTime,
  type Campaign,
  type CampaignListQuery,
  type CampaignListResponse,
  type CreateCampaign,
  type UpdateCampaign,
} from '@doanhoi/shared';
import { and, asc, count, desc, eq, gt, gte, isNotNull, lte, or } from 'drizzle-orm';
import { audit } from '../audit/writer';
import type { Actor, Deps } from '../lib/context';
import { badRequest, conflict, unprocessable } from '../lib/errors';
import { translate } from '../lib/i18n';
import { cachedTotal, totalPages } from '../lib/totals';
import { organizations } from '../db/tables/organizations';
import { filterKey, searchTextLike } from '../lib/text-filter';
import { orgScope, P, scopeCondition, scopeKey, type RequestInfo } from '../access/payments';
import { campaignCounts, campaignQuery, feeLevelUsage, toCampaign, toFeeLevel, type CampaignRow } from './mappers';
import { loadCampaign, nextStatus, STATUS_LABEL, type CampaignAction } from './rules';
import { cancelAtPayos, closeOpenOrders, openOrders } from './links';
import { feeLevels, paymentAssignments, paymentCampaigns, paymentOrders } from '../db/tables/payments';
import { allRows, firstRow, lockRows, runQuery, withTransaction } from '../db/engine';

function snapshot(c: CampaignRow) {
  return {
    id: c.id,
    organizationId: c.organizationId,
    name: c.name,
    description: c.description,
    startDate: c.startDate,
    endDate: c.endDate,
    status: c.status,
  };
}

const searchTextOf = (name: string, description: string | null | undefined) => normalizeText(`${name} ${description ?? ''}`);

/** Payment campaigns (001 §3, §4, §7): scoped to where payment-campaigns.access is held. */
export function campaignsService(deps: Deps, actor: Actor, req: RequestInfo) {
  const { db } = deps;
  const caller = { actorId: actor.id, ip: req.ip };

  async function view(id: number, withLevels = false): Promise<Campaign> {
    const row = await firstRow(campaignQuery(db).where(eq(paymentCampaigns.id, id)));
    if (!row) await loadCampaign(db, id);
    const counts = (await campaignCounts(db, [id])).get(id)!;
    if (!withLevels) return toCampaign(row!, counts);
    const levels = await allRows(
      db.select().from(feeLevels).where(eq(feeLevels.campaignId, id)).orderBy(asc(feeLevels.orderIndex), asc(feeLevels.id)),
    );
    const usage = await feeLevelUsage(
      db,
      levels.map((l) => l.id),
    );
    return toCampaign(
      row!,
      counts,
      levels.map((l) => toFeeLevel(l, usage.get(l.id) ?? 0)),
    );
  }

  function dateRangeError(): never {
    const message = translate('validation.dateRange', req.lang);
    return badRequest(`endDate: ${message}`, { issues: [{ path: 'endDate', message }] });
  }

  async function transition(id: number, action: CampaignAction): Promise<Campaign> {
    const before = await loadCampaign(db, id);
    const to = nextStatus(before.status, action);
    if (action === 'activate') {
      const counts = (await campaignCounts(db, [id])).get(id)!;
      // 001 §4: a fee level and an assignment. No payOS configuration is needed: a unit that collects
      // cash activates too, marks fees paid, and its members are told to pay the treasurer (canPay false).
      const problems: [string, string][] = [];
      if (counts.feeLevels === 0) problems.push(['feeLevels', 'chưa có mức phí nào']);
      if (counts.assignments === 0) problems.push(['assignments', 'chưa có thành viên nào được phân công']);
      if (before.endDate.getTime() <= Date.now()) problems.push(['endDate', 'ngày kết thúc đã qua']);
      if (problems.length) {
        unprocessable(`Không thể kích hoạt đợt thu: ${problems.map((p) => p[1]).join(', ')}`, { missing: problems.map((p) => p[0]) });
      }
    }
    if (to === 'COMPLETED' || to === 'CANCELLED') {
      // Open links of a finished campaign are closed at payOS first (issue 11.2); money paid anyway is flagged.
      await cancelAtPayos(
        deps,
        await openOrders(db, eq(paymentOrders.campaignId, id)),
        to === 'CANCELLED' ? 'Đợt thu đã hủy' : 'Đợt thu đã kết thúc',
      );
    }
    await withTransaction(db, async (tx) => {
      // The status is re-checked in the write, so two concurrent transitions cannot both pass.
      const after = await firstRow(
        tx
          .update(paymentCampaigns)
          .set({ status: to })
          .where(and(eq(paymentCampaigns.id, id), eq(paymentCampaigns.status, before.status)))
          .returning(),
      );
      if (!after) conflict('Đợt thu vừa được người khác thay đổi trạng thái, vui lòng tải lại');
      if (to === 'COMPLETED' || to === 'CANCELLED') {
        // Open payment links of a finished campaign must not be paid any more.
        await closeOpenOrders(tx, eq(paymentOrders.campaignId, id));
      }
      await audit(tx, {
        ...caller,
        action: `campaign.${action}`,
        entity: 'payment_campaign',
        entityId: id,
        before: { status: before.status },
        after: { status: to },
      });
    });
    return view(id);
  }

  return {
    async list(q: CampaignListQuery): Promise<CampaignListResponse> {
      const scope = await orgScope(db, actor, P.access);
      const from = q.startDate ? parseVnDateTime(q.startDate) : null;
      const to = q.endDate ? parseVnDateTime(q.endDate, { endOfDay: true }) : null;
      const search = normalizeText(q.search);
      const where = and(
        scopeCondition(scope, organizations.path),
        q.organizationId ? eq(paymentCampaigns.organizationId, q.organizationId) : undefined,
        q.status ? eq(paymentCampaigns.status, q.status) : undefined,
        searchTextLike(paymentCampaigns.searchText, search),
        // Campaigns overlapping [from, to].
        from ? gte(paymentCampaigns.endDate, from) : undefined,
        to ? lte(paymentCampaigns.startDate, to) : undefined,
      );
      const key = filterKey({
        scope: scopeKey(scope),
        org: q.organizationId,
        status: q.status,
        search,
        from: from?.getTime(),
        to: to?.getTime(),
      });
      const total = await cachedTotal(
        db,
        ['payment_campaigns', 'organizations'],
        key,
        async () =>
          (await firstRow(
            db
              .select({ n: count() })
              .from(paymentCampaigns)
              .innerJoin(organizations, eq(organizations.id, paymentCampaigns.organizationId))
              .where(where),
          ))!.n,
      );
      const rows = await allRows(
        campaignQuery(db)
          .where(where)
          .orderBy(desc(paymentCampaigns.id))
          .limit(q.limit)
          .offset((q.page - 1) * q.limit),
      );
      const counts = await campaignCounts(
        db,
        rows.map((r) => r.campaign.id),
      );
      return {
        campaigns: rows.map((r) => toCampaign(r, counts.get(r.campaign.id)!)),
        page: q.page,
        limit: q.limit,
        total,
        totalPages: totalPages(total, q.limit),
      };
    },

    /** Campaigns of exactly this organization, newest first (the route checks access there). */
    async byOrganization(organizationId: number): Promise<{ campaigns: Campaign[] }> {
      const rows = await allRows(
        campaignQuery(db).where(eq(paymentCampaigns.organizationId, organizationId)).orderBy(desc(paymentCampaigns.id)).limit(500),
      );
      const counts = await campaignCounts(
        db,
        rows.map((r) => r.campaign.id),
      );
      return { campaigns: rows.map((r) => toCampaign(r, counts.get(r.campaign.id)!)) };
    },

    get: (id: number) => view(id, true),

    async create(input: CreateCampaign): Promise<Campaign> {
      const org = await firstRow(db.select({ id: organizations.id }).from(organizations).where(eq(organizations.id, input.organizationId)));
      if (!org)
        badRequest('Tổ chức không tồn tại', {
          issues: [{ path: 'organizationId', message: translate('validation.organizationInvalid', req.lang) }],
        });
      const row = await withTransaction(db, async (tx) => {
        const created = await firstRow(
          tx
            .insert(paymentCampaigns)
            .values({
              organizationId: input.organizationId,
              name: input.name,
              description: input.description ?? null,
              startDate: parseVnDateTime(input.startDate)!,
              endDate: parseVnDateTime(input.endDate)!,
              status: 'DRAFT',
              createdBy: actor.id,
              searchText: searchTextOf(input.name, input.description),
            })
            .returning(),
        );
        await audit(tx, {
          ...caller,
          action: 'campaign.create',
          entity: 'payment_campaign',
          entityId: created.id,
          after: snapshot(created),
        });
        return created;
      });
      return view(row.id, true);
    },

    async update(id: number, input: UpdateCampaign): Promise<Campaign> {
      const before = await loadCampaign(db, id);
      if (before.status !== 'DRAFT')
        conflict(`Chỉ sửa được đợt thu ở trạng thái "${STATUS_LABEL.DRAFT}" (hiện tại: "${STATUS_LABEL[before.status]}")`);
      if (input.organizationId !== undefined && input.organizationId !== before.organizationId) {
        badRequest('Không thể đổi tổ chức của đợt thu');
      }
      const startDate = input.startDate ? parseVnDateTime(input.startDate)! : before.startDate;
      const endDate = input.endDate ? parseVnDateTime(input.endDate)! : before.endDate;
      if (endDate.getTime() <= startDate.getTime()) dateRangeError();
      const name = input.name ?? before.name;
      const description = input.description === undefined ? before.description : input.description;
      await withTransaction(db, async (tx) => {
        const after = await firstRow(
          tx
            .update(paymentCampaigns)
            .set({ name, description, startDate, endDate, searchText: searchTextOf(name, description) })
            .where(and(eq(paymentCampaigns.id, id), eq(paymentCampaigns.status, 'DRAFT')))
            .returning(),
        );
        if (!after) conflict('Đợt thu vừa được người khác thay đổi trạng thái, vui lòng tải lại');
        await audit(tx, {
          ...caller,
          action: 'campaign.update',
          entity: 'payment_campaign',
          entityId: id,
          before: snapshot(before),
          after: snapshot(after!),
        });
      });
      return view(id, true);
    },

    /** Only finished campaigns without money records go, with their levels, assignments, orders and payOS config. */
    async remove(id: number): Promise<void> {
      const before = await loadCampaign(db, id);
      if (before.status !== 'COMPLETED' && before.status !== 'CANCELLED') {
        conflict(`Chỉ xóa được đợt thu đã hoàn thành hoặc đã hủy (hiện tại: "${STATUS_LABEL[before.status]}")`);
      }
      // Money records are never deleted (issue 11.5); sandbox test payments are not money.
      const moneyIn = async (q: typeof db) =>
        (await firstRow(
          q
            .select({ n: count() })
            .from(paymentOrders)
            .where(
              and(
                eq(paymentOrders.campaignId, id),
                eq(paymentOrders.isTest, false),
                or(eq(paymentOrders.status, 'PAID'), gt(paymentOrders.receivedAmount, 0), isNotNull(paymentOrders.attention)),
              ),
            ),
        ))!.n;
      const money = await moneyIn(db);
      if (money > 0) {
        conflict(
          `Không thể xóa đợt thu: đã có ${money} khoản thanh toán được ghi nhận (sổ sách thu tiền phải được giữ lại). Đợt thu đã kết thúc vẫn được lưu ở trạng thái "${STATUS_LABEL[before.status]}"`,
        );
      }
      const counts = (await campaignCounts(db, [id])).get(id)!;
      await withTransaction(db, async (tx) => {
        // Money settling on a closed campaign (a late webhook) takes the campaign's lock first (locks.ts):
        // once this holds it, no payment is in flight, and one that arrived since the check refuses the delete.
        await lockRows(tx, paymentCampaigns, [id]);
        if ((await moneyIn(tx)) > 0) conflict('Đợt thu vừa có khoản thanh toán được ghi nhận, không thể xóa');
        // Assignments first: fee levels are RESTRICTed while assignments point at them.
        await runQuery(tx.delete(paymentAssignments).where(eq(paymentAssignments.campaignId, id)));
        await runQuery(tx.delete(feeLevels).where(eq(feeLevels.campaignId, id)));
        await runQuery(tx.delete(paymentCampaigns).where(eq(paymentCampaigns.id, id)));
        await audit(tx, {
          ...caller,
          action: 'campaign.delete',
          entity: 'payment_campaign',
          entityId: id,
          before: { ...snapshot(before), ...counts },
        });
      });
    },

    transition,

    /** Organizations where a campaign may be created: where create is held and everything beneath. */
    async accessibleOrganizations() {
      const scope = await orgScope(db, actor, P.create);
      const rows = await allRows(
        db
          .select({
            id: organizations.id,
            name: organizations.name,
            code: organizations.code,
            type: organizations.type,
            parentId: organizations.parentId,
          })
          .from(organizations)
          .where(scopeCondition(scope, organizations.path))
          .orderBy(asc(organizations.path)),
      );
      return rows.map((o) => ({ ...o, displayName: `${o.name} (${o.code})` }));
    },
  };
}
