/**
 * Remittances up the tree (trích nộp, issue 30 item 5): a unit records what it passed to the level
 * above; that level confirms it. Until then it is pending and the unit still owes it.
 */
import { parseVnDateTime, type CreateRemittance, type Remittance, type RemittanceReport } from '@doanhoi/shared';
import { and, desc, eq, or, sql, type Column } from 'drizzle-orm';
import type { Db } from '../db/client';
import { audit } from '../audit/writer';
import type { Actor } from '../lib/context';
import { conflict, forbidden, notFound, unprocessable } from '../lib/errors';
import { can } from '../access/payments';
import { subtreeFigures, toUnit, unitInCampaign } from './figures';
import { remittances } from '../db/tables/remittances';
import { allRows, firstRow, sqlGet, withTransaction } from '../db/engine';

export const RP = {
  view: 'payment-campaigns.view_remittance',
  remit: 'payment-campaigns.remit',
  confirm: 'payment-campaigns.confirm_remittance',
} as const;

const NOT_FOUND = 'Không tìm thấy khoản trích nộp';
const vnd = (n: number) => `${n.toLocaleString('vi-VN')} ₫`;

/**
 * The names beside a remittance, each a primary-key lookup: sqlite-core aliases of organizations and
 * users would reach PostgreSQL's dialect as joins by the alias name alone.
 */
const orgName = (id: Column) => sql<string>`(SELECT name FROM organizations WHERE id = ${id})`;
const userField = (field: 'family_name' | 'given_name', id: Column) =>
  sql<string | null>`(SELECT ${sql.identifier(field)} FROM users WHERE id = ${id})`;

const name = (u: { familyName: string | null; givenName: string | null }) =>
  u.familyName == null ? null : `${u.familyName} ${u.givenName}`.trim();

function query(db: Db) {
  return db
    .select({
      r: remittances,
      fromName: orgName(remittances.fromOrganizationId),
      toName: orgName(remittances.toOrganizationId),
      creatorFamily: userField('family_name', remittances.createdBy),
      creatorGiven: userField('given_name', remittances.createdBy),
      confirmerFamily: userField('family_name', remittances.confirmedBy),
      confirmerGiven: userField('given_name', remittances.confirmedBy),
    })
    .from(remittances);
}

type Row = Awaited<ReturnType<ReturnType<typeof query>['all']>>[number];

function toRemittance(x: Row): Remittance {
  const r = x.r;
  return {
    id: r.id,
    campaignId: r.campaignId,
    fromOrganizationId: r.fromOrganizationId,
    fromOrganizationName: x.fromName,
    toOrganizationId: r.toOrganizationId,
    toOrganizationName: x.toName,
    amount: r.amount,
    paidAt: r.paidAt.toISOString(),
    note: r.note,
    status: r.status,
    createdBy: r.createdBy,
    createdByName: name({ familyName: x.creatorFamily, givenName: x.creatorGiven }),
    confirmedBy: r.confirmedBy,
    confirmedByName: name({ familyName: x.confirmerFamily, givenName: x.confirmerGiven }),
    confirmedAt: r.confirmedAt?.toISOString() ?? null,
    createdAt: r.createdAt.toISOString(),
  };
}

/** The organization whose officers act on a remittance: the sender (from) or the receiver (to). */
export async function remittanceSide(db: Db, id: number, side: 'from' | 'to'): Promise<number | null> {
  const r = await firstRow(
    db.select({ from: remittances.fromOrganizationId, to: remittances.toOrganizationId }).from(remittances).where(eq(remittances.id, id)),
  );
  return r ? r[side] : null;
}

