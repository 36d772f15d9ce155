/**
 * Transfers (chuyển sinh hoạt, issue 30 item 1). A request names the member, the sending and
 * receiving units, a reason and the day it takes effect. The sending unit's admins (or the member
 * themself) ask and the receiving unit's admins decide; an admin of the receiving unit may ask too
 * (their add-member was outside their reach), and then the sending unit's admins decide. Nothing
 * moves before acceptance; acceptance ends the old memberships (reason 'transferred', on that day)
 * and starts the new ones in one transaction. Fees already assigned stay with their campaigns.
 * Audit rows are on the user (entity 'user'), so the member's history reads them.
 */
import { normalizeText, type OrganizationRef } from '@doanhoi/shared';
import { and, asc, eq } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { audit } from '../audit/writer';
import type { Actor, Deps } from '../lib/context';
import { conflict, conflictOnUnique, forbidden, invalidField, notFound } from '../lib/errors';
import { containsLike } from '../lib/like';
import { pathIds } from '../access/organization-context';
import { joinAll } from '../organizations/membership';
import { dayStart, endMemberships, leavingPlan } from '../organizations/membership-end';
import { activeMemberships } from '../organizations/removal';
import { organizations } from '../db/tables/organizations';
import { revokeRolesInUnitsLeft } from '../roles/leave';
import { users } from '../db/tables/users';
import { DECIDE_CODES, decidingOrg, holdsIn, REQUEST_CODES, transferScope } from './access';
import { canSee, listTransfers, transferById, type ListQuery } from './list';
import { transfers } from '../db/tables/transfers';
import { allRows, firstRow, runQuery, withTransaction } from '../db/engine';
import { someInOrder } from '../lib/in-order';

export interface CreateTransfer {
  userId: number;
  fromOrganizationId: number;
  toOrganizationId: number;
  reason: string;
  effectiveDate: string;
}

const PENDING_TAKEN = 'Thành viên này đã có một yêu cầu chuyển sinh hoạt đang chờ duyệt';

