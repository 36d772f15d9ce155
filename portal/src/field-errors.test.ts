import { describe, expect, it } from 'vitest';
import { ApiError } from './api';
import { fieldErrorsOf } from './field-errors';

describe('fieldErrorsOf', () => {
  it("keeps the API's field messages for the form's own fields only", () => {
    const err = new ApiError('Mật khẩu hiện tại không đúng', 400, { currentPassword: ['Mật khẩu hiện tại không đúng'], other: ['x'] });
    expect(fieldErrorsOf(err, ['currentPassword', 'newPassword'] as const)).toEqual({ currentPassword: 'Mật khẩu hiện tại không đúng' });
  });
  it('is empty for an error naming no field, or not from the API', () => {
    expect(fieldErrorsOf(new ApiError('Lỗi', 500), ['phone'] as const)).toEqual({});
    expect(fieldErrorsOf(new Error('network'), ['phone'] as const)).toEqual({});
  });
});
