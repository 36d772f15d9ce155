/**
 * Writing a checked file: the transactions of an execute (service.ts decides which run, and holds the
 * session's lease meanwhile). Each run saves its own result and final status.
 *
 * - All or nothing (skipErrors off): one transaction for the whole file, on both engines.
 * - Skipping errors, SQLite: a transaction per batch, committed with its progress and audit row, so
 *   the one writer lock is never held for the whole file and other writes get in between batches.
 * - Skipping errors, PostgreSQL: one transaction with a savepoint per batch. PostgreSQL has no single
 *   writer lock to hand back, and a hundred commits paid a hundred figure syncs (figures.sync_new_members,
 *   ≈ 87 ms a 100-user batch on the bench, 8.7 s of a 10k import's 17.6 s execute); in one transaction
 *   they run once, at its end (organizations/bulk-members.ts withDeferredFigures). A batch that fails rolls
 *   back to its savepoint and the run stops there keeping the batches before it, as SQLite's does.
 *   Progress is written through the pool, outside the transaction, so status polling sees it; a run cut
 *   off (a crash, a lost connection) leaves nothing written, which status() reports (cutOffStatus). What
 *   its writes lock stays locked until it commits: its new users' codes and e-mails, and the pause rows,
 *   so a second import waits for the first; shared figure rows are written at its end (drizzle-pg 0014).
 */
import type { ImportExecutionResult } from '@doanhoi/shared';
import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/client';
import { isPg } from '../db/postgres';
import { allRows, outsideTransaction, withTransaction } from '../db/engine';
import { analyzeOutgrown } from '../db/pg-stats';
import { auditLogs } from '../db/tables/audit';
import { audit } from '../audit/writer';
import { syncUsersIndex } from '../users/search';
import type { Actor } from '../lib/context';
import { yieldToWriters } from '../lib/writer-gate';
import { withDeferredFigures } from '../organizations/bulk-members';
import { addCounts, newCounts, writeFailure, type Counts, type rowWriter } from './batches';
import type { AnyImportKind, CheckedRow } from './kind';
import { markProgress, markRunningProgress, saveResult } from './session';

export interface Run {
  db: Db;
  def: AnyImportKind;
  session: { id: string; fileName: string };
  actor: Actor;
  ip: string | null;
  writer: ReturnType<typeof rowWriter>;
  /** The checked rows in batches of the run's batchSize. */
  batches: CheckedRow[][];
  rows: number;
  /** What the run has written so far; starts with the check's errors. */
  total: Counts;
  /** The result of counts `c`, with `extra` over it. */
  finish(c: Counts, extra?: Partial<ImportExecutionResult>): ImportExecutionResult;
}

/** Thrown to roll back a dry run's transaction. */
const ROLLBACK = Symbol('dry run');

/** Writes every batch and rolls it back: what a run would do, row by row, with nothing kept. */
export async function rehearse(run: Run, c: Counts): Promise<void> {
  for (const batch of run.batches) {
    const bc = newCounts();
    try {
      await withTransaction(run.db, async (tx) => {
        await run.writer.writeIsolated(tx, batch, bc);
        throw ROLLBACK;
      });
    } catch (err) {
      if (err !== ROLLBACK) throw err;
    }
    addCounts(c, bc);
    await yieldToWriters();
    await new Promise((r) => setImmediate(r));
  }
}

const summaryAudit = (tx: Db, run: Run, after: Record<string, unknown>) =>
  audit(tx, {
    actorId: run.actor.id,
    action: `import.${run.def.kind}`,
    entity: 'import_session',
    entityId: run.session.id,
    after: { fileName: run.session.fileName, ...after },
    ip: run.ip,
  });

/** Each batch written carries its own audit row, so rows committed before a crash are accounted for. */
const batchAudit = (tx: Db, run: Run, batch: CheckedRow[], c: Counts) =>
  audit(tx, {
    actorId: run.actor.id,
    action: `import.${run.def.kind}.batch`,
    entity: 'import_session',
    entityId: run.session.id,
    after: {
      fileName: run.session.fileName,
      fromRow: batch[0]!.rowNumber,
      toRow: batch[batch.length - 1]!.rowNumber,
      importedCount: c.imported,
      skippedCount: c.skipped,
      failedCount: c.failed,
    },
    ip: run.ip,
  });

