import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { isRouteErrorResponse } from 'react-router';

/** The error page of the route tree (antd Result); route-error.tsx loads it only when an error shows. */
export default function RouteErrorPage({ error, network }: { error: unknown; network: boolean }) {
  const { t } = useTranslation('common');
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
