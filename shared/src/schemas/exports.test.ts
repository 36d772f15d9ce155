/**
 * Issue 26: the admin's export dialog names each field in the officer's language. Every field of every
 * export the dialog offers has a label in data/locales/{vi,en}/common.json `export.fields.<kind>`; vi is the
 * xlsx header itself (the file keeps its Vietnamese headers, which the import reads back).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXPORT_FIELD_LISTS, type ExportKind } from './exports';

type Labels = Record<ExportKind, Record<string, string>>;
const labels = (lng: string) =>
  (JSON.parse(readFileSync(resolve(__dirname, `../../../data/locales/${lng}/common.json`), 'utf8')) as { export: { fields: Labels } })
    .export.fields;

describe('export field labels', () => {
  const en = labels('en');
  const vi = labels('vi');
  for (const [kind, fields] of Object.entries(EXPORT_FIELD_LISTS) as [ExportKind, (typeof EXPORT_FIELD_LISTS)[ExportKind]][]) {
    it(`${kind}: every field has an English label, and vi says the xlsx header`, () => {
      expect(fields.length).toBeGreaterThan(0);
      for (const f of fields) {
        expect(en[kind]?.[f.key], `${kind}.${f.key}`).toMatch(/^[\x20-\x7e]+$/);
        expect(vi[kind]?.[f.key], `${kind}.${f.key}`).toBe(f.header);
      }
    });
  }
});
