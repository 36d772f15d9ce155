import type { CreateFeeLevel, FeeLevel, UpdateFeeLevel } from '@doanhoi/shared';
import { and, asc, count, eq, inArray, isNull, ne } from 'drizzle-orm';
import { audit } from '../audit/writer';
import type { Actor, Deps } from '../lib/context';
import { conflict, notFound } from '../lib/errors';
import type { RequestInfo } from '../access/payments';
import { feeLevelUsage, toFeeLevel, type FeeLevelRow } from './mappers';
import { assertWritable, loadCampaign } from './rules';
import { cancelAtPayos, closeOpenOrders, openOrders } from './links';
import { feeLevels, paymentAssignments, paymentOrders } from '../db/tables/payments';

const NOT_FOUND = 'Không tìm thấy mức phí';

function snapshot(f: FeeLevelRow) {
  return {
    id: f.id,
    campaignId: f.campaignId,
    levelName: f.levelName,
    amount: f.amount,
    description: f.description,
    note: f.note,
    orderIndex: f.orderIndex,
    isDefault: f.isDefault,
  };
}

/** Fee levels of a campaign (001 §3): ordered by orderIndex, exactly one default once any exists. */
export function feeLevelsService(deps: Deps, actor: Actor, req: RequestInfo) {
  const { db } = deps;
  const caller = { actorId: actor.id, ip: req.ip };

  function findRow(id: number): FeeLevelRow {
    const row = db.select().from(feeLevels).where(eq(feeLevels.id, id)).get();
    if (!row) notFound(NOT_FOUND);
    return row!;
  }

  function view(id: number): FeeLevel {
    return toFeeLevel(findRow(id), feeLevelUsage(db, [id]).get(id) ?? 0);
  }

  return {
    listByCampaign(campaignId: number): { feeLevels: FeeLevel[] } {
      loadCampaign(db, campaignId);
      const rows = db
        .select()
        .from(feeLevels)
        .where(eq(feeLevels.campaignId, campaignId))
        .orderBy(asc(feeLevels.orderIndex), asc(feeLevels.id))
        .all();
      const usage = feeLevelUsage(
        db,
        rows.map((r) => r.id),
      );
      return { feeLevels: rows.map((r) => toFeeLevel(r, usage.get(r.id) ?? 0)) };
    },

    get: view,

    create(input: CreateFeeLevel): FeeLevel {
      const campaign = loadCampaign(db, input.campaignId);
      assertWritable(campaign, 'thêm mức phí');
      const row = db.transaction((tx) => {
        const existing = tx.select({ n: count() }).from(feeLevels).where(eq(feeLevels.campaignId, campaign.id)).get()!.n;
        const created = tx
          .insert(feeLevels)
          .values({
            campaignId: campaign.id,
            levelName: input.levelName,
            amount: input.amount,
            description: input.description ?? null,
            note: input.note ?? null,
            orderIndex: input.orderIndex ?? existing,
            // The first level is the default, so a campaign with levels always has exactly one.
            isDefault: existing === 0,
          })
          .returning()
          .get();
        audit(tx, { ...caller, action: 'fee_level.create', entity: 'fee_level', entityId: created.id, after: snapshot(created) });
        return created;
      });
      return toFeeLevel(row, 0);
    },

    /**
     * A new amount applies to the level's assignments that have received nothing (docs/decisions.md);
     * their open links, made for the old amount, are closed at payOS and here (issue 11.2).
     */
    async update(id: number, input: UpdateFeeLevel): Promise<FeeLevel> {
      const before = findRow(id);
      assertWritable(loadCampaign(db, before.campaignId), 'sửa mức phí');
      const amountChanged = input.amount !== undefined && input.amount !== before.amount;
      // Exempted and reduced fees keep the treasurer's amount (issue 15.3).
      const unpaid = and(
        eq(paymentAssignments.feeLevelId, id),
        ne(paymentAssignments.status, 'PAID'),
        isNull(paymentAssignments.paidAmount),
        isNull(paymentAssignments.adjustment),
      );
      const unpaidIds = amountChanged
        ? db
            .select({ id: paymentAssignments.id })
            .from(paymentAssignments)
            .where(unpaid)
            .all()
            .map((r) => r.id)
        : [];
      const links = unpaidIds.length ? openOrders(db, inArray(paymentOrders.assignmentId, unpaidIds)) : [];
      if (unpaidIds.length) await cancelAtPayos(deps, links, 'Số tiền mức phí đã thay đổi');
      db.transaction((tx) => {
        if (amountChanged) {
          // A link opened while payOS was asked was never closed there: 409 rather than leave it payable for the old amount.
          if (unpaidIds.length) closeOpenOrders(tx, inArray(paymentOrders.assignmentId, unpaidIds), new Date(), links);
          tx.update(paymentAssignments).set({ amount: input.amount! }).where(unpaid).run();
        }
        const after = tx
          .update(feeLevels)
          .set({
            levelName: input.levelName ?? before.levelName,
            amount: input.amount ?? before.amount,
            description: input.description === undefined ? before.description : input.description,
            note: input.note === undefined ? before.note : input.note,
            orderIndex: input.orderIndex ?? before.orderIndex,
          })
          .where(eq(feeLevels.id, id))
          .returning()
          .get();
        audit(tx, {
          ...caller,
          action: 'fee_level.update',
          entity: 'fee_level',
          entityId: id,
          before: snapshot(before),
          after: snapshot(after),
        });
      });
      return view(id);
    },

    remove(id: number): void {
      const before = findRow(id);
      assertWritable(loadCampaign(db, before.campaignId), 'xóa mức phí');
      const used = feeLevelUsage(db, [id]).get(id) ?? 0;
      if (used > 0)
        conflict(
          `Không thể xóa mức phí "${before.levelName}" vì đã có ${used} thành viên được phân công. Hãy đổi mức phí của các thành viên này trước`,
        );
      db.transaction((tx) => {
        tx.delete(feeLevels).where(eq(feeLevels.id, id)).run();
        if (before.isDefault) {
          const next = tx
            .select({ id: feeLevels.id })
            .from(feeLevels)
            .where(eq(feeLevels.campaignId, before.campaignId))
            .orderBy(asc(feeLevels.orderIndex), asc(feeLevels.id))
            .get();
          if (next) tx.update(feeLevels).set({ isDefault: true }).where(eq(feeLevels.id, next.id)).run();
        }
        audit(tx, { ...caller, action: 'fee_level.delete', entity: 'fee_level', entityId: id, before: snapshot(before) });
      });
    },

    setDefault(id: number): FeeLevel {
      const before = findRow(id);
      assertWritable(loadCampaign(db, before.campaignId), 'đổi mức phí mặc định');
      db.transaction((tx) => {
        tx.update(feeLevels)
          .set({ isDefault: false })
          .where(and(eq(feeLevels.campaignId, before.campaignId), ne(feeLevels.id, id)))
          .run();
        tx.update(feeLevels).set({ isDefault: true }).where(eq(feeLevels.id, id)).run();
        audit(tx, {
          ...caller,
          action: 'fee_level.set_default',
          entity: 'fee_level',
          entityId: id,
          before: { isDefault: before.isDefault },
          after: { isDefault: true },
        });
      });
      return view(id);
    },
  };
}
