/** Server-side translation of validation keys, from the same data/locales files the front ends load. */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { REPO_ROOT } from '../env';

type Dict = Record<string, unknown>;
const cache = new Map<string, Dict>();

function load(lang: string, ns: string): Dict {
  const key = `${lang}/${ns}`;
  let d = cache.get(key);
  if (!d) {
    const file = resolve(REPO_ROOT, 'data/locales', lang, `${ns}.json`);
    d = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Dict) : {};
    cache.set(key, d);
  }
  return d;
}

/**
 * Translate "ns.key" (e.g. "validation.emailInvalid"); unknown keys are returned unchanged.
 * `params` fill i18next-style {{name}} placeholders, as the front ends' own strings do.
 */
export function translate(key: string, lang: 'vi' | 'en' = 'vi', params?: Record<string, string | number>): string {
  const dot = key.indexOf('.');
  if (dot <= 0) return key;
  const ns = key.slice(0, dot);
  const path = key.slice(dot + 1).split('.');
  for (const l of [lang, 'vi']) {
    let cur: unknown = load(l, ns);
    for (const p of path) cur = typeof cur === 'object' && cur !== null ? (cur as Dict)[p] : undefined;
    if (typeof cur === 'string')
      return params ? cur.replace(/\{\{\s*(\w+)\s*\}\}/g, (m, name: string) => (name in params ? String(params[name]) : m)) : cur;
  }
  return key;
}

export function pickLanguage(acceptLanguage: string | undefined): 'vi' | 'en' {
  return acceptLanguage?.toLowerCase().startsWith('en') ? 'en' : 'vi';
}
