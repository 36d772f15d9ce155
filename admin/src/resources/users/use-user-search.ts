import type { User } from '@doanhoi/shared';
import { useList } from '@refinedev/core';
import { useEffect, useState } from 'react';

/** 000 §9: user search pickers start at 2 characters, after 300 ms, with 10 results. */
export const SEARCH_MIN = 2;
const SEARCH_DELAY_MS = 300;

/** The users a picker offers for what was typed: the users list searched, 10 at most; nothing below 2 characters. */
export function useUserSearch(term: string, enabled = true): User[] {
  const [search, setSearch] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setSearch(term.trim()), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [term]);
  const active = enabled && search.length >= SEARCH_MIN && term.trim().length >= SEARCH_MIN;
  const { result } = useList<User>({
    resource: 'users',
    filters: [{ field: 'q', operator: 'contains', value: search }],
    pagination: { currentPage: 1, pageSize: 10 },
    errorNotification: false,
    queryOptions: { enabled: active, placeholderData: (previous) => (active ? previous : undefined) },
  });
  return active ? (result.data ?? []) : [];
}
