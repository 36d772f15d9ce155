import { useTranslate } from '@refinedev/core';
import { Alert } from 'antd';

/** Google sign-in failures come back as ?error= (000 §4, §8); known codes get a friendly text. */
export function CallbackErrorAlert({ code }: { code: string | null }) {
  const t = useTranslate();
  if (!code) return null;
  const known = ['invalid_callback', 'callback_failed', 'access_denied'].includes(code);
  return (
    <Alert
      type="error"
      showIcon
      className="block-gap"
      message={t('auth:callbackErrors.title')}
      description={known ? t(`auth:callbackErrors.${code}`) : t('auth:callbackErrors.other', { code })}
    />
  );
}
