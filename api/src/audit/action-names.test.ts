/**
 * Issue 26: every action the API writes to the audit log has a name an officer reads (the action
 * filter's `actionNames`) and a sentence (`actions`), in vi and en, and sits in an area of
 * shared AUDIT_ACTION_AREAS, which the filter offers. The codes are read off the API's sources:
 * `action: '…'` literals, codes passed to helpers ('assignment.exempt', 'export.users': any
 * literal of a known area), and the templates below, expanded from where their values live.
 */
import { AUDIT_ACTION_AREAS, AUDIT_ACTIONS, PERMISSIONS } from '@doanhoi/shared';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TRANSITIONS } from '../payments/rules';

const SRC = resolve(__dirname, '..');
type Locale = { actions: Record<string, string>; actionNames: Record<string, string>; areas: Record<string, string> };
const locale = (lng: string) => JSON.parse(readFileSync(resolve(SRC, `../../data/locales/${lng}/audit.json`), 'utf8')) as Locale;
const LOCALES = { vi: locale('vi'), en: locale('en') };

function sources(dir: string): { path: string; text: string }[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'test' ? [] : sources(path);
    if (!e.name.endsWith('.ts') || /\.test\.ts$|test-helpers\.ts$/.test(e.name)) return [];
    return [{ path: relative(SRC, path), text: readFileSync(path, 'utf8') }];
  });
}
const FILES = sources(SRC);
const all = (re: RegExp, text: string) => [...text.matchAll(re)].map((m) => m[1]!);
const valuesIn = (files: { text: string }[], re: RegExp) => [...new Set(files.flatMap((f) => all(re, f.text)))];

/** Where each dynamic action's variable part comes from. */
const TEMPLATES: Record<string, () => string[]> = {
  'import.${run.def.kind}': () =>
    valuesIn(
      FILES.filter((f) => f.path.startsWith('imports/kinds/')),
      /\bkind: '([a-z_]+)'/g,
    ).map((k) => `import.${k}`),
  'import.${run.def.kind}.batch': () =>
    valuesIn(
      FILES.filter((f) => f.path.startsWith('imports/kinds/')),
      /\bkind: '([a-z_]+)'/g,
    ).map((k) => `import.${k}.batch`),
  'campaign.${action}': () => Object.keys(TRANSITIONS).map((a) => `campaign.${a}`),
  ...Object.fromEntries(
    ['create', 'update', 'delete', 'bulk_delete'].map((verb) => [
      `\${entity}.${verb}`,
      () =>
        valuesIn(
          FILES.filter((f) => f.text.includes('catalogueStore(')),
          /\bentity: '([a-z_]+)'/g,
        ).map((e) => `${e}.${verb}`),
    ]),
  ),
};

function writtenCodes(): { codes: Set<string>; unknownTemplates: string[] } {
  const codes = new Set<string>();
  const unknownTemplates: string[] = [];
  for (const { path, text } of FILES) {
    for (const code of all(/\baction: '([a-z_][a-z_.]*)'/g, text)) codes.add(code);
    for (const tpl of all(/\baction: `([^`]*)`/g, text)) {
      if (!tpl.includes('${')) codes.add(tpl);
      else if (TEMPLATES[tpl]) for (const code of TEMPLATES[tpl]()) codes.add(code);
      else unknownTemplates.push(`${path}: ${tpl}`);
    }
  }
  // Codes handed to a helper that writes the row (insertMany(…, 'assignment.create'), record('export.users', …)).
  const areas = new Set([...codes, ...AUDIT_ACTIONS].map((c) => c.split('.')[0]!));
  const permissions = new Set(PERMISSIONS.map((p) => p.code));
  for (const { text } of FILES) {
    for (const s of all(/['`]([a-z_]+(?:\.[a-z_]+)+)['`]/g, text)) if (areas.has(s.split('.')[0]!) && !permissions.has(s)) codes.add(s);
  }
  return { codes, unknownTemplates };
}

describe('audit action names', () => {
  const { codes, unknownTemplates } = writtenCodes();

  it('reads the codes off the sources, templates included', () => {
    expect(unknownTemplates).toEqual([]);
    for (const code of [
      'membership.remove',
      'user.roles.assign',
      'export.users',
      'assignment.exempt',
      'import.organization_members.batch',
      'class.bulk_delete',
      'campaign.activate',
    ]) {
      expect(codes).toContain(code);
    }
  });

  it('every action the API writes is offered by the filter, in an area', () => {
    expect([...codes].filter((c) => !AUDIT_ACTIONS.includes(c)).sort()).toEqual([]);
    expect(new Set(AUDIT_ACTIONS).size).toBe(AUDIT_ACTIONS.length);
  });

  it('every offered action has a name and a sentence in vi and en, every area a name', () => {
    for (const [lng, l] of Object.entries(LOCALES)) {
      expect({ lng, missing: AUDIT_ACTIONS.filter((c) => !l.actionNames[c]?.trim()) }).toEqual({ lng, missing: [] });
      expect({ lng, missing: AUDIT_ACTIONS.filter((c) => !l.actions[c]?.trim()) }).toEqual({ lng, missing: [] });
      expect({ lng, missing: Object.keys(AUDIT_ACTION_AREAS).filter((a) => !l.areas[a]?.trim()) }).toEqual({ lng, missing: [] });
      // A name is words, not the code.
      expect(AUDIT_ACTIONS.filter((c) => l.actionNames[c] === c || /^[a-z_]+\.[a-z_.]+$/.test(l.actionNames[c] ?? ''))).toEqual([]);
    }
  });

  it('no name or sentence is left for an action the filter does not offer', () => {
    const VARIANT = /_(added|removed|none|on|off)$/;
    for (const [lng, l] of Object.entries(LOCALES)) {
      const sentences = Object.keys(l.actions).filter((k) => !(VARIANT.test(k) && l.actions[k.replace(VARIANT, '')]));
      expect({ lng, extra: sentences.filter((k) => !AUDIT_ACTIONS.includes(k)) }).toEqual({ lng, extra: [] });
      expect({ lng, extra: Object.keys(l.actionNames).filter((k) => !AUDIT_ACTIONS.includes(k)) }).toEqual({ lng, extra: [] });
    }
  });
});
