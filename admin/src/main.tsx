import '@refinedev/antd/dist/reset.css';
import './styles.css';
import './phones.css';
import { Spin } from 'antd';
import { StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { App } from './App';
import { i18nReady } from './providers';
import { RouteError } from './route-error';

// A data router so an unexpected render error gets the router's error screen instead of a blank page.
const router = createBrowserRouter([{ path: '*', element: <App />, errorElement: <RouteError /> }]);

// Translations load before anything renders, so no screen ever shows raw keys.
void i18nReady.finally(() => {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <Suspense fallback={<Spin fullscreen />}>
        <RouterProvider router={router} />
      </Suspense>
    </StrictMode>,
  );
});
