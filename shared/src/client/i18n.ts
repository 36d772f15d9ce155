/**
 * The i18next settings both apps share (000 §7, 001 §9). Plain data, so this package needs no
 * i18next: each app passes the result to its own `i18n.init()` with its namespaces. They share
 * the origin, so the language chosen in one (localStorage 'i18nextLng', cookie 'i18next') holds
 * in the other.
 */

/**
 * vi is the default, the fallback and first in the list. `flag` is the 001 §9 data; neither UI draws the
 * emoji (it does not render on Windows): the admin draws SVG flags, the portal's <select> shows names.
 */
export const LANGUAGES = [
  { code: 'vi', name: 'Tiếng Việt', flag: '🇻🇳' },
  { code: 'en', name: 'English', flag: '🇬🇧' },
] as const;
export type LanguageCode = (typeof LANGUAGES)[number]['code'];
export const DEFAULT_LANGUAGE: LanguageCode = 'vi';

export interface Namespaces {
  ns: string[];
  defaultNS: string;
  fallbackNS?: string;
}

/** i18next init options for the http backend and the browser language detector, plus the app's namespaces. */
export function i18nOptions(namespaces: Namespaces) {
  return {
    supportedLngs: LANGUAGES.map((l) => l.code),
    fallbackLng: DEFAULT_LANGUAGE,
    load: 'languageOnly' as const,
    interpolation: { escapeValue: false },
    showSupportNotice: false,
    backend: { loadPath: '/locales/{{lng}}/{{ns}}.json' },
    // Failed translation loads are retried up to 5 times, starting at 350 ms (001 §9).
    maxRetries: 5,
    retryTimeout: 350,
    detection: {
      order: ['localStorage', 'cookie', 'navigator', 'htmlTag'],
      caches: ['localStorage', 'cookie'],
      lookupLocalStorage: 'i18nextLng',
      lookupCookie: 'i18next',
      // Browsers report 'vi-VN' / 'en-US'; keep the bare code so storage, cookie and <html lang> agree.
      convertDetectedLanguage: (lng: string) => lng.split('-')[0],
    },
    // Spread last and only with the keys given: an explicit `fallbackNS: undefined` would replace i18next's default.
    ...namespaces,
  };
}

/** Keeps <html lang> in step with the UI, so screen readers and the htmlTag detector agree with it. */
export function followLanguageInHtml(i18n: { on(event: 'languageChanged', listener: () => void): unknown; resolvedLanguage?: string }) {
  i18n.on('languageChanged', () => {
    document.documentElement.lang = i18n.resolvedLanguage ?? DEFAULT_LANGUAGE;
  });
}

/** Shared zod messages are 'validation.x'; i18next finds them as 'validation:x' (the validation namespace). */
export function validationKey(message: string): string {
  return message.replace(/^validation\./, 'validation:');
}
