import '@refinedev/antd/dist/reset.css';
import './styles.css';
import './phones.css';
import { Spin } from 'antd';
import { StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { SESSION_KEYS } from '@doanhoi/shared/client/session';
import antdStylesUrl from 'virtual:antd-styles';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { App } from './App';
import { i18nReady } from './providers';
import { RouteError } from './route-error';

// A data router so an unexpected render error gets the router's error screen instead of a blank page.
const router = createBrowserRouter([{ path: '*', element: <App />, errorElement: <RouteError /> }]);

/**
 * antd's component styles pre-rendered by the build (admin/vite-antd-styles.ts), for a signed-in
 * page: cssinjs reads their map once, at its first style, so the file is in before React renders.
 * The sign-in page goes without (it stays within its 400 KB, issue 12) and generates its styles.
 */
function componentStyles(): Promise<void> {
  const url = antdStylesUrl;
  if (!url || !localStorage.getItem(SESSION_KEYS.access)) return Promise.resolve();
  return new Promise((done) => {
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = url;
    link.onload = link.onerror = () => done();
    // First in <head>: the app's own stylesheet still overrides antd's rules.
    document.head.prepend(link);
  });
}

// Translations load before anything renders, so no screen ever shows raw keys.
void Promise.allSettled([i18nReady, componentStyles()]).finally(() => {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <Suspense fallback={<Spin fullscreen />}>
        {/* No transitions: under a transition the previous screen stays up, and usable, until the next has
            rendered, so on a busy computer a click or a search lands on a page the URL has already left. */}
        <RouterProvider router={router} useTransitions={false} />
      </Suspense>
    </StrictMode>,
  );
});
