/** Organization reads and writes (000 §7), scoped to what the caller may see. */
import { ALLOWED_PARENTS, hasPermission, holdsAnywhere, normalizeText, type OrganizationType } from '@doanhoi/shared';
import { and, asc, count, eq, gte, inArray, lt, type SQL } from 'drizzle-orm';
import { containsLike } from '../lib/like';
import type { z } from 'zod';
import type {
  createOrganizationSchema,
  OrganizationDetail,
  OrganizationListItem,
  OrganizationSummary,
  updateOrganizationSchema,
} from '@doanhoi/shared';
import { audit } from '../audit/writer';
import type { Actor, Deps } from '../lib/context';
import { conflict, conflictOnUnique, forbidden, invalidField, notFound } from '../lib/errors';
import { totalPages } from '../lib/totals';
import { paymentCampaigns } from '../db/tables/payments';
import { userRoles } from '../db/tables/roles';
import { toSessionUser } from '../access/user-mapper';
import { visibility, visibleCondition, visibleOrg } from '../access/organizations';
import { orgContext, pathIds } from '../access/organization-context';
import { memberPage, searchedMemberPage } from './members-page';
import { codeTaken, ensureCodeFree, resolveParent } from './placement';
import { childPath } from './paths';
import { organizationMemberCounts, organizationMembers, organizations } from '../db/tables/organizations';
import { organizationStats, subtreeFigures } from './stats';
import { buildTree, treeBody } from './tree';
import { subtreeRange } from '../access/scope';
import type { OrganizationNode } from '@doanhoi/shared';
import { allRows, firstRow, runQuery, withTransaction } from '../db/engine';

type OrgRow = typeof organizations.$inferSelect;

/** Each listed organization's own active members, from the trigger-kept counts. */
async function directMemberCounts(db: Deps['db'], ids: number[]): Promise<Map<number, number>> {
  const rows = await allRows(
    db
      .select({ id: organizationMemberCounts.organizationId, n: organizationMemberCounts.direct })
      .from(organizationMemberCounts)
      .where(inArray(organizationMemberCounts.organizationId, ids)),
  );
  return new Map(rows.map((r) => [r.id, r.n]));
}

export function toOrganization(o: OrgRow): OrganizationSummary {
  return {
    id: o.id,
    name: o.name,
    code: o.code,
    type: o.type,
    description: o.description,
    parentId: o.parentId,
    level: pathIds(o.path).length,
    createdAt: o.createdAt.toISOString(),
    updatedAt: o.updatedAt.toISOString(),
  };
}

