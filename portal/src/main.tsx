import { StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { PageSpinner } from './components/states';
import { ToastProvider } from './components/toast';
import './i18n';
import { applyTheme } from './theme';
import './styles.css';

applyTheme();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Suspense fallback={<PageSpinner />}>
      <ToastProvider>
        <App />
      </ToastProvider>
    </Suspense>
  </StrictMode>,
);
