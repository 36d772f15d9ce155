import { normalizeText } from '@doanhoi/shared';
import { and, count, eq, inArray, ne, type SQL } from 'drizzle-orm';
import type { SQLiteColumn, SQLiteSelect, SQLiteTable } from 'drizzle-orm/sqlite-core';
import { filterKey } from '../lib/text-filter';
import type { Db } from '../db/client';
import { audit } from '../audit/writer';
import { conflict, conflictOnUnique, notFound } from '../lib/errors';
import type { Table } from '../lib/freshness';
import { cachedTotal, totalPages } from '../lib/totals';
import { allRows, firstRow, runQuery, withTransaction } from '../db/engine';

/**
 * Departments and classes are the same kind of university-wide catalogue: a named row with an
 * optional unique code, an accent-stripped search column, paginated lists with cached totals, and
 * audited writes where a delete is refused while other rows still depend on it. This module holds
 * what the two services do identically; each service keeps its own columns, counts and refusals.
 */

type CatalogueTable = SQLiteTable & { id: SQLiteColumn; code: SQLiteColumn };

type CatalogueRow = { id: number; name: string; code: string | null };

export interface CatalogueSpec<Row extends CatalogueRow, Insert> {
  /** Row and Insert are read off the drizzle table's $inferSelect / $inferInsert. */
  table: CatalogueTable & { $inferSelect: Row; $inferInsert: Insert };
  /** Audit entity, also the prefix of its actions (`class` → `class.create`, `class.bulk_delete`…). */
  entity: string;
  /** The table its list totals count (lib/totals.ts keeps them until that table is written). */
  totals: Table;
  notFound: string;
  codeTaken: string;
  /** What the audit log keeps of a row. */
  snapshot: (row: Row) => Record<string, unknown>;
}

/** A new row's columns as the service sets them; the store derives searchText from name and code. */
type Fields<Insert> = Omit<Insert, 'searchText'> & { name: string; code: string | null };
/** The columns an update sets besides name and code. */
type OtherFields<Insert> = Omit<Insert, 'searchText' | 'name' | 'code'>;

/** Name and code, accent-stripped, so a search for either finds the row. */
function withSearchText<F extends { name: string; code: string | null }>(fields: F) {
  return { ...fields, searchText: normalizeText(`${fields.name} ${fields.code ?? ''}`) };
}

/** One page of a list, in SQL (pass `query.$dynamic()`), so the list's index does the work. */
export function paginate<Q extends SQLiteSelect>(query: Q, q: { page: number; limit: number }) {
  return query.limit(q.limit).offset((q.page - 1) * q.limit);
}

/** The paging fields every list response ends with. */
export function pageInfo(total: number, q: { page: number; limit: number }) {
  return { total, page: q.page, limit: q.limit, totalPages: totalPages(total, q.limit) };
}

/**
 * How many `table` rows point at each of these ids through `column`: one grouped query on the
 * column's index, rows in the order SQLite returns them, ids with none left out.
 */
export async function countsPer(db: Db, table: SQLiteTable, column: SQLiteColumn, ids: number[]): Promise<{ id: number; n: number }[]> {
  if (ids.length === 0) return [];
  return (await allRows(db.select({ id: column, n: count() }).from(table).where(inArray(column, ids)).groupBy(column))) as {
    id: number;
    n: number;
  }[];
}