export function remittancesService(db: Db, actor: Actor, ip: string | null) {
  async function view(id: number): Promise<Remittance> {
    const row = await firstRow(query(db).where(eq(remittances.id, id)));
    if (!row) notFound(NOT_FOUND);
    return toRemittance(row!);
  }

  async function load(id: number) {
    const r = await firstRow(db.select().from(remittances).where(eq(remittances.id, id)));
    if (!r) notFound(NOT_FOUND);
    return r!;
  }

  const snapshot = (r: typeof remittances.$inferSelect) => ({
    campaignId: r.campaignId,
    fromOrganizationId: r.fromOrganizationId,
    toOrganizationId: r.toOrganizationId,
    amount: r.amount,
    paidAt: r.paidAt,
    note: r.note,
    status: r.status,
  });

  return {
    async report(campaignId: number, organizationId: number): Promise<RemittanceReport> {
      const [self, ...units] = await subtreeFigures(db, campaignId, organizationId);
      const sum = (k: 'collected' | 'kept' | 'owedUp' | 'confirmed' | 'pending' | 'outstanding') => units.reduce((s, u) => s + u[k], 0);
      const rows = await allRows(
        query(db)
          .where(
            and(
              eq(remittances.campaignId, campaignId),
              or(eq(remittances.fromOrganizationId, organizationId), eq(remittances.toOrganizationId, organizationId)),
            ),
          )
          .orderBy(desc(remittances.id))
          .limit(500),
      );
      return {
        campaignId,
        organizationId,
        units: [toUnit(self!), ...units.map(toUnit)],
        totals: {
          collected: sum('collected'),
          kept: sum('kept'),
          owedUp: sum('owedUp'),
          confirmed: sum('confirmed'),
          pending: sum('pending'),
          outstanding: sum('outstanding'),
        },
        remittances: rows.map(toRemittance),
      };
    },

    async create(input: CreateRemittance): Promise<Remittance> {
      const { unit } = await unitInCampaign(db, input.campaignId, input.fromOrganizationId);
      if (unit.parentId === null) unprocessable('Tổ chức cấp cao nhất không có cấp trên để nộp');
      const paidAt = input.paidAt ? parseVnDateTime(input.paidAt)! : new Date();
      if (paidAt.getTime() > Date.now() + 24 * 3600_000)
        unprocessable('Ngày nộp không được ở tương lai', { errors: { paidAt: ['Ngày nộp không được ở tương lai'] } });
      const id = await withTransaction(db, async (tx) => {
        // Read again inside the write: two recordings at once cannot both pass the remaining amount.
        const self = (await subtreeFigures(tx as unknown as Db, input.campaignId, input.fromOrganizationId))[0]!;
        const left = self.owedUp - self.confirmed - self.pending;
        if (input.amount > left) {
          const message = `Số tiền nộp (${vnd(input.amount)}) vượt quá số còn phải nộp lên cấp trên (${vnd(Math.max(0, left))})`;
          unprocessable(message, { errors: { amount: [message] } });
        }
        const created = await firstRow(
          tx
            .insert(remittances)
            .values({
              campaignId: input.campaignId,
              fromOrganizationId: unit.id,
              toOrganizationId: unit.parentId!,
              amount: input.amount,
              paidAt,
              note: input.note ?? null,
              createdBy: actor.id,
            })
            .returning(),
        );
        await audit(tx, {
          actorId: actor.id,
          ip,
          action: 'remittance.create',
          entity: 'remittance',
          entityId: created.id,
          organizationId: unit.id,
          organizationIds: [unit.parentId!],
          after: snapshot(created),
        });
        return created.id;
      });
      return view(id);
    },

    /** Only the receiving level (a right held there or above: never through a role in the sender) confirms. */
    async confirm(id: number): Promise<Remittance> {
      const before = await load(id);
      if (!(await can(db, actor, RP.confirm, before.toOrganizationId)))
        forbidden('Chỉ cấp trên nhận tiền mới xác nhận được khoản trích nộp này');
      await withTransaction(db, async (tx) => {
        const after = await firstRow(
          tx
            .update(remittances)
            .set({ status: 'CONFIRMED', confirmedBy: actor.id, confirmedAt: new Date() })
            .where(and(eq(remittances.id, id), eq(remittances.status, 'PENDING')))
            .returning(),
        );
        if (!after) conflict(before.status === 'CONFIRMED' ? 'Khoản trích nộp này đã được xác nhận' : 'Khoản trích nộp này đã bị hủy');
        await audit(tx, {
          actorId: actor.id,
          ip,
          action: 'remittance.confirm',
          entity: 'remittance',
          entityId: id,
          organizationId: before.toOrganizationId,
          organizationIds: [before.fromOrganizationId],
          before: snapshot(before),
          after: snapshot(after!),
        });
      });
      return view(id);
    },

    /** A pending remittance recorded by mistake: the sender withdraws it or the receiver turns it down. */
    async cancel(id: number): Promise<Remittance> {
      const before = await load(id);
      if (!(await can(db, actor, RP.remit, before.fromOrganizationId)) && !(await can(db, actor, RP.confirm, before.toOrganizationId)))
        forbidden();
      await withTransaction(db, async (tx) => {
        const after = await firstRow(
          tx
            .update(remittances)
            .set({ status: 'CANCELLED', cancelledBy: actor.id, cancelledAt: new Date() })
            .where(and(eq(remittances.id, id), eq(remittances.status, 'PENDING')))
            .returning(),
        );
        if (!after) conflict('Chỉ hủy được khoản trích nộp chưa được xác nhận');
        await audit(tx, {
          actorId: actor.id,
          ip,
          action: 'remittance.cancel',
          entity: 'remittance',
          entityId: id,
          organizationId: before.fromOrganizationId,
          organizationIds: [before.toOrganizationId],
          before: snapshot(before),
          after: snapshot(after!),
        });
      });
      return view(id);
    },
  };
}

/** Used by the route guard of GET …/remittance: the unit asked about, else the campaign's organization. */
export async function defaultUnit(db: Db, campaignId: number): Promise<number | null> {
  return (await sqlGet<{ o: number }>(db, sql`SELECT organization_id AS o FROM payment_campaigns WHERE id = ${campaignId}`))?.o ?? null;
}
