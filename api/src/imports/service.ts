/**
 * Upload → validate → execute → status, for every importable resource. Rows are written in
 * batches, each in one transaction together with the session's progress, so a crash half-way
 * leaves consistent data and a status that tells how far it got.
 */
import type { ImportExecutionResult, ImportOptions, ImportValidationResult } from '@doanhoi/shared';
import { invalidateActors } from '../auth/actor';
import { audit } from '../lib/audit';
import type { Actor, Deps } from '../lib/context';
import { isUniqueViolation } from '../lib/errors';
import { invalidateTotals } from '../lib/totals';
import type { AnyImportKind, CheckedRow } from './kind';
import { createSession, loadSession, markProgress, saveResult, saveValidation } from './session';
import { readSheet } from './workbook';

const PREVIEW_ROWS = 10;

function summarize(checked: CheckedRow<unknown>[]): ImportValidationResult {
  const errors: { row: number; message: string }[] = [];
  const warnings: { row: number; message: string }[] = [];
  let valid = 0;
  let duplicates = 0;
  let conflicts = 0;
  for (const r of checked) {
    if (r.errors.length === 0) valid++;
    if (r.duplicate) duplicates++;
    if (r.existingId != null) conflicts++;
    for (const m of r.errors) errors.push({ row: r.rowNumber, message: m });
    for (const m of r.warnings) warnings.push({ row: r.rowNumber, message: m });
  }
  return {
    isValid: errors.length === 0,
    summary: { total: checked.length, valid, invalid: checked.length - valid, duplicates, conflicts },
    errors,
    warnings,
    data: checked.map((r) => ({
      rowIndex: r.rowNumber,
      data: r.data as Record<string, unknown>,
      validation: { isValid: r.errors.length === 0, errors: r.errors, warnings: r.warnings, action: r.existingId != null ? 'update' : 'create' },
    })),
  };
}

