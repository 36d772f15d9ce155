/**
 * /payment/profile (issue 15 part 6): the member's own record, read-only except the phone, with
 * their organizations and payment history. Loaded on first visit (React.lazy in App.tsx).
 */
import { ethnicityName, formatDate, formatDay, fullName, type MyProfile } from '@doanhoi/shared';
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from '../i18n';
import { readProfile } from '../components/profile/api';
import { ContactForm } from '../components/profile/contact-form';
import { PaymentHistory } from '../components/profile/history';
import { ErrorState, LoadingState } from '../components/states';

function Item({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div className="profile-item">
      <dt className="muted">{label}</dt>
      <dd data-testid={testId}>{children}</dd>
    </div>
  );
}

export default function ProfilePage() {
  const { t, i18n } = useTranslation(['profile', 'portal']);
  const lang = i18n.resolvedLanguage === 'en' ? 'en' : 'vi';
  const [state, setState] = useState<
    { status: 'loading' } | { status: 'error'; message: string } | { status: 'ready'; profile: MyProfile }
  >({ status: 'loading' });

  const load = useCallback(() => {
    setState({ status: 'loading' });
    readProfile().then(
      (profile) => setState({ status: 'ready', profile }),
      (err: unknown) => setState({ status: 'error', message: err instanceof Error ? err.message : String(err) }),
    );
  }, []);
  useEffect(load, [load]);
  useEffect(() => {
    document.title = `${t('title')} · ${t('portal:appTitle')}`;
  }, [t]);

  if (state.status !== 'ready') {
    return (
      <div className="page" data-testid="profile-page">
        <div className="card">
          {state.status === 'loading' ? (
            <LoadingState />
          ) : (
            <ErrorState
              title={t('loadError')}
              message={state.message}
              actions={
                <button type="button" className="btn btn-primary" onClick={load}>
                  {t('portal:common.retry')}
                </button>
              }
            />
          )}
        </div>
      </div>
    );
  }

  const p = state.profile;
  const none = <span className="muted">{t('none')}</span>;
  return (
    <div className="page" data-testid="profile-page">
      <div className="page-head">
        <h1>{t('title')}</h1>
        <p className="muted">{t('subtitle')}</p>
      </div>
      <div className="profile-grid">
        <section className="card" aria-labelledby="profile-info">
          <h2 id="profile-info">{t('sections.info')}</h2>
          <dl className="profile-list">
            <Item label={t('fields.name')} testId="profile-name">
              {fullName(p)}
            </Item>
            <Item label={t('fields.code')}>{p.code}</Item>
            <Item label={t('fields.email')}>{p.email}</Item>
            <Item label={t('fields.userType')}>{t(`userTypes.${p.userType}`)}</Item>
            <Item label={t('fields.membership')} testId="profile-membership">
              {t(`membership.${p.membershipStatus}`)}
            </Item>
            <Item label={t('fields.class')} testId="profile-class">
              {p.class?.name ?? none}
            </Item>
            <Item label={t('fields.trainingDepartment')}>{p.trainingDepartment?.name ?? none}</Item>
            <Item label={t('fields.managementDepartment')}>{p.managementDepartment?.name ?? none}</Item>
            {/* The member record (issue 30 item 8): the office's, read-only here; religion and hometown are edited beside. */}
            <Item label={t('fields.dateOfBirth')} testId="profile-dateOfBirth">
              {formatDay(p.dateOfBirth) || none}
            </Item>
            <Item label={t('fields.gender')} testId="profile-gender">
              {p.gender ? t(`gender.${p.gender}`) : none}
            </Item>
            <Item label={t('fields.ethnicity')} testId="profile-ethnicity">
              {ethnicityName(p.ethnicity, lang) || none}
            </Item>
            <Item label={t('fields.doanJoinedAt')} testId="profile-doanJoinedAt">
              {formatDay(p.doanJoinedAt) || none}
            </Item>
            <Item label={t('fields.hoiJoinedAt')}>{formatDay(p.hoiJoinedAt) || none}</Item>
            <Item label={t('fields.partyJoinedAt')}>{formatDay(p.partyJoinedAt) || none}</Item>
          </dl>
          <p className="muted small">{t('readOnly')}</p>
        </section>
        <section className="card" aria-labelledby="profile-contact">
          <h2 id="profile-contact">{t('sections.contact')}</h2>
          <ContactForm profile={p} onSaved={(profile) => setState({ status: 'ready', profile })} />
          <h2 id="profile-orgs" className="profile-subhead">
            {t('sections.organizations')}
          </h2>
          {p.organizations.length === 0 ? (
            <p className="muted">{t('noOrganizations')}</p>
          ) : (
            <ul className="profile-orgs" aria-labelledby="profile-orgs" data-testid="profile-organizations">
              {p.organizations.map((m) => (
                <li key={m.organizationId}>
                  <strong>{m.organization.name}</strong> <span className="muted">({m.organization.code})</span>
                  <div className="muted small">{t('joined', { date: formatDate(m.joinedAt) })}</div>
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>
      <section className="card profile-history-card" aria-labelledby="profile-history-title">
        <h2 id="profile-history-title">{t('history.title')}</h2>
        <PaymentHistory />
      </section>
    </div>
  );
}
