/** A small toast stack (5 s by default, 001 §9). */
import { createContext, useCallback, useContext, useMemo, useRef, useState, type PropsWithChildren } from 'react';
import { useTranslation } from '../i18n';
import { AlertIcon, CheckCircleIcon, InfoIcon } from './icons';

type Kind = 'success' | 'error' | 'info';
interface Toast {
  id: number;
  kind: Kind;
  title: string;
  message?: string;
}
interface ToastApi {
  show: (t: Omit<Toast, 'id'>, durationMs?: number) => void;
}

export const TOAST_DURATION_MS = 5000;
const ToastContext = createContext<ToastApi>({ show: () => undefined });

export function useToast() {
  return useContext(ToastContext);
}

const ICONS = { success: CheckCircleIcon, error: AlertIcon, info: InfoIcon };

export function ToastProvider({ children }: PropsWithChildren) {
  const { t } = useTranslation('portal');
  const [toasts, setToasts] = useState<Toast[]>([]);
  const next = useRef(1);

  const dismiss = useCallback((id: number) => setToasts((list) => list.filter((x) => x.id !== id)), []);
  const show = useCallback<ToastApi['show']>(
    (toast, durationMs = TOAST_DURATION_MS) => {
      const id = next.current++;
      setToasts((list) => [...list, { ...toast, id }]);
      window.setTimeout(() => dismiss(id), durationMs);
    },
    [dismiss],
  );
  const api = useMemo(() => ({ show }), [show]);

  return (
    <ToastContext.Provider value={api}>
      {children}
      <div className="toasts no-print" aria-live="assertive">
        {toasts.map((x) => {
          const Icon = ICONS[x.kind];
          return (
            <div key={x.id} className={`toast toast-${x.kind}`} role={x.kind === 'error' ? 'alert' : 'status'} data-testid="toast">
              <Icon className="toast-icon" />
              <div className="toast-body">
                <strong>{x.title}</strong>
                {x.message ? <span>{x.message}</span> : null}
              </div>
              <button type="button" className="toast-close" onClick={() => dismiss(x.id)} aria-label={t('common.close')}>
                ×
              </button>
            </div>
          );
        })}
      </div>
    </ToastContext.Provider>
  );
}
