/**
 * The one search box of every list (000 §9, issue 26 item 5): the list follows the typing after
 * 500 ms without a keystroke, Enter or "Lọc" applies at once, clearing applies at once, and each
 * applied search starts again from page 1 (tableSearch does that for Refine tables).
 */
import { getDefaultFilter } from '@refinedev/antd';
import { useTranslate, type CrudFilter } from '@refinedev/core';
import { Input } from 'antd';
import type { SearchProps } from 'antd/es/input';
import { useEffect, useRef, useState } from 'react';

const SEARCH_DEBOUNCE_MS = 500;

interface Props extends Omit<SearchProps, 'value' | 'defaultValue' | 'onChange' | 'onSearch'> {
  /** The search the list applies now (a URL may hand a number back). */
  value: string | number | null | undefined;
  /** Applies a trimmed search ('' clears it). */
  onSearch: (text: string) => void;
  /** Quiet time before typing applies; 000 §9 gives roles 300 ms, every other list 500 ms. */
  delay?: number;
}

export function ListSearch({ value, onSearch, delay = SEARCH_DEBOUNCE_MS, ...rest }: Props) {
  const t = useTranslate();
  const applied = value == null ? '' : String(value);
  const [text, setText] = useState(applied);
  // What this box last applied: the list echoing it back must not overwrite what was typed since.
  const sent = useRef(applied);
  const latest = useRef(onSearch);
  latest.current = onSearch;

  const apply = (v: string) => {
    sent.current = v.trim();
    latest.current(sent.current);
  };

  // Cleared or changed from elsewhere (a "clear filters" link, the URL): the box shows it.
  useEffect(() => {
    if (applied === sent.current) return;
    sent.current = applied;
    setText(applied);
  }, [applied]);

  useEffect(() => {
    if (text.trim() === sent.current) return;
    // Applied again even when Enter or "Lọc" already did: an apply can be lost when the list re-renders
    // right then (seen under load on the members page), and the pause after typing puts it back.
    const timer = setTimeout(() => apply(text), delay);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- apply reads refs only
  }, [text]);

  return (
    <Input.Search
      allowClear
      enterButton={t('buttons.filter')}
      aria-label={typeof rest.placeholder === 'string' ? rest.placeholder : undefined}
      {...rest}
      value={text}
      onChange={(e) => setText(e.target.value)}
      onSearch={(v) => apply(v)}
    />
  );
}

interface SearchableTable {
  filters: CrudFilter[];
  setFilters: (filters: CrudFilter[], behavior?: 'merge' | 'replace') => void;
  setCurrentPage: (page: number) => void;
}

/** ListSearch's value and onSearch for a Refine useTable: the `q` filter, back to page 1 on each search. */
export function tableSearch(table: SearchableTable, field = 'q') {
  return {
    value: getDefaultFilter(field, table.filters, 'contains') as string | number | undefined,
    onSearch: (text: string) => {
      table.setFilters([{ field, operator: 'contains', value: text || undefined }], 'merge');
      table.setCurrentPage(1);
    },
  };
}
