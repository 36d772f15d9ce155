/** The member's reminder notices, reloaded with the assignments; a failure just shows none. */
import type { MyReminder } from '@doanhoi/shared';
import { useEffect, useState } from 'react';
import { myReminders } from '../api';

/** `loadedAt`: when the assignments last loaded (null while loading), so both come from one moment. */
export function useMyReminders(loadedAt: number | null): MyReminder[] {
  const [items, setItems] = useState<MyReminder[]>([]);
  useEffect(() => {
    if (loadedAt == null) return;
    let live = true;
    myReminders().then(
      (r) => live && setItems(r),
      () => live && setItems([]),
    );
    return () => {
      live = false;
    };
  }, [loadedAt]);
  return items;
}
