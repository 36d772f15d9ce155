import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { isRouteErrorResponse, useRouteError } from 'react-router';

/** The router's last-resort screen (000 §8: 'Unexpected Application Error!'); it renders outside Refine. */
export function RouteError() {
  const error = useRouteError();
  const { t } = useTranslation();
  const detail = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : String(error ?? '');
  return (
    <Result
      status="error"
      title={t('errors.unexpected')}
      subTitle={detail}
      extra={
        <Button type="primary" onClick={() => window.location.assign('/')}>
          {t('accessDenied.home')}
        </Button>
      }
    />
  );
}
