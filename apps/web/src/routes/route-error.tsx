import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { ApiError } from '../shared/api/client';

/** Error boundary of the route tree: unreachable server (retry) or an unexpected failure. */
export function RouteError() {
  const error = useRouteError();
  const { t } = useTranslation('common');
  const network = error instanceof ApiError && error.code === 'NETWORK_ERROR';
  if (!network) console.error(error);
  return (
    <Result
      status={isRouteErrorResponse(error) && error.status === 404 ? '404' : 'warning'}
      title={network ? t('error.networkTitle') : t('error.title')}
      subTitle={network ? t('error.network') : t('error.body')}
      extra={
        <Button type="primary" onClick={() => window.location.reload()}>
          {t('actions.retry')}
        </Button>
      }
    />
  );
}
