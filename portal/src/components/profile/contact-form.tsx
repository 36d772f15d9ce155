import { myProfileUpdateSchema, type MyProfile } from '@doanhoi/shared';
import { validationKey } from '@doanhoi/shared/client/i18n';
import { session } from '@doanhoi/shared/client/session';
import { useState, type FormEvent } from 'react';
import { useTranslation } from '../../i18n';
import { Spinner } from '../states';
import { useToast } from '../toast';
import { updateContact } from './api';

/** The one thing a member changes here: their phone (the e-mail is their sign-in name). */
export function ContactForm({ profile, onSaved }: { profile: MyProfile; onSaved: (p: MyProfile) => void }) {
  const { t } = useTranslation(['profile', 'validation']);
  const toast = useToast();
  const [phone, setPhone] = useState(profile.phone ?? '');
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const parsed = myProfileUpdateSchema.safeParse({ phone });
    if (!parsed.success) {
      setError(t(validationKey(parsed.error.issues[0]!.message)));
      return;
    }
    setSaving(true);
    try {
      const saved = await updateContact(parsed.data);
      // The header and other pages read the stored user.
      const user = session.user();
      if (user) session.setUser({ ...user, phone: saved.phone });
      setPhone(saved.phone ?? '');
      onSaved(saved);
      toast.show({ kind: 'success', title: t('contact.saved') });
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setSaving(false);
    }
  };

  const unchanged = phone.replace(/\s+/g, '') === (profile.phone ?? '');
  return (
    <form className="form profile-contact" onSubmit={submit} noValidate data-testid="profile-contact-form">
      <div className="field">
        <label htmlFor="profile-phone">{t('fields.phone')}</label>
        <div className="field-inline">
          <input
            id="profile-phone"
            className={error ? 'input input-invalid' : 'input'}
            type="tel"
            inputMode="tel"
            autoComplete="tel"
            value={phone}
            onChange={(e) => {
              setPhone(e.target.value);
              setError(null);
            }}
            aria-invalid={Boolean(error)}
            aria-describedby={error ? 'profile-phone-error' : 'profile-phone-hint'}
          />
          <button type="submit" className="btn btn-primary" disabled={saving || unchanged} data-testid="profile-save">
            {saving ? <Spinner small /> : null}
            {t('contact.save')}
          </button>
        </div>
        {error ? (
          <span id="profile-phone-error" className="field-error" role="alert">
            {error}
          </span>
        ) : (
          <span id="profile-phone-hint" className="muted small">
            {t('contact.hint')}
          </span>
        )}
      </div>
    </form>
  );
}
