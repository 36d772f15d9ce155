import { describe, expect, it } from 'vitest';
import en from '../../../data/locales/en/validation.json';
import vi from '../../../data/locales/vi/validation.json';
import { changePasswordSchema, loginSchema, permissionsQuery, refreshSchema } from './auth';

/** The message keys per field, in the order the schema reports them (a form shows the first). */
function keys(result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) {
  const out: Record<string, string[]> = {};
  for (const i of result.error?.issues ?? []) (out[i.path.join('.')] ??= []).push(i.message);
  return out;
}

describe('loginSchema — 000 §5', () => {
  it('accepts a valid e-mail and a password of 6 characters, trimming the e-mail', () => {
    const r = loginSchema.safeParse({ email: '  an.nguyen@sv.edu.vn ', password: '123456' });
    expect(r.success).toBe(true);
    expect(r.data).toEqual({ email: 'an.nguyen@sv.edu.vn', password: '123456' });
  });

  it('missing fields are "required"', () => {
    const k = keys(loginSchema.safeParse({}));
    expect(k.email?.[0]).toBe('validation.emailRequired');
    expect(k.password?.[0]).toBe('validation.passwordRequired');
  });

  it('empty or blank fields are "required" first', () => {
    const k = keys(loginSchema.safeParse({ email: '   ', password: '' }));
    expect(k.email?.[0]).toBe('validation.emailRequired');
    expect(k.password?.[0]).toBe('validation.passwordRequired');
  });

  it('non-string values are "required"', () => {
    const k = keys(loginSchema.safeParse({ email: 42, password: null }));
    expect(k.email).toEqual(['validation.emailRequired']);
    expect(k.password).toEqual(['validation.passwordRequired']);
  });

  it.each(['an', 'an@', '@sv.edu.vn', 'an@sv', 'an nguyen@sv.edu.vn', 'an@sv edu.vn', 'an@@sv.edu.vn'])(
    'rejects the address %j as invalid',
    (email) => {
      expect(keys(loginSchema.safeParse({ email, password: '123456' })).email).toEqual(['validation.emailInvalid']);
    },
  );

  it.each(['a@b.co', 'nguyen.van.an+k66@sv.bachkhoa.edu.vn', '20241234@st.hust.edu.vn'])('accepts the address %j', (email) => {
    expect(loginSchema.safeParse({ email, password: '123456' }).success).toBe(true);
  });

  it('a password shorter than 6 characters gives passwordMinLength only', () => {
    for (const password of ['1', '12345']) {
      const k = keys(loginSchema.safeParse({ email: 'a@b.vn', password }));
      expect(k.password).toEqual(['validation.passwordMinLength']);
      expect(k.email).toBeUndefined();
    }
  });
});

describe('other auth inputs', () => {
  it('refresh needs a refresh token', () => {
    expect(refreshSchema.safeParse({ refreshToken: 'abc' }).success).toBe(true);
    expect(keys(refreshSchema.safeParse({})).refreshToken).toEqual(['validation.refreshTokenRequired']);
    expect(keys(refreshSchema.safeParse({ refreshToken: '' })).refreshToken).toEqual(['validation.refreshTokenRequired']);
  });

  it('change password needs the current password and a new one of at least 6 characters', () => {
    expect(changePasswordSchema.safeParse({ currentPassword: 'x', newPassword: '123456' }).success).toBe(true);
    const k = keys(changePasswordSchema.safeParse({ currentPassword: '', newPassword: '12345' }));
    expect(k.currentPassword).toEqual(['validation.passwordRequired']);
    expect(k.newPassword).toEqual(['validation.passwordMinLength']);
    expect(keys(changePasswordSchema.safeParse({})).newPassword).toEqual(['validation.passwordRequired']);
  });

  it('permissions query takes an optional positive organization id from the query string', () => {
    expect(permissionsQuery.parse({})).toEqual({});
    expect(permissionsQuery.parse({ organizationId: '12' })).toEqual({ organizationId: 12 });
    for (const organizationId of ['0', '-1', '1.5', 'abc']) expect(permissionsQuery.safeParse({ organizationId }).success).toBe(false);
  });

  it('every message key the auth schemas use is translated in vi and en', () => {
    const used = new Set<string>();
    const inputs = [
      [loginSchema, { email: '', password: '' }],
      [loginSchema, { email: 'x', password: '1' }],
      [loginSchema, {}],
      [refreshSchema, {}],
      [changePasswordSchema, { currentPassword: '', newPassword: '1' }],
      [changePasswordSchema, {}],
    ] as const;
    for (const [schema, value] of inputs) for (const i of schema.safeParse(value).error?.issues ?? []) used.add(i.message);
    expect(used.size).toBeGreaterThanOrEqual(5);
    for (const key of used) {
      expect(key).toMatch(/^validation\./);
      const k = key.slice('validation.'.length);
      expect((vi as Record<string, string>)[k], `vi ${key}`).toBeTruthy();
      expect((en as Record<string, string>)[k], `en ${key}`).toBeTruthy();
    }
  });
});
