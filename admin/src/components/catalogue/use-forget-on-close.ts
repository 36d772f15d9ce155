import type { BaseKey } from '@refinedev/core';
import { useEffect } from 'react';

/**
 * A closed edit dialog forgets its record. Refine's delete drops every cached record of the
 * resource, and a form still holding the deleted id would fetch it again and toast a 404.
 */
export function useForgetOnClose(form: { modalProps: { open?: boolean }; setId: (id: BaseKey | undefined) => void }) {
  const open = form.modalProps.open;
  useEffect(() => {
    if (!open) form.setId(undefined);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open]);
}
