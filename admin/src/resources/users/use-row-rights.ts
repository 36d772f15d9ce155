import type { UserListItem } from '@doanhoi/shared';
import { useCan } from '@refinedev/core';
import { useCallback } from 'react';
import type { RowRights } from '../../providers';

const NONE: RowRights = { edit: false, delete: false, roles: false };

/**
 * The rights of each row on the page, from one question to the access-control provider (which
 * checks each in the row user's own organizations, providers/row-rights.ts). Nothing is offered until it answers.
 */
export function useUserRowRights(rows: readonly UserListItem[]): (u: Pick<UserListItem, 'id'>) => RowRights {
  const { data } = useCan({
    resource: 'users',
    action: 'rows',
    params: { rows: rows.map(({ id, memberOf }) => ({ id, memberOf })) },
  });
  return useCallback(
    (u) => {
      if (!data) return NONE;
      const lacking = new Set(data.can ? [] : (data.reason ?? '').split(','));
      return { edit: !lacking.has(`edit@${u.id}`), delete: !lacking.has(`delete@${u.id}`), roles: !lacking.has(`roles@${u.id}`) };
    },
    [data],
  );
}
