/**
 * Column mapping (issue 15 part 5): a file whose headers differ from the template is mapped to our
 * columns. Suggestions compare headers without accents, case or punctuation; a user's last
 * mapping of a kind of import is remembered on the server (per user, not per browser: a union
 * office often shares one computer between several people, each signed in as themselves).
 */
import { importMappingSchema, type ImportColumn, type ImportHeadersResult, type ImportKind, type ImportMapping } from '@doanhoi/shared';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { badRequest } from '../lib/errors';
import { translate } from '../lib/i18n';
import { ERROR_ROW_HEADERS } from './error-rows';
import { importMappings } from '../db/tables/imports';
import { FULL_NAME_KEY, headerKey, isFullNameHeader, isUnstoredHeader, takesFullName } from './synonyms';
import { readSheet, type SheetLimits } from './workbook';
import { firstRow, runQuery } from '../db/engine';

export { headerKey };

/** Our two name columns, which one "Họ và tên" header of the file can fill together (synonyms.ts). */
const NAME_PAIR = new Set(['familyName', 'givenName']);

function bigrams(s: string): string[] {
  const t = s.replace(/ /g, '');
  const out: string[] = [];
  for (let i = 0; i < t.length - 1; i++) out.push(t.slice(i, i + 2));
  return out;
}

/** Dice coefficient of character bigrams (0…1), raised when one name's words all appear in the other. */
export function similarity(a: string, b: string): number {
  const x = headerKey(a);
  const y = headerKey(b);
  if (!x || !y) return 0;
  if (x === y) return 1;
  const bx = bigrams(x);
  const by = bigrams(y);
  let dice = 0;
  if (bx.length && by.length) {
    const pool = new Map<string, number>();
    for (const g of by) pool.set(g, (pool.get(g) ?? 0) + 1);
    let common = 0;
    for (const g of bx) {
      const left = pool.get(g) ?? 0;
      if (left > 0) {
        common++;
        pool.set(g, left - 1);
      }
    }
    dice = (2 * common) / (bx.length + by.length);
  }
  const wx = x.split(' ');
  const wy = new Set(y.split(' '));
  // "Ho va ten dem" holds "ho"; "Dien thoai di dong" holds "dien thoai": likely the same column.
  const contained = wx.length > 0 && wx.every((w) => wy.has(w)) ? 0.7 : 0;
  const containedRev = y.split(' ').every((w) => new Set(wx).has(w)) ? 0.7 : 0;
  return Math.max(dice, contained, containedRev);
}

/** Below this a header is not suggested at all (the user picks it in the dropdown). */
const SUGGEST_MIN = 0.6;

/** Every name a column answers to: its key, its Vietnamese header and its aliases. */
const namesOf = (c: ImportColumn) => [c.key, c.header, ...(c.aliases ?? [])];

/** The column an unmapped file's header matches exactly (by key, header or alias), as the template reader does. */
export function exactMatches(columns: readonly ImportColumn[], headers: string[]): Map<string, string> {
  const byName = new Map<string, string>();
  // Keys and headers first, so an alias never shadows another column's own name.
  for (const c of columns) for (const n of [c.key, c.header]) if (!byName.has(headerKey(n))) byName.set(headerKey(n), c.key);
  for (const c of columns) for (const a of c.aliases ?? []) if (!byName.has(headerKey(a))) byName.set(headerKey(a), c.key);
  const out = new Map<string, string>();
  for (const h of headers) {
    const key = byName.get(headerKey(h));
    if (key && !out.has(key)) out.set(key, h);
  }
  // "Họ và tên" alone fills both name columns (split when read).
  const full = takesFullName(columns) && !out.has('familyName') && !out.has('givenName') ? headers.find(isFullNameHeader) : undefined;
  if (full) out.set('familyName', full).set('givenName', full);
  return out;
}

/**
 * Our key → the file's header: remembered choices first (when that header is in this file),
 * then exact names, then the most similar remaining header; each header is used once.
 */
export function suggestMapping(
  columns: readonly ImportColumn[],
  headers: string[],
  remembered: ImportMapping = {},
): { suggestion: Record<string, string | null>; remembered: string[] } {
  const suggestion: Record<string, string | null> = Object.fromEntries(columns.map((c) => [c.key, null]));
  const used = new Set<string>();
  const fromMemory: string[] = [];
  const present = new Map(headers.map((h) => [headerKey(h), h]));
  const take = (key: string, header: string) => {
    suggestion[key] = header;
    used.add(headerKey(header));
  };
  for (const c of columns) {
    const saved = remembered[c.key];
    const h = saved ? present.get(headerKey(saved)) : undefined;
    if (h && !used.has(headerKey(h))) {
      take(c.key, h);
      fromMemory.push(c.key);
    }
  }
  for (const [key, h] of exactMatches(columns, headers))
    if (suggestion[key] === null && (!used.has(headerKey(h)) || (NAME_PAIR.has(key) && isFullNameHeader(h)))) take(key, h);
  // Best pairs first, so a close header goes to the column it fits best.
  const pairs: { key: string; header: string; score: number }[] = [];
  for (const c of columns) {
    if (suggestion[c.key] !== null || (remembered[c.key] === null && c.key in remembered)) continue;
    for (const h of headers) {
      if (used.has(headerKey(h))) continue;
      const score = Math.max(...namesOf(c).map((n) => similarity(n, h)));
      if (score >= SUGGEST_MIN) pairs.push({ key: c.key, header: h, score });
    }
  }
  pairs.sort((a, b) => b.score - a.score);
  for (const p of pairs) if (suggestion[p.key] === null && !used.has(headerKey(p.header))) take(p.key, p.header);
  return { suggestion, remembered: fromMemory };
}

