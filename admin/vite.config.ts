import react from '@vitejs/plugin-react';
import { antdStyles } from './vite-antd-styles';
import { precompress } from '../scripts/vite-precompress';
import { themeConfig } from './src/context/theme-config';
import { defineConfig } from 'vite';
import { fileURLToPath } from 'node:url';

// In development the API (port 3000) also serves translations and the Google redirect,
// so everything the browser asks for outside the SPA is proxied there.
const API = process.env.API_URL ?? 'http://localhost:3000';
const NO_MARKDOWN = fileURLToPath(new URL('./src/stubs/markdown.ts', import.meta.url));

export default defineConfig({
  // The light theme's component styles, pre-rendered for signed-in pages (vite-antd-styles.ts, src/main.tsx).
  plugins: [react(), antdStyles(themeConfig('light', false)), precompress()],
  // Unused by every screen, yet bundled: see src/stubs/markdown.ts.
  resolve: {
    alias: {
      'react-markdown': NO_MARKDOWN,
      'remark-gfm': NO_MARKDOWN,
    },
  },
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 2000 },
  server: {
    port: 5173,
    proxy: {
      '/api': API,
      '/locales': API,
      '/auth/google': API,
    },
  },
});
