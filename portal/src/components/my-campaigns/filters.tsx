import { ASSIGNMENT_STATUSES } from '@doanhoi/shared';
import { useTranslation } from '../../i18n';
import type { Filters, StatusFilter } from '../../rules';
import { SearchIcon } from '../icons';

export function AssignmentFilters({ value, onChange }: { value: Filters; onChange: (f: Filters) => void }) {
  const { t } = useTranslation('myPayments');
  const dirty = value.status !== 'ALL' || value.search !== '';
  return (
    <div className="filters" role="search" aria-label={t('filters.label')}>
      <div className="field field-inline">
        <label htmlFor="filter-status">{t('filters.status')}</label>
        <select
          id="filter-status"
          className="select"
          value={value.status}
          onChange={(e) => onChange({ ...value, status: e.target.value as StatusFilter })}
        >
          <option value="ALL">{t('filters.all')}</option>
          {ASSIGNMENT_STATUSES.map((s) => (
            <option key={s} value={s}>
              {t(`status.${s}`)}
            </option>
          ))}
        </select>
      </div>
      <div className="field field-inline field-grow">
        <label htmlFor="filter-search">{t('filters.search')}</label>
        <div className="input-with-icon">
          <SearchIcon className="input-icon" />
          <input
            id="filter-search"
            className="input"
            type="search"
            placeholder={t('filters.searchPlaceholder')}
            value={value.search}
            onChange={(e) => onChange({ ...value, search: e.target.value })}
          />
        </div>
      </div>
      {dirty ? (
        <button type="button" className="btn btn-default filters-clear" onClick={() => onChange({ status: 'ALL', search: '' })}>
          {t('filters.clear')}
        </button>
      ) : null}
    </div>
  );
}