export function importService(def: AnyImportKind, { db }: Deps, actor: Actor, ip: string | null) {
  return {
    async upload(file: File, params: Record<string, unknown>) {
      const buffer = new Uint8Array(await file.arrayBuffer());
      const sheet = await readSheet(buffer, file.name, def.columns(params));
      const sessionId = createSession(db, { kind: def.kind, actorId: actor.id, fileName: file.name, rows: sheet.rows, params });
      return {
        sessionId,
        fileName: file.name,
        totalRows: sheet.rows.length,
        previewData: sheet.rows.slice(0, PREVIEW_ROWS).map((r) => ({ rowIndex: r.rowNumber, ...r.values })),
        ignoredColumns: sheet.unknownHeaders,
      };
    },

    validate(sessionId: string): ImportValidationResult {
      const s = loadSession(db, sessionId, def.kind, actor.id);
      const result = summarize(def.check(db, s.rows, actor, s.params));
      saveValidation(db, s.id, result);
      return result;
    },

    status(sessionId: string) {
      const s = loadSession(db, sessionId, def.kind, actor.id);
      return { sessionId: s.id, fileName: s.fileName, status: s.status, totalRows: s.totalRows, processedRows: s.processedRows, result: s.result };
    },

    async execute(sessionId: string, options: ImportOptions): Promise<ImportExecutionResult> {
      const s = loadSession(db, sessionId, def.kind, actor.id);
      if (s.status === 'running') return { success: false, importedCount: 0, skippedCount: 0, failedCount: 0, errors: [], message: 'Phiên nhập đang được thực hiện' };
      // Re-check at execute time: the database may have changed since validation.
      const checked: CheckedRow[] = def.check(db, s.rows, actor, s.params);
      const invalid = checked.filter((r) => r.errors.length > 0);
      const errors = invalid.flatMap((r) => r.errors.map((message) => ({ row: r.rowNumber, message })));
      if (invalid.length > 0 && !options.skipErrors) {
        const result: ImportExecutionResult = {
          success: false,
          importedCount: 0,
          skippedCount: 0,
          failedCount: invalid.length,
          errors,
          message: `Có ${invalid.length} dòng lỗi; không có dòng nào được nhập (bật "Bỏ qua dòng lỗi" để nhập các dòng hợp lệ)`,
        };
        saveResult(db, s.id, result, 'failed');
        return result;
      }
      const skipConflicts = !options.updateExisting;
      const todo = checked.filter((r) => r.errors.length === 0 && !(skipConflicts && r.existingId != null));
      let skippedCount = checked.filter((r) => r.errors.length === 0 && skipConflicts && r.existingId != null).length;
      if (options.dryRun) {
        return {
          success: true,
          dryRun: true,
          importedCount: todo.length,
          skippedCount,
          failedCount: invalid.length,
          errors,
          message: `Chạy thử: ${todo.length} dòng sẽ được nhập, ${skippedCount} dòng bỏ qua, ${invalid.length} dòng lỗi. Không có dữ liệu nào được ghi`,
        };
      }

      let importedCount = 0;
      let failedCount = invalid.length;
      const runRow = (tx: Parameters<Parameters<typeof db.transaction>[0]>[0], row: CheckedRow) => {
        const outcome = def.write(tx, row, options, actor, s.params);
        if (outcome === 'unchanged') skippedCount++;
        else importedCount++;
      };
      markProgress(db, s.id, 0);
      try {
        if (!options.skipErrors) {
          // All or nothing: one transaction for the whole file.
          await def.prepare?.(todo);
          db.transaction((tx) => {
            for (const row of todo) runRow(tx, row);
            markProgress(tx, s.id, todo.length);
            audit(tx, { actorId: actor.id, action: `import.${def.kind}`, entity: 'import_session', entityId: s.id, after: { fileName: s.fileName, importedCount }, ip });
          });
        } else {
          for (let i = 0; i < todo.length; i += options.batchSize) {
            const batch = todo.slice(i, i + options.batchSize);
            await def.prepare?.(batch);
            db.transaction((tx) => {
              for (const row of batch) {
                try {
                  tx.transaction((sp) => runRow(sp, row));
                } catch (err) {
                  failedCount++;
                  errors.push({ row: row.rowNumber, message: isUniqueViolation(err) ? 'Trùng mã hoặc email với dữ liệu đã có' : 'Không ghi được dòng này' });
                }
              }
              markProgress(tx, s.id, Math.min(i + batch.length, todo.length));
            });
            await new Promise((r) => setImmediate(r)); // let status requests in between batches
          }
          db.transaction((tx) =>
            audit(tx, { actorId: actor.id, action: `import.${def.kind}`, entity: 'import_session', entityId: s.id, after: { fileName: s.fileName, importedCount, failedCount }, ip }),
          );
        }
      } catch (err) {
        const result: ImportExecutionResult = {
          success: false,
          importedCount: 0,
          skippedCount: 0,
          failedCount: checked.length,
          errors: [...errors, { row: 0, message: isUniqueViolation(err) ? 'Trùng mã hoặc email với dữ liệu đã có' : 'Lỗi khi ghi dữ liệu' }],
          message: 'Import thất bại! Không có dữ liệu nào được ghi',
        };
        saveResult(db, s.id, result, 'failed');
        return result;
      } finally {
        invalidateTotals(...def.tables);
        invalidateActors();
      }
      const result: ImportExecutionResult = {
        success: failedCount === 0,
        importedCount,
        skippedCount,
        failedCount,
        errors,
        message:
          failedCount === 0
            ? `Import thành công! Đã nhập ${importedCount} dòng, bỏ qua ${skippedCount} dòng`
            : `Đã nhập ${importedCount} dòng, bỏ qua ${skippedCount} dòng, ${failedCount} dòng lỗi`,
      };
      saveResult(db, s.id, result, 'completed');
      return result;
    },
  };
}
