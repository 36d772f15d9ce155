/** Import sessions live in the database (they survive a restart) and expire after a day. */
import { IMPORT_SESSION_TTL_MS, type ImportExecutionResult, type ImportKind, type ImportValidationResult } from '@doanhoi/shared';
import { and, eq, lt } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import type { Db } from '../db/client';
import { forbidden, notFound } from '../lib/errors';
import { importSessions } from './schema';

export interface SessionRow {
  rowNumber: number;
  values: Record<string, string>;
}

export interface ImportSession {
  id: string;
  kind: ImportKind;
  actorId: number | null;
  fileName: string;
  totalRows: number;
  rows: SessionRow[];
  params: Record<string, unknown>;
  validation: ImportValidationResult | null;
  status: 'uploaded' | 'validated' | 'running' | 'completed' | 'failed';
  processedRows: number;
  result: ImportExecutionResult | null;
}

export function createSession(db: Db, s: { kind: ImportKind; actorId: number; fileName: string; rows: SessionRow[]; params: Record<string, unknown> }): string {
  const id = randomUUID();
  db.delete(importSessions).where(lt(importSessions.expiresAt, new Date())).run();
  db.insert(importSessions)
    .values({
      id,
      kind: s.kind,
      actorId: s.actorId,
      fileName: s.fileName,
      totalRows: s.rows.length,
      rows: JSON.stringify(s.rows),
      params: JSON.stringify(s.params),
      expiresAt: new Date(Date.now() + IMPORT_SESSION_TTL_MS),
    })
    .run();
  return id;
}

/** The caller's own, unexpired session of this kind; 404 otherwise (403 for someone else's). */
export function loadSession(db: Db, id: string, kind: ImportKind, actorId: number): ImportSession {
  const row = db.select().from(importSessions).where(and(eq(importSessions.id, id), eq(importSessions.kind, kind))).get();
  if (!row || row.expiresAt.getTime() < Date.now()) notFound('Phiên nhập dữ liệu không tồn tại hoặc đã hết hạn. Vui lòng tải file lên lại');
  if (row!.actorId !== actorId) forbidden('Phiên nhập dữ liệu thuộc về người dùng khác');
  const r = row!;
  return {
    id: r.id,
    kind: r.kind,
    actorId: r.actorId,
    fileName: r.fileName,
    totalRows: r.totalRows,
    rows: JSON.parse(r.rows) as SessionRow[],
    params: JSON.parse(r.params) as Record<string, unknown>,
    validation: r.validation ? (JSON.parse(r.validation) as ImportValidationResult) : null,
    status: r.status,
    processedRows: r.processedRows,
    result: r.result ? (JSON.parse(r.result) as ImportExecutionResult) : null,
  };
}

type Tx = Pick<Db, 'update'>;

export function saveValidation(db: Tx, id: string, v: ImportValidationResult): void {
  db.update(importSessions).set({ validation: JSON.stringify(v), status: 'validated' }).where(eq(importSessions.id, id)).run();
}

export function markProgress(db: Tx, id: string, processedRows: number, status: ImportSession['status'] = 'running'): void {
  db.update(importSessions).set({ processedRows, status }).where(eq(importSessions.id, id)).run();
}

export function saveResult(db: Tx, id: string, result: ImportExecutionResult, status: 'completed' | 'failed'): void {
  db.update(importSessions).set({ result: JSON.stringify(result), status }).where(eq(importSessions.id, id)).run();
}
