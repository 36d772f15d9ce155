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
import { allRows, firstRow, runQuery, withTransaction } from '../db/engine';

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

  async function findRow(id: number): Promise<FeeLevelRow> {
    const row = await firstRow(db.select().from(feeLevels).where(eq(feeLevels.id, id)));
    if (!row) notFound(NOT_FOUND);
    return row!;
  }

  async function view(id: number): Promise<FeeLevel> {
    return toFeeLevel(await findRow(id), (await feeLevelUsage(db, [id])).get(id) ?? 0);
  }

  return {
    async listByCampaign(campaignId: number): Promise<{ feeLevels: FeeLevel[] }> {
      await loadCampaign(db, campaignId);
      const rows = await allRows(
        db.select().from(feeLevels).where(eq(feeLevels.campaignId, campaignId)).orderBy(asc(feeLevels.orderIndex), asc(feeLevels.id)),
      );
      const usage = await feeLevelUsage(
        db,
        rows.map((r) => r.id),
      );
      return { feeLevels: rows.map((r) => toFeeLevel(r, usage.get(r.id) ?? 0)) };
    },

    get: view,

    async create(input: CreateFeeLevel): Promise<FeeLevel> {
      const campaign = await loadCampaign(db, input.campaignId);
      assertWritable(campaign, 'thêm mức phí');
      const row = await withTransaction(db, async (tx) => {
        const existing = (await firstRow(tx.select({ n: count() }).from(feeLevels).where(eq(feeLevels.campaignId, campaign.id))))!.n;
        const created = await firstRow(
          tx
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
            .returning(),
        );
        await audit(tx, { ...caller, action: 'fee_level.create', entity: 'fee_level', entityId: created.id, after: snapshot(created) });
        return created;
      });
      return toFeeLevel(row, 0);
    },

    /**
     * A new amount applies to the level's assignments that have received nothing (docs/decisions.md);
     * their open links, made for the old amount, are closed at payOS and here (issue 11.2).
     */
    async update(id: number, input: UpdateFeeLevel): Promise<FeeLevel> {
      const before = await findRow(id);
      assertWritable(await loadCampaign(db, before.campaignId), 'sửa mức phí');
      const amountChanged = input.amount !== undefined && input.amount !== before.amount;
      // Exempted and reduced fees keep the treasurer's amount (issue 15.3).
      const unpaid = and(
        eq(paymentAssignments.feeLevelId, id),
        ne(paymentAssignments.status, 'PAID'),
        isNull(paymentAssignments.paidAmount),
        isNull(paymentAssignments.adjustment),
      );
      const unpaidIds = amountChanged
        ? (await allRows(db.select({ id: paymentAssignments.id }).from(paymentAssignments).where(unpaid))).map((r) => r.id)
        : [];
      const links = unpaidIds.length ? await openOrders(db, inArray(paymentOrders.assignmentId, unpaidIds)) : [];
      if (unpaidIds.length) await cancelAtPayos(deps, links, 'Số tiền mức phí đã thay đổi');
      await withTransaction(db, async (tx) => {
        if (amountChanged) {
          // A link opened while payOS was asked was never closed there: 409 rather than leave it payable for the old amount.
          if (unpaidIds.length) await closeOpenOrders(tx, inArray(paymentOrders.assignmentId, unpaidIds), new Date(), links);
          await runQuery(tx.update(paymentAssignments).set({ amount: input.amount! }).where(unpaid));
        }
        const after = await firstRow(
          tx
            .update(feeLevels)
            .set({
              levelName: input.levelName ?? before.levelName,
              amount: input.amount ?? before.amount,
              description: input.description === undefined ? before.description : input.description,
              note: input.note === undefined ? before.note : input.note,
              orderIndex: input.orderIndex ?? before.orderIndex,
            })
            .where(eq(feeLevels.id, id))
            .returning(),
        );
        await audit(tx, {
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

    async remove(id: number): Promise<void> {
      const before = await findRow(id);
      assertWritable(await loadCampaign(db, before.campaignId), 'xóa mức phí');
      const used = (await feeLevelUsage(db, [id])).get(id) ?? 0;
      if (used > 0)
        conflict(
          `Không thể xóa mức phí "${before.levelName}" vì đã có ${used} thành viên được phân công. Hãy đổi mức phí của các thành viên này trước`,
        );
      await withTransaction(db, async (tx) => {
        await runQuery(tx.delete(feeLevels).where(eq(feeLevels.id, id)));
        if (before.isDefault) {
          const next = await firstRow(
            tx
              .select({ id: feeLevels.id })
              .from(feeLevels)
              .where(eq(feeLevels.campaignId, before.campaignId))
              .orderBy(asc(feeLevels.orderIndex), asc(feeLevels.id)),
          );
          if (next) await runQuery(tx.update(feeLevels).set({ isDefault: true }).where(eq(feeLevels.id, next.id)));
        }
        await audit(tx, { ...caller, action: 'fee_level.delete', entity: 'fee_level', entityId: id, before: snapshot(before) });
      });
    },

    async setDefault(id: number): Promise<FeeLevel> {
      const before = await findRow(id);
      assertWritable(await loadCampaign(db, before.campaignId), 'đổi mức phí mặc định');
      await withTransaction(db, async (tx) => {
        await runQuery(
          tx
            .update(feeLevels)
            .set({ isDefault: false })
            .where(and(eq(feeLevels.campaignId, before.campaignId), ne(feeLevels.id, id))),
        );
        await runQuery(tx.update(feeLevels).set({ isDefault: true }).where(eq(feeLevels.id, id)));
        await audit(tx, {
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
