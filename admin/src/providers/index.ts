export { accessControlProvider } from './access-control';
export { authProvider, exchangeGoogleCode, issuePasswordCode, requestPasswordCode, safeRedirect, type LoginParams } from './auth';
export { dataProvider } from './lazy-data';
export { publicDataProvider } from './public-data';
export { i18n, i18nProvider, i18nReady, LANGUAGES, translateValidation, type LanguageCode } from './i18n';
export { NOTIFICATION_CONFIG, useNotificationProvider } from './notification';
export { firstUnitOf, type MatchMode } from './permissions';
export { type RowRights } from './row-rights';
export { session } from './session';
