import type { ImportColumn, ImportKind, ImportOptions } from '@doanhoi/shared';
import type { Db, Tx } from '../db/client';
import type { Actor } from '../lib/context';
import type { SessionRow } from './session';

export type { Tx };
export type Outcome = 'created' | 'updated' | 'unchanged';

/** One checked row: normalised data, and what executing it would do. */
export interface CheckedRow<D = Record<string, unknown>> {
  rowNumber: number;
  data: D;
  errors: string[];
  warnings: string[];
  duplicate: boolean;
  /** Matches an existing record (by code/e-mail): updated with updateExisting, else skipped. */
  existingId: number | null;
  /** Why this caller may not update the existing record: an error only when updateExisting is chosen. */
  updateDenied?: string;
}

/** What each importable resource provides; the service does sessions, batches and transactions. */
export interface ImportKindDef<D = Record<string, unknown>> {
  kind: ImportKind;
  sheetName: string;
  templateName: (params: Record<string, unknown>) => string;
  columns: (params: Record<string, unknown>) => readonly ImportColumn[];
  /** May be async: a large file's per-row loop yields the event loop now and then (batches.ts mapInSlices). */
  /** `lang`: the caller's language, for the messages that come from the shared schemas. */
  check: (
    db: Db,
    rows: SessionRow[],
    actor: Actor,
    params: Record<string, unknown>,
    lang?: 'vi' | 'en',
  ) => CheckedRow<D>[] | Promise<CheckedRow<D>[]>;
  /** The row as shown in the validation response (defaults to the file's values). */
  view?: (row: CheckedRow<D>, values: Record<string, string>) => Record<string, unknown>;
  /** Async preparation before a batch's transaction (password hashing). */
  prepare?: (rows: CheckedRow<D>[]) => Promise<void>;
  /** Writes one row inside the transaction; returns whether anything changed. */
  write: (tx: Tx, row: CheckedRow<D>, options: ImportOptions, actor: Actor, params: Record<string, unknown>) => Promise<Outcome>;
  /**
   * Writes many rows with a few multi-row statements (the fast path of large imports); returns
   * each row's outcome in order. It may throw: the service then rolls it back and writes the rows
   * one by one, so the failing row is found and reported.
   */
  writeBatch?: (tx: Tx, rows: CheckedRow<D>[], options: ImportOptions, actor: Actor, params: Record<string, unknown>) => Promise<Outcome[]>;
  /** Tables whose cached totals a write invalidates. */
  tables: string[];
}

/** Any kind, whatever its row data (the service treats rows opaquely). */
export type AnyImportKind = ImportKindDef<any>;
