import { HOMETOWN_MAX, myProfileUpdateSchema, RELIGION_MAX, type MyProfile } from '@doanhoi/shared';
import { validationKey } from '@doanhoi/shared/client/i18n';
import { session } from '@doanhoi/shared/client/session';
import { useState, type FormEvent } from 'react';
import { useTranslation } from '../../i18n';
import { Spinner } from '../states';
import { useToast } from '../toast';
import { fieldErrorsOf } from '../../field-errors';
import { updateContact } from './api';

type Field = 'phone' | 'religion' | 'hometown';
const FIELDS: Field[] = ['phone', 'religion', 'hometown'];
const stored = (p: MyProfile): Record<Field, string> => ({ phone: p.phone ?? '', religion: p.religion ?? '', hometown: p.hometown ?? '' });
const same = (field: Field, a: string, b: string) => (field === 'phone' ? a.replace(/\s+/g, '') === b : a.trim() === b);

/**
 * What a member changes here: their phone (the e-mail is their sign-in name), religion and hometown
 * (issue 30 item 8; the rest of the record is the office's). Only the fields that changed are sent.
 */
export function ContactForm({ profile, onSaved }: { profile: MyProfile; onSaved: (p: MyProfile) => void }) {
  const { t } = useTranslation(['profile', 'validation']);
  const toast = useToast();
  const [values, setValues] = useState(() => stored(profile));
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [saving, setSaving] = useState(false);
  const before = stored(profile);
  const changed = FIELDS.filter((f) => !same(f, values[f], before[f]));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const parsed = myProfileUpdateSchema.safeParse(Object.fromEntries(changed.map((f) => [f, values[f]])));
    if (!parsed.success) {
      const next: Partial<Record<Field, string>> = {};
      for (const issue of parsed.error.issues) next[(issue.path[0] as Field) ?? 'phone'] ??= t(validationKey(issue.message));
      setErrors(next);
      return;
    }
    setSaving(true);
    try {
      const saved = await updateContact(parsed.data);
      // The header and other pages read the stored user.
      const user = session.user();
      if (user) session.setUser({ ...user, phone: saved.phone });
      setValues(stored(saved));
      onSaved(saved);
      toast.show({ kind: 'success', title: t('contact.saved') });
    } catch (err) {
      // Under the field the API names; a refusal naming none goes under the first field changed.
      const onFields = fieldErrorsOf(err, FIELDS);
      setErrors(Object.keys(onFields).length ? onFields : { [changed[0] ?? 'phone']: err instanceof Error ? err.message : String(err) });
    } finally {
      setSaving(false);
    }
  };

  const input = (field: Field, props: { type?: string; inputMode?: 'tel'; autoComplete?: string; maxLength?: number }) => {
    const error = errors[field];
    return (
      <div className="field" key={field}>
        <label htmlFor={`profile-${field}`}>{t(`fields.${field}`)}</label>
        <input
          id={`profile-${field}`}
          className={error ? 'input input-invalid' : 'input'}
          type={props.type ?? 'text'}
          inputMode={props.inputMode}
          autoComplete={props.autoComplete}
          maxLength={props.maxLength}
          value={values[field]}
          onChange={(e) => {
            setValues((v) => ({ ...v, [field]: e.target.value }));
            setErrors((x) => ({ ...x, [field]: undefined }));
          }}
          aria-invalid={Boolean(error)}
          aria-describedby={error ? `profile-${field}-error` : field === 'phone' ? 'profile-phone-hint' : undefined}
        />
        {error ? (
          <span id={`profile-${field}-error`} className="field-error" role="alert">
            {error}
          </span>
        ) : field === 'phone' ? (
          <span id="profile-phone-hint" className="muted small">
            {t('contact.hint')}
          </span>
        ) : null}
      </div>
    );
  };

  return (
    <form className="form profile-contact" onSubmit={submit} noValidate data-testid="profile-contact-form">
      {input('phone', { type: 'tel', inputMode: 'tel', autoComplete: 'tel' })}
      {input('religion', { maxLength: RELIGION_MAX })}
      {input('hometown', { maxLength: HOMETOWN_MAX, autoComplete: 'address-level1' })}
      <div>
        <button type="submit" className="btn btn-primary" disabled={saving || changed.length === 0} data-testid="profile-save">
          {saving ? <Spinner small /> : null}
          {t('contact.save')}
        </button>
      </div>
    </form>
  );
}