/** The mapping step is needed when a required column is missing, or a column of the file is unknown while one of ours is not found. */
export function needsMapping(columns: readonly ImportColumn[], headers: string[]): boolean {
  const exact = exactMatches(columns, headers);
  if (columns.some((c) => c.required && !exact.has(c.key))) return true;
  const matched = new Set([...exact.values()].map(headerKey));
  // A date of birth or "STT" is known and not stored: skipped (and named on the preview), not a reason to map.
  return headers.some((h) => !matched.has(headerKey(h)) && !isUnstoredHeader(h)) && columns.some((c) => !exact.has(c.key));
}

/**
 * Checks a mapping against the kind's columns and the file's headers (400 with a message a user
 * understands) and returns the header → key resolver the sheet reader uses.
 */
export function mappingResolver(
  columns: readonly ImportColumn[],
  mapping: ImportMapping,
  lang: 'vi' | 'en',
): (header: string) => string | undefined {
  const known = new Set(columns.map((c) => c.key));
  const unknown = Object.keys(mapping).filter((k) => !known.has(k));
  if (unknown.length) badRequest(`${translate('imports.mapping.unknownColumn', lang)}: ${unknown.join(', ')}`);
  const byHeader = new Map<string, string>();
  for (const [key, h] of Object.entries(mapping)) {
    if (!h) continue;
    const k = headerKey(h);
    const other = byHeader.get(k);
    // One header for both name columns: a full name, split when read (synonyms.ts).
    if (other && NAME_PAIR.has(other) && NAME_PAIR.has(key) && other !== key && takesFullName(columns)) {
      byHeader.set(k, FULL_NAME_KEY);
      continue;
    }
    if (other) badRequest(`${translate('imports.mapping.headerTwice', lang)}: ${h}`);
    byHeader.set(k, key);
  }
  const mappedKeys = new Set(Object.keys(mapping));
  // Columns the mapping does not mention keep the template's own names.
  const exact = new Map<string, string>();
  for (const c of columns) {
    if (mappedKeys.has(c.key)) continue;
    for (const n of namesOf(c)) if (!exact.has(headerKey(n)) && !byHeader.has(headerKey(n))) exact.set(headerKey(n), c.key);
  }
  return (header) => byHeader.get(headerKey(header)) ?? exact.get(headerKey(header));
}

/** A mapping header that is not in the file is a mistake worth telling (a renamed column, another sheet). */
export function assertHeadersPresent(mapping: ImportMapping, headers: string[], lang: 'vi' | 'en'): void {
  const present = new Set(headers.map(headerKey));
  const missing = Object.values(mapping).filter((h): h is string => !!h && !present.has(headerKey(h)));
  if (missing.length) badRequest(`${translate('imports.mapping.headerMissing', lang)}: ${missing.join(', ')}`);
}

/** The last mapping this user sent for this kind of import ({} when none). */
export async function rememberedMapping(db: Db, userId: number, kind: ImportKind): Promise<ImportMapping> {
  const r = await firstRow(
    db
      .select({ mapping: importMappings.mapping })
      .from(importMappings)
      .where(and(eq(importMappings.userId, userId), eq(importMappings.kind, kind))),
  );
  return r ? (JSON.parse(r.mapping) as ImportMapping) : {};
}

export async function rememberMapping(db: Db, userId: number, kind: ImportKind, mapping: ImportMapping): Promise<void> {
  const json = JSON.stringify(mapping);
  await runQuery(
    db
      .insert(importMappings)
      .values({ userId, kind, mapping: json })
      .onConflictDoUpdate({ target: [importMappings.userId, importMappings.kind], set: { mapping: json, updatedAt: new Date() } }),
  );
}

export async function headersResult(
  db: Db,
  userId: number,
  kind: ImportKind,
  columns: readonly ImportColumn[],
  headers: string[],
): Promise<ImportHeadersResult> {
  const unique = [...new Map(headers.filter(Boolean).map((h) => [headerKey(h), h])).values()];
  const { suggestion, remembered } = suggestMapping(columns, unique, await rememberedMapping(db, userId, kind));
  const ours = new Set(ERROR_ROW_HEADERS.map(headerKey));
  return {
    headers: unique,
    suggestion,
    remembered,
    needsMapping: needsMapping(
      columns,
      unique.filter((h) => !ours.has(headerKey(h))),
    ),
  };
}

/** The multipart field `mapping` (JSON), checked with the shared schema; undefined when not sent. */
export function parseMappingField(raw: unknown, lang: 'vi' | 'en'): ImportMapping | undefined {
  if (raw === undefined || raw === '') return undefined;
  let json: unknown;
  try {
    json = JSON.parse(String(raw));
  } catch {
    badRequest(translate('imports.mapping.invalid', lang));
  }
  const parsed = importMappingSchema.safeParse(json);
  if (!parsed.success) badRequest(translate(parsed.error.issues[0]?.message ?? 'imports.mapping.invalid', lang));
  return parsed.data;
}

/** The first sheet's header row (the whole file is checked as the upload checks it). */
export async function readHeaders(file: File, limits: SheetLimits): Promise<string[]> {
  const sheet = await readSheet(new Uint8Array(await file.arrayBuffer()), file.name, [], limits);
  return sheet.unknownHeaders;
}
