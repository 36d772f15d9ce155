/**
 * Light/dark mode, remembered in localStorage and handed to antd's ConfigProvider algorithm.
 * The antd and dayjs locales follow the i18n language so built-in texts (pagination, pickers) match.
 */
import { ConfigProvider } from 'antd';
import enUS from 'antd/locale/en_US';
import viVN from 'antd/locale/vi_VN';
import dayjs from 'dayjs';
import 'dayjs/locale/vi';
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type PropsWithChildren } from 'react';
import { useTranslation } from 'react-i18next';
import { themeConfig, type ThemeMode } from './theme-config';

const STORAGE_KEY = 'colorMode';

interface ThemeModeValue {
  mode: ThemeMode;
  setMode: (mode: ThemeMode) => void;
  toggle: () => void;
}

const ThemeModeContext = createContext<ThemeModeValue | null>(null);

function initialMode(): ThemeMode {
  const saved = localStorage.getItem(STORAGE_KEY);
  return saved === 'dark' || saved === 'light' ? saved : 'light';
}

/**
 * antd ignores the reduce-motion preference; honouring it also takes modal and drawer animations
 * out of the e2e runs, where a dialog caught mid-animation made clicks flaky.
 */
function prefersReducedMotion(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

export function ThemeModeProvider({ children }: PropsWithChildren) {
  const [mode, setModeState] = useState<ThemeMode>(initialMode);
  const [reducedMotion] = useState(prefersReducedMotion);
  const { i18n } = useTranslation();
  const english = i18n.resolvedLanguage === 'en';

  const setMode = useCallback((next: ThemeMode) => {
    localStorage.setItem(STORAGE_KEY, next);
    setModeState(next);
  }, []);
  const toggle = useCallback(() => setMode(mode === 'dark' ? 'light' : 'dark'), [mode, setMode]);

  useEffect(() => {
    dayjs.locale(english ? 'en' : 'vi');
  }, [english]);

  useEffect(() => {
    document.documentElement.dataset.theme = mode;
    document.documentElement.style.colorScheme = mode;
  }, [mode]);

  const value = useMemo(() => ({ mode, setMode, toggle }), [mode, setMode, toggle]);
  const themeOfMode = useMemo(() => themeConfig(mode, reducedMotion), [mode, reducedMotion]);
  return (
    <ThemeModeContext.Provider value={value}>
      <ConfigProvider locale={english ? enUS : viVN} theme={themeOfMode}>
        {children}
      </ConfigProvider>
    </ThemeModeContext.Provider>
  );
}

export function useThemeMode(): ThemeModeValue {
  const value = useContext(ThemeModeContext);
  if (!value) throw new Error('useThemeMode must be used within a ThemeModeProvider');
  return value;
}
