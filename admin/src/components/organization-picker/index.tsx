import type { OrganizationListItem } from '@doanhoi/shared';
import { useList, useTranslate } from '@refinedev/core';
import { Select, Typography, type SelectProps } from 'antd';
import { useEffect, useMemo, useState } from 'react';

/** An organization the picker already knows (a current membership or grant) so its label shows before any search. */
export interface KnownOrganization {
  id: number;
  name: string;
  code: string;
  parentName?: string | null;
}

/** The "global" choice of pickers that offer it (a real organization id is never 0). */
export const GLOBAL_ORGANIZATION = 0;

interface Props extends Omit<SelectProps<number | number[]>, 'options' | 'filterOption' | 'onSearch' | 'showSearch'> {
  known?: KnownOrganization[];
  /** Only organizations this accepts are offered (e.g. where the caller may grant). */
  allow?: (o: OrganizationListItem) => boolean;
  /** Offers "global" first, with this label. */
  globalLabel?: string;
}

const SEARCH_DELAY_MS = 300;

const title = (o: KnownOrganization) => (o.code ? `${o.name} (${o.code})` : o.name);

const label = (o: KnownOrganization) => (
  <span className="org-option">
    {o.name} {o.code && <Typography.Text type="secondary">({o.code})</Typography.Text>}
    {o.parentName && (
      <Typography.Text type="secondary" className="org-option-parent">
        {' '}
        — {o.parentName}
      </Typography.Text>
    )}
  </span>
);

/**
 * The organization picker of 000 §2: searched on the server (50 rows a page), each option with
 * its parent's name, sorted with the known (flagged) entries first, then by name.
 */
export function OrganizationPicker({ known = [], allow, globalLabel, ...select }: Props) {
  const t = useTranslate();
  const [typed, setTyped] = useState('');
  const [search, setSearch] = useState('');
  // Fetched when first opened: forms render their pickers hidden, and some callers may not list organizations at all.
  const [opened, setOpened] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setSearch(typed.trim()), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [typed]);
  const { result, query } = useList<OrganizationListItem>({
    resource: 'organizations',
    pagination: { currentPage: 1, pageSize: 50, mode: 'server' },
    filters: search ? [{ field: 'q', operator: 'contains', value: search }] : [],
    queryOptions: { enabled: opened },
    errorNotification: false,
  });
  const options = useMemo(() => {
    const found = (result?.data ?? []).filter((o) => !allow || allow(o));
    const knownIds = new Set(known.map((k) => k.id));
    // A known entry may come without its code or parent (a role link names only the unit): the search's row completes it.
    const byId = new Map(found.map((o) => [o.id, o]));
    // A user may hold several roles in one unit: it is offered once.
    const completed = [...new Map(known.map((k) => [k.id, k])).values()].map((k) => {
      const row = byId.get(k.id);
      return row ? { ...k, code: k.code || row.code, parentName: k.parentName ?? row.parentName } : k;
    });
    const sorted = [...completed, ...found.filter((o) => !knownIds.has(o.id)).sort((a, b) => a.name.localeCompare(b.name, 'vi'))];
    const rows = sorted.map((o) => ({ value: o.id, label: label(o), title: title(o) }));
    return globalLabel ? [{ value: GLOBAL_ORGANIZATION, label: <strong>{globalLabel}</strong>, title: globalLabel }, ...rows] : rows;
  }, [result, known, allow, globalLabel]);
  return (
    <Select
      {...select}
      showSearch
      filterOption={false}
      onSearch={setTyped}
      onOpenChange={(open) => open && setOpened(true)}
      onBlur={() => setTyped('')}
      loading={query.isFetching}
      options={options}
      optionLabelProp="title"
      notFoundContent={query.isFetching ? t('loading') : undefined}
      popupMatchSelectWidth={false}
      classNames={{ popup: { root: 'org-picker-popup' } }}
    />
  );
}
