import { describe, expect, it } from 'vitest';
import { i18nOptions, LANGUAGES, validationKey } from './i18n';

describe('i18nOptions', () => {
  it('puts vi first as default and fallback, and adds only the namespace keys given', () => {
    const options = i18nOptions({ ns: ['portal'], defaultNS: 'portal' });
    expect(LANGUAGES.map((l) => l.code)).toEqual(['vi', 'en']);
    expect(options).toMatchObject({
      supportedLngs: ['vi', 'en'],
      fallbackLng: 'vi',
      ns: ['portal'],
      defaultNS: 'portal',
      maxRetries: 5,
      retryTimeout: 350,
    });
    expect(options.backend.loadPath).toBe('/locales/{{lng}}/{{ns}}.json');
    expect(options.detection.order).toEqual(['localStorage', 'cookie', 'navigator', 'htmlTag']);
    expect(options.detection.convertDetectedLanguage('vi-VN')).toBe('vi');
    // An explicit undefined would override i18next's own default.
    expect('fallbackNS' in options).toBe(false);
  });

  it('maps shared zod messages to the validation namespace', () => {
    expect(validationKey('validation.emailRequired')).toBe('validation:emailRequired');
    expect(validationKey('Sai mật khẩu')).toBe('Sai mật khẩu');
  });
});
