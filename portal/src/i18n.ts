/**
 * The portal's translations (001 §9), without i18next: i18next, react-i18next, its http backend and
 * language detector were about 21 KB of the 60 KB a member's first load may weigh (issue 12). This
 * keeps what the portal used of them and the settings shared with the admin
 * (shared/src/client/i18n.ts): vi default and fallback, the language stored in localStorage
 * 'i18nextLng' and the cookie 'i18next' (so a choice holds in both apps), then the browser's
 * language; GET /locales/{lng}/{ns}.json retried up to 5 times from 350 ms; `{{var}}`
 * interpolation, `_one`/`_other` plurals and `ns:key` keys. Screens suspend until their
 * namespaces are loaded, so none shows a raw key.
 */
import { DEFAULT_LANGUAGE, i18nOptions, LANGUAGES } from '@doanhoi/shared/client/i18n';
import { useCallback, useMemo, useSyncExternalStore } from 'react';
// Vietnamese, the default and the fallback, ships inside the script (1.9 KB): the sign-in page draws
// without waiting for a translation file (issue 12, "Fast 3G"). Other languages and namespaces load over HTTP.
import viPortal from '../../data/locales/vi/portal.json';

export { LANGUAGES };

type Dict = { [key: string]: string | Dict };
type Options = Record<string, unknown> & { count?: number };
export type TFunction = (key: string, options?: Options) => string;

const settings = i18nOptions({ ns: [], defaultNS: 'portal' });
const SUPPORTED: readonly string[] = settings.supportedLngs;
const { lookupLocalStorage, lookupCookie } = settings.detection;

function supported(lng: string | null | undefined): string | null {
  const code = lng?.split('-')[0];
  return code && SUPPORTED.includes(code) ? code : null;
}

function detect(): string {
  let stored: string | null = null;
  try {
    stored = localStorage.getItem(lookupLocalStorage);
  } catch {
    // Storage refused (private mode): the cookie and the browser still answer.
  }
  const cookie = document.cookie.match(new RegExp(`(?:^|; )${lookupCookie}=([^;]*)`))?.[1];
  return (
    supported(stored) ??
    supported(cookie) ??
    navigator.languages.map(supported).find(Boolean) ??
    supported(document.documentElement.lang) ??
    DEFAULT_LANGUAGE
  );
}

let language = detect();
const loaded = new Map<string, Dict>([[`${DEFAULT_LANGUAGE}/portal`, viPortal as Dict]]);
const pending = new Map<string, Promise<void>>();
const listeners = new Set<() => void>();

async function fetchJson(url: string): Promise<Dict> {
  for (let attempt = 0, wait = settings.retryTimeout; ; attempt++, wait *= 2) {
    try {
      const res = await fetch(url);
      if (res.ok) return (await res.json()) as Dict;
      if (res.status < 500 || attempt >= settings.maxRetries) return {};
    } catch (err) {
      if (attempt >= settings.maxRetries) throw err;
    }
    await new Promise((r) => setTimeout(r, wait));
  }
}

/** Loads one namespace of one language once; a failed load leaves it empty rather than blocking the page. */
function load(lng: string, ns: string): Promise<void> {
  const id = `${lng}/${ns}`;
  if (loaded.has(id)) return Promise.resolve();
  let p = pending.get(id);
  if (!p) {
    p = fetchJson(settings.backend.loadPath.replace('{{lng}}', lng).replace('{{ns}}', ns))
      .catch(() => ({}))
      .then((dict) => void loaded.set(id, dict));
    pending.set(id, p);
  }
  return p;
}

function lookup(lng: string, ns: string, key: string): string | undefined {
  let node: string | Dict | undefined = loaded.get(`${lng}/${ns}`);
  for (const part of key.split('.')) node = typeof node === 'object' ? node[part] : undefined;
  return typeof node === 'string' ? node : undefined;
}

function translate(lng: string, namespaces: string[], rawKey: string, options: Options = {}): string {
  const colon = rawKey.indexOf(':');
  const [nsList, key] = colon > 0 ? [[rawKey.slice(0, colon)], rawKey.slice(colon + 1)] : [namespaces, rawKey];
  const keys =
    typeof options.count === 'number' ? [`${key}_${new Intl.PluralRules(lng).select(options.count)}`, `${key}_other`, key] : [key];
  let text: string | undefined;
  for (const l of [lng, DEFAULT_LANGUAGE]) for (const ns of nsList) for (const k of keys) text ??= lookup(l, ns, k);
  return (text ?? key).replace(/{{\s*(\w+)\s*}}/g, (_, name: string) => String(options[name] ?? ''));
}

function ready(namespaces: string[]): Promise<void> | null {
  const missing = namespaces.filter((ns) => !loaded.has(`${language}/${ns}`));
  return missing.length ? Promise.all(missing.map((ns) => load(language, ns))).then(() => undefined) : null;
}

export const i18n = {
  get resolvedLanguage() {
    return language;
  },
  /** Loads the portal namespaces already used in the new language, then switches and remembers it. */
  async changeLanguage(lng: string) {
    const next = supported(lng) ?? DEFAULT_LANGUAGE;
    const used = new Set([...loaded.keys()].map((id) => id.split('/')[1]));
    await Promise.all([...used].map((ns) => load(next, ns)));
    language = next;
    try {
      localStorage.setItem(lookupLocalStorage, next);
    } catch {
      // Not stored: the cookie still carries the choice.
    }
    document.cookie = `${lookupCookie}=${next}; path=/; max-age=31536000; SameSite=Lax`;
    document.documentElement.lang = next;
    listeners.forEach((l) => l());
  },
};

document.documentElement.lang = language;
// The namespace every screen uses starts loading with this module, not after the first render.
void load(language, 'portal');

const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

/** react-i18next's hook, as far as the portal used it: suspends until `ns` are loaded in the current language. */
export function useTranslation(ns: string | string[] = 'portal') {
  // Callers pass array literals: keyed by their joined names, so `t` keeps its identity between renders.
  const joined = Array.isArray(ns) ? ns.join(',') : ns;
  const namespaces = useMemo(() => joined.split(','), [joined]);
  const lng = useSyncExternalStore(subscribe, () => language);
  const waiting = ready(namespaces);
  if (waiting) throw waiting;
  const t = useCallback<TFunction>((key, options) => translate(lng, namespaces, key, options), [lng, namespaces]);
  return { t, i18n };
}

/** Loads namespaces ahead of a screen that needs them (the sign-in form's validation messages). */
export function loadNamespaces(namespaces: string[]): Promise<void> {
  return ready(namespaces) ?? Promise.resolve();
}