export function organizationsService({ db }: Deps, actor: Actor, ip: string | null) {
  return {
    async list(q: { page: number; limit: number; search?: string; type?: OrganizationType }) {
      const conds: (SQL | undefined)[] = [visibleCondition(await visibility(db, actor))];
      if (q.type) conds.push(eq(organizations.type, q.type));
      if (q.search) for (const w of normalizeText(q.search).split(' ')) conds.push(containsLike(organizations.searchText, w));
      const where = and(...conds);
      const total = (await firstRow(db.select({ n: count() }).from(organizations).where(where)))!.n;
      const rows = await allRows(
        db
          .select()
          .from(organizations)
          .where(where)
          .orderBy(asc(organizations.path))
          .limit(q.limit)
          .offset((q.page - 1) * q.limit),
      );
      // Pickers show the parent's name (000 §2) and check rights in each row's own context (its ancestors).
      const parentIds = [...new Set(rows.map((r) => r.parentId).filter((id): id is number => id != null))];
      const parentNames = new Map(
        parentIds.length
          ? (
              await allRows(
                db
                  .select({ id: organizations.id, name: organizations.name })
                  .from(organizations)
                  .where(inArray(organizations.id, parentIds)),
              )
            ).map((p) => [p.id, p.name])
          : [],
      );
      const data: OrganizationListItem[] = rows.map((o) => ({
        ...toOrganization(o),
        parentName: o.parentId ? (parentNames.get(o.parentId) ?? null) : null,
        ancestorIds: pathIds(o.path).slice(0, -1),
      }));
      return { data, total, page: q.page, limit: q.limit, totalPages: totalPages(total, q.limit) };
    },

    /**
     * Visible organizations by path order; narrowed by search words, named ids and a limit when asked.
     * `actionable`: only the subtrees where organizations.access is held (the header's switcher),
     * not the units the caller merely belongs to, whose context would empty the menu (issue 25 item 11).
     */
    async accessible(q: { search?: string; limit?: number; ids?: number[]; actionable?: boolean } = {}) {
      const words = normalizeText(q.search).split(' ').filter(Boolean);
      const v = await visibility(db, actor);
      const where = and(
        visibleCondition(q.actionable ? { ...v, memberOrgIds: [] } : v),
        q.ids ? inArray(organizations.id, q.ids) : undefined,
        ...words.map((w) => containsLike(organizations.searchText, w)),
      );
      const query = db.select().from(organizations).where(where).orderBy(asc(organizations.path));
      return (await allRows(q.limit ? query.limit(q.limit) : query)).map((o) => ({
        id: o.id,
        name: o.name,
        code: o.code,
        type: o.type,
        parentId: o.parentId,
        description: o.description,
      }));
    },

    async byType(type: OrganizationType) {
      return (
        await allRows(
          db
            .select()
            .from(organizations)
            .where(and(eq(organizations.type, type), visibleCondition(await visibility(db, actor))))
            .orderBy(asc(organizations.name), asc(organizations.id)),
        )
      ).map(toOrganization);
    },

    async get(id: number): Promise<OrganizationDetail> {
      const o = await visibleOrg(db, actor, id);
      const parent = o.parentId ? await firstRow(db.select().from(organizations).where(eq(organizations.id, o.parentId))) : null;
      const children = await allRows(
        db.select().from(organizations).where(eq(organizations.parentId, id)).orderBy(asc(organizations.name), asc(organizations.id)),
      );
      const memberCount = (await firstRow(
        db
          .select({ n: count() })
          .from(organizationMembers)
          .where(and(eq(organizationMembers.organizationId, id), eq(organizationMembers.isActive, true))),
      ))!.n;
      const campaignCount = (await firstRow(
        db.select({ n: count() }).from(paymentCampaigns).where(eq(paymentCampaigns.organizationId, id)),
      ))!.n;
      // The children's counts as the tree gives them: trigger-kept, shown only to holders of view_member_count.
      const counts =
        this.canViewMemberCounts() && children.length
          ? await directMemberCounts(
              db,
              children.map((c) => c.id),
            )
          : null;
      return {
        ...toOrganization(o),
        parent: parent ? { id: parent.id, name: parent.name, code: parent.code, type: parent.type } : null,
        children: children.map((c) => ({ ...toOrganization(c), memberCount: counts ? (counts.get(c.id) ?? 0) : null })),
        hasChildren: children.length > 0,
        memberCount,
        campaignCount,
        breadcrumb: await this.breadcrumb(id),
      };
    },

    async byTypeCode(type: OrganizationType, code: string) {
      const o = await firstRow(
        db
          .select()
          .from(organizations)
          .where(and(eq(organizations.type, type), eq(organizations.code, code))),
      );
      if (!o) notFound('Không tìm thấy tổ chức');
      return this.get(o!.id);
    },

    async children(id: number) {
      await visibleOrg(db, actor, id);
      return (
        await allRows(
          db.select().from(organizations).where(eq(organizations.parentId, id)).orderBy(asc(organizations.name), asc(organizations.id)),
        )
      ).map(toOrganization);
    },

    async parent(id: number) {
      const o = await visibleOrg(db, actor, id);
      if (!o.parentId) return null;
      return toOrganization((await firstRow(db.select().from(organizations).where(eq(organizations.id, o.parentId))))!);
    },

    async breadcrumb(id: number) {
      const o = await visibleOrg(db, actor, id);
      const ids = pathIds(o.path);
      const rows = new Map((await allRows(db.select().from(organizations).where(inArray(organizations.id, ids)))).map((r) => [r.id, r]));
      return ids
        .map((i) => rows.get(i))
        .filter(Boolean)
        .map((r) => ({ id: r!.id, name: r!.name, code: r!.code, type: r!.type }));
    },

    async members(id: number, q: { page: number; limit: number; search?: string; status?: 'active' | 'ended' }) {
      await visibleOrg(db, actor, id);
      const ended = q.status === 'ended';
      const offset = (q.page - 1) * q.limit;
      const { rows, total } =
        q.search || ended ? await searchedMemberPage(db, id, q.search, q.limit, offset, ended) : await memberPage(db, id, q.limit, offset);
      return {
        members: rows.map(({ u, role, joinedAt, endedAt, endReason, endNote }) => ({
          user: toSessionUser(u),
          role,
          joinedAt: joinedAt.toISOString(),
          ...(ended ? { endedAt: endedAt?.toISOString() ?? null, endReason: endReason ?? null, endNote: endNote ?? null } : {}),
        })),
        total,
        page: q.page,
        limit: q.limit,
        totalPages: totalPages(total, q.limit),
      };
    },

    async create(input: z.output<typeof createOrganizationSchema>) {
      const parent = await resolveParent(db, input.type, input.parentId);
      if (!hasPermission(actor.roles, 'organizations.create', parent ? await orgContext(db, parent.id) : null)) forbidden();
      await ensureCodeFree(db, input.type, input.code);
      const row = await conflictOnUnique(
        { message: codeTaken(input.code), field: 'code' },
        async () =>
          await withTransaction(db, async (tx) => {
            const o = await firstRow(
              tx
                .insert(organizations)
                .values({
                  name: input.name,
                  code: input.code,
                  type: input.type,
                  description: input.description ?? null,
                  parentId: parent?.id ?? null,
                  searchText: normalizeText(`${input.name} ${input.code}`),
                })
                .returning(),
            );
            const path = childPath(parent?.path, o.id);
            await runQuery(tx.update(organizations).set({ path }).where(eq(organizations.id, o.id)));
            await audit(tx, {
              actorId: actor.id,
              action: 'organization.create',
              entity: 'organization',
              entityId: o.id,
              after: { ...o, path },
              ip,
            });
            return { ...o, path };
          }),
      );
      return toOrganization(row);
    },

    async update(id: number, input: z.output<typeof updateOrganizationSchema>) {
      const before = await visibleOrg(db, actor, id);
      // Silently ignoring a new parent would look like success; moving subtrees is not offered.
      if (input.parentId !== undefined && (input.parentId ?? null) !== before.parentId)
        invalidField('parentId', 'Không thể chuyển tổ chức sang tổ chức cấp trên khác');
      const type = input.type ?? before.type;
      if (input.type && input.type !== before.type) {
        const parent = before.parentId
          ? await firstRow(db.select().from(organizations).where(eq(organizations.id, before.parentId)))
          : null;
        const allowed = ALLOWED_PARENTS[input.type];
        if ((parent && !allowed.includes(parent.type)) || (!parent && allowed.length > 0))
          invalidField('type', 'Loại tổ chức mới không phù hợp với tổ chức cấp trên');
        const kids = await allRows(db.select({ type: organizations.type }).from(organizations).where(eq(organizations.parentId, id)));
        if (kids.some((k) => !ALLOWED_PARENTS[k.type].includes(input.type!)))
          invalidField('type', 'Loại tổ chức mới không phù hợp với các tổ chức con');
      }
      const code = input.code ?? before.code;
      if (input.code || input.type) await ensureCodeFree(db, type, code, id);
      const name = input.name ?? before.name;
      const next = {
        name,
        code,
        type,
        description: input.description === undefined ? before.description : (input.description ?? null),
        searchText: normalizeText(`${name} ${code}`),
      };
      const after = await conflictOnUnique(
        { message: codeTaken(code), field: 'code' },
        async () =>
          await withTransaction(db, async (tx) => {
            const o = await firstRow(tx.update(organizations).set(next).where(eq(organizations.id, id)).returning());
            await audit(tx, {
              actorId: actor.id,
              action: 'organization.update',
              entity: 'organization',
              entityId: id,
              before,
              after: o,
              ip,
            });
            return o;
          }),
      );
      return toOrganization(after);
    },

    async remove(id: number) {
      const before = await visibleOrg(db, actor, id);
      const kids = (await firstRow(db.select({ n: count() }).from(organizations).where(eq(organizations.parentId, id))))!.n;
      if (kids > 0) conflict('Không thể xóa tổ chức còn tổ chức con');
      const members = (await firstRow(
        db
          .select({ n: count() })
          .from(organizationMembers)
          .where(and(eq(organizationMembers.organizationId, id), eq(organizationMembers.isActive, true))),
      ))!.n;
      if (members > 0) conflict('Không thể xóa tổ chức còn thành viên');
      // Campaigns keep payment records, so they block the delete (the foreign key would answer 500).
      const campaigns = (await firstRow(db.select({ n: count() }).from(paymentCampaigns).where(eq(paymentCampaigns.organizationId, id))))!
        .n;
      if (campaigns > 0) conflict(`Không thể xóa tổ chức còn ${campaigns} đợt thu phí`);
      await withTransaction(db, async (tx) => {
        // Role grants in the organization go with it (cascade); the audit row keeps who held what.
        const grants = await allRows(
          tx.select({ userId: userRoles.userId, roleId: userRoles.roleId }).from(userRoles).where(eq(userRoles.organizationId, id)),
        );
        await runQuery(tx.delete(organizations).where(eq(organizations.id, id)));
        await audit(tx, {
          actorId: actor.id,
          action: 'organization.delete',
          entity: 'organization',
          entityId: id,
          before: { ...before, roleGrants: grants },
          ip,
        });
      });
      return { message: 'Xóa tổ chức thành công' };
    },

    canViewMemberCounts() {
      return holdsAnywhere(actor.roles, 'organizations.view_member_count');
    },

    /** The visible tree as cached JSON bytes (tree.ts). */
    async tree() {
      return treeBody(db, await visibility(db, actor), this.canViewMemberCounts());
    },

    async stats() {
      const v = await visibility(db, actor);
      return v.all ? await subtreeFigures(db, null) : await organizationStats(db, visibleCondition(v));
    },

    /** The statistics of one organization and everything beneath it that the caller sees (detail pages). */
    async subtreeStats(id: number) {
      const o = await visibleOrg(db, actor, id);
      const v = await visibility(db, actor);
      // The whole subtree is visible (the usual case): its trigger-kept figures; else count the few visible units.
      if (v.all || v.paths.some((p) => o.path.startsWith(p))) return subtreeFigures(db, o);
      const [from, to] = subtreeRange(o.path);
      return organizationStats(db, and(visibleCondition(v), gte(organizations.path, from), lt(organizations.path, to)));
    },

    /**
     * One level of the tree below a node, each child with hasChildren and its member count, so the
     * tree screen opens any node in place without loading the levels beneath (cached rows, tree.ts).
     */
    async childNodes(id: number): Promise<OrganizationNode[]> {
      await visibleOrg(db, actor, id);
      const find = (nodes: OrganizationNode[]): OrganizationNode | undefined => {
        for (const n of nodes) {
          const hit = n.id === id ? n : find(n.children);
          if (hit) return hit;
        }
        return undefined;
      };
      return (find(await buildTree(db, await visibility(db, actor), this.canViewMemberCounts()))?.children ?? []).map((c) => ({
        ...c,
        children: [],
      }));
    },
  };
}
