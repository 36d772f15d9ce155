/** Import sessions live in the database (they survive a restart) and expire after a day. */
import {
  IMPORT_SESSION_TTL_MS,
  type ImportExecutionResult,
  type ImportKind,
  type ImportStatus,
  type ImportValidationResult,
} from '@doanhoi/shared';
import { and, eq, lt, sql } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import type { Db } from '../db/client';
import { forbidden, notFound } from '../lib/errors';
import { importSessionRows, importSessions } from '../db/tables/imports';
import { firstRow, runQuery, sqlRun, withTransaction } from '../db/engine';

export interface SessionRow {
  rowNumber: number;
  values: Record<string, string>;
}

export interface ImportSessionMeta {
  id: string;
  kind: ImportKind;
  actorId: number | null;
  fileName: string;
  totalRows: number;
  params: Record<string, unknown>;
  status: ImportStatus['status'];
  processedRows: number;
  result: ImportExecutionResult | null;
}

export interface ImportSession extends ImportSessionMeta {
  rows: SessionRow[];
}

export async function createSession(
  db: Db,
  s: { kind: ImportKind; actorId: number; fileName: string; rows: SessionRow[]; params: Record<string, unknown> },
): Promise<string> {
  const id = randomUUID();
  // Serialised before the transaction: a large file's rows take tens of ms to stringify, and the
  // write lock (which request writes wait for) would be held meanwhile.
  const rows = JSON.stringify(s.rows);
  await runQuery(db.delete(importSessions).where(lt(importSessions.expiresAt, new Date())));
  await withTransaction(db, async (tx) => {
    await runQuery(
      tx.insert(importSessions).values({
        id,
        kind: s.kind,
        actorId: s.actorId,
        fileName: s.fileName,
        totalRows: s.rows.length,
        params: JSON.stringify(s.params),
        expiresAt: new Date(Date.now() + IMPORT_SESSION_TTL_MS),
      }),
    );
    await runQuery(tx.insert(importSessionRows).values({ sessionId: id, rows }));
  });
  return id;
}

const META = {
  id: importSessions.id,
  kind: importSessions.kind,
  actorId: importSessions.actorId,
  fileName: importSessions.fileName,
  totalRows: importSessions.totalRows,
  params: importSessions.params,
  status: importSessions.status,
  processedRows: importSessions.processedRows,
  result: importSessions.result,
  expiresAt: importSessions.expiresAt,
};

/**
 * The caller's own, unexpired session of this kind; 404 otherwise (403 for someone else's). The
 * rows (megabytes for a large file) are read only when asked for: status is polled while an import runs.
 */
export function loadSession(db: Db, id: string, kind: ImportKind, actorId: number): Promise<ImportSession>;
export function loadSession(db: Db, id: string, kind: ImportKind, actorId: number, withRows: false): Promise<ImportSessionMeta>;
export async function loadSession(
  db: Db,
  id: string,
  kind: ImportKind,
  actorId: number,
  withRows = true,
): Promise<ImportSessionMeta | ImportSession> {
  const r = (await firstRow(
    db
      .select(META)
      .from(importSessions)
      .where(and(eq(importSessions.id, id), eq(importSessions.kind, kind))),
  )) as Omit<typeof importSessions.$inferSelect, 'validation' | 'createdAt' | 'updatedAt'> | undefined;
  if (!r || r.expiresAt.getTime() < Date.now())
    return notFound('Phiên nhập dữ liệu không tồn tại hoặc đã hết hạn. Vui lòng tải file lên lại');
  if (r.actorId !== actorId) forbidden('Phiên nhập dữ liệu thuộc về người dùng khác');
  const meta: ImportSessionMeta = {
    id: r.id,
    kind: r.kind,
    actorId: r.actorId,
    fileName: r.fileName,
    totalRows: r.totalRows,
    params: JSON.parse(r.params) as Record<string, unknown>,
    status: r.status,
    processedRows: r.processedRows,
    result: r.result ? (JSON.parse(r.result) as ImportExecutionResult) : null,
  };
  if (!withRows) return meta;
  const stored = await firstRow(
    db.select({ rows: importSessionRows.rows }).from(importSessionRows).where(eq(importSessionRows.sessionId, id)),
  );
  return { ...meta, rows: JSON.parse(stored?.rows ?? '[]') as SessionRow[] };
}

type Tx = Pick<Db, 'update' | 'delete'>;

/** Keeps the summary only: the per-row details are recomputed on every validate and execute. */
export async function saveValidation(db: Tx, id: string, v: ImportValidationResult): Promise<void> {
  await runQuery(
    db
      .update(importSessions)
      .set({ validation: JSON.stringify({ isValid: v.isValid, summary: v.summary }), status: 'validated' })
      .where(eq(importSessions.id, id)),
  );
}

export async function markProgress(
  db: Tx,
  id: string,
  processedRows: number,
  status: ImportSessionMeta['status'] = 'running',
): Promise<void> {
  await runQuery(db.update(importSessions).set({ processedRows, status }).where(eq(importSessions.id, id)));
}

/**
 * PostgreSQL, on the pool outside a run's transaction (imports/runs.ts): a running import's progress,
 * committed without waiting for its WAL to reach the disk (`synchronous_commit` off for that one
 * statement's transaction): a flush per batch was ≈ 1.2 ms on the bench, 100 of them in a 10k import.
 * Progress lost in a crash loses nothing: a run cut off kept none of its rows (runs.ts cutOffStatus).
 */
export async function markRunningProgress(db: Db, id: string, processedRows: number): Promise<void> {
  await sqlRun(
    db,
    sql`WITH unflushed AS (SELECT set_config('synchronous_commit', 'off', true))
      UPDATE ${importSessions} SET processed_rows = ${processedRows}, status = 'running', updated_at = ${Date.now()}
      FROM unflushed WHERE ${importSessions.id} = ${id}`,
  );
}

/**
 * A finished session keeps its result for status; a completed one also drops its rows, so the
 * file's passwords are not kept in the database any longer than needed.
 */
export async function saveResult(db: Tx, id: string, result: ImportExecutionResult, status: 'completed' | 'failed'): Promise<void> {
  await runQuery(
    db
      .update(importSessions)
      .set({ result: JSON.stringify(result), status })
      .where(eq(importSessions.id, id)),
  );
  if (status === 'completed') await runQuery(db.delete(importSessionRows).where(eq(importSessionRows.sessionId, id)));
}
