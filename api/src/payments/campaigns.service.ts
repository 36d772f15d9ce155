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

  function view(id: number, withLevels = false): Campaign {
    const row = campaignQuery(db).where(eq(paymentCampaigns.id, id)).get();
    if (!row) loadCampaign(db, id);
    const counts = campaignCounts(db, [id]).get(id)!;
    if (!withLevels) return toCampaign(row!, counts);
    const levels = db
      .select()
      .from(feeLevels)
      .where(eq(feeLevels.campaignId, id))
      .orderBy(asc(feeLevels.orderIndex), asc(feeLevels.id))
      .all();
    const usage = feeLevelUsage(
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
    const before = loadCampaign(db, id);
    const to = nextStatus(before.status, action);
    if (action === 'activate') {
      const counts = campaignCounts(db, [id]).get(id)!;
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
        openOrders(db, eq(paymentOrders.campaignId, id)),
        to === 'CANCELLED' ? 'Đợt thu đã hủy' : 'Đợt thu đã kết thúc',
      );
    }
    db.transaction((tx) => {
      // The status is re-checked in the write, so two concurrent transitions cannot both pass.
      const after = tx
        .update(paymentCampaigns)
        .set({ status: to })
        .where(and(eq(paymentCampaigns.id, id), eq(paymentCampaigns.status, before.status)))
        .returning()
        .get();
      if (!after) conflict('Đợt thu vừa được người khác thay đổi trạng thái, vui lòng tải lại');
      if (to === 'COMPLETED' || to === 'CANCELLED') {
        // Open payment links of a finished campaign must not be paid any more.
        closeOpenOrders(tx, eq(paymentOrders.campaignId, id));
      }
      audit(tx, {
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
    list(q: CampaignListQuery): CampaignListResponse {
      const scope = orgScope(db, actor, P.access);
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
      const total = cachedTotal(
        db,
        ['payment_campaigns', 'organizations'],
        key,
        () =>
          db
            .select({ n: count() })
            .from(paymentCampaigns)
            .innerJoin(organizations, eq(organizations.id, paymentCampaigns.organizationId))
            .where(where)
            .get()!.n,
      );
      const rows = campaignQuery(db)
        .where(where)
        .orderBy(desc(paymentCampaigns.id))
        .limit(q.limit)
        .offset((q.page - 1) * q.limit)
        .all();
      const counts = campaignCounts(
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
    byOrganization(organizationId: number): { campaigns: Campaign[] } {
      const rows = campaignQuery(db)
        .where(eq(paymentCampaigns.organizationId, organizationId))
        .orderBy(desc(paymentCampaigns.id))
        .limit(500)
        .all();
      const counts = campaignCounts(
        db,
        rows.map((r) => r.campaign.id),
      );
      return { campaigns: rows.map((r) => toCampaign(r, counts.get(r.campaign.id)!)) };
    },

    get: (id: number) => view(id, true),

    create(input: CreateCampaign): Campaign {
      const org = db.select({ id: organizations.id }).from(organizations).where(eq(organizations.id, input.organizationId)).get();
      if (!org)
        badRequest('Tổ chức không tồn tại', {
          issues: [{ path: 'organizationId', message: translate('validation.organizationInvalid', req.lang) }],
        });
      const row = db.transaction((tx) => {
        const created = tx
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
          .returning()
          .get();
        audit(tx, { ...caller, action: 'campaign.create', entity: 'payment_campaign', entityId: created.id, after: snapshot(created) });
        return created;
      });
      return view(row.id, true);
    },

    update(id: number, input: UpdateCampaign): Campaign {
      const before = loadCampaign(db, id);
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
      db.transaction((tx) => {
        const after = tx
          .update(paymentCampaigns)
          .set({ name, description, startDate, endDate, searchText: searchTextOf(name, description) })
          .where(and(eq(paymentCampaigns.id, id), eq(paymentCampaigns.status, 'DRAFT')))
          .returning()
          .get();
        if (!after) conflict('Đợt thu vừa được người khác thay đổi trạng thái, vui lòng tải lại');
        audit(tx, {
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
    remove(id: number): void {
      const before = loadCampaign(db, id);
      if (before.status !== 'COMPLETED' && before.status !== 'CANCELLED') {
        conflict(`Chỉ xóa được đợt thu đã hoàn thành hoặc đã hủy (hiện tại: "${STATUS_LABEL[before.status]}")`);
      }
      // Money records are never deleted (issue 11.5); sandbox test payments are not money.
      const money = db
        .select({ n: count() })
        .from(paymentOrders)
        .where(
          and(
            eq(paymentOrders.campaignId, id),
            eq(paymentOrders.isTest, false),
            or(eq(paymentOrders.status, 'PAID'), gt(paymentOrders.receivedAmount, 0), isNotNull(paymentOrders.attention)),
          ),
        )
        .get()!.n;
      if (money > 0) {
        conflict(
          `Không thể xóa đợt thu: đã có ${money} khoản thanh toán được ghi nhận (sổ sách thu tiền phải được giữ lại). Đợt thu đã kết thúc vẫn được lưu ở trạng thái "${STATUS_LABEL[before.status]}"`,
        );
      }
      const counts = campaignCounts(db, [id]).get(id)!;
      db.transaction((tx) => {
        // Assignments first: fee levels are RESTRICTed while assignments point at them.
        tx.delete(paymentAssignments).where(eq(paymentAssignments.campaignId, id)).run();
        tx.delete(feeLevels).where(eq(feeLevels.campaignId, id)).run();
        tx.delete(paymentCampaigns).where(eq(paymentCampaigns.id, id)).run();
        audit(tx, {
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
    accessibleOrganizations() {
      const scope = orgScope(db, actor, P.create);
      const rows = db
        .select({
          id: organizations.id,
          name: organizations.name,
          code: organizations.code,
          type: organizations.type,
          parentId: organizations.parentId,
        })
        .from(organizations)
        .where(scopeCondition(scope, organizations.path))
        .orderBy(asc(organizations.path))
        .all();
      return rows.map((o) => ({ ...o, displayName: `${o.name} (${o.code})` }));
    },
  };
}