/** Rows written in one transaction after which the statistics of the tables it grows are checked (db/pg-stats.ts). */
const STATS_CHECK_ROWS = 1_000;

/**
 * PostgreSQL, after each batch of a run in one transaction: the rows handled so far committed at once
 * on the pool for status polling (none of the run's rows are touched), and once the run has written
 * STATS_CHECK_ROWS rows, the statistics of its tables brought up to what it wrote if they count fewer.
 */
async function afterBatch(tx: Db, run: Run, before: number, done: number): Promise<void> {
  if (!isPg(run.db)) return;
  await outsideTransaction(run.db, () => markRunningProgress(run.db, run.session.id, done));
  if (before < STATS_CHECK_ROWS && done >= STATS_CHECK_ROWS) await analyzeOutgrown(tx, run.def.tables, done);
}

/** The result of a run nothing of which was kept. */
function nothingWritten(run: Run, errors: ImportExecutionResult['errors']): ImportExecutionResult {
  return {
    success: false,
    importedCount: 0,
    skippedCount: 0,
    failedCount: run.rows,
    errors,
    message: 'Import thất bại! Không có dữ liệu nào được ghi',
  };
}

async function saveFailed(run: Run, result: ImportExecutionResult, processed: number): Promise<ImportExecutionResult> {
  await saveResult(run.db, run.session.id, result, 'failed');
  await markProgress(run.db, run.session.id, processed, 'failed');
  return result;
}

/** Everything in one transaction, or nothing; on a failure, a rehearsal row by row tells which rows failed. */
export async function allOrNothing(run: Run): Promise<ImportExecutionResult> {
  const { db, writer } = run;
  await run.def.prepare?.(run.batches.flat().filter(writer.toWrite));
  try {
    return await withTransaction(db, async (tx) => {
      let done = 0;
      await withDeferredFigures(tx, async () => {
        for (const batch of run.batches) {
          await writer.writeAllOrNothing(tx, batch, run.total);
          await afterBatch(tx, run, done, (done += batch.length));
        }
      });
      await summaryAudit(tx, run, { importedCount: run.total.imported });
      // The status commits with the rows: a session left 'running' wrote nothing (cutOffStatus).
      const result = run.finish(run.total);
      await markProgress(tx, run.session.id, run.rows, 'completed');
      await saveResult(tx, run.session.id, result, 'completed');
      return result;
    });
  } catch (err) {
    const found = newCounts();
    await rehearse(run, found);
    return await saveFailed(run, nothingWritten(run, found.errors.length ? found.errors : [{ row: 0, message: writeFailure(err) }]), 0);
  }
}

/** Why a run stopped at batch `at`: the error, and the result it ends with (earlier batches kept). */
function stopped(run: Run, batch: CheckedRow[], done: number, err: unknown): ImportExecutionResult {
  return run.finish(run.total, {
    success: false,
    failedCount: run.total.failed + run.rows - done,
    message: `Import dừng ở dòng ${batch[0]!.rowNumber}: ${writeFailure(err)}. Đã nhập ${run.total.imported} dòng trước đó; các dòng còn lại chưa được nhập`,
  });
}

async function completed(tx: Db, run: Run): Promise<ImportExecutionResult> {
  const result = run.finish(run.total);
  await summaryAudit(tx, run, { importedCount: run.total.imported, failedCount: run.total.failed });
  await markProgress(tx, run.session.id, run.rows, 'completed');
  await saveResult(tx, run.session.id, result, 'completed');
  return result;
}

/** Rows failing at write time reported and skipped; a batch failing as a whole stops the run, keeping the batches before it. */
export function skippingErrors(run: Run): Promise<ImportExecutionResult> {
  return isPg(run.db) ? inOneTransaction(run) : batchByBatch(run);
}

