/**
 * Upload → validate → execute → status, for every importable resource. The writing itself, and how
 * much of a run a crash half-way leaves on each engine, is runs.ts's.
 */
import type { ImportExecutionResult, ImportMapping, ImportOptions, ImportStatus, ImportValidationResult } from '@doanhoi/shared';
import { syncUsersIndex } from '../users/search';
import type { Actor, Deps } from '../lib/context';
import { conflict } from '../lib/errors';
import { gzip, MIN_COMPRESS_BYTES } from '../lib/compress';
import { errorRowsWorkbook } from './error-rows';
import { assertHeadersPresent, headersResult, mappingResolver, readHeaders } from './mapping';
import { mapInSlices, newCounts, rowWriter, type Counts } from './batches';
import type { AnyImportKind, CheckedRow } from './kind';
import { createSession, loadSession, markProgress, saveResult, saveValidation, type ImportSessionMeta } from './session';
import { readSheet } from './workbook';
import { leaseHeld, takeLease } from '../lib/lease';
import { allOrNothing, cutOffStatus, rehearse, skippingErrors, type Run } from './runs';

const PREVIEW_ROWS = 10;
/**
 * Sessions executing in this process. Any process executing one holds its lease (lib/lease.ts), so
 * the API's other processes see it running too (issue 28); a 'running' session neither listed here
 * nor leased was cut off (a restart, a killed process) and may run again.
 */
export const running = new Set<string>();
const leaseName = (sessionId: string) => `import:${sessionId}`;

/** A password from the file is never sent back. */
function masked(values: Record<string, string>): Record<string, string> {
  const pw = values.password?.trim();
  return pw && pw !== '-' ? { ...values, password: '******' } : values;
}

async function summarize(def: AnyImportKind, checked: CheckedRow[], values: Record<string, string>[]): Promise<ImportValidationResult> {
  const errors: { row: number; message: string }[] = [];
  const warnings: { row: number; message: string }[] = [];
  let valid = 0;
  let duplicates = 0;
  let conflicts = 0;
  for (const r of checked) {
    if (r.errors.length === 0) valid++;
    if (r.duplicate) duplicates++;
    if (r.existingId != null) conflicts++;
    if (r.existingId != null && r.updateDenied) r.warnings.push(r.updateDenied);
    for (const m of r.errors) errors.push({ row: r.rowNumber, message: m });
    for (const m of r.warnings) warnings.push({ row: r.rowNumber, message: m });
  }
  return {
    isValid: errors.length === 0,
    summary: { total: checked.length, valid, invalid: checked.length - valid, duplicates, conflicts },
    errors,
    warnings,
    // A row view per row of a large file: sliced like the check (issue 12).
    data: await mapInSlices(checked, (r, i) => ({
      rowIndex: r.rowNumber,
      data: def.view ? def.view(r, values[i] ?? {}) : masked(values[i] ?? {}),
      validation: {
        isValid: r.errors.length === 0,
        errors: r.errors,
        warnings: r.warnings,
        action: r.errors.length ? 'skip' : r.existingId != null ? 'update' : 'create',
      },
    })),
  };
}

function resultMessage(c: Counts, dryRun: boolean): string {
  if (dryRun)
    return `Chạy thử: ${c.imported} dòng sẽ được nhập, ${c.skipped} dòng bỏ qua, ${c.failed} dòng lỗi. Không có dữ liệu nào được ghi`;
  return c.failed === 0
    ? `Import thành công! Đã nhập ${c.imported} dòng, bỏ qua ${c.skipped} dòng`
    : `Đã nhập ${c.imported} dòng, bỏ qua ${c.skipped} dòng, ${c.failed} dòng lỗi`;
}

