/**
 * Errors where the user looks (issue 26 item 7): the API's `errors: { field: [message] }` (a 400's
 * failing inputs, a 409's taken code, e-mail or name) go under those fields, and the corner toast
 * stays away when every one of them found its field. An error naming no field of the open form
 * still toasts, with the server's message.
 */
import { useModalForm as useRefineModalForm } from '@refinedev/antd';
import type { FormInstance } from 'antd';
import { useRef } from 'react';

type Errors = Record<string, unknown>;

const asList = (v: unknown): string[] => (Array.isArray(v) ? v : [v]).filter((m): m is string => typeof m === 'string' && m !== '');

/**
 * Puts the error's field messages under the form's fields; true when each named field is one of
 * the form's (then a toast would only repeat it). Refine's own forms set them too: doing it here
 * as well serves the forms that save through a custom mutation.
 */
function showOnFields(form: FormInstance | undefined, error: unknown): boolean {
  const errors = (error as { errors?: Errors } | null | undefined)?.errors;
  if (!form || !errors || typeof errors !== 'object') return false;
  const registered = new Map(form.getFieldsError().map((f) => [f.name.join('.'), f.name]));
  const keys = Object.keys(errors).filter((k) => asList(errors[k]).length > 0);
  const landed = keys.filter((k) => registered.has(k));
  if (landed.length) form.setFields(landed.map((k) => ({ name: registered.get(k)!, errors: asList(errors[k]) })));
  return keys.length > 0 && landed.length === keys.length;
}

type NotificationOption = false | { type: 'error' | 'success' | 'progress'; message: string; description?: string } | undefined;
type NotificationFn = (error?: unknown, values?: unknown, resource?: string) => NotificationOption;

/** errorNotification for a form: nothing when the error sat down on the fields, else `fallback` (Refine's toast when absent). */
export function fieldAwareNotification(
  form: () => FormInstance | undefined,
  fallback?: NotificationOption | NotificationFn,
): NotificationFn {
  return (error, values, resource) => {
    if (showOnFields(form(), error)) return false;
    return typeof fallback === 'function' ? fallback(error, values, resource) : fallback;
  };
}

/** @refinedev/antd's useModalForm with the field-aware error toast; every dialog form of the admin uses this one. */
export const useModalForm = ((props: Parameters<typeof useRefineModalForm>[0]) => {
  const form = useRef<FormInstance | undefined>(undefined);
  const result = useRefineModalForm({
    ...props,
    errorNotification: fieldAwareNotification(() => form.current, props.errorNotification as NotificationFn | undefined) as never,
  });
  form.current = result.form;
  return result;
}) as typeof useRefineModalForm;
