import react from '@vitejs/plugin-react';
import { precompress } from '../scripts/vite-precompress';
import { defineConfig, type Plugin } from 'vite';

// The API serves the built portal: /portal/* from dist, and dist/index.html for /payment/* and
// /payment-result/*. In development the API (port 3000) answers /api and /locales through the proxy.
const API = process.env.API_URL ?? 'http://localhost:3000';

/** Dev only: answer the portal's page URLs with its index.html, as the API does in production. */
function portalPages(): Plugin {
  return {
    name: 'portal-pages',
    configureServer(server) {
      server.middlewares.use((req, _res, next) => {
        if (req.url && /^\/(payment|payment-result)(\/|\?|$)/.test(req.url)) req.url = '/portal/';
        next();
      });
    },
  };
}

export default defineConfig({
  base: '/portal/',
  plugins: [react(), portalPages(), precompress()],
  build: { outDir: 'dist', emptyOutDir: true },
  server: {
    port: 5174,
    proxy: {
      '/api': API,
      '/locales': API,
    },
  },
});