export function importService(def: AnyImportKind, { db, env }: Deps, actor: Actor, ip: string | null, lang: 'vi' | 'en' = 'vi') {
  async function loadOpen(sessionId: string) {
    const s = await loadSession(db, sessionId, def.kind, actor.id);
    await stillOpen(s);
    return s;
  }
  const busy = async (id: string) => running.has(id) || (await leaseHeld(db, leaseName(id)));
  async function stillOpen(s: Pick<ImportSessionMeta, 'id' | 'status'>) {
    if (await busy(s.id)) conflict('Phiên nhập đang được thực hiện');
    if (s.status === 'completed') conflict('Phiên nhập này đã được thực hiện xong. Vui lòng tải file lên lại để nhập tiếp');
  }
  /** Checking yields the event loop (issue 12): another request may have started or finished this session meanwhile. */
  const reloadOpen = async (id: string) => stillOpen(await loadSession(db, id, def.kind, actor.id, false));

  const svc = {
    /** `mapping`: our column → the file's header, sent with the upload (mapping.ts); plain data, so it crosses to the worker. */
    async upload(file: File, params: Record<string, unknown>, mapping?: ImportMapping) {
      const buffer = new Uint8Array(await file.arrayBuffer());
      const seen: string[] = [];
      const base = mapping && mappingResolver(def.columns(params), mapping, lang);
      const sheet = await readSheet(
        buffer,
        file.name,
        def.columns(params),
        {
          maxRows: env.IMPORT_MAX_ROWS,
          maxUnzippedBytes: env.IMPORT_MAX_UNZIPPED_MB * 1024 * 1024,
          maxTextChars: env.IMPORT_MAX_TEXT_CHARS,
        },
        base && ((h) => (seen.push(h), base(h))),
      );
      if (mapping) assertHeadersPresent(mapping, seen, lang);
      const sessionId = await createSession(db, { kind: def.kind, actorId: actor.id, fileName: file.name, rows: sheet.rows, params });
      return {
        sessionId,
        fileName: file.name,
        totalRows: sheet.rows.length,
        previewData: sheet.rows.slice(0, PREVIEW_ROWS).map((r) => ({ rowIndex: r.rowNumber, ...masked(r.values) })),
        ignoredColumns: sheet.unknownHeaders,
      };
    },

    async validate(sessionId: string): Promise<ImportValidationResult> {
      const s = await loadOpen(sessionId);
      const result = await summarize(
        def,
        await def.check(db, s.rows, actor, s.params, lang),
        s.rows.map((r) => r.values),
      );
      const now = await loadSession(db, s.id, def.kind, actor.id, false);
      if (!(await busy(s.id)) && (now.status === 'uploaded' || now.status === 'validated')) await saveValidation(db, s.id, result);
      return result;
    },

    /** The mapping step's question: the file's headers and the suggested (or remembered) mapping; the whole file is read, as the upload reads it. */
    async headers(file: File, params: Record<string, unknown>) {
      const headers = await readHeaders(file, { maxRows: env.IMPORT_MAX_ROWS, maxUnzippedBytes: env.IMPORT_MAX_UNZIPPED_MB * 1024 * 1024 });
      return headersResult(db, actor.id, def.kind, def.columns(params), headers);
    },

    /** The refused rows as an xlsx (error-rows.ts): checking every row is the validate's work, so it runs where validate runs. */
    errorRows(sessionId: string) {
      return errorRowsWorkbook(def, { db, env }, actor, sessionId, lang);
    },

    async status(sessionId: string): Promise<ImportStatus> {
      const s: ImportSessionMeta = await loadSession(db, sessionId, def.kind, actor.id, false);
      const base = { sessionId: s.id, fileName: s.fileName, totalRows: s.totalRows };
      // 'running' in the database but not here: the process stopped half-way (runs.ts: what stays of it).
      if (s.status === 'running' && !(await busy(s.id))) return { ...base, status: 'failed', ...(await cutOffStatus(db, s)) };
      return { ...base, status: s.status, processedRows: s.processedRows, result: s.result };
    },

    async execute(sessionId: string, options: ImportOptions): Promise<ImportExecutionResult> {
      const s = await loadOpen(sessionId);
      // Re-check at execute time: the database may have changed since validation.
      const checked: CheckedRow[] = await def.check(db, s.rows, actor, s.params, lang);
      await reloadOpen(s.id);
      for (const r of checked) {
        if (options.updateExisting && r.existingId != null && r.updateDenied && r.errors.length === 0) r.errors.push(r.updateDenied);
      }
      const invalid = checked.filter((r) => r.errors.length > 0);
      const checkErrors = invalid.flatMap((r) => r.errors.map((message) => ({ row: r.rowNumber, message })));
      if (invalid.length > 0 && !options.skipErrors) {
        const result: ImportExecutionResult = {
          success: false,
          importedCount: 0,
          skippedCount: 0,
          failedCount: invalid.length,
          errors: checkErrors,
          message: `Có ${invalid.length} dòng lỗi; không có dòng nào được nhập (bật "Bỏ qua dòng lỗi" để nhập các dòng hợp lệ)`,
          ...(options.dryRun ? { dryRun: true } : {}),
        };
        if (!options.dryRun) await saveResult(db, s.id, result, 'failed');
        return result;
      }

      const writer = rowWriter(def, options, actor, s.params);
      const batches: CheckedRow[][] = [];
      for (let i = 0; i < checked.length; i += options.batchSize) batches.push(checked.slice(i, i + options.batchSize));
      const total = newCounts();
      total.errors.push(...checkErrors);
      const run: Run = {
        db,
        def,
        session: { id: s.id, fileName: s.fileName },
        actor,
        ip,
        writer,
        batches,
        rows: checked.length,
        total,
        finish: (c, extra = {}) => ({
          success: c.failed === 0,
          importedCount: c.imported,
          skippedCount: c.skipped,
          failedCount: c.failed,
          errors: c.errors.sort((a, b) => a.row - b.row),
          message: resultMessage(c, !!options.dryRun),
          ...extra,
        }),
      };

      if (options.dryRun) {
        await rehearse(run, total);
        if (options.skipErrors || total.failed === 0) return run.finish(total, { dryRun: true });
        // Without skipErrors a row failing at write time means nothing would be written.
        return run.finish(total, {
          dryRun: true,
          importedCount: 0,
          skippedCount: 0,
          message: `Chạy thử: ${total.failed} dòng lỗi khi ghi; khi nhập thật sẽ không có dòng nào được ghi`,
        });
      }

      // Taken where the run starts, then the session read again: a run through another process
      // that finished meanwhile has marked it completed before giving its lease up.
      const lease = await takeLease(db, leaseName(s.id));
      if (!lease) conflict('Phiên nhập đang được thực hiện');
      if ((await loadSession(db, s.id, def.kind, actor.id, false)).status === 'completed') {
        await lease!.release();
        await stillOpen({ id: s.id, status: 'completed' });
      }
      running.add(s.id);
      await markProgress(db, s.id, 0);
      try {
        return options.skipErrors ? await skippingErrors(run) : await allOrNothing(run);
      } finally {
        running.delete(s.id);
        await lease!.release();
        // Index the written users now, in this import's time, not in the next reader's.
        syncUsersIndex(db);
      }
    },
  };
  return {
    ...svc,
    /**
     * The validation as JSON text, made where it was computed: for a large file (megabytes of
     * rows) the request thread then only forwards a string instead of receiving, copying and
     * serialising the whole object, which held it for 200–300 ms. Gzipped when the caller accepts it.
     */
    async validateJson(sessionId: string, gzipped = false): Promise<string | Uint8Array> {
      const text = JSON.stringify(await svc.validate(sessionId));
      // A 10,000-row file's answer is ≈ 6 MB of JSON, ≈ 0.5 MB gzipped: compressed here, off the request thread.
      return gzipped && text.length >= MIN_COMPRESS_BYTES ? gzip(text) : text;
    },
  };
}
