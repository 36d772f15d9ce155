/**
 * i18next for the portal (001 §9): vi is the default, the fallback and first in the list; en is
 * the other choice. The choice is detected from localStorage 'i18nextLng', the 'i18next' cookie,
 * the browser, then <html lang>, and cached in localStorage and the cookie (shared with the admin).
 * Translations come from GET /locales/{lng}/{ns}.json.
 */
import i18n from 'i18next';
import LanguageDetector from 'i18next-browser-languagedetector';
import HttpBackend, { type HttpBackendOptions } from 'i18next-http-backend';
import { initReactI18next } from 'react-i18next';

/** 001 §9: code, name and flag. The native <select> shows only the name: flag emoji do not render on Windows or without an emoji font. */
export const LANGUAGES = [
  { code: 'vi', name: 'Tiếng Việt', flag: '🇻🇳' },
  { code: 'en', name: 'English', flag: '🇬🇧' },
] as const;
export type LanguageCode = (typeof LANGUAGES)[number]['code'];

/** `validation` holds the shared zod messages of the sign-in form. */
export const NAMESPACES = ['portal', 'myPayments', 'validation'];

export const i18nReady = i18n
  .use(HttpBackend)
  .use(LanguageDetector)
  .use(initReactI18next)
  .init<HttpBackendOptions>({
    supportedLngs: LANGUAGES.map((l) => l.code),
    fallbackLng: 'vi',
    load: 'languageOnly',
    ns: NAMESPACES,
    defaultNS: 'portal',
    interpolation: { escapeValue: false },
    showSupportNotice: false,
    backend: { loadPath: '/locales/{{lng}}/{{ns}}.json' },
    // 001 §9: failed translation loads are retried up to 5 times, starting at 350 ms.
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

i18n.on('languageChanged', () => {
  document.documentElement.lang = i18n.resolvedLanguage ?? 'vi';
});

export default i18n;
