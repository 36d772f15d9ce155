/**
 * i18next for the admin: the shared settings (languages, detection, /locales backend with retries;
 * shared/src/client/i18n.ts) with the admin's namespaces, plus Refine's i18nProvider.
 */
import { followLanguageInHtml, i18nOptions, validationKey } from '@doanhoi/shared/client/i18n';
import type { I18nProvider } from '@refinedev/core';
import i18n from 'i18next';
import LanguageDetector from 'i18next-browser-languagedetector';
import HttpBackend, { type HttpBackendOptions } from 'i18next-http-backend';
import { initReactI18next } from 'react-i18next';

export { LANGUAGES, type LanguageCode } from '@doanhoi/shared/client/i18n';

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
  'campaigns',
  'audit',
  'imports',
  'adjustments',
  'reminders',
  'dues',
  'reports',
  'bulkEdit',
  'validation',
];

const options = i18nOptions({ ns: NAMESPACES, defaultNS: 'common', fallbackNS: 'common' });

export const i18nReady = i18n
  .use(HttpBackend)
  .use(LanguageDetector)
  .use(initReactI18next)
  .init<HttpBackendOptions>({
    ...options,
    // 000 §1: Vietnamese unless English was chosen here; the browser's own language is not asked.
    detection: { ...options.detection, order: ['localStorage', 'cookie'] },
    react: { useSuspense: true },
  });

followLanguageInHtml(i18n);

/** Translates a shared zod message ('validation.emailRequired') from the validation namespace. */
export function translateValidation(message: string): string {
  return i18n.t(validationKey(message));
}

/** Refine's error toasts name the resource by its raw English singular ("department"): shown in the screen's language. */
function withResourceName(options: Record<string, unknown> | undefined) {
  const resource = options?.resource;
  return typeof resource === 'string' ? { ...options, resource: i18n.t(`resourceNames.${resource}`, { defaultValue: resource }) } : options;
}

export const i18nProvider: I18nProvider = {
  // Refine sometimes passes the default message in place of the options.
  translate: (key, options, defaultMessage) =>
    typeof options === 'string'
      ? String(i18n.t(key, { defaultValue: options }))
      : String(i18n.t(key, { defaultValue: defaultMessage, ...withResourceName(options) })),
  changeLocale: (lang) => i18n.changeLanguage(lang),
  getLocale: () => i18n.resolvedLanguage ?? i18n.language ?? 'vi',
};

export { i18n };
