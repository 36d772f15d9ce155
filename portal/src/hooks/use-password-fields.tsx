/**
 * The password forms' fields (change-password, reset-password): their values, the error under each,
 * cleared as soon as that field is typed into again, and the field itself drawn as AuthField.
 */
import { useState } from 'react';
import { AuthField } from '../components/auth-card';

export function usePasswordFields<F extends string>(initial: Record<F, string>, idPrefix: string, label: (name: F) => string) {
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<Partial<Record<F, string>>>({});

  const field = (name: F, autoComplete = 'new-password') => (
    <AuthField
      id={`${idPrefix}-${name}`}
      label={label(name)}
      error={errors[name]}
      type="password"
      name={name}
      autoComplete={autoComplete}
      value={values[name]}
      onChange={(e) => {
        const value = e.target.value;
        setValues((v) => ({ ...v, [name]: value }));
        if (errors[name]) setErrors((x) => ({ ...x, [name]: undefined }));
      }}
    />
  );

  return { values, errors, setErrors, field };
}
