import { useTranslation } from '../i18n';

/** Previous / numbered pages / next, with a "1–10 of 23" summary. */
export function Pagination({
  page,
  totalPages,
  total,
  from,
  to,
  onChange,
}: {
  page: number;
  totalPages: number;
  total: number;
  from: number;
  to: number;
  onChange: (page: number) => void;
}) {
  const { t } = useTranslation('portal');
  if (total === 0) return null;
  const pages = pageNumbers(page, totalPages);
  return (
    <nav className="pagination" aria-label={t('pagination.label')}>
      <span className="muted">{t('pagination.summary', { from, to, total })}</span>
      <div className="pagination-buttons">
        <button type="button" className="btn btn-default btn-small" disabled={page <= 1} onClick={() => onChange(page - 1)}>
          {t('pagination.previous')}
        </button>
        {pages.map((p, i) =>
          p === null ? (
            <span key={`gap-${i}`} className="pagination-gap">
              …
            </span>
          ) : (
            <button
              key={p}
              type="button"
              className={p === page ? 'btn btn-primary btn-small' : 'btn btn-default btn-small'}
              aria-current={p === page ? 'page' : undefined}
              aria-label={t('pagination.page', { page: p })}
              onClick={() => onChange(p)}
            >
              {p}
            </button>
          ),
        )}
        <button type="button" className="btn btn-default btn-small" disabled={page >= totalPages} onClick={() => onChange(page + 1)}>
          {t('pagination.next')}
        </button>
      </div>
    </nav>
  );
}

/** 1 … 4 5 6 … 10 */
function pageNumbers(page: number, totalPages: number): (number | null)[] {
  if (totalPages <= 7) return Array.from({ length: totalPages }, (_, i) => i + 1);
  const out: (number | null)[] = [1];
  const start = Math.max(2, page - 1);
  const end = Math.min(totalPages - 1, page + 1);
  if (start > 2) out.push(null);
  for (let p = start; p <= end; p++) out.push(p);
  if (end < totalPages - 1) out.push(null);
  out.push(totalPages);
  return out;
}
