import { useRef } from 'react';

const FIELD =
  'input:not([type=hidden]):not([disabled]):not([readonly]), textarea:not([disabled]), .ant-select:not(.ant-select-disabled) input';

/**
 * Dialogs open with the focus on their first field (000 keyboard use). Form modals are rendered
 * ahead of time (forceRender), so an autoFocus would fire at page load, not when the dialog opens.
 * The focus moves only if it is not already in one of the dialog's fields: someone who clicked a
 * field while the dialog was still opening keeps typing there (their text once landed in the
 * first field, the code, in the middle of a word).
 */
export function useDialogFocus() {
  const ref = useRef<HTMLDivElement>(null);
  const afterOpenChange = (open: boolean) => {
    const root = ref.current;
    if (!open || !root) return;
    const active = document.activeElement;
    if (active && root.contains(active) && active.matches(FIELD)) return;
    root.querySelector<HTMLElement>(FIELD)?.focus();
  };
  return { ref, afterOpenChange };
}
