import { useTranslation } from '../i18n';
import { LANGUAGES } from '../i18n';

/** vi first, then en; the choice is cached by the detector in localStorage and the cookie. */
export function LanguageSwitcher() {
  const { t, i18n } = useTranslation('portal');
  const current = i18n.resolvedLanguage ?? 'vi';
  return (
    <select
      className="select select-compact"
      aria-label={t('header.language')}
      value={current}
      onChange={(e) => void i18n.changeLanguage(e.target.value)}
      data-testid="language-switcher"
    >
      {LANGUAGES.map((l) => (
        <option key={l.code} value={l.code}>
          {l.name}
        </option>
      ))}
    </select>
  );
}
