import { useState } from 'react';

/**
 * True from the first time `open` is true: a form dialog rendered ahead of time (forceRender, so its
 * form instance is connected) costs its whole form and its pickers' queries on every visit to the
 * list, whether or not it is ever opened (issue 12: the users table must show within 1 s). Mounted
 * on first open and kept afterwards, the dialog still animates closed and keeps its form.
 */
export function useOpened(open: boolean | undefined): boolean {
  const [opened, setOpened] = useState(false);
  if (open && !opened) setOpened(true);
  return opened || Boolean(open);
}
