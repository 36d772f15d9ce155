/**
 * i18next with translations served at /locales/{lng}/{ns}.json (000 §7, 001 §9):
 * vi is the default and the fallback, the choice is remembered in localStorage and a cookie.
 */
import type { I18nProvider } from '@refinedev/core';
import i18n from 'i18next';
import LanguageDetector from 'i18next-browser-languagedetector';
import HttpBackend, { type HttpBackendOptions } from 'i18next-http-backend';
import { initReactI18next } from 'react-i18next';

export const LANGUAGES = [
  { code: 'vi', name: 'Tiếng Việt' },
  { code: 'en', name: 'English' },
] as const;
export type LanguageCode = (typeof LANGUAGES)[number]['code'];

/** Loaded up front so no screen renders raw keys; `validation` holds the shared zod messages. */
export const NAMESPACES = [
  'common',
  'auth',
  'dashboard',
  'users',
  'organizations',
  'departments',
  'classes',
  'permissions',
  'validation',
];

export const i18nReady = i18n
  .use(HttpBackend)
  .use(LanguageDetector)
  .use(initReactI18next)
  .init<HttpBackendOptions>({
    supportedLngs: LANGUAGES.map((l) => l.code),
    fallbackLng: 'vi',
    load: 'languageOnly',
    ns: NAMESPACES,
    defaultNS: 'common',
    fallbackNS: 'common',
    interpolation: { escapeValue: false },
    showSupportNotice: false,
    backend: { loadPath: '/locales/{{lng}}/{{ns}}.json' },
    // The http backend retries failed loads; the spec asks for 5 tries starting at 350 ms.
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
    react: { useSuspense: true },
  });

// Keep <html lang> in step so screen readers and the htmlTag detector agree with the UI.
i18n.on('languageChanged', () => {
  document.documentElement.lang = i18n.resolvedLanguage ?? 'vi';
});

/** Translates a shared zod message ('validation.emailRequired') from the validation namespace. */
export function translateValidation(message: string): string {
  return message.startsWith('validation.') ? i18n.t(message.slice('validation.'.length), { ns: 'validation' }) : i18n.t(message);
}

export const i18nProvider: I18nProvider = {
  // Refine sometimes passes the default message in place of the options.
  translate: (key, options, defaultMessage) =>
    typeof options === 'string'
      ? String(i18n.t(key, { defaultValue: options }))
      : String(i18n.t(key, { defaultValue: defaultMessage, ...options })),
  changeLocale: (lang) => i18n.changeLanguage(lang),
  getLocale: () => i18n.resolvedLanguage ?? i18n.language ?? 'vi',
};

export { i18n };
