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

/**
 * The entry's stylesheet goes inside index.html (a <style>, which the CSP allows): on a phone network
 * every file is a request, and the first paint then waits only for the HTML and the one script.
 * Styles of the lazy pages stay files of their own.
 */
function inlineEntryCss(): Plugin {
  return {
    name: 'inline-entry-css',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const bundle = ctx.bundle;
        if (!bundle) return html;
        return html.replace(/<link rel="stylesheet"[^>]*href="\/portal\/(assets\/[^"]+\.css)"[^>]*>/g, (tag, file: string) => {
          const asset = bundle[file];
          if (!asset || asset.type !== 'asset') return tag;
          delete bundle[file];
          return `<style>${String(asset.source)}</style>`;
        });
      },
    },
  };
}

export default defineConfig({
  base: '/portal/',
  // Preact's React-compatible layer instead of React: the same components, a 55 KB first load becomes
  // about 20 KB, which on "Fast 3G" is the difference between 1.5 s and more (issue 12). JSX is
  // compiled by esbuild straight to Preact; @types/react still types the source.
  esbuild: { jsx: 'automatic', jsxImportSource: 'preact' },
  resolve: {
    alias: {
      react: 'preact/compat',
      'react-dom': 'preact/compat',
    },
  },
  plugins: [portalPages(), inlineEntryCss(), precompress()],
  build: { outDir: 'dist', emptyOutDir: true },
  server: {
    port: 5174,
    proxy: {
      '/api': API,
      '/locales': API,
    },
  },
});
