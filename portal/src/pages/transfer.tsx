/**
 * /payment/transfer (issue 30 item 1): a member asks to move from one of their units to another
 * (chuyển sinh hoạt). The receiving unit decides; until then nothing moves. Their requests are
 * listed below with the decision, and a pending one can be withdrawn. Loaded on first visit.
 */
import { createTransferSchema, formatDate, type OrganizationRef, type Transfer } from '@doanhoi/shared';
import { validationKey } from '@doanhoi/shared/client/i18n';
import { session } from '@doanhoi/shared/client/session';
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { request } from '../api';
import { ErrorState, LoadingState, Spinner } from '../components/states';
import { useToast } from '../components/toast';
import { useTranslation } from '../i18n';
import './transfer.css';

type Mine = { units: OrganizationRef[]; transfers: Transfer[] };
const today = () => new Date(Date.now() + 7 * 3600_000).toISOString().slice(0, 10);

function UnitSearch({
  value,
  onChange,
  label,
}: {
  value: OrganizationRef | null;
  onChange: (o: OrganizationRef | null) => void;
  label: string;
}) {
  const { t } = useTranslation('portal');
  const [term, setTerm] = useState('');
  const [found, setFound] = useState<OrganizationRef[]>([]);
  useEffect(() => {
    if (term.trim().length < 2) return setFound([]);
    const timer = setTimeout(() => {
      request<OrganizationRef[]>(`/transfers/units?limit=10&search=${encodeURIComponent(term.trim())}`).then(setFound, () => setFound([]));
    }, 300);
    return () => clearTimeout(timer);
  }, [term]);
  return (
    <div className="field">
      <label htmlFor="transfer-to">{label}</label>
      {value ? (
        <div className="field-inline">
          <span data-testid="transfer-to-chosen">{`${value.name} (${value.code})`}</span>
          <button type="button" className="btn btn-default btn-small" onClick={() => onChange(null)}>
            ✕
          </button>
        </div>
      ) : (
        <>
          <input
            id="transfer-to"
            className="input"
            value={term}
            placeholder={t('transfer.search')}
            onChange={(e) => setTerm(e.target.value)}
            data-testid="transfer-to-search"
          />
          {found.length > 0 && (
            <ul className="transfer-options" role="listbox">
              {found.map((o) => (
                <li key={o.id}>
                  <button type="button" className="btn btn-default btn-block" onClick={() => onChange(o)} data-testid="transfer-to-option">
                    {`${o.name} (${o.code})`}
                  </button>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </div>
  );
}

export default function TransferPage() {
  const { t } = useTranslation(['portal', 'validation']);
  const toast = useToast();
  const [state, setState] = useState<{ status: 'loading' } | { status: 'error'; message: string } | { status: 'ready'; mine: Mine }>({
    status: 'loading',
  });
  const [from, setFrom] = useState<number | null>(null);
  const [to, setTo] = useState<OrganizationRef | null>(null);
  const [reason, setReason] = useState('');
  const [date, setDate] = useState(today());
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  // A new key empties the unit search (its typed text and choices) once a request is sent.
  const [sent, setSent] = useState(0);

  const load = useCallback(() => {
    request<Mine>('/transfers/mine').then(
      (mine) => {
        setState({ status: 'ready', mine });
        setFrom((f) => f ?? mine.units[0]?.id ?? null);
      },
      (err: unknown) => setState({ status: 'error', message: err instanceof Error ? err.message : String(err) }),
    );
  }, []);
  useEffect(load, [load]);
  useEffect(() => {
    document.title = `${t('transfer.title')} · ${t('appTitle')}`;
  }, [t]);

  const userId = session.user()?.id;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (state.status !== 'ready') return;
    const parsed = createTransferSchema.safeParse({
      userId: userId ?? 0,
      fromOrganizationId: from ?? 0,
      toOrganizationId: to?.id ?? 0,
      reason,
      effectiveDate: date,
    });
    if (!parsed.success) return setError(t(validationKey(parsed.error.issues[0]!.message)));
    setSaving(true);
    try {
      await request<Transfer>('/transfers', { method: 'POST', body: parsed.data });
      toast.show({ kind: 'success', title: t('transfer.sent') });
      setReason('');
      setTo(null);
      setSent((n) => n + 1);
      setError(null);
      load();
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setSaving(false);
    }
  };

  const cancel = async (id: number) => {
    try {
      await request(`/transfers/${id}/cancel`, { method: 'POST' });
      load();
    } catch (err) {
      toast.show({ kind: 'error', title: err instanceof Error ? err.message : String(err) });
    }
  };

  if (state.status !== 'ready') {
    return (
      <div className="page" data-testid="transfer-page">
        <div className="card">
          {state.status === 'loading' ? <LoadingState /> : <ErrorState title={t('transfer.title')} message={state.message} />}
        </div>
      </div>
    );
  }
  const { units, transfers } = state.mine;
  // One pending request per member (the API answers 409 to a second): the form waits until it is decided or cancelled.
  const pending = transfers.some((r) => r.status === 'PENDING');
  return (
    <div className="page" data-testid="transfer-page">
      <div className="card">
        <h1>{t('transfer.title')}</h1>
        <p className="muted">{t('transfer.intro')}</p>
        {units.length === 0 ? (
          <p data-testid="transfer-no-unit">{t('transfer.noUnit')}</p>
        ) : pending ? (
          <p data-testid="transfer-pending">{t('transfer.pending')}</p>
        ) : (
          <form className="form" onSubmit={submit} noValidate data-testid="transfer-form">
            <div className="field">
              <label htmlFor="transfer-from">{t('transfer.from')}</label>
              <select
                id="transfer-from"
                className="input"
                value={from ?? ''}
                onChange={(e) => setFrom(Number(e.target.value))}
                data-testid="transfer-from"
              >
                {units.map((u) => (
                  <option key={u.id} value={u.id}>{`${u.name} (${u.code})`}</option>
                ))}
              </select>
            </div>
            <UnitSearch key={sent} value={to} onChange={setTo} label={t('transfer.to')} />
            <div className="field">
              <label htmlFor="transfer-reason">{t('transfer.reason')}</label>
              <textarea
                id="transfer-reason"
                className="input"
                rows={2}
                maxLength={500}
                value={reason}
                onChange={(e) => setReason(e.target.value)}
                data-testid="transfer-reason"
              />
            </div>
            <div className="field">
              <label htmlFor="transfer-date">{t('transfer.effectiveDate')}</label>
              <input
                id="transfer-date"
                className="input"
                type="date"
                value={date}
                onChange={(e) => setDate(e.target.value)}
                data-testid="transfer-date"
              />
            </div>
            {error && (
              <p className="field-error" role="alert" data-testid="transfer-error">
                {error}
              </p>
            )}
            <button type="submit" className="btn btn-primary" disabled={saving} data-testid="transfer-submit">
              {saving ? <Spinner small /> : null}
              {t('transfer.submit')}
            </button>
          </form>
        )}
      </div>
      <div className="card">
        <h2>{t('transfer.mine')}</h2>
        {transfers.length === 0 ? (
          <p className="muted">{t('transfer.none')}</p>
        ) : (
          <ul className="transfer-list" data-testid="transfer-mine">
            {transfers.map((r) => (
              <li key={r.id} data-testid="transfer-item">
                <strong>{`${r.fromOrganization.name} → ${r.toOrganization.name}`}</strong>
                <span className="muted">{` · ${formatDate(r.effectiveDate)} · `}</span>
                <span data-testid="transfer-item-status">{t(`transfer.statuses.${r.status}`)}</span>
                {r.refuseReason && <div className="muted">{t('transfer.refuseReason', { reason: r.refuseReason })}</div>}
                {r.canCancel && (
                  <button
                    type="button"
                    className="btn btn-default btn-small"
                    onClick={() => void cancel(r.id)}
                    data-testid="transfer-cancel"
                  >
                    {t('transfer.cancel')}
                  </button>
                )}
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}
