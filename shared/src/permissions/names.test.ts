/**
 * The role/permission matrix names each permission in the officer's language: every code of the
 * catalogue (issue 30's included) has a name in data/locales/{vi,en}/permissions.json `names`, the
 * Vietnamese one being the catalogue's own, and no name is left for a code that is gone.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PERMISSIONS } from './catalogue';

const names = (lng: string) =>
  (
    JSON.parse(readFileSync(resolve(__dirname, `../../../data/locales/${lng}/permissions.json`), 'utf8')) as {
      names: Record<string, string>;
    }
  ).names;

describe('permission names in vi and en', () => {
  it.each(['vi', 'en'])('%s names every code of the catalogue and nothing else', (lng) => {
    const n = names(lng);
    expect(Object.keys(n).sort()).toEqual(PERMISSIONS.map((p) => p.code).sort());
    for (const p of PERMISSIONS) expect(n[p.code]?.trim(), p.code).toBeTruthy();
  });
  it('the Vietnamese names are the catalogue names; the English ones are not left in Vietnamese', () => {
    const vi = names('vi');
    const en = names('en');
    for (const p of PERMISSIONS) {
      expect(vi[p.code]).toBe(p.name);
      expect(en[p.code], p.code).not.toBe(p.name);
    }
  });
});
