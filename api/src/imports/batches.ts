/** Writing checked rows inside a transaction, and counting what happened to each. */
import type { ImportOptions } from '@doanhoi/shared';
import type { Actor } from '../lib/context';
import { isUniqueViolation } from '../lib/errors';
import type { AnyImportKind, CheckedRow, Outcome, Tx } from './kind';
import { logger } from '../lib/logger';
import { withTransaction } from '../db/engine';
import { mapInOrder } from '../lib/in-order';

export interface Counts {
  imported: number;
  skipped: number;
  failed: number;
  errors: { row: number; message: string }[];
}

/** The longest stretch of row checking before other requests get the event loop back (issue 12). */
const SLICE_MS = 15;

/** `rows.map(fn)` that hands the event loop back every SLICE_MS, so validating a large file never blocks other requests for long. */
export async function mapInSlices<T, R>(rows: readonly T[], fn: (row: T, index: number) => R): Promise<R[]> {
  const out: R[] = [];
  let slice = performance.now();
  for (let i = 0; i < rows.length; i++) {
    out.push(fn(rows[i]!, i));
    if (performance.now() - slice > SLICE_MS) {
      await new Promise((r) => setImmediate(r));
      slice = performance.now();
    }
  }
  return out;
}

export const newCounts = (): Counts => ({ imported: 0, skipped: 0, failed: 0, errors: [] });

export function addCounts(to: Counts, from: Counts): void {
  to.imported += from.imported;
  to.skipped += from.skipped;
  to.failed += from.failed;
  to.errors.push(...from.errors);
}

export function writeFailure(err: unknown): string {
  if (isUniqueViolation(err)) return 'Trùng với dữ liệu đã có (mã hoặc email)';
  logger.error({ err }, 'import row write failed');
  return 'Không ghi được dòng này';
}

/** The rows of one import run, written with its options. */
export function rowWriter(def: AnyImportKind, options: ImportOptions, actor: Actor, params: Record<string, unknown>) {
  /** Valid, and either new or an existing record the caller chose to update. */
  const toWrite = (r: CheckedRow) => r.errors.length === 0 && (r.existingId == null || options.updateExisting);
  const count = (c: Counts, outcome: Outcome) => (outcome === 'unchanged' ? c.skipped++ : c.imported++);
  const writeAll = async (tx: Tx, rows: CheckedRow[]): Promise<Outcome[]> =>
    def.writeBatch && rows.length > 1
      ? await def.writeBatch(tx, rows, options, actor, params)
      : await mapInOrder(rows, (r) => def.write(tx, r, options, actor, params));

  return {
    toWrite,

    /**
     * Writes a batch so that a row failing at write time is rolled back alone and reported: the
     * batch writer first, in a savepoint; if it throws, row by row, each in its own savepoint.
     */
    async writeIsolated(tx: Tx, batch: CheckedRow[], c: Counts): Promise<void> {
      const writes = batch.filter(toWrite);
      let outcomes: Outcome[] | null = null;
      if (def.writeBatch && writes.length > 1) {
        try {
          outcomes = await withTransaction(tx, async (sp) => writeAll(sp, writes));
        } catch {
          outcomes = null; // rolled back to the savepoint: find the failing rows one by one
        }
      }
      let k = 0;
      for (const r of batch) {
        if (r.errors.length > 0) c.failed++;
        else if (!toWrite(r)) c.skipped++;
        else if (outcomes) count(c, outcomes[k++]!);
        else {
          try {
            count(c, await withTransaction(tx, async (sp) => def.write(sp, r, options, actor, params)));
          } catch (err) {
            c.failed++;
            c.errors.push({ row: r.rowNumber, message: writeFailure(err) });
          }
        }
      }
    },

    /** Writes a batch with no savepoints: any failure throws and the caller's transaction rolls back. */
    async writeAllOrNothing(tx: Tx, batch: CheckedRow[], c: Counts): Promise<void> {
      const outcomes = await writeAll(tx, batch.filter(toWrite));
      let k = 0;
      for (const r of batch) {
        if (r.errors.length > 0) c.failed++;
        else if (!toWrite(r)) c.skipped++;
        else count(c, outcomes[k++]!);
      }
    },
  };
}
