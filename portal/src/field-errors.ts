import { ApiError } from './api';

/**
 * The API's `errors: { field: [message] }` kept to the form's own fields (issue 26 item 7): a wrong
 * current password is said under that field, not in a box above the form. Empty when it names none.
 */
export function fieldErrorsOf<F extends string>(err: unknown, fields: readonly F[]): Partial<Record<F, string>> {
  const errors = err instanceof ApiError ? err.errors : undefined;
  const out: Partial<Record<F, string>> = {};
  for (const f of fields) {
    const message = errors?.[f]?.[0];
    if (message) out[f] = message;
  }
  return out;
}
