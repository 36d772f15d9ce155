import { useRef } from 'react';

/**
 * Dialogs open with the focus on their first field (000 keyboard use). Form modals are rendered
 * ahead of time (forceRender), so an autoFocus would fire at page load, not when the dialog opens.
 */
export function useDialogFocus() {
  const ref = useRef<HTMLDivElement>(null);
  const afterOpenChange = (open: boolean) => {
    if (!open) return;
    ref.current?.querySelector<HTMLElement>('input:not([type=hidden]):not([disabled]):not([readonly]), textarea:not([disabled]), .ant-select:not(.ant-select-disabled) input')?.focus();
  };
  return { ref, afterOpenChange };
}
