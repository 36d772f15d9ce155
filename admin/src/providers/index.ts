export { accessControlProvider, permissionCode } from './access-control';
export { authProvider, completeTokenLogin, safeRedirect, type LoginParams } from './auth';
export { dataProvider } from './data';
export { API_URL, ApiError, apiRequest, httpClient } from './http';
export { i18n, i18nProvider, i18nReady, LANGUAGES, NAMESPACES, translateValidation, type LanguageCode } from './i18n';
export { NOTIFICATION_CONFIG, useNotificationProvider } from './notification';
export { fetchPermissions, holds, type MatchMode } from './permissions';
export { session } from './session';
