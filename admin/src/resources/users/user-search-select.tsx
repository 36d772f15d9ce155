import { fullName, type User } from '@doanhoi/shared';
import { useTranslate } from '@refinedev/core';
import { Select, type SelectProps } from 'antd';
import { useEffect, useState } from 'react';
import { apiRequest } from '../../providers/http';

/** 000 §9: user search pickers start at 2 characters, after 300 ms, with 10 results. */
const MIN = 2;
const DELAY_MS = 300;

/** The user search picker of 000 §2. */
export function UserSearchSelect({
  onPick,
  ...props
}: Omit<SelectProps<number>, 'options' | 'onChange'> & { onPick: (u: User | null) => void }) {
  const t = useTranslate();
  const [term, setTerm] = useState('');
  const [found, setFound] = useState<User[]>([]);
  useEffect(() => {
    if (term.trim().length < MIN) return;
    const timer = setTimeout(() => {
      apiRequest<{ users: User[] }>(`/users?limit=10&search=${encodeURIComponent(term.trim())}`)
        .then((r) => setFound(r.users))
        .catch(() => setFound([]));
    }, DELAY_MS);
    return () => clearTimeout(timer);
  }, [term]);
  return (
    <Select<number>
      {...props}
      showSearch
      allowClear
      filterOption={false}
      onSearch={setTerm}
      onChange={(id) => onPick(found.find((u) => u.id === id) ?? null)}
      placeholder={t('users:grant.searchUser')}
      notFoundContent={term.trim().length < MIN ? t('users:grant.typeMore') : t('users:grant.noUser')}
      options={found.map((u) => ({ value: u.id, label: `${fullName(u)} (${u.code}) — ${u.email}` }))}
    />
  );
}
