import { fullName, type User } from '@doanhoi/shared';
import { useTranslate } from '@refinedev/core';
import { Select, type SelectProps } from 'antd';
import { useState } from 'react';
import { SEARCH_MIN as MIN, useUserSearch } from './use-user-search';

/** The user search picker of 000 §2. */
export function UserSearchSelect({
  onPick,
  ...props
}: Omit<SelectProps<number>, 'options' | 'onChange'> & { onPick: (u: User | null) => void }) {
  const t = useTranslate();
  const [term, setTerm] = useState('');
  const found = useUserSearch(term);
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
