/**
 * The antd theme of each mode, in one place: the ConfigProvider (theme-mode.tsx) and the build's
 * pre-rendered component styles (admin/vite-antd-styles.ts) must hash to the same style keys.
 */
import { theme, type ThemeConfig } from 'antd';

export type ThemeMode = 'light' | 'dark';

export function themeConfig(mode: ThemeMode, reducedMotion: boolean): ThemeConfig {
  return {
    // Refine's "Blue" theme, written out: importing RefineThemes pulled @refinedev/antd onto the sign-in page.
    token: { colorPrimary: '#1677FF', motion: !reducedMotion },
    algorithm: mode === 'dark' ? theme.darkAlgorithm : theme.defaultAlgorithm,
    // antd's header is dark navy by default; ours follows the container colour of the mode.
    components: { Layout: { headerBg: mode === 'dark' ? '#141414' : '#ffffff', headerPadding: '0 24px' } },
    cssVar: true,
  };
}
