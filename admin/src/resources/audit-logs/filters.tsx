import { isAuthAction, type UserListItem } from '@doanhoi/shared';
import { useSelect } from '@refinedev/antd';
import { useTranslate } from '@refinedev/core';
import { DatePicker, Select, Space, Switch, type SelectProps } from 'antd';
import dayjs from 'dayjs';
import { OrganizationPicker } from '../../components/organization-picker';
import { useAllowed } from '../../components/permission-guard/use-allowed';
import { AuditActionSelect } from './action-select';

/** Entities that services record (api/src/**): the filter offers these; unknown ones still list. */
export const AUDIT_ENTITIES = [
  'organization',
  'user',
  'role',
  'department',
  'class',
  'payment_campaign',
  'payment_assignment',
  'payment_order',
  'fee_level',
  'payos_config',
  'import_session',
  'remittance',
  'dues_share',
  'audit_log',
] as const;

export interface AuditFilterValues {
  actorId?: number;
  /** A single code from an older link (`action`); the select shows it among `actions` and replaces it on change. */
  action?: string;
  /** The actions chosen by name (issue 26), sent as `actions`. */
  actions?: string[];
  entity?: string;
  organizationId?: number;
  from?: string;
  to?: string;
  /** 'false' when the officer switched sign-ins on; absent (left out) by default. */
  excludeAuth?: string;
}

interface Props {
  values: AuditFilterValues;
  onChange: (patch: AuditFilterValues) => void;
}

/** Filters of the audit screen: who, what, which kind of record, where and when. */
export function AuditFilters({ values, onChange }: Props) {
  const t = useTranslate();
  const canSearchUsers = useAllowed('users.access');
  const chosen = [...new Set([...(values.action ? [values.action] : []), ...(values.actions ?? [])])];
  const withoutAuth = chosen.filter((c) => !isAuthAction(c));
  // A sign-in chosen by name is shown (the API lists actions asked for by name), so the switch reads on.
  const signIns = values.excludeAuth === 'false' || chosen.some(isAuthAction);
  // The user search is the users list, scoped like it: offered only to whoever may open it.
  const users = useSelect<UserListItem>({
    resource: 'users',
    optionLabel: (u) => `${u.familyName} ${u.givenName} (${u.code})`,
    optionValue: 'id',
    pagination: { currentPage: 1, pageSize: 20, mode: 'server' },
    onSearch: (value) => [{ field: 'q', operator: 'contains', value }],
    queryOptions: { enabled: canSearchUsers },
    defaultValue: values.actorId,
  });
  return (
    <Space wrap className="filter-bar audit-filter-bar" data-testid="audit-filters">
      <Select
        {...(users.selectProps as SelectProps)}
        allowClear
        showSearch
        value={values.actorId}
        onChange={(v) => onChange({ actorId: v as number | undefined })}
        placeholder={t('audit:filters.actor')}
        aria-label={t('audit:filters.actor')}
        className="audit-filter-wide"
        disabled={!canSearchUsers && values.actorId === undefined}
        data-testid="audit-filter-actor"
      />
      <AuditActionSelect
        value={chosen}
        onChange={(codes) =>
          onChange({
            action: undefined,
            actions: codes.length ? codes : undefined,
            // Choosing a sign-in shows sign-ins: the switch follows.
            ...(codes.some(isAuthAction) ? { excludeAuth: 'false' } : {}),
          })
        }
      />
      <Select
        allowClear
        showSearch
        optionFilterProp="label"
        value={values.entity}
        onChange={(v) => onChange({ entity: v })}
        placeholder={t('audit:filters.entity')}
        aria-label={t('audit:filters.entity')}
        options={AUDIT_ENTITIES.map((e) => ({ value: e, label: t(`audit:entities.${e}`) }))}
        className="audit-filter"
        data-testid="audit-filter-entity"
      />
      <OrganizationPicker
        allowClear
        value={values.organizationId}
        onChange={(v) => onChange({ organizationId: v as number | undefined })}
        placeholder={t('audit:filters.organization')}
        aria-label={t('audit:filters.organization')}
        className="audit-filter-wide"
        data-testid="audit-filter-organization"
      />
      <DatePicker.RangePicker
        format="DD/MM/YYYY"
        value={[values.from ? dayjs(values.from) : null, values.to ? dayjs(values.to) : null]}
        onChange={(range) => onChange({ from: range?.[0]?.format('YYYY-MM-DD'), to: range?.[1]?.format('YYYY-MM-DD') })}
        placeholder={[t('audit:filters.from'), t('audit:filters.to')]}
        aria-label={t('audit:filters.dates')}
        data-testid="audit-filter-dates"
      />
      <label className="audit-sign-ins">
        <Switch
          size="small"
          checked={signIns}
          // Leaving sign-ins out also drops the sign-in actions chosen in the action filter.
          onChange={(on) =>
            onChange(
              on
                ? { excludeAuth: 'false' }
                : { excludeAuth: undefined, action: undefined, actions: withoutAuth.length ? withoutAuth : undefined },
            )
          }
          data-testid="audit-filter-sign-ins"
        />{' '}
        {t('audit:signIns')}
      </label>
    </Space>
  );
}
