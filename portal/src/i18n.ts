/**
 * i18next for the portal (001 §9): the shared settings (vi default and fallback, en, detection
 * cached in localStorage and the cookie shared with the admin, GET /locales/{lng}/{ns}.json with
 * retries; shared/src/client/i18n.ts) with the portal's namespaces.
 */
import { followLanguageInHtml, i18nOptions } from '@doanhoi/shared/client/i18n';
import i18n from 'i18next';
import LanguageDetector from 'i18next-browser-languagedetector';
import HttpBackend, { type HttpBackendOptions } from 'i18next-http-backend';
import { initReactI18next } from 'react-i18next';

export { LANGUAGES } from '@doanhoi/shared/client/i18n';

/** `validation` holds the shared zod messages of the sign-in form. */
export const NAMESPACES = ['portal', 'myPayments', 'reminders', 'validation'];

void i18n
  .use(HttpBackend)
  .use(LanguageDetector)
  .use(initReactI18next)
  .init<HttpBackendOptions>({
    ...i18nOptions({ ns: NAMESPACES, defaultNS: 'portal' }),
    react: { useSuspense: true },
  });

followLanguageInHtml(i18n);