export function transfersService({ db }: Deps, actor: Actor, ip: string | null) {
  const org = async (id: number, field: string) => {
    const o = await firstRow(db.select().from(organizations).where(eq(organizations.id, id)));
    if (!o) invalidField(field, 'Không tìm thấy tổ chức');
    return o!;
  };
  const row = async (tx: Pick<Db, 'select'>, id: number) => await firstRow(tx.select().from(transfers).where(eq(transfers.id, id)));

  /** The request, for a decision: 404 only when there is none, so an admin without the right reads a 403. */
  const find = async (id: number) => {
    const t = await transferById(db, actor, id);
    if (!t) notFound('Không tìm thấy yêu cầu chuyển sinh hoạt');
    return t!;
  };

  /** The request as the caller may see it; 404 when they may not. */
  const visible = async (id: number) => {
    const t = await transferById(db, actor, id);
    if (!t) notFound('Không tìm thấy yêu cầu chuyển sinh hoạt');
    const paths = async (oid: number) =>
      (await firstRow(db.select({ path: organizations.path }).from(organizations).where(eq(organizations.id, oid))))?.path ?? '';
    if (
      !canSee(await transferScope(db, actor), actor, t!, { from: await paths(t!.fromOrganizationId), to: await paths(t!.toOrganizationId) })
    )
      notFound('Không tìm thấy yêu cầu chuyển sinh hoạt');
    return t!;
  };

  /** Moves PENDING to `status` only if it still is (a concurrent decision loses with a 409). */
  const settle = async (tx: Tx, id: number, set: Partial<typeof transfers.$inferInsert>) => {
    const changed = (
      await runQuery(
        tx
          .update(transfers)
          .set({ ...set, updatedAt: new Date() })
          .where(and(eq(transfers.id, id), eq(transfers.status, 'PENDING'))),
      )
    ).changes;
    if (changed === 0) conflict('Yêu cầu này đã được xử lý');
  };

  const auditRow = (tx: Tx, action: string, t: typeof transfers.$inferSelect, extra: Record<string, unknown> = {}, more: number[] = []) =>
    audit(tx, {
      actorId: actor.id,
      action,
      entity: 'user',
      entityId: t.userId,
      organizationId: action === 'transfer.request' ? t.fromOrganizationId : decidingOrg(t),
      organizationIds: [...new Set([t.fromOrganizationId, t.toOrganizationId, ...more])],
      after: {
        transferId: t.id,
        userId: t.userId,
        fromOrganizationId: t.fromOrganizationId,
        toOrganizationId: t.toOrganizationId,
        effectiveDate: t.effectiveDate,
        ...extra,
      },
      ip,
    });

  const pendingOf = async (userId: number) =>
    await firstRow(
      db
        .select({ id: transfers.id })
        .from(transfers)
        .where(and(eq(transfers.userId, userId), eq(transfers.status, 'PENDING'))),
    );

  return {
    list: (q: ListQuery) => listTransfers(db, actor, q),
    get: (id: number) => visible(id),

    async create(input: CreateTransfer) {
      const from = await org(input.fromOrganizationId, 'fromOrganizationId');
      const to = await org(input.toOrganizationId, 'toOrganizationId');
      const self = input.userId === actor.id;
      let side: 'from' | 'to';
      if (await holdsIn(db, actor, REQUEST_CODES, from.id)) side = 'from';
      else if (self) side = 'from';
      else if (await holdsIn(db, actor, REQUEST_CODES, to.id)) side = 'to';
      else return forbidden('Bạn chỉ có thể đề nghị chuyển sinh hoạt cho chính mình, hoặc cho thành viên của đơn vị bạn quản lý');
      const u = await firstRow(db.select({ id: users.id }).from(users).where(eq(users.id, input.userId)));
      if (!u) notFound('Không tìm thấy người dùng');
      if (from.id === to.id) invalidField('toOrganizationId', 'Đơn vị chuyển đến phải khác đơn vị chuyển đi');
      if (from.path.startsWith(to.path) || to.path.startsWith(from.path))
        invalidField('toOrganizationId', 'Đơn vị chuyển đến không được là cấp trên hay cấp dưới của đơn vị chuyển đi');
      const memberships = await activeMemberships(db, input.userId);
      if (!memberships.some((m) => m.id === from.id))
        invalidField('fromOrganizationId', `Người dùng không phải thành viên đang sinh hoạt của ${from.name}`);
      if (memberships.some((m) => m.id === to.id)) invalidField('toOrganizationId', `Người dùng đã là thành viên của ${to.name}`);
      if (await pendingOf(input.userId)) conflict(PENDING_TAKEN, 'userId');
      const id = await conflictOnUnique(
        { message: PENDING_TAKEN, field: 'userId' },
        async () =>
          await withTransaction(db, async (tx) => {
            const t = await firstRow(
              tx
                .insert(transfers)
                .values({
                  userId: input.userId,
                  fromOrganizationId: from.id,
                  toOrganizationId: to.id,
                  reason: input.reason,
                  effectiveDate: input.effectiveDate,
                  requestedSide: side,
                  requestedBy: actor.id,
                })
                .returning(),
            );
            await auditRow(tx, 'transfer.request', t, { reason: t.reason, requestedSide: side });
            return t.id;
          }),
      );
      return (await transferById(db, actor, id))!;
    },

    /** On acceptance, in one transaction: the old units are left on the day (reason 'transferred'), the new unit and its parents joined. */
    async accept(id: number) {
      const seen = await find(id);
      if (!(await holdsIn(db, actor, DECIDE_CODES, decidingOrg(seen))))
        forbidden('Chỉ quản trị viên của đơn vị nhận (hoặc của đơn vị được hỏi ý kiến) mới được duyệt yêu cầu này');
      if (seen.status !== 'PENDING') conflict('Yêu cầu này đã được xử lý');
      await withTransaction(db, async (tx) => {
        const t = (await row(tx, id))!;
        await settle(tx, id, { status: 'ACCEPTED', decidedBy: actor.id, decidedAt: new Date() });
        const from = (await firstRow(tx.select().from(organizations).where(eq(organizations.id, t.fromOrganizationId))))!;
        const to = (await firstRow(tx.select().from(organizations).where(eq(organizations.id, t.toOrganizationId))))!;
        const mine = await activeMemberships(tx, t.userId);
        if (!mine.some((m) => m.id === from.id))
          conflict(`Thành viên không còn sinh hoạt tại ${from.name}; hãy từ chối hoặc hủy yêu cầu này`);
        const toChain = pathIds(to.path);
        const plan = leavingPlan(mine, from.path, () => true, new Set(toChain));
        const ended = plan.leaves.map((m) => m.id);
        await endMemberships(tx, t.userId, ended, { reason: 'transferred', endedAt: t.effectiveDate, note: t.reason });
        const joined = await joinAll(tx, toChain, t.userId, () => 'member', dayStart(t.effectiveDate));
        await auditRow(tx, 'transfer.accept', t, { ended, joined }, [...ended, ...joined]);
        await revokeRolesInUnitsLeft(tx, actor.id, ip, [{ userId: t.userId, organizationIds: ended }]);
      });
      return (await transferById(db, actor, id))!;
    },

    async refuse(id: number, reason: string) {
      const seen = await find(id);
      if (!(await holdsIn(db, actor, DECIDE_CODES, decidingOrg(seen))))
        forbidden('Chỉ quản trị viên của đơn vị nhận (hoặc của đơn vị được hỏi ý kiến) mới được từ chối yêu cầu này');
      if (seen.status !== 'PENDING') conflict('Yêu cầu này đã được xử lý');
      await withTransaction(db, async (tx) => {
        await settle(tx, id, { status: 'REFUSED', decidedBy: actor.id, decidedAt: new Date(), refuseReason: reason });
        await auditRow(tx, 'transfer.refuse', (await row(tx, id))!, { reason });
      });
      return (await transferById(db, actor, id))!;
    },

    /** Withdrawn by whoever asked: the requester, the requesting side's admins, or the member for a request of theirs. */
    async cancel(id: number) {
      const seen = await find(id);
      if (seen.status !== 'PENDING') conflict('Yêu cầu này đã được xử lý');
      if (!seen.canCancel) forbidden('Chỉ bên đề nghị mới được hủy yêu cầu này');
      await withTransaction(db, async (tx) => {
        await settle(tx, id, { status: 'CANCELLED', decidedBy: actor.id, decidedAt: new Date() });
        await auditRow(tx, 'transfer.cancel', (await row(tx, id))!);
      });
      return (await transferById(db, actor, id))!;
    },

    /** The portal's picker: units a member may ask to move to, by name or code. */
    async units(q: { search?: string; limit: number }): Promise<OrganizationRef[]> {
      const words = normalizeText(q.search ?? '')
        .split(' ')
        .filter(Boolean);
      return await allRows(
        db
          .select({ id: organizations.id, name: organizations.name, code: organizations.code, type: organizations.type })
          .from(organizations)
          .where(and(...words.map((w) => containsLike(organizations.searchText, w))))
          .orderBy(asc(organizations.path))
          .limit(q.limit),
      );
    },

    /**
     * The request dialogs' lookup by member code: who they are and their current units, for a
     * caller who may ask on either side (an admin of one of those units, or of `toOrganizationId`).
     */
    async candidate(code: string, toOrganizationId?: number) {
      const u = await firstRow(
        db
          .select({ id: users.id, code: users.code, familyName: users.familyName, givenName: users.givenName })
          .from(users)
          .where(eq(users.code, code.trim())),
      );
      const memberships = u ? await activeMemberships(db, u.id) : [];
      const units = memberships.filter((m) => !memberships.some((o) => o.id !== m.id && o.path.startsWith(m.path)));
      const mayAsk =
        (toOrganizationId != null && (await holdsIn(db, actor, REQUEST_CODES, toOrganizationId))) ||
        (await someInOrder(units, (m) => holdsIn(db, actor, REQUEST_CODES, m.id)));
      if (!mayAsk) forbidden();
      if (!u) notFound('Không tìm thấy người dùng');
      return {
        user: u!,
        units: units.map(({ id, name, code: c, type }) => ({ id, name, code: c, type })),
        pending: !!(await pendingOf(u!.id)),
      };
    },

    /** The portal: the member's own units (the deepest of each chain) and their requests. */
    async mine() {
      const memberships = await activeMemberships(db, actor.id);
      const units = memberships.filter((m) => !memberships.some((o) => o.id !== m.id && o.path.startsWith(m.path)));
      return {
        units: units.map(({ id, name, code, type }) => ({ id, name, code, type })),
        transfers: (await listTransfers(db, actor, { page: 1, limit: 20, userId: actor.id })).data,
      };
    },
  };
}
