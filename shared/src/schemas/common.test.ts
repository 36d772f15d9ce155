/** The shared text rule and the new-password rule (security issue item 10). */
import { describe, expect, it } from 'vitest';
import { changePasswordSchema } from './auth';
import { cleanLine, cleanText } from './common';
import { createDepartmentSchema } from './departments';
import { createOrganizationSchema } from './organizations';
import { createUserSchema } from './users';

describe('text rule', () => {
  it('drops NUL, bidi controls and zero-width characters; line breaks and tabs become one space in a line', () => {
    expect(cleanLine('Nguy\u0000ễn\u202E Văn\u200B\u200D\uFEFF An\r\n\tB')).toBe('Nguyễn Văn An B');
    expect(cleanLine('\u2066CNTT\u2069\u200E')).toBe('CNTT');
    expect(cleanText('dòng 1\r\ndòng 2\u202E\u0007')).toBe('dòng 1\ndòng 2');
  });

  it('applies to names, codes and e-mails of users, organizations and departments', () => {
    const user = createUserSchema.parse({
      code: '\u200BSV001\u0000',
      familyName: 'Nguyễn\u202E',
      givenName: 'An\r\n',
      email: 'an\u200B@sv.vn',
      phone: '0901234567',
      userType: 'student',
      membershipStatus: 'none',
      isActive: true,
    });
    expect([user.code, user.familyName, user.givenName, user.email]).toEqual(['SV001', 'Nguyễn', 'An', 'an@sv.vn']);
    const org = createOrganizationSchema.parse({ name: 'Chi đoàn\u2067 A', code: 'CD\u200DA', type: 'doan_truong' });
    expect([org.name, org.code]).toEqual(['Chi đoàn A', 'CDA']);
    const dept = createDepartmentSchema.parse({ name: 'Khoa\u0000 CNTT', code: 'CN\u200BTT', description: 'a\r\nb' });
    expect([dept.name, dept.code, dept.description]).toEqual(['Khoa CNTT', 'CNTT', 'a\nb']);
  });

  it('a name made only of invisible characters is missing, not stored empty', () => {
    const r = createDepartmentSchema.safeParse({ name: '\u200B\u202E\u0000' });
    expect(r.success).toBe(false);
    expect(r.error!.issues[0]!.message).toBe('validation.nameRequired');
  });
});

describe('new password', () => {
  const change = (newPassword: string) => changePasswordSchema.safeParse({ currentPassword: 'secret123', newPassword });
  it('at most 128 characters and not only spaces', () => {
    expect(change('a'.repeat(128)).success).toBe(true);
    expect(change('a'.repeat(129)).error!.issues[0]!.message).toBe('validation.passwordTooLong');
    expect(change(' '.repeat(8)).error!.issues[0]!.message).toBe('validation.passwordBlank');
    expect(change('x'.repeat(5 * 1024 * 1024)).success).toBe(false);
  });
});
