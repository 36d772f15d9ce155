/** The portal's namespaces have the same keys in vi and en (plural forms count as one key). */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../../data/locales');

function keys(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix.replace(/_(zero|one|two|few|many|other)$/, '')];
  return Object.entries(value).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k));
}

const load = (lng: string, ns: string) => JSON.parse(readFileSync(resolve(ROOT, lng, `${ns}.json`), 'utf8')) as unknown;

describe.each(['portal', 'myPayments', 'profile'])('%s translations', (ns) => {
  it('has the same keys in vi and en', () => {
    expect([...new Set(keys(load('en', ns)))].sort()).toEqual([...new Set(keys(load('vi', ns)))].sort());
  });
});

describe('validation messages used by the sign-in form', () => {
  it.each(['vi', 'en'])('%s has them', (lng) => {
    const v = load(lng, 'validation') as Record<string, string>;
    for (const k of ['emailRequired', 'emailInvalid', 'passwordRequired', 'passwordMinLength']) expect(v[k]).toBeTruthy();
  });
});
