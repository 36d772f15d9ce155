/**
 * Light/dark mode: the admin's choice in localStorage 'colorMode' when there is one, otherwise the
 * system preference. The portal's toggle writes the same key, so both apps agree.
 */
import { useCallback, useEffect, useState } from 'react';

export type ThemeMode = 'light' | 'dark';
const STORAGE_KEY = 'colorMode';

function systemMode(): ThemeMode {
  return window.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

function savedMode(): ThemeMode | null {
  const saved = localStorage.getItem(STORAGE_KEY);
  return saved === 'dark' || saved === 'light' ? saved : null;
}

export function applyTheme(mode: ThemeMode = savedMode() ?? systemMode()) {
  document.documentElement.dataset.theme = mode;
  document.documentElement.style.colorScheme = mode;
}

export function useThemeMode() {
  const [mode, setModeState] = useState<ThemeMode>(() => savedMode() ?? systemMode());

  useEffect(() => applyTheme(mode), [mode]);

  // Follow the system while the user has not chosen, and the admin's choice made in another tab.
  useEffect(() => {
    const media = window.matchMedia?.('(prefers-color-scheme: dark)');
    const onSystem = () => {
      if (!savedMode()) setModeState(systemMode());
    };
    const onStorage = (e: StorageEvent) => {
      if (e.key === STORAGE_KEY) setModeState(savedMode() ?? systemMode());
    };
    media?.addEventListener('change', onSystem);
    window.addEventListener('storage', onStorage);
    return () => {
      media?.removeEventListener('change', onSystem);
      window.removeEventListener('storage', onStorage);
    };
  }, []);

  const toggle = useCallback(() => {
    setModeState((current) => {
      const next = current === 'dark' ? 'light' : 'dark';
      localStorage.setItem(STORAGE_KEY, next);
      return next;
    });
  }, []);

  return { mode, toggle };
}
