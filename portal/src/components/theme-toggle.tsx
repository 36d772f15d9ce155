import { useTranslation } from '../i18n';
import { useThemeMode } from '../theme';
import { MoonIcon, SunIcon } from './icons';

export function ThemeToggle() {
  const { t } = useTranslation('portal');
  const { mode, toggle } = useThemeMode();
  const label = mode === 'dark' ? t('header.lightMode') : t('header.darkMode');
  return (
    <button type="button" className="btn btn-icon" onClick={toggle} aria-label={label} title={label}>
      {mode === 'dark' ? <SunIcon /> : <MoonIcon />}
    </button>
  );
}