async function batchByBatch(run: Run): Promise<ImportExecutionResult> {
  const { db, writer } = run;
  let done = 0;
  for (const batch of run.batches) {
    const c = newCounts();
    try {
      await run.def.prepare?.(batch.filter(writer.toWrite));
      await withTransaction(db, async (tx) => {
        await writer.writeIsolated(tx, batch, c);
        await markProgress(tx, run.session.id, done + batch.length);
        await batchAudit(tx, run, batch, c);
      });
    } catch (err) {
      // Earlier batches stay written (and counted); this one was rolled back.
      return await saveFailed(run, stopped(run, batch, done, err), done);
    }
    done += batch.length;
    addCounts(run.total, c);
    syncUsersIndex(db);
    await yieldToWriters(); // a request's write waiting for the lock gets it now
    await new Promise((r) => setImmediate(r)); // let status requests in between batches
  }
  return await withTransaction(db, (tx) => completed(tx, run));
}

async function inOneTransaction(run: Run): Promise<ImportExecutionResult> {
  const { db, writer, batches } = run;
  // Passwords hashed before the transaction opens (STYLE rule 8): its locks are then held for writing
  // only. A batch whose preparation fails stops the run there, as it does batch by batch.
  let stop: { at: number; err: unknown } | null = null;
  for (let i = 0; i < batches.length && !stop; i++) {
    try {
      await run.def.prepare?.(batches[i]!.filter(writer.toWrite));
    } catch (err) {
      stop = { at: i, err };
    }
  }
  let done = 0;
  try {
    return await withTransaction(db, async (tx) => {
      await withDeferredFigures(tx, async () => {
        for (let i = 0; i < (stop?.at ?? batches.length); i++) {
          const batch = batches[i]!;
          const c = newCounts();
          try {
            // A savepoint: a batch that throws is undone alone.
            await withTransaction(tx, async (sp) => {
              await writer.writeIsolated(sp, batch, c);
              await batchAudit(sp, run, batch, c);
            });
          } catch (err) {
            stop = { at: i, err };
            break;
          }
          addCounts(run.total, c);
          await afterBatch(tx, run, done, (done += batch.length));
        }
      });
      if (!stop) return await completed(tx, run);
      const result = stopped(run, batches[stop.at]!, done, stop.err);
      await saveResult(tx, run.session.id, result, 'failed');
      await markProgress(tx, run.session.id, done, 'failed');
      return result;
    });
  } catch (err) {
    // The figures' sync, the commit or the connection failed: the transaction kept nothing.
    return await saveFailed(run, nothingWritten(run, [{ row: 0, message: writeFailure(err) }]), 0);
  }
}

/**
 * A session 'running' in the database that no process runs was cut off. SQLite: its committed batches
 * stay, and so does the progress committed with them. PostgreSQL: every run is one transaction whose
 * status commits with its rows, so nothing of it was kept, whatever progress it showed — unless its
 * audit rows committed (a run of the code before this one, batch by batch, or cut off between an
 * all-or-nothing commit and its status): what they count was kept.
 */
export async function cutOffStatus(db: Db, session: { id: string; kind: string; totalRows: number; processedRows: number }) {
  if (!isPg(db)) return { processedRows: session.processedRows, result: null };
  const audits = await allRows(
    db
      .select({ action: auditLogs.action, after: auditLogs.after })
      .from(auditLogs)
      .where(
        and(
          eq(auditLogs.entity, 'import_session'),
          eq(auditLogs.entityId, session.id),
          inArray(auditLogs.action, [`import.${session.kind}`, `import.${session.kind}.batch`]),
        ),
      ),
  );
  type Counted = { importedCount?: number; skippedCount?: number; failedCount?: number };
  const whole = audits.find((a) => a.action === `import.${session.kind}`);
  const kept = newCounts();
  for (const a of whole ? [whole] : audits) {
    const c = JSON.parse(a.after ?? '{}') as Counted;
    kept.imported += c.importedCount ?? 0;
    kept.skipped += c.skippedCount ?? 0;
    kept.failed += c.failedCount ?? 0;
  }
  const processedRows = whole ? session.totalRows : kept.imported + kept.skipped + kept.failed;
  const result: ImportExecutionResult = {
    success: false,
    importedCount: kept.imported,
    skippedCount: kept.skipped,
    failedCount: kept.failed,
    errors: [],
    message:
      processedRows === 0
        ? 'Import bị gián đoạn; không có dòng nào được ghi. Vui lòng thực hiện lại'
        : `Import bị gián đoạn; đã nhập ${kept.imported} dòng, các dòng còn lại chưa được nhập`,
  };
  return { processedRows, result };
}