/** The shared reads and writes of one catalogue table, bound to the caller its writes are audited under. */
export function catalogueStore<Row extends CatalogueRow, Insert>(
  db: Db,
  caller: { actorId: number; ip: string | null },
  spec: CatalogueSpec<Row, Insert>,
) {
  // Typed as any catalogue table: drizzle cannot check column values against a generic table, Fields<Insert> does.
  const table: CatalogueTable = spec.table;
  const { entity } = spec;

  async function findRow(id: number): Promise<Row> {
    const row = (await firstRow(db.select().from(table).where(eq(table.id, id)))) as Row | undefined;
    if (!row) notFound(spec.notFound);
    return row!;
  }

  async function assertCodeFree(code: string | null | undefined, exceptId?: number) {
    if (!code) return;
    const cond = exceptId ? and(eq(table.code, code), ne(table.id, exceptId)) : eq(table.code, code);
    if (await firstRow(db.select({ id: table.id }).from(table).where(cond))) conflict(spec.codeTaken, 'code');
  }

  /** A race past assertCodeFree still ends as 409, not 500. */
  const write = async <T>(fn: () => T | Promise<T>): Promise<T> => await conflictOnUnique({ message: spec.codeTaken, field: 'code' }, fn);

  return {
    findRow,

    /** The list's total for this filter, counted once until the next write. */
    async total(filters: Record<string, unknown>, where: SQL | undefined): Promise<number> {
      return cachedTotal(
        db,
        [spec.totals],
        filterKey(filters),
        async () => (await firstRow(db.select({ n: count() }).from(table).where(where)))!.n,
      );
    },

    /** The insert and its audit row commit together. */
    async create(fields: Fields<Insert>): Promise<Row> {
      await assertCodeFree(fields.code);
      const created = await write(
        async () =>
          await withTransaction(db, async (tx) => {
            const row = (await firstRow(tx.insert(table).values(withSearchText(fields)).returning())) as Row;
            await audit(tx, { ...caller, action: `${entity}.create`, entity, entityId: row.id, after: spec.snapshot(row) });
            return row;
          }),
      );
      return created;
    },

    /** PATCH semantics for name and code: an absent one keeps the row's value. */
    async update(before: Row, patch: { name?: string; code?: string | null }, others: OtherFields<Insert>): Promise<void> {
      await assertCodeFree(patch.code, before.id);
      const fields = {
        ...others,
        name: patch.name ?? before.name,
        code: patch.code === undefined ? before.code : patch.code,
      };
      await write(
        async () =>
          await withTransaction(db, async (tx) => {
            const after = (await firstRow(tx.update(table).set(withSearchText(fields)).where(eq(table.id, before.id)).returning())) as Row;
            await audit(tx, {
              ...caller,
              action: `${entity}.update`,
              entity,
              entityId: before.id,
              before: spec.snapshot(before),
              after: spec.snapshot(after),
            });
          }),
      );
    },

    /**
     * `refuse` throws (409) while other rows still depend on this one. `auditBefore` is taken before
     * the delete, so counts it reads are those the row had.
     */
    async remove(
      id: number,
      refuse: (row: Row) => void | Promise<unknown>,
      auditBefore: (row: Row) => unknown | Promise<unknown> = spec.snapshot,
    ): Promise<void> {
      const before = await findRow(id);
      const recorded = await auditBefore(before);
      await withTransaction(db, async (tx) => {
        await refuse(before);
        await runQuery(tx.delete(table).where(eq(table.id, id)));
        await audit(tx, { ...caller, action: `${entity}.delete`, entity, entityId: id, before: recorded });
      });
    },

    /** All or nothing: one refused row refuses the whole request. Unknown ids are ignored. */
    async bulkRemove(ids: number[], refuse: (rows: Row[]) => void | Promise<unknown>): Promise<{ deletedCount: number }> {
      const deleted = await withTransaction(db, async (tx) => {
        const rows = (await allRows(
          tx
            .select()
            .from(table)
            .where(inArray(table.id, [...new Set(ids)])),
        )) as Row[];
        if (rows.length === 0) return 0;
        await refuse(rows);
        await runQuery(
          tx.delete(table).where(
            inArray(
              table.id,
              rows.map((r) => r.id),
            ),
          ),
        );
        for (const r of rows)
          await audit(tx, { ...caller, action: `${entity}.bulk_delete`, entity, entityId: r.id, before: spec.snapshot(r) });
        return rows.length;
      });
      return { deletedCount: deleted };
    },
  };
}
