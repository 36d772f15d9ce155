import { AUDIT_ACTION_AREAS, AUDIT_ACTIONS, normalizeText } from '@doanhoi/shared';
import { useTranslate } from '@refinedev/core';
import { Select } from 'antd';
import { useMemo } from 'react';

/** Action codes are dotted ("user.roles.assign"): looked up as one key inside `actionNames`. */
const ACTION_KEYS = { keySeparator: '|' } as const;

type Option = { value: string; label: string; search: string; words: string[] };
/** An area's group or one action in it, as the select holds them. */
type Entry = { label: string; value?: string; search?: string; words?: string[]; title?: string; options?: Option[] };

/** The name's words and the code's parts ("user", "roles", "assign"), accent-free, for prefix matching. */
function searchable(label: string, code: string): Pick<Option, 'search' | 'words'> {
  const search = normalizeText(`${label} ${code}`);
  return { search, words: [...new Set([...search.split(' '), ...code.split(/[._]/)])] };
}

interface Props {
  value: string[];
  onChange: (codes: string[]) => void;
}

/**
 * The audit screen's action filter (issue 26): the actions by name in the officer's language,
 * grouped by area, searched as typed without accents ("xoa thanh vien") over the name and the
 * code (for whoever knows the codes): every word typed must begin a word of the name or of the
 * code ("sign in" is not "assign"), the names holding the words as typed come first. Several may
 * be chosen; their names wrap rather than fold into "+ 2".
 */
export function AuditActionSelect({ value, onChange }: Props) {
  const t = useTranslate();
  const groups = useMemo(() => {
    const named = Object.entries(AUDIT_ACTION_AREAS).map(([area, codes]) => {
      const areaName = t(`audit:areas.${area}`);
      return {
        label: areaName,
        title: areaName,
        options: codes.map((code): Option => {
          const label = t(`audit:actionNames|${code}`, { ...ACTION_KEYS, defaultValue: code });
          return { value: code, label, ...searchable(label, code) };
        }),
      };
    });
    // A code from an older link or another tool still shows, as itself.
    const unknown = value.filter((c) => !AUDIT_ACTIONS.includes(c)).map((c): Option => ({ value: c, label: c, ...searchable(c, c) }));
    return unknown.length ? [...named, { label: '—', title: '—', options: unknown }] : named;
  }, [t, value]);

  return (
    <Select<string[], Entry>
      mode="multiple"
      allowClear
      showSearch
      value={value}
      onChange={(codes) => onChange(codes)}
      options={groups}
      filterOption={(input, option) => {
        const words = normalizeText(input).split(' ').filter(Boolean);
        const known = option?.words;
        return !!known && words.every((w) => known.some((k) => k.startsWith(w)));
      }}
      filterSort={(a, b, info) => {
        const phrase = normalizeText(info?.searchValue);
        return Number(!a.search?.includes(phrase)) - Number(!b.search?.includes(phrase));
      }}
      maxTagCount={3}
      placeholder={t('audit:filters.action')}
      aria-label={t('audit:filters.action')}
      notFoundContent={t('audit:filters.actionNone')}
      popupMatchSelectWidth={false}
      listHeight={360}
      className="audit-filter-actions"
      popupClassName="audit-actions-popup"
      data-testid="audit-filter-action"
    />
  );
}
